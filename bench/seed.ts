// Seeds one organization with N households of 2–7 members, set-based: each batch is two
// INSERT … SELECT statements over generate_series, not one round trip per row. The migration's
// triggers keep orgs.household_count, households.member_count and search_text right; they are
// statement-level for counts, so a bulk insert costs one counter update per statement.
//
// Every attribute of household g is a hash of g (hashint8extended with a different seed per
// attribute), so the households statement and the members statement agree on the surname and
// size of g without a temporary table, and every run seeds the same names.
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../src/store/tables.ts'
import type { Store } from '../src/store/db.ts'
import { createOrg } from '../src/store/orgs.ts'
import { issueApiKey } from '../src/auth/issue-api-key.ts'
import { FIRST_NAMES, OTHER_ROLES, SURNAMES } from './names.ts'

/** Households per statement pair: big enough to be set-based, small enough to show progress. */
const BATCH = 20_000

export interface SeedResult {
  orgId: string
  apiKey: string
  households: number
  members: number
  /** Households whose search text contains "smi" (the search case's total). */
  searchHits: number
  /** 50 real household ids for the ids case. */
  ids: string[]
  serverVersion: string
  seconds: number
}

/** A non-negative pseudo-random integer below n, fixed for (g, seed). */
function pick(seed: number, n: RawBuilder<number> | number): RawBuilder<number> {
  return sql<number>`((hashint8extended(g, ${sql.lit(seed)}) % ${n}) + ${n}) % ${n}`
}

/**
 * One row per household g in [from, to]: its id, names and size. The id is an md5 of the org and
 * g shaped as a version-4 UUID, so the members statement can point at it.
 */
function spec(orgId: string, from: number, to: number): RawBuilder<unknown> {
  const surnames = sql<string[]>`${[...SURNAMES]}::text[]`
  const firsts = sql<string[]>`${[...FIRST_NAMES]}::text[]`
  const ns = sql.lit(SURNAMES.length)
  const nf = sql.lit(FIRST_NAMES.length)
  return sql`(
    SELECT g,
      overlay(overlay(md5(${orgId}::text || ':' || g) PLACING '4' FROM 13 FOR 1) PLACING '8' FROM 17 FOR 1)::uuid AS id,
      (${surnames})[1 + ${pick(1, ns)}] AS last,
      (${firsts})[1 + ${pick(2, nf)}] AS first,
      (${firsts})[1 + ${pick(3, nf)}] AS co_first,
      -- One couple in five has two surnames.
      CASE WHEN ${pick(4, 5)} = 0 THEN (${surnames})[1 + ${pick(5, ns)}] END AS co_last,
      2 + ${pick(6, 6)} AS size,
      -- One household in ten received a DSUE amount.
      CASE WHEN ${pick(7, 10)} = 0 THEN (1 + ${pick(8, 500)}) * 10000 END AS dsue,
      -- Carried along for the members statement, which picks the children's first names from it.
      (${firsts}) AS firsts
    FROM generate_series(${from}::bigint, ${to}::bigint) AS g
  )`
}

async function insertBatch(db: Kysely<Database>, orgId: string, from: number, to: number): Promise<void> {
  // ORDER BY g: created_at is clock_timestamp(), so creation order follows g, as appends would.
  await sql`
    INSERT INTO households (id, org_id, name, dsue_received)
    SELECT s.id, ${orgId}::uuid,
      s.last || ', ' || s.first || ' & ' || s.co_first || coalesce(' ' || s.co_last, ''),
      s.dsue
    FROM ${spec(orgId, from, to)} AS s
    ORDER BY s.g
  `.execute(db)
  const roles = sql<string[]>`${[...OTHER_ROLES]}::text[]`
  const nf = sql.lit(FIRST_NAMES.length)
  const nr = sql.lit(OTHER_ROLES.length)
  // Position 0 is the primary client, 1 the co-client; the rest share the household's surname.
  await sql`
    INSERT INTO members (household_id, name, role, position)
    SELECT s.id,
      CASE p WHEN 0 THEN s.first || ' ' || s.last
             WHEN 1 THEN s.co_first || ' ' || coalesce(s.co_last, s.last)
             ELSE s.firsts[1 + ((((hashint8extended(s.g, 10 + p) % ${nf}) + ${nf}) % ${nf}))] || ' ' || s.last END,
      CASE p WHEN 0 THEN 'primaryClient' WHEN 1 THEN 'coClient'
             ELSE (${roles})[1 + ((((hashint8extended(s.g, 20 + p) % ${nr}) + ${nr}) % ${nr}))] END,
      p
    FROM ${spec(orgId, from, to)} AS s
    CROSS JOIN LATERAL generate_series(0, s.size - 1) AS p
  `.execute(db)
}

