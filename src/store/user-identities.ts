// Which Hearth user an identity from the identity provider is. An identity (issuer + subject)
// bound at an earlier sign-in is that user; otherwise an invitation to its verified email address
// is bound to it now. Nothing here ever creates a user: that is an admin's invitation.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { UserRole } from './users.ts'

export interface Identity {
  issuer: string
  subject: string
  /** Present only when the provider says the address is verified. */
  verifiedEmail: string | undefined
}

export interface SignedInUser {
  id: string
  orgId: string
  role: UserRole
}

/**
 * Binds any open invitations to the verified email, then answers the identity's oldest membership
 * (a person in several organizations signs in to the one they joined first), stamped with the
 * sign-in time. Undefined: nobody invited this identity.
 */
export async function signInIdentity(db: Kysely<Database>, identity: Identity, now: Date): Promise<SignedInUser | undefined> {
  return db.transaction().execute(async (trx) => {
    if (identity.verifiedEmail !== undefined) {
      await trx
        .updateTable('users')
        .set({ idp_issuer: identity.issuer, idp_subject: identity.subject })
        .where(sql<boolean>`lower(email) = lower(${identity.verifiedEmail})`)
        .where('idp_subject', 'is', null)
        // Not in an organization where this identity is already a user (its address changed to
        // one the organization also invited): one identity is one user per organization.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('users as bound')
                .select('bound.id')
                .whereRef('bound.org_id', '=', 'users.org_id')
                .where('bound.idp_issuer', '=', identity.issuer)
                .where('bound.idp_subject', '=', identity.subject),
            ),
          ),
        )
        .execute()
    }
    const user = await trx
      .selectFrom('users')
      .select(['id', 'org_id', 'role'])
      .where('idp_issuer', '=', identity.issuer)
      .where('idp_subject', '=', identity.subject)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst()
    if (!user) return undefined
    await trx.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute()
    return { id: user.id, orgId: user.org_id, role: user.role }
  })
}

export interface UserProfile {
  id: string
  email: string
  name: string
  role: UserRole
  org: { id: string; name: string }
}

/** The signed-in user as the web app shows them: name, address, role and organization. */
export async function readUserProfile(db: Kysely<Database>, userId: string): Promise<UserProfile | undefined> {
  const row = await db
    .selectFrom('users')
    .innerJoin('orgs', 'orgs.id', 'users.org_id')
    .select(['users.id', 'users.email', 'users.name', 'users.role', 'orgs.id as org_id', 'orgs.name as org_name'])
    .where('users.id', '=', userId)
    .executeTakeFirst()
  return row && { id: row.id, email: row.email, name: row.name, role: row.role, org: { id: row.org_id, name: row.org_name } }
}
