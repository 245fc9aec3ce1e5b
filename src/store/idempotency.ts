// Idempotency-Key records for creates. The claim is an INSERT in the create's own transaction:
// a concurrent request with the same key waits on the unique index until the first commits,
// then finds its response; if the first rolls back, the second proceeds as a fresh create.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

const IDEMPOTENCY_TTL_HOURS = 24

export type Claim =
  { state: 'claimed' } | { state: 'replay'; response: unknown; location: string | null } | { state: 'conflict' }

export async function claimIdempotencyKey(
  trx: Kysely<Database>,
  orgId: string,
  key: string,
  requestHash: string,
): Promise<Claim> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({ org_id: orgId, key, request_hash: requestHash, response: null })
    .onConflict((oc) => oc.columns(['org_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst()
  if (inserted) return { state: 'claimed' }
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response', 'location'])
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .executeTakeFirstOrThrow()
  if (existing.request_hash !== requestHash) return { state: 'conflict' }
  return { state: 'replay', response: existing.response, location: existing.location }
}

export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  orgId: string,
  key: string,
  response: unknown,
  location: string,
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response: JSON.stringify(response), location })
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .execute()
}

/** Forgets keys older than the replay window; run periodically. */
export async function expireIdempotencyKeys(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
