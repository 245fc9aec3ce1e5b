// Where the change feed may read up to (migration 0013): the transaction id below which every
// transaction of this database that could have written events has ended. Read in a REPEATABLE READ
// transaction whose first statement is this one's, so that the events read next see exactly the
// snapshot the horizon was worked out from.
//
// pg_snapshot_xmin alone would do, but it counts every transaction of the cluster: a long one in
// another database (a migration, a bulk load, another service) would hold the feed back for as long
// as it ran. So the transactions the snapshot saw running are checked: one that is still running
// in another database cannot have written here and is passed over. One still running here holds the
// horizon, and so does one that has committed since (it may have been ours; the check comes after
// the snapshot, so it is not in it, and must not be passed). One that rolled back wrote nothing.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

/** The horizon: every event with tx below it that committed is visible in the current snapshot. */
export async function readHorizon(trx: Kysely<Database>): Promise<number> {
  const snapshot = await sql<{ xmax: string; running: string[] }>`
    SELECT pg_snapshot_xmax(s)::text AS xmax, ARRAY(SELECT x::text FROM pg_snapshot_xip(s) AS x) AS running
    FROM pg_current_snapshot() AS s
  `.execute(trx)
  const row = snapshot.rows[0]
  if (!row) throw new Error('pg_current_snapshot() gave no row')
  if (row.running.length === 0) return Number(row.xmax)
  // backend_xid is the 32-bit xid; a snapshot's ids are 64-bit (epoch in the high half).
  const held = await sql<{ horizon: string }>`
    SELECT coalesce(min(x::text::bigint), ${row.xmax}::bigint)::text AS horizon
    FROM unnest(${row.running}::text[]::xid8[]) AS x
    WHERE pg_xact_status(x) = 'committed'
      OR (x::text::bigint & 4294967295) IN (
        SELECT backend_xid::text::bigint FROM pg_stat_activity
        WHERE datname = current_database() AND backend_xid IS NOT NULL)
  `.execute(trx)
  return Number(held.rows[0]?.horizon ?? row.xmax)
}
