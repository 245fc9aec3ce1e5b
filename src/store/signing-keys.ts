import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface StoredSigningKey {
  kid: string
  algorithm: string
  publicJwk: Record<string, unknown>
  privateJwk: Record<string, unknown>
}

const columns = ['kid', 'algorithm', 'public_jwk as publicJwk', 'private_jwk as privateJwk'] as const

/** Adds a key unless one with the same kid exists. */
export async function insertSigningKey(db: Kysely<Database>, key: StoredSigningKey): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({
      kid: key.kid,
      algorithm: key.algorithm,
      public_jwk: JSON.stringify(key.publicJwk),
      private_jwk: JSON.stringify(key.privateJwk),
    })
    .onConflict((oc) => oc.doNothing())
    .execute()
}

/** The key new tokens are signed with: the oldest, so that instances starting together agree. */
export async function activeSigningKey(db: Kysely<Database>): Promise<StoredSigningKey | undefined> {
  return db.selectFrom('signing_keys').select(columns).orderBy('created_at').orderBy('kid').executeTakeFirst()
}

/** Every key's public half, for the JWKS. */
export async function publicSigningKeys(
  db: Kysely<Database>,
): Promise<{ kid: string; publicJwk: Record<string, unknown> }[]> {
  return db.selectFrom('signing_keys').select(['kid', 'public_jwk as publicJwk']).orderBy('created_at').execute()
}
