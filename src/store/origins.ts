import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

/** Adds the origin; returns false when it was already registered. */
export async function addFrameOrigin(db: Kysely<Database>, orgId: string, origin: string): Promise<boolean> {
  const inserted = await db
    .insertInto('frame_origins')
    .values({ org_id: orgId, origin })
    .onConflict((oc) => oc.doNothing())
    .returning('origin')
    .executeTakeFirst()
  return inserted !== undefined
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

export async function listFrameOrigins(db: Kysely<Database>, orgId: string): Promise<string[]> {
  const rows = await db.selectFrom('frame_origins').select('origin').where('org_id', '=', orgId).orderBy('origin').execute()
  return rows.map((row) => row.origin)
}

export async function isFrameOriginRegistered(db: Kysely<Database>, orgId: string, origin: string): Promise<boolean> {
  const row = await db.selectFrom('frame_origins').select('origin').where('org_id', '=', orgId).where('origin', '=', origin).executeTakeFirst()
  return row !== undefined
}

/** Whether any organization registered the origin: the embed page lets exactly such an origin frame it. */
export async function isFrameOriginRegisteredAnywhere(db: Kysely<Database>, origin: string): Promise<boolean> {
  const row = await db.selectFrom('frame_origins').select('origin').where('origin', '=', origin).limit(1).executeTakeFirst()
  return row !== undefined
}
