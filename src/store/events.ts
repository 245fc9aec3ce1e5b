// The events table (migration 0013): appending a write's events in the write's own transaction,
// reading an organization's feed in order, and forgetting events past their retention.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { EventType } from '../events/event-types.ts'
import { householdJsonPairs } from '../households/household-fields.ts'
import { LIST_ITEM_PAIRS } from './households.ts'
import { readHorizon } from './event-horizon.ts'
import type { HouseholdJson } from './household-record.ts'
import { eventJson } from './event-json.ts'
import { preparedMark } from './prepared-statements.ts'

/** One event of a write: its type and the resources it names beside the household. */
export interface EventOfWrite {
  type: EventType
  /** JSON texts by key, e.g. {member: '{"id":…}'} or {memberId: '"…"'}. */
  resources?: Record<string, string>
}

export interface WriteEvents {
  orgId: string
  householdId: string
  /** The household as GET answers it after the write, when the write already read it (saves a query). */
  householdJson?: string
  events: readonly EventOfWrite[]
}

/** The Household JSON of the household `householdId`, built by the database (null when it is gone). */
function householdJsonOf(householdId: string) {
  return sql<string>`(SELECT json_build_object(${LIST_ITEM_PAIRS}, ${householdJsonPairs(false)})::text
    FROM households h WHERE h.id = ${householdId})`
}

function resourcesText(resources: Record<string, string> | undefined): string {
  return Object.entries(resources ?? {})
    .map(([key, json]) => `,${JSON.stringify(key)}:${json}`)
    .join('')
}

/** The VALUES rows of a write's events, their data opening with `h.body` (the household's JSON). */
function eventRows(events: readonly EventOfWrite[]) {
  return sql.join(
    events.map((event, index) => {
      const rest = resourcesText(event.resources)
      // household.deleted carries only its resources; the others open with the household.
      const data =
        event.type === 'household.deleted'
          ? sql`${`{${rest.slice(1)}}`}::text`
          : sql`'{"household":' || coalesce(h.body, 'null') || ${rest}::text || '}'`
      return sql`(${index}::int, ${event.type}::text, ${data})`
    }),
  )
}

/**
 * Appends the events of one write to one household, in the write's transaction: they commit or
 * roll back with it. The data is `{"household": …, …resources}`, the household read by the
 * database in this same transaction unless the caller passes the text it already read;
 * household.deleted carries only its resources.
 */
export async function appendEvents(db: Kysely<Database>, write: WriteEvents): Promise<void> {
  if (write.events.length === 0) return
  // The household's JSON is built once for all the write's events (a member removed with its kin
  // and links makes several), in the same statement; their seq follows their order here.
  const household =
    write.householdJson === undefined ? householdJsonOf(write.householdId) : sql`${write.householdJson}::text`
  await sql`
    WITH h AS (SELECT ${household} AS body)
    INSERT INTO events (org_id, type, household_id, data)
    SELECT ${write.orgId}::uuid, e.type, ${write.householdId}::uuid, e.data
    FROM h CROSS JOIN LATERAL (VALUES ${eventRows(write.events)}) AS e (n, type, data)
    ORDER BY e.n
  `.execute(db)
}

/**
 * The household as GET answers it after a write, with its version, and the write's events
 * appended, in one statement: the answer of a PATCH is its event's household, for one round trip
 * instead of two. Undefined (and nothing appended) when the organization has no such household.
 */
export async function readHouseholdAppendingEvents(
  trx: Kysely<Database>,
  orgId: string,
  householdId: string,
  events: readonly EventOfWrite[],
): Promise<HouseholdJson | undefined> {
  // One text per list of event types (a PATCH's is always the same): prepared once per connection.
  const result = await sql<HouseholdJson>`${sql.raw(preparedMark('household-read-appending-events'))}
    WITH h AS (
      SELECT h.version, json_build_object(${LIST_ITEM_PAIRS}, ${householdJsonPairs(false)})::text AS body
      FROM households h WHERE h.org_id = ${orgId} AND h.id = ${householdId}
    ), appended AS (
      INSERT INTO events (org_id, type, household_id, data)
      SELECT ${orgId}::uuid, e.type, ${householdId}::uuid, e.data
      FROM h CROSS JOIN LATERAL (VALUES ${eventRows(events)}) AS e (n, type, data)
      ORDER BY e.n
    )
    SELECT version, body FROM h
  `.execute(trx)
  return result.rows[0]
}

/** A position in the feed: the writing transaction and the row's number in it. */
export interface FeedPosition {
  tx: number
  seq: number
}

export interface FeedRow extends FeedPosition {
  /** The event as the feed sends it: {id, type, occurredAt, householdId, data} as JSON text. */
  json: string
}

export interface FeedPage {
  rows: FeedRow[]
  /**
   * Every transaction below this id has ended: no event can ever appear before
   * (horizon, 0) that is not already readable (see migration 0013).
   */
  horizon: number
}

export interface FeedQuery {
  orgId: string
  after: FeedPosition | undefined
  types: readonly EventType[] | undefined
  limit: number
}

/**
 * The organization's events after `after` in (tx, seq) order, only those of transactions below the
 * horizon (event-horizon.ts), at most `limit`: every committed event below it is in the result, or
 * after its last row when the page is full.
 */
export async function readFeed(db: Kysely<Database>, query: FeedQuery): Promise<FeedPage> {
  const after = query.after ?? { tx: -1, seq: -1 }
  const types = query.types
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const horizon = await readHorizon(trx)
      const result = await sql<{ tx: number; seq: number; json: string }>`
        SELECT tx, seq, ${eventJson()}::text AS json
        FROM events
        WHERE org_id = ${query.orgId} AND (tx, seq) > (${after.tx}::bigint, ${after.seq}::bigint)
          AND tx < ${horizon}::bigint ${types ? sql`AND type = ANY(${[...types]}::text[])` : sql``}
        ORDER BY tx, seq LIMIT ${query.limit}
      `.execute(trx)
      const rows = result.rows
      return { rows, horizon }
    })
}

/**
 * Deletes events that occurred before `before`, and moves the purged position to the largest one
 * deleted (in the same statement), so that a cursor behind it is refused; answers how many.
 */
export async function deleteEventsBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await sql<{ deleted: string }>`
    WITH gone AS (DELETE FROM events WHERE occurred_at < ${before} RETURNING tx, seq),
    last AS (SELECT tx, seq FROM gone ORDER BY tx DESC, seq DESC LIMIT 1),
    moved AS (
      UPDATE events_purged p SET tx = last.tx, seq = last.seq FROM last
      WHERE (last.tx, last.seq) > (p.tx, p.seq)
    )
    SELECT count(*)::text AS deleted FROM gone
  `.execute(db)
  return Number(result.rows[0]?.deleted ?? 0)
}

/** The largest position the purge has deleted: the feed refuses cursors at or behind it. */
export async function readPurgedPosition(db: Kysely<Database>): Promise<FeedPosition> {
  const row = await db.selectFrom('events_purged').select(['tx', 'seq']).executeTakeFirstOrThrow()
  return { tx: row.tx, seq: row.seq }
}
