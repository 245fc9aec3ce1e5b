// Stored list items (migration 0017): each household's list item is kept by a trigger in the
// transaction of every write that changes it. This is the operator's check and repair for when
// that is in doubt (`hearth doctor --rebuild-list-items`): a restore from another system, a trigger
// disabled by hand.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface ListItemRebuild {
  /** Households looked at. */
  checked: number
  /** Of those, the ones whose stored item differed from the item built from their rows now; rewritten. */
  rebuilt: number
}

/**
 * Writes every stored item that differs from the one built from the household's rows now, or is
 * missing, in one statement (one transaction: a write meanwhile waits for it, or it for the write, and neither is lost).
 * Items that are right are not written, so a healthy database is only read.
 */
export async function rebuildListItems(db: Kysely<Database>): Promise<ListItemRebuild> {
  const result = await sql<{ checked: number; rebuilt: number }>`
    WITH built AS (
      SELECT h.id, household_list_item(h) AS item FROM households h
    ), rebuilt AS (
      INSERT INTO household_list_items AS i (household_id, item)
      SELECT b.id, b.item FROM built b LEFT JOIN household_list_items s ON s.household_id = b.id
      WHERE s.item::text IS DISTINCT FROM b.item::text
      ON CONFLICT (household_id) DO UPDATE SET item = excluded.item
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM built) AS checked, (SELECT count(*)::int FROM rebuilt) AS rebuilt`.execute(db)
  const row = result.rows[0]
  if (!row) throw new Error('the rebuild statement gave no row')
  return { checked: row.checked, rebuilt: row.rebuilt }
}
