// Households: list (one round trip for the page and its exact total) and create.
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { Database } from './tables.ts'
import { likeLiteral, type Listing } from '../domain/listing.ts'
import { encodeCursor, type CursorAfter } from '../domain/list-cursor.ts'
import {
  householdColumnValues,
  householdInsertSql,
  householdJsonPairs,
  type HouseholdFields,
} from '../households/household-fields.ts'
import type { Household, HouseholdListItem } from '../schemas/household.ts'
import type { Principal } from '../auth/principal.ts'
import { preparedMark } from './prepared-statements.ts'

type MemberSummary = HouseholdListItem['members'][number]

type HouseholdQuery = SelectQueryBuilder<Database, 'households', object>

function filtered(db: Kysely<Database>, orgId: string, listing: Listing): HouseholdQuery {
  let query: HouseholdQuery = db.selectFrom('households').where('org_id', '=', orgId)
  if (listing.sample === 'only') query = query.where('is_sample', '=', true)
  if (listing.sample === 'exclude') query = query.where('is_sample', '=', false)
  if (listing.search !== undefined) {
    // search_text is lower-cased by the database; lower() the pattern there too so both agree.
    const pattern = `%${likeLiteral(listing.search)}%`
    query = query.where(sql<SqlBool>`search_text LIKE lower(${pattern})`)
  }
  if (listing.ids !== undefined) query = query.where('id', '=', sql<string>`ANY(${listing.ids}::uuid[])`)
  if (listing.externalId !== undefined) query = query.where('external_id', '=', listing.externalId)
  return query
}

/**
 * The total, exact. Filters other than the sample flag need a count; the unfiltered and
 * sample-only totals are read from the per-org counters kept by triggers (no COUNT per request).
 * A search's count and its page are two scans of its matches, and that is cheaper than one: the
 * page walks the sort's index and stops at its 51st match, and materializing every match to sort
 * it and count it (tried for issue 18) cost 17 ms against 2 + 12 ms for 7,800 matches.
 */
function totalQuery(db: Kysely<Database>, orgId: string, listing: Listing) {
  if (!totalNeedsCount(listing)) {
    const counter =
      listing.sample === 'only'
        ? sql<number>`coalesce(sum(samples), 0)::int`
        : listing.sample === 'exclude'
          ? sql<number>`coalesce(sum(households - samples), 0)::int`
          : sql<number>`coalesce(sum(households), 0)::int`
    return db.selectFrom('org_household_counts').select(counter.as('n')).where('org_id', '=', orgId)
  }
  return filtered(db, orgId, listing).select(sql<number>`count(*)::int`.as('n'))
}

/** Whether the total is a count of the filtered rows (not read from the per-org counters). */
function totalNeedsCount(listing: Listing): boolean {
  return listing.search !== undefined || listing.ids !== undefined || listing.externalId !== undefined
}

/**
 * The total as an expression of the list statement, whose CTE `page_rows` is how many rows it
 * fetched (at most `fetched`). On page 1 (no offset, no cursor) a page that fetched fewer rows than it could holds
 * every match, so the total is how many it holds: the ids case (50 ids) and a rare search or
 * externalId then skip counting their matches a second time. PostgreSQL runs an uncorrelated
 * subquery only when its value is needed, so the count in ELSE runs only when the page was full.
 */
function totalExpression(db: Kysely<Database>, orgId: string, listing: Listing, fetched: number) {
  const counted = sql`coalesce(${totalQuery(db, orgId, listing)}, 0)`
  if (!totalNeedsCount(listing) || listing.after !== undefined || listing.page !== 1) return counted
  return sql`CASE WHEN (SELECT n FROM page_rows) < ${sql.lit(fetched)} THEN (SELECT n FROM page_rows) ELSE ${counted} END`
}

