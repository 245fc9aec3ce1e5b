// Sign-ins under way (see migration 0006): written when the browser leaves for the identity
// provider, taken exactly once by the callback. Bounded (migration 0008): writing one deletes the
// expired ones and keeps at most PENDING_PER_ADDRESS per client address, the newest, so that
// GET /auth/sign-in cannot fill the table however often it is called.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

/** A person signs in in a tab or two; a few more covers a shared office address. */
export const PENDING_PER_ADDRESS = 20

export interface SignInAttempt {
  codeVerifier: string
  nonce: string
  returnTo: string
}

/**
 * Stores an attempt, and in the same statement deletes the expired ones and this address's oldest
 * beyond PENDING_PER_ADDRESS (counting the new one). Every part of one statement sees the table as
 * it was before it, hence the offset of PENDING_PER_ADDRESS - 1 among the existing rows.
 */
export async function insertSignInAttempt(
  db: Kysely<Database>,
  stateHash: string,
  attempt: SignInAttempt & { clientAddress: string },
  now: Date,
  expiresAt: Date,
): Promise<void> {
  await sql`
    WITH inserted AS (
      INSERT INTO sign_in_attempts (state_hash, code_verifier, nonce, return_to, expires_at, client_address)
      VALUES (${stateHash}, ${attempt.codeVerifier}, ${attempt.nonce}, ${attempt.returnTo}, ${expiresAt}, ${attempt.clientAddress})
    ), expired AS (
      DELETE FROM sign_in_attempts WHERE expires_at <= ${now}
    )
    DELETE FROM sign_in_attempts
     WHERE state_hash IN (
       SELECT state_hash FROM sign_in_attempts
        WHERE client_address = ${attempt.clientAddress}
        ORDER BY expires_at DESC, state_hash
       OFFSET ${PENDING_PER_ADDRESS - 1}
     )
  `.execute(db)
}

/** Deletes the attempt and answers it, unless it is unknown, already taken or expired. */
export async function takeSignInAttempt(
  db: Kysely<Database>,
  stateHash: string,
  now: Date,
): Promise<SignInAttempt | undefined> {
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
