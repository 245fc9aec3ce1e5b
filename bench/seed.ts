// Seeds N households of 2–7 members, set-based: each batch is two INSERT … SELECT statements over
// generate_series, not one round trip per row. The migration's triggers keep the per-org counters,
// households.member_count and search_text right; they are statement-level for counts, so a bulk
// insert costs one counter update per org and statement.
//
// One org holds them all, or (the scale run, `orgs` ≥ 3) they are spread as a multi-tenant
// database would hold them: half in the measured org, a tenth in a reference org (the list's
// comparison at a fifth of the size), the rest over the other orgs. Households of all orgs are
// interleaved in creation order, so each org's rows are spread over the heap as appends from many
// tenants would leave them, not packed together.
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

export interface SeededOrg {
  orgId: string
  apiKey: string
  households: number
}

/** The org the cases run against (orgId, apiKey, households), and the rest of the seed. */
export interface SeedResult extends SeededOrg {
  /** With several orgs, the reference org (a fifth of the measured one's size); else undefined. */
  reference: SeededOrg | undefined
  orgs: number
  /** Households and members of all the orgs. */
  totalHouseholds: number
  members: number
  /** Households of the measured org whose search text contains "smi" (the search case's total). */
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
 * One row per household g in [from, to]: its id, names and size. The id is an md5 of the first
 * org's id (new in every run) and g shaped as a version-4 UUID, so the members statement can point at it.
 */
function spec(salt: string, from: number, to: number): RawBuilder<unknown> {
  const surnames = sql<string[]>`${[...SURNAMES]}::text[]`
  const firsts = sql<string[]>`${[...FIRST_NAMES]}::text[]`
  const ns = sql.lit(SURNAMES.length)
  const nf = sql.lit(FIRST_NAMES.length)
  return sql`(
    SELECT g,
      overlay(overlay(md5(${salt}::text || ':' || g) PLACING '4' FROM 13 FOR 1) PLACING '8' FROM 17 FOR 1)::uuid AS id,
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

/**
 * The org of household g. With one org, that org; else g mod 10 puts 5 in 10 households in the
 * first org (measured), 1 in 10 in the second (reference) and the rest in one of the others, picked
 * by a hash of g.
 */
function orgOf(orgIds: string[]): RawBuilder<string> {
  const ids = sql`${orgIds}::uuid[]`
  if (orgIds.length === 1) return sql<string>`(${ids})[1]`
  return sql<string>`(${ids})[CASE WHEN g % 10 < 5 THEN 1 WHEN g % 10 = 5 THEN 2 ELSE 3 + ${pick(30, orgIds.length - 2)} END]`
}

async function insertBatch(db: Kysely<Database>, orgIds: string[], from: number, to: number): Promise<void> {
  const salt = orgIds[0] ?? ''
  // ORDER BY g: created_at is clock_timestamp(), so creation order follows g, as appends would.
  await sql`
    INSERT INTO households (id, org_id, name, dsue_received)
    SELECT s.id, s.org_id,
      s.last || ', ' || s.first || ' & ' || s.co_first || coalesce(' ' || s.co_last, ''),
      s.dsue
    FROM (SELECT ${orgOf(orgIds)} AS org_id, t.* FROM ${spec(salt, from, to)} AS t) AS s
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
    FROM ${spec(salt, from, to)} AS s
    CROSS JOIN LATERAL generate_series(0, s.size - 1) AS p
  `.execute(db)
}

/** Org names: the measured one, the reference, then the rest. */
function orgName(index: number): string {
  return index === 0 ? 'Bench Org' : index === 1 ? 'Bench Reference Org' : `Bench Org ${index + 1}`
}

/**
 * `orgs` is 1 (every household in one org) or at least 3 (see the top of this file). `created` is
 * told each org's id as soon as it exists, so a failed seed can still be undone.
 */
export async function seed(
  store: Store,
  households: number,
  log: (line: string) => void,
  created: (orgId: string) => void = () => {
    // Callers that clean up after the seed pass a callback; others need no word of each org.
  },
  orgs = 1,
): Promise<SeedResult> {
  if (orgs === 2 || orgs < 1) throw new Error(`seed: orgs must be 1 or at least 3, got ${orgs}`)
  const started = performance.now()
  const { db } = store
  const orgIds: string[] = []
  for (let index = 0; index < orgs; index++) {
    const org = await createOrg(db, orgName(index))
    created(org.id)
    orgIds.push(org.id)
  }
  for (let from = 1; from <= households; from += BATCH) {
    const to = Math.min(households, from + BATCH - 1)
    await insertBatch(db, orgIds, from, to)
    log(
      `  seeded ${to.toLocaleString('en-US')} / ${households.toLocaleString('en-US')} households (${seconds(started)} s)`,
    )
    // PGlite runs a statement synchronously and resolves through microtasks only, so without a
    // turn of the event loop here a Ctrl-C would wait for the whole seed.
    await nextTurn()
  }
  // The members statement's counter trigger rewrote every household row once, and each household's
  // stored list item twice more (written by the insert, rewritten by the counts, then whole);
  // VACUUM removes those dead versions (as autovacuum soon would), flushes the GIN pending list and
  // sets the visibility map that index-only scans rely on, and ANALYZE gives the planner the
  // statistics a long-lived database has. Without the items' VACUUM every list page walked two
  // dead index entries and heap versions per item.
  log(`  VACUUM ANALYZE (${seconds(started)} s)`)
  await sql`VACUUM ANALYZE households`.execute(db)
  await sql`VACUUM ANALYZE members`.execute(db)
  await sql`VACUUM ANALYZE household_list_items`.execute(db)
  await sql`ANALYZE orgs`.execute(db)
  // Write the seed's dirty pages now, not in a checkpoint in the middle of a measurement.
  // Needs superuser or pg_checkpoint on PostgreSQL; without it the bench still runs.
  await sql`CHECKPOINT`
    .execute(db)
    .catch((error: unknown) => log(`  (no CHECKPOINT: ${error instanceof Error ? error.message : String(error)})`))

  const measured = orgIds[0] ?? ''
  const reference = orgs > 1 ? orgIds[1] : undefined
  const keyFor = async (orgId: string) =>
    (
      await issueApiKey(db, {
        orgId,
        name: 'bench',
        permissions: ['relationships:read', 'relationships:write'],
        expiresAt: null,
      })
    ).key

  // The triggers must have kept the derived columns: a list without members would be a
  // smaller response than production's and flatter the numbers.
  const counts = await sql<{
    households: number
    members: number
    counted: number
    unsearchable: number
    hits: number
  }>`
    SELECT (SELECT coalesce(sum(households), 0)::int FROM org_household_counts WHERE org_id = ANY(${orgIds}::uuid[])) AS households,
      (SELECT count(*)::int FROM members m JOIN households h ON h.id = m.household_id WHERE h.org_id = ANY(${orgIds}::uuid[])) AS members,
      (SELECT coalesce(sum(member_count), 0)::int FROM households WHERE org_id = ANY(${orgIds}::uuid[])) AS counted,
      (SELECT count(*)::int FROM households WHERE org_id = ANY(${orgIds}::uuid[]) AND search_text = lower(name)) AS unsearchable,
      (SELECT count(*)::int FROM households WHERE org_id = ${measured} AND search_text LIKE '%smi%') AS hits
  `.execute(db)
  const row = counts.rows[0]
  if (row?.households !== households)
    throw new Error(`seeding produced ${row?.households ?? 0} households, expected ${households}`)
  if (row.counted !== row.members)
    throw new Error(
      `households.member_count adds up to ${row.counted}, but there are ${row.members} members: the triggers did not keep it`,
    )
  if (row.unsearchable > 0)
    throw new Error(`${row.unsearchable} households have no member names in search_text: the triggers did not keep it`)
  const sizeOf = async (orgId: string) =>
    (
      await sql<{
        n: number
      }>`SELECT coalesce(sum(households), 0)::int AS n FROM org_household_counts WHERE org_id = ${orgId}`.execute(db)
    ).rows[0]?.n ?? 0
  const ids = await sql<{
    id: string
  }>`SELECT id FROM households WHERE org_id = ${measured} ORDER BY random() LIMIT 50`.execute(db)
  const version = await sql<{ server_version: string }>`SHOW server_version`.execute(db)
  return {
    orgId: measured,
    apiKey: await keyFor(measured),
    households: await sizeOf(measured),
    reference:
      reference === undefined
        ? undefined
        : { orgId: reference, apiKey: await keyFor(reference), households: await sizeOf(reference) },
    orgs,
    totalHouseholds: row.households,
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
