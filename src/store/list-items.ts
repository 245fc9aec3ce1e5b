// Stored list items (migration 0017): each household's list item is kept by triggers in the
// transaction of every write that changes it. This is the operator's check and repair for when
// that is in doubt (`hearth doctor --rebuild-list-items`): a restore from another system, a trigger
// disabled by hand.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface ListItemRebuild {
  /** Households looked at. */
  checked: number
  /** Of those, the ones whose stored item differed from the item built from their rows, or was missing; rewritten. */
  rebuilt: number
}

/** Households checked per statement: short statements, so that API requests and writes go on between them. */
const BATCH = 1000

/**
 * Checks every household's stored item against the one built from its rows now, a batch of
 * households at a time in the order of their ids, and rewrites those that differ or are missing.
 * A household to mend is updated (its version and times unchanged): the households' own trigger then
 * rebuilds its item under the household's row lock, as after any write, so a write meanwhile is
 * never overwritten with an older item. Items that are right are only read.
 */
export async function rebuildListItems(db: Kysely<Database>): Promise<ListItemRebuild> {
  let checked = 0
  let rebuilt = 0
  let after = '00000000-0000-0000-0000-000000000000'
  for (;;) {
    const result = await sql<{ checked: number; rebuilt: number; last: string | null }>`
      WITH batch AS (
        SELECT h.id, i.item::text IS DISTINCT FROM household_list_item(h)::text AS stale
        FROM households h LEFT JOIN household_list_items i ON i.household_id = h.id
        WHERE h.id > ${after}::uuid ORDER BY h.id LIMIT ${BATCH}
      ), mended AS (
        UPDATE households h SET updated_at = h.updated_at
        WHERE h.id IN (SELECT id FROM batch WHERE stale)
        RETURNING 1
      )
      SELECT (SELECT count(*)::int FROM batch) AS checked, (SELECT count(*)::int FROM mended) AS rebuilt,
        (SELECT max(id::text) FROM batch) AS last`.execute(db)
    const row = result.rows[0]
    if (!row?.last) break
    checked += row.checked
    rebuilt += row.rebuilt
    after = row.last
  }
  return { checked, rebuilt }
}
