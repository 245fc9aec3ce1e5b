// Which Hearth user an identity from the identity provider is, and in which organization. An
// identity (issuer + subject) bound at an earlier sign-in is that user; an invitation to its
// verified email address is bound to it only when the person accepts that invitation. Nothing here
// ever creates a user: that is an admin's invitation.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { UserRole } from '../domain/user-roles.ts'

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

/** An organization the identity can sign in to: as the user it already is there, or by accepting an invitation. */
export interface OrganizationChoice {
  orgId: string
  orgName: string
  userId: string
  role: UserRole
  /** An open invitation to the verified address, not yet bound to this identity. */
  invited: boolean
}

export type SignInOutcome =
  | { kind: 'signed_in'; user: SignedInUser }
  /** Several organizations, or an invitation beside a membership: the person picks one; nothing is bound yet. */
  | { kind: 'choose'; choices: OrganizationChoice[] }
  | { kind: 'not_invited' }

type Executor = Kysely<Database>

/**
 * Every organization this identity may sign in to, oldest first: where it is already a user, and
 * where its verified address is invited and it is not a user yet (one identity is one user per
 * organization, so an invitation in an organization it already belongs to is not offered).
 */
async function listOrganizationChoices(db: Executor, identity: Identity): Promise<OrganizationChoice[]> {
  const rows = await db
    .selectFrom('users')
    .innerJoin('orgs', 'orgs.id', 'users.org_id')
    .select(['users.id', 'users.org_id', 'orgs.name', 'users.role', 'users.idp_subject'])
    .where((eb) => {
      const bound = eb.and([
        eb('users.idp_issuer', '=', identity.issuer),
        eb('users.idp_subject', '=', identity.subject),
      ])
      if (identity.verifiedEmail === undefined) return bound
      const alreadyUserThere = eb.exists(
        eb
          .selectFrom('users as bound')
          .select('bound.id')
          .whereRef('bound.org_id', '=', 'users.org_id')
          .where('bound.idp_issuer', '=', identity.issuer)
          .where('bound.idp_subject', '=', identity.subject),
      )
      return eb.or([
        bound,
        eb.and([eb('users.idp_subject', 'is', null), invitedAddress(identity.verifiedEmail), eb.not(alreadyUserThere)]),
      ])
    })
    .orderBy('users.seq')
    .execute()
  return rows.map((row) => ({
    orgId: row.org_id,
    orgName: row.name,
    userId: row.id,
    role: row.role,
    invited: row.idp_subject === null,
  }))
}

/**
 * What the callback does with a verified identity. One organization and nothing else: signed in
 * to it, binding its invitation if it is one (there is nobody to choose between, and no other
 * organization whose invitation could be taken). More than one: the person chooses, and nothing is
 * bound until they do, so no organization can claim an invitee by having invited them first.
 */
export async function signInIdentity(db: Executor, identity: Identity, now: Date): Promise<SignInOutcome> {
  const choices = await listOrganizationChoices(db, identity)
  const [only, ...others] = choices
  if (!only) return { kind: 'not_invited' }
  if (others.length > 0) return { kind: 'choose', choices }
  const user = await signInToOrganization(db, identity, only.orgId, now)
  return user ? { kind: 'signed_in', user } : { kind: 'not_invited' }
}

/**
 * Signs the identity in to one organization: as the user it already is there, or by binding that
 * organization's open invitation to its verified address (and no other invitation). Stamps the
 * sign-in time. Undefined: the identity has neither there (or the invitation was withdrawn).
 */
export async function signInToOrganization(
  db: Executor,
  identity: Identity,
  orgId: string,
  now: Date,
): Promise<SignedInUser | undefined> {
  return db.transaction().execute(async (trx) => {
    let user = await trx
      .selectFrom('users')
      .select(['id', 'org_id', 'role'])
      .where('org_id', '=', orgId)
      .where('idp_issuer', '=', identity.issuer)
      .where('idp_subject', '=', identity.subject)
      .executeTakeFirst()
    if (!user && identity.verifiedEmail !== undefined) {
      user = await trx
        .updateTable('users')
        .set({ idp_issuer: identity.issuer, idp_subject: identity.subject })
        .where('org_id', '=', orgId)
        .where('idp_subject', 'is', null)
        .where(invitedAddress(identity.verifiedEmail))
        .returning(['id', 'org_id', 'role'])
        .executeTakeFirst()
    }
    if (!user) return undefined
    await trx.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute()
    return { id: user.id, orgId: user.org_id, role: user.role }
  })
}

/**
 * The organizations a signed-in user can switch to: every one where their identity is a user, and
 * every open invitation to the address the provider verified at this sign-in. A user without an
 * identity (a session not made by sign-in) has only their own organization.
 */
export async function listUserOrganizations(
  db: Executor,
  userId: string,
  verifiedEmail: string | null,
): Promise<OrganizationChoice[]> {
  const user = await db
    .selectFrom('users')
    .innerJoin('orgs', 'orgs.id', 'users.org_id')
    .select(['users.id', 'users.org_id', 'orgs.name', 'users.role', 'users.idp_issuer', 'users.idp_subject'])
    .where('users.id', '=', userId)
    .executeTakeFirst()
  if (!user) return []
  if (user.idp_issuer === null || user.idp_subject === null) {
    return [{ orgId: user.org_id, orgName: user.name, userId: user.id, role: user.role, invited: false }]
  }
  return listOrganizationChoices(db, {
    issuer: user.idp_issuer,
    subject: user.idp_subject,
    verifiedEmail: verifiedEmail ?? undefined,
  })
}

/** The identity a user is bound to; undefined for an invitation nobody has accepted. */
export async function readUserIdentity(
  db: Executor,
  userId: string,
): Promise<{ issuer: string; subject: string } | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['idp_issuer', 'idp_subject'])
    .where('id', '=', userId)
    .executeTakeFirst()
  if (!row) return undefined
  const { idp_issuer: issuer, idp_subject: subject } = row
  return issuer === null || subject === null ? undefined : { issuer, subject }
}

/** The address the users row was invited at is the verified one, in any case. */
function invitedAddress(verifiedEmail: string) {
  return sql<boolean>`lower(users.email) = lower(${verifiedEmail})`
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
  return (
    row && { id: row.id, email: row.email, name: row.name, role: row.role, org: { id: row.org_id, name: row.org_name } }
  )
}