// Each sort key matches an index (migration 0001; for name, households_org_name_covering of 0007,
// which includes name so that skipping to a deep page is an index-only scan); id breaks ties so pages never overlap.
// The column each sort reads; the sort value is computed from it.
const SORT_SOURCE = { createdAt: 'created_at', name: 'name', members: 'member_count' } as const

/** The sort value of the row aliased `table` (of households, or of rows with the same column names). */
function sortValue(sortBy: Listing['sortBy'], table?: string) {
  const column = sql.ref(table ? `${table}.${SORT_SOURCE[sortBy]}` : SORT_SOURCE[sortBy])
  return sortBy === 'name' ? sql`lower(${column}) COLLATE "C"` : column
}

/** RFC 3339 in UTC with milliseconds, exactly as Date.prototype.toISOString() writes it. */
const isoTime = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)

/** The members of the row aliased h (schema HouseholdListItem's), read only when it has some. */
const MEMBERS_OF_H = sql`CASE WHEN h.member_count = 0 THEN '[]'::json ELSE (
    SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'role', m.role) ORDER BY m.position, m.id)
    FROM members m WHERE m.household_id = h.id) END`
const ASSIGNMENTS_OF_H = sql`CASE WHEN h.assignment_count = 0 THEN '[]'::json ELSE (
    SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'role', a.role) ORDER BY a.created_at, u.id)
    FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.household_id = h.id) END`

/**
 * The key-value pairs of a list item (schema HouseholdListItem) of the row aliased h, for
 * json_build_object. `created`: h is a row this statement inserted, which has no members or
 * assignments yet; its pairs say so without the two subqueries, whose planning alone was a third
 * of a create's database CPU once the create also wrote its event (bench/RESULTS.md, issue 17).
 */
function listItemPairs(created: boolean) {
  return sql`
  'id', h.id,
  ${householdJsonPairs(true)},
  'createdAt', ${isoTime('h.created_at')},
  'updatedAt', ${isoTime('h.updated_at')},
  'isSample', h.is_sample,
  'members', ${created ? sql`'[]'::json` : MEMBERS_OF_H},
  'assignments', ${created ? sql`'[]'::json` : ASSIGNMENTS_OF_H},
  'counts', json_build_object('members', h.member_count, 'assignments', h.assignment_count, 'entities', h.entity_count)`
}

/** The key-value pairs of a list item (schema HouseholdListItem) of the row aliased h, for json_build_object. */
export const LIST_ITEM_PAIRS = listItemPairs(false)

/**
 * The sort value a cursor carries, of the row aliased `table`: createdAt in UTC with microseconds
 * (the column's precision or finer, so that the seek lands exactly), the others as sorted.
 */
