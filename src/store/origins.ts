import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface FrameOriginRecord {
  origin: string
  createdAt: Date
}

/** Registers the origin, or finds it registered already (added false, with its first registration time). */
export async function registerFrameOrigin(
  db: Kysely<Database>,
  orgId: string,
  origin: string,
): Promise<FrameOriginRecord & { added: boolean }> {
  // DO UPDATE (of nothing that changes) rather than DO NOTHING, so that the row comes back in one
  // statement even when it was there — also when a concurrent add committed it a moment ago,
  // which DO NOTHING plus a SELECT would miss. xmax is 0 only on a row version this statement
  // inserted; the update path leaves our transaction id there.
  return db
    .insertInto('frame_origins')
    .values({ org_id: orgId, origin })
    .onConflict((oc) => oc.columns(['org_id', 'origin']).doUpdateSet({ origin: (eb) => eb.ref('excluded.origin') }))
    .returning(['origin', 'created_at as createdAt', sql<boolean>`xmax = 0`.as('added')])
    .executeTakeFirstOrThrow()
}

/** Adds the origin; returns false when it was already registered. */
export async function addFrameOrigin(db: Kysely<Database>, orgId: string, origin: string): Promise<boolean> {
  return (await registerFrameOrigin(db, orgId, origin)).added
}

/** Removes the origin; returns false when it was not registered. */
export async function removeFrameOrigin(db: Kysely<Database>, orgId: string, origin: string): Promise<boolean> {
  const result = await db
    .deleteFrom('frame_origins')
    .where('org_id', '=', orgId)
    .where('origin', '=', origin)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** The organization's frame origins, in alphabetical order. */
export async function listFrameOriginRecords(db: Kysely<Database>, orgId: string): Promise<FrameOriginRecord[]> {
  return db
    .selectFrom('frame_origins')
    .select(['origin', 'created_at as createdAt'])
    .where('org_id', '=', orgId)
    .orderBy('origin')
    .execute()
}

export async function listFrameOrigins(db: Kysely<Database>, orgId: string): Promise<string[]> {
  return (await listFrameOriginRecords(db, orgId)).map((row) => row.origin)
}

export async function isFrameOriginRegistered(db: Kysely<Database>, orgId: string, origin: string): Promise<boolean> {
  const row = await db
    .selectFrom('frame_origins')
    .select('origin')
    .where('org_id', '=', orgId)
    .where('origin', '=', origin)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether any organization registered the origin: the embed page lets exactly such an origin frame it. */
export async function isFrameOriginRegisteredAnywhere(db: Kysely<Database>, origin: string): Promise<boolean> {
  const row = await db
    .selectFrom('frame_origins')
    .select('origin')
    .where('origin', '=', origin)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}
