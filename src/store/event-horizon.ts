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
  // First who is writing in this database now, then (a later statement, so a later moment) how
  // each transaction the snapshot saw running has ended: one that ended between the two is found
  // by the second. backend_xid is the 32-bit xid; a snapshot's ids are 64-bit (epoch in the high half).
  const writingHere = await sql<{ xid: string }>`
    SELECT backend_xid::text AS xid FROM pg_stat_activity
    WHERE datname = current_database() AND backend_xid IS NOT NULL
  `.execute(trx)
  const here = new Set(writingHere.rows.map((writer) => writer.xid))
  const statuses = await sql<{ xid: string; status: string | null }>`
    SELECT x::text AS xid, pg_xact_status(x) AS status FROM unnest(${row.running}::text[]::xid8[]) AS x
  `.execute(trx)
  let horizon = Number(row.xmax)
  for (const { xid, status } of statuses.rows) {
    const full = BigInt(xid)
    const holds = status === 'committed' || here.has(String(full & 0xffffffffn))
    if (holds && Number(full) < horizon) horizon = Number(full)
  }
  return horizon
}