function cursorKey(sortBy: Listing['sortBy'], table: string) {
  return sortBy === 'createdAt'
    ? sql`to_char(${sql.ref(`${table}.created_at`)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sortValue(sortBy, table)
}

/** Rows after the cursor's household in the list's order: a row comparison the sort index seeks to. */
function pastCursor(listing: Listing, after: CursorAfter) {
  const value =
    listing.sortBy === 'createdAt'
      ? sql`${after.key}::timestamptz`
      : listing.sortBy === 'name'
        ? sql`${after.key}::text COLLATE "C"`
        : sql`${after.key}::int`
  const comparison = sql.raw(listing.sortOrder === 'asc' ? '>' : '<')
  return sql<SqlBool>`(${sortValue(listing.sortBy)}, id) ${comparison} (${value}, ${after.id}::uuid)`
}

/**
 * How many rows a prepared page's statement fetches: at least one more than the page, to tell whether
 * a next page exists, rounded up to a power of two. The LIMIT is part of the statement's text (see
 * below), and each text is a statement prepared on every connection that runs it: rounding keeps the
 * page sizes from 1 to 1000 to 10 texts per kind of list (2 to 1,024 rows), where one text per size
 * would let a client fill every connection with a thousand prepared statements. A prepared list
 * walks an index in its order, so the few rows more cost an index entry each.
 */
function rowsFetched(pageSize: number): number {
  return 2 ** Math.ceil(Math.log2(pageSize + 1))
}

/**
 * A page of households as the finished JSON text of the list response (schema HouseholdList),
 * built by the database in one statement: Node neither parses rows nor serializes them, which
 * was more than half of a list request's CPU. The shape is checked against the published
 * schema by the OpenAPI conformance tests.
 *
 * The page's ids are found first (an index-only scan for createdAt and members), by offset for
 * `page` and by seeking past the cursor's household for `cursor`, and only their stored list items
 * are read (household_list_items, kept by triggers in each write's transaction, migration 0017) and
 * joined as they are stored. Rows past the page tell whether there is a next page; the page's last
 * row is then where its cursor continues.
 */
export async function listHouseholdsJson(db: Kysely<Database>, orgId: string, listing: Listing): Promise<string> {
  const { after, pageSize, sortBy } = listing
  const direction = sql.raw(listing.sortOrder === 'asc' ? 'ASC' : 'DESC')
  let rows = filtered(db, orgId, listing)
  // Prepared (prepared-statements.ts; on the embedded database a named statement): a list without a
  // search, a sample filter or an externalId, on page 1 or by cursor. Its text then varies only with
  // the sort, the ids filter, the cursor and the rounded LIMIT: at most 240 texts per connection. A
  // search is not prepared (its best plan depends on the term), nor a page by number past the first
  // (its OFFSET parameter makes every generic plan look dear: it is planned at every request anyway).
  const prepared =
    listing.search === undefined &&
    listing.externalId === undefined &&
    listing.sample === 'all' &&
    (after !== undefined || listing.page === 1)
  // Page 1 (and every page reached by cursor) has no OFFSET, and the LIMIT is written into the text:
  // the statement's plan then depends on no value the planner would have to guess (a LIMIT or
  // OFFSET parameter is costed as a tenth of the table), so PostgreSQL keeps one generic plan per
  // prepared statement instead of planning every request again, a third of the statement's CPU.
  if (after) rows = rows.where(pastCursor(listing, after))
  else if (listing.page > 1) rows = rows.offset((listing.page - 1) * pageSize)
  // Only the id and the sort's own column: PostgreSQL computes the select list for every row an
  // OFFSET skips, so anything costlier (lower(), to_char()) is left to the page's rows below.
  const listOrder = sql`${sortValue(sortBy)} ${direction}, id ${direction}`
  const fetched = prepared ? rowsFetched(pageSize) : pageSize + 1
  const pageAndMore = rows
    .select(['id', sql.ref(SORT_SOURCE[sortBy]).as(SORT_SOURCE[sortBy])])
    .orderBy(listOrder)
    .limit(sql.lit(fetched))
  // Each row's place in the page, numbered once (for sortBy=name the window sorts the fetched rows once,
  // as the planner cannot tell they already come in that order): the items and the cursor's row then
  // go by that number, where they used to sort the page by the sort value twice more.
  const numbered = sql`SELECT id, ${sql.ref(SORT_SOURCE[sortBy])}, row_number() OVER (ORDER BY ${listOrder}) AS place
    FROM (${pageAndMore}) found`
  const mark = prepared ? sql.raw(preparedMark('household-list')) : sql``

  // The response is joined as text: the stored items are valid JSON already, and concatenating
  // their text costs PostgreSQL less than json_agg and json_build_object copying 35 KB through
  // the json type and then to text (0.2 ms of 0.9 per page, measured with pgbench).
  const result = await sql<{ body: string; last: [string | number, string] | null }>`${mark}
    WITH page AS (${numbered}), page_rows AS (SELECT count(*) AS n FROM page)
    SELECT '{"households":[' || coalesce((
        SELECT string_agg(i.item::text, ',' ORDER BY page.place)
        FROM page JOIN household_list_items i ON i.household_id = page.id
        WHERE page.place <= ${pageSize}), '')
      || '],"total":' || ${totalExpression(db, orgId, listing, fetched)}
      || ',"page":' || ${listing.page}::bigint
      || ',"pageSize":' || ${pageSize}::int AS body,
    CASE WHEN (SELECT n FROM page_rows) > ${pageSize} THEN
      (SELECT json_build_array(${cursorKey(sortBy, 'page')}, page.id) FROM page WHERE page.place = ${pageSize})
    END AS last
  `.execute(db)
  const row = result.rows[0]
  if (!row) throw new Error('the list statement gave no row')
  const nextCursor = row.last ? encodeCursor(listing, listing.page + 1, { key: row.last[0], id: row.last[1] }) : null
  // The cursor is encoded here, where it is read back; the body is the object without its closing brace.
  return `${row.body},"nextCursor":${JSON.stringify(nextCursor)}}`
}

/** Inserts a household and returns it in the full shape. Runs inside the caller's transaction. */
export async function insertHousehold(
  db: Kysely<Database>,
  orgId: string,
  fields: HouseholdFields,
  isSample = false,
): Promise<Household> {
  const row = await db
    .insertInto('households')
    .values({ org_id: orgId, is_sample: isSample, ...householdColumnValues(fields) })
    .returning(['id', 'name', 'is_sample', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow()
  return {
    ...fields,
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    isSample: row.is_sample,
    members: [],
    assignments: [],
    counts: { members: 0, assignments: 0, entities: 0 },
  }
}

export interface NewMember {
  name: string
  role: MemberSummary['role']
  birthDate?: string | null
  deathDate?: string | null
  email?: string | null
}

export async function insertMembers(db: Kysely<Database>, householdId: string, members: NewMember[]): Promise<void> {
  if (members.length === 0) return
  await db
    .insertInto('members')
    .values(
      members.map((member, position) => ({
        household_id: householdId,
        name: member.name,
        role: member.role,
        birth_date: member.birthDate ?? null,
        death_date: member.deathDate ?? null,
        email: member.email ?? null,
        position,
      })),
    )
    .execute()
}

/**
 * Inserts a household, its audit entry (naming the `changed` fields) and its household.created
 * event in one statement (a data-modifying WITH is atomic on its own): one round trip, where a
 * transaction around three INSERTs took five.
 */
export async function insertAuditedHousehold(
  db: Kysely<Database>,
  actor: Principal,
  fields: HouseholdFields,
  changed: readonly string[],
): Promise<Household> {
  const orgId = actor.orgId
  const { columns, values } = householdInsertSql(fields)
  // The same text on every call (every field is a parameter): prepared once per connection.
  const result = await sql<{
    id: string
    name: string
    is_sample: boolean
    created_at: Date
    updated_at: Date
  }>`${sql.raw(preparedMark('household-create'))}
    WITH created AS (
      INSERT INTO households (org_id, ${columns}) VALUES (${orgId}, ${values})
      RETURNING *
    ), audited AS (
      INSERT INTO audit_log (org_id, actor_type, actor_id, action, household_id, changed)
      SELECT ${orgId}, ${actor.kind}, ${actor.id}, 'household.create', id, ${changed}::text[] FROM created
    ), evented AS (
      INSERT INTO events (org_id, type, household_id, data)
      SELECT ${orgId}, 'household.created', h.id,
        '{"household":' || json_build_object(${listItemPairs(true)}, ${householdJsonPairs(false)})::text || '}'
      FROM created h
    )
    SELECT id, name, is_sample, created_at, updated_at FROM created
  `.execute(db)
  const row = result.rows[0]
  if (!row) throw new Error('INSERT … RETURNING gave no row')
  return {
    ...fields,
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    isSample: row.is_sample,
    members: [],
    assignments: [],
    counts: { members: 0, assignments: 0, entities: 0 },
  }
}
