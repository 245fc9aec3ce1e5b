// One household: read it whole (the JSON the API sends, built by the database) with its version,
// and the version gate every write goes through.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { householdColumnChanges, householdJsonPairs, type HouseholdFields } from '../households/household-fields.ts'
import { LIST_ITEM_PAIRS } from './households.ts'

export interface HouseholdJson {
  /** The Household schema's JSON text. */
  body: string
  version: number
}

/** The household as JSON (schema Household) with its version, or undefined when the org has none with this id. */
export async function readHouseholdJson(
  db: Kysely<Database>,
  orgId: string,
  id: string,
): Promise<HouseholdJson | undefined> {
  const result = await sql<HouseholdJson>`
    SELECT h.version, json_build_object(${LIST_ITEM_PAIRS}, ${householdJsonPairs(false)})::text AS body
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${id}
  `.execute(db)
  return result.rows[0]
}

/** The versions a write accepts: those If-Match names, or `*` for whatever is current. */
export type ExpectedVersions = readonly number[] | '*'

export type VersionGate = { ok: true; version: number } | { ok: false; reason: 'not_found' | 'stale' }

/**
 * Moves the household from one of the `expected` versions to the next (and its updatedAt to now),
 * setting `changes` in the same UPDATE, and holds its row lock until the transaction ends; '*'
 * (If-Match: *) takes whatever is current. Two writers that read the same version queue on the row
 * lock, and the second finds the version moved: exactly one wins. Call it first in every write
 * transaction.
 */
export async function claimHouseholdVersion(
  trx: Kysely<Database>,
  orgId: string,
  id: string,
  expected: ExpectedVersions,
  changes: Partial<HouseholdFields> = {},
): Promise<VersionGate> {
  let update = trx
    .updateTable('households')
    .set({
      ...householdColumnChanges(changes),
      version: sql<number>`version + 1`,
      updated_at: sql<Date>`clock_timestamp()`,
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
  if (expected !== '*')
    update = expected.length === 0 ? update.where(sql<boolean>`false`) : update.where('version', 'in', expected)
  const claimed = await update.returning('version').executeTakeFirst()
  if (claimed) return { ok: true, version: claimed.version }
  const exists = await trx
    .selectFrom('households')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst()
  return { ok: false, reason: exists ? 'stale' : 'not_found' }
}

export async function deleteHouseholdRow(trx: Kysely<Database>, id: string): Promise<void> {
  await trx.deleteFrom('households').where('id', '=', id).execute()
}
