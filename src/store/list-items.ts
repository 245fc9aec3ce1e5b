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
 * A household to mend is first updated (its version and times unchanged), which takes its row lock,
 * and then its whole item is built from its rows as they are now (migration 0018's
 * rebuild_household_list_items), in the same transaction: a write meanwhile is never overwritten
 * with an older item. Items that are right are only read.
 */
export async function rebuildListItems(db: Kysely<Database>): Promise<ListItemRebuild> {
  let checked = 0
  let rebuilt = 0
  let after = '00000000-0000-0000-0000-000000000000'
  for (;;) {
    const row = await db.transaction().execute(async (trx) => {
      const result = await sql<{ checked: number; mended: string[]; last: string | null }>`
        WITH batch AS (
          SELECT h.id, i.item::text IS DISTINCT FROM household_list_item(h)::text AS stale
          FROM households h LEFT JOIN household_list_items i ON i.household_id = h.id
          WHERE h.id > ${after}::uuid ORDER BY h.id LIMIT ${BATCH}
        ), locked AS (
          UPDATE households h SET updated_at = h.updated_at
          WHERE h.id IN (SELECT id FROM batch WHERE stale)
          RETURNING h.id
        )
        SELECT (SELECT count(*)::int FROM batch) AS checked, ARRAY(SELECT id::text FROM locked) AS mended,
          (SELECT max(id::text) FROM batch) AS last`.execute(trx)
      const found = result.rows[0]
      // A statement of its own: it sees the rows as the locks now hold them.
      if (found && found.mended.length > 0)
        await sql`SELECT rebuild_household_list_items(${found.mended}::uuid[])`.execute(trx)
      return found
    })
    if (!row?.last) break
    checked += row.checked
    rebuilt += row.mended.length
    after = row.last
  }
  return { checked, rebuilt }
}
