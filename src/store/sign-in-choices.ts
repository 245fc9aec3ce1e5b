// Sign-ins waiting for the person to pick an organization (see migration 0009): written by the
// callback when there is more than one to sign in to, taken exactly once by the pick.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface PendingChoice {
  issuer: string
  subject: string
  verifiedEmail: string | undefined
  returnTo: string
}

/** Keeps a pending choice; forgets the expired ones first, so abandoned choices never pile up. */
export async function insertSignInChoice(
  db: Kysely<Database>,
  tokenHash: string,
  choice: PendingChoice,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await db.deleteFrom('sign_in_choices').where('expires_at', '<=', now).execute()
  await db
    .insertInto('sign_in_choices')
    .values({
      token_hash: tokenHash,
      idp_issuer: choice.issuer,
      idp_subject: choice.subject,
      verified_email: choice.verifiedEmail ?? null,
      return_to: choice.returnTo,
      expires_at: expiresAt,
    })
    .execute()
}

/** Deletes the pending choice and answers it, unless it is unknown, already taken or expired. */
export async function takeSignInChoice(
  db: Kysely<Database>,
  tokenHash: string,
  now: Date,
): Promise<PendingChoice | undefined> {
  const row = await db
    .deleteFrom('sign_in_choices')
    .where('token_hash', '=', tokenHash)
    .returning(['idp_issuer', 'idp_subject', 'verified_email', 'return_to', 'expires_at'])
    .executeTakeFirst()
  if (!row || row.expires_at <= now) return undefined
  return toChoice(row)
}

function toChoice(row: {
  idp_issuer: string
  idp_subject: string
  verified_email: string | null
  return_to: string
}): PendingChoice {
  return {
    issuer: row.idp_issuer,
    subject: row.idp_subject,
    verifiedEmail: row.verified_email ?? undefined,
    returnTo: row.return_to,
  }
}