/** `created` is told the org's id as soon as it exists, so a failed seed can still be undone. */
export async function seed(
  store: Store,
  households: number,
  log: (line: string) => void,
  created: (orgId: string) => void = () => {},
): Promise<SeedResult> {
  const started = performance.now()
  const { db } = store
  const org = await createOrg(db, 'Bench Org')
  created(org.id)
  for (let from = 1; from <= households; from += BATCH) {
    const to = Math.min(households, from + BATCH - 1)
    await insertBatch(db, org.id, from, to)
    log(`  seeded ${to.toLocaleString('en-US')} / ${households.toLocaleString('en-US')} households (${seconds(started)} s)`)
    // PGlite runs a statement synchronously and resolves through microtasks only, so without a
    // turn of the event loop here a Ctrl-C would wait for the whole seed.
    await nextTurn()
  }
  // The members statement's counter trigger rewrote every household row once; VACUUM removes
  // those dead versions (as autovacuum soon would) and flushes the GIN pending list, and ANALYZE
  // gives the planner the statistics a long-lived database has.
  await sql`VACUUM ANALYZE households`.execute(db)
  await sql`VACUUM ANALYZE members`.execute(db)
  await sql`ANALYZE orgs`.execute(db)
  // Write the seed's dirty pages now, not in a checkpoint in the middle of a measurement.
  // Needs superuser or pg_checkpoint on PostgreSQL; without it the bench still runs.
  await sql`CHECKPOINT`.execute(db).catch((error: Error) => log(`  (no CHECKPOINT: ${error.message})`))

  const { key } = await issueApiKey(db, {
    orgId: org.id,
    name: 'bench',
    permissions: ['relationships:read', 'relationships:write'],
    expiresAt: null,
  })

  // The triggers must have kept the derived columns: a list without members would be a
  // smaller response than production's and flatter the numbers.
  const counts = await sql<{ households: number; members: number; counted: number; unsearchable: number; hits: number }>`
    SELECT (SELECT coalesce(sum(households), 0)::int FROM org_household_counts WHERE org_id = ${org.id}) AS households,
      (SELECT count(*)::int FROM members m JOIN households h ON h.id = m.household_id WHERE h.org_id = ${org.id}) AS members,
      (SELECT coalesce(sum(member_count), 0)::int FROM households WHERE org_id = ${org.id}) AS counted,
      (SELECT count(*)::int FROM households WHERE org_id = ${org.id} AND search_text = lower(name)) AS unsearchable,
      (SELECT count(*)::int FROM households WHERE org_id = ${org.id} AND search_text LIKE '%smi%') AS hits
  `.execute(db)
  const row = counts.rows[0]
  if (!row || row.households !== households) throw new Error(`seeding produced ${row?.households ?? 0} households, expected ${households}`)
  if (row.counted !== row.members) throw new Error(`households.member_count adds up to ${row.counted}, but there are ${row.members} members: the triggers did not keep it`)
  if (row.unsearchable > 0) throw new Error(`${row.unsearchable} households have no member names in search_text: the triggers did not keep it`)
  const ids = await sql<{ id: string }>`SELECT id FROM households WHERE org_id = ${org.id} ORDER BY random() LIMIT 50`.execute(db)
  const version = await sql<{ server_version: string }>`SHOW server_version`.execute(db)
  return {
    orgId: org.id,
    apiKey: key,
    households: row.households,
    members: row.members,
    searchHits: row.hits,
    ids: ids.rows.map((r) => r.id),
    serverVersion: version.rows[0]?.server_version ?? 'unknown',
    seconds: Number(seconds(started)),
  }
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1)
}
