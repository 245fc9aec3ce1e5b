// Households: list (one round trip for the page and its exact total) and create.
import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { Database } from './tables.ts'
import { likeLiteral, type Listing } from '../domain/listing.ts'
import type { HouseholdFields } from '../domain/household-input.ts'
import type { Household, HouseholdListItem } from '../schemas/relationship.ts'
import { claimIdempotencyKey, completeIdempotencyKey } from './idempotency.ts'

type MemberSummary = HouseholdListItem['members'][number]
type AssignmentSummary = HouseholdListItem['assignments'][number]

interface ListRow {
  total: number
  id: string | null
  name: string
  is_sample: boolean
  created_at: Date
  updated_at: Date
  member_count: number
  assignment_count: number
  members: MemberSummary[]
  assignments: AssignmentSummary[]
}

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
  return query
}

/**
 * The total, exact. Filters other than the sample flag need a count; the unfiltered and
 * sample-only totals are read from the per-org counters kept by triggers (no COUNT per request).
 */
function totalExpression(db: Kysely<Database>, orgId: string, listing: Listing) {
  if (listing.search === undefined && listing.ids === undefined) {
    const counter =
      listing.sample === 'only'
        ? sql<number>`sample_household_count`
        : listing.sample === 'exclude'
          ? sql<number>`household_count - sample_household_count`
          : sql<number>`household_count`
    return db.selectFrom('orgs').select(counter.as('n')).where('id', '=', orgId)
  }
  return filtered(db, orgId, listing).select(sql<number>`count(*)::int`.as('n'))
}

// Each sort key matches an index of migration 0001; id breaks ties so pages never overlap.
const SORT_COLUMN = {
  createdAt: sql`created_at`,
  name: sql`lower(name) COLLATE "C"`,
  members: sql`member_count`,
} as const
// The same keys on the joined page (alias p), to keep the page's order in the outer query.
const PAGE_SORT_COLUMN = {
  createdAt: sql`p.created_at`,
  name: sql`lower(p.name) COLLATE "C"`,
  members: sql`p.member_count`,
} as const

export async function listHouseholds(
  db: Kysely<Database>,
  orgId: string,
  listing: Listing,
): Promise<{ households: HouseholdListItem[]; total: number }> {
  const direction = sql.raw(listing.sortOrder === 'asc' ? 'ASC' : 'DESC')
  const sortColumn = SORT_COLUMN[listing.sortBy]
  const page = filtered(db, orgId, listing)
    .select(['id', 'name', 'is_sample', 'created_at', 'updated_at', 'member_count', 'assignment_count'])
    .orderBy(sql`${sortColumn} ${direction}, id ${direction}`)
    .limit(listing.pageSize)
    .offset((listing.page - 1) * listing.pageSize)

  // One statement: the total joined with the page (empty past the end), and the page's members
  // and assignments as JSON arrays, fetched only for the rows of the page.
  const result = await sql<ListRow>`
    SELECT t.n AS total, p.*,
      CASE WHEN p.member_count = 0 THEN '[]'::json ELSE (
        SELECT json_agg(json_build_object('id', m.id, 'name', m.name, 'role', m.role) ORDER BY m.position, m.id)
        FROM members m WHERE m.household_id = p.id) END AS members,
      CASE WHEN p.assignment_count = 0 THEN '[]'::json ELSE (
        SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'role', a.role) ORDER BY a.created_at, u.id)
        FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.household_id = p.id) END AS assignments
    FROM ${totalExpression(db, orgId, listing)} AS t(n)
    LEFT JOIN LATERAL ${page} AS p ON true
    ORDER BY ${PAGE_SORT_COLUMN[listing.sortBy]} ${direction}, p.id ${direction}
  `.execute(db)

  const rows = result.rows
  const total = rows[0]?.total ?? 0
  const households = rows.filter((row): row is ListRow & { id: string } => row.id !== null).map(toListItem)
  return { households, total }
}

function toListItem(row: ListRow & { id: string }): HouseholdListItem {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    isSample: row.is_sample,
    members: row.members,
    assignments: row.assignments,
    counts: { members: row.member_count, assignments: row.assignment_count },
  }
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
    .values({
      org_id: orgId,
      name: fields.name,
      is_sample: isSample,
      dsue_received: fields.dsueReceived,
      deceased_spouse_name: fields.deceasedSpouseName,
      dsue_date_of_death: fields.dsueDateOfDeath,
      metadata: fields.metadata === null ? null : JSON.stringify(fields.metadata),
      primary_client_as_donor: fields.primaryClientAsDonor,
      co_client_as_donor: fields.coClientAsDonor,
    })
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
    counts: { members: 0, assignments: 0 },
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

export type CreateOutcome =
  | { kind: 'created' | 'replay'; body: { household: Household }; location: string }
  | { kind: 'conflict' }

export interface CreateRequest {
  orgId: string
  fields: HouseholdFields
  idempotency?: { key: string; requestHash: string } | undefined
  locationOf: (id: string) => string
}

/** Creates a household; with an idempotency key, in one transaction with the key's record. */
export async function createHousehold(db: Kysely<Database>, request: CreateRequest): Promise<CreateOutcome> {
  const { orgId, fields, idempotency, locationOf } = request
  if (!idempotency) {
    const household = await insertHousehold(db, orgId, fields)
    return { kind: 'created', body: { household }, location: locationOf(household.id) }
  }
  return db.transaction().execute(async (trx) => {
    const claim = await claimIdempotencyKey(trx, orgId, idempotency.key, idempotency.requestHash)
    if (claim.state === 'conflict') return { kind: 'conflict' }
    if (claim.state === 'replay') {
      return { kind: 'replay', body: claim.response as { household: Household }, location: claim.location ?? '' }
    }
    const household = await insertHousehold(trx, orgId, fields)
    const body = { household }
    const location = locationOf(household.id)
    await completeIdempotencyKey(trx, orgId, idempotency.key, 201, body, location)
    return { kind: 'created', body, location }
  })
}
