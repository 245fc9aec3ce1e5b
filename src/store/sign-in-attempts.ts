// Sign-ins under way (see migration 0006): written when the browser leaves for the identity
// provider, taken exactly once by the callback.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface SignInAttempt {
  codeVerifier: string
  nonce: string
  returnTo: string
}

export async function insertSignInAttempt(db: Kysely<Database>, stateHash: string, attempt: SignInAttempt, expiresAt: Date): Promise<void> {
  await db
    .insertInto('sign_in_attempts')
    .values({ state_hash: stateHash, code_verifier: attempt.codeVerifier, nonce: attempt.nonce, return_to: attempt.returnTo, expires_at: expiresAt })
    .execute()
}

/** Deletes the attempt and answers it, unless it is unknown, already taken or expired. */
export async function takeSignInAttempt(db: Kysely<Database>, stateHash: string, now: Date): Promise<SignInAttempt | undefined> {
  const row = await db
    .deleteFrom('sign_in_attempts')
    .where('state_hash', '=', stateHash)
    .returning(['code_verifier', 'nonce', 'return_to', 'expires_at'])
    .executeTakeFirst()
  if (!row || row.expires_at <= now) return undefined
  return { codeVerifier: row.code_verifier, nonce: row.nonce, returnTo: row.return_to }
}

/** Forgets attempts nobody came back from. */
export async function expireSignInAttempts(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('sign_in_attempts').where('expires_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
