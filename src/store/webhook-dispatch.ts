// The dispatcher's statements (see src/webhooks/dispatcher.ts): its place in the events, the
// events after it, and the deliveries they make. Events are read as the change feed reads them
// (src/store/events.ts readFeed): in (tx, seq) order, only those of transactions below the horizon
// (event-horizon.ts), so none can ever commit behind the place recorded. The transaction is READ
// COMMITTED (it writes, and its first statement is the lock): a later statement's snapshot sees
// every committed event below the horizon too, and no transaction below it can write one any more.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { FeedPosition } from './events.ts'
import { readHorizon } from './event-horizon.ts'
import { eventJson } from './event-json.ts'

/**
 * The dispatcher's place, locked for this transaction; undefined when another instance holds it
 * (SKIP LOCKED: it is dispatching now, so this one need not). A row lock, not a session advisory
 * lock, so it holds through PgBouncer in transaction mode.
 */
export async function lockDispatchPosition(trx: Kysely<Database>): Promise<FeedPosition | undefined> {
  const result = await sql<FeedPosition>`
    SELECT tx, seq FROM webhook_dispatch WHERE id = 1 FOR UPDATE SKIP LOCKED
  `.execute(trx)
  const row = result.rows[0]
  return row && { tx: row.tx, seq: row.seq }
}

/** The last of the next `limit` events after `after` that are safe to pass (below the horizon), and how many there are. */
export async function lastEventToDispatch(
  trx: Kysely<Database>,
  after: FeedPosition,
  limit: number,
): Promise<{ through: FeedPosition; events: number } | undefined> {
  const horizon = await readHorizon(trx)
  const result = await sql<FeedPosition & { events: number }>`
    WITH next AS (
      SELECT tx, seq FROM events
      WHERE (tx, seq) > (${after.tx}::bigint, ${after.seq}::bigint) AND tx < ${horizon}::bigint
      ORDER BY tx, seq LIMIT ${limit}
    )
    SELECT tx, seq, (SELECT count(*)::int FROM next) AS events FROM next ORDER BY tx DESC, seq DESC LIMIT 1
  `.execute(trx)
  const row = result.rows[0]
  return row && { through: { tx: row.tx, seq: row.seq }, events: row.events }
}

/** A delivery the dispatcher made, with the job id its first attempt runs under. */
export interface DispatchedDelivery {
  id: string
  jobId: string
  /** Its first attempt is this instance's to make until the lease ends; otherwise a pg-boss job makes it. */
  leased: boolean
}

/**
 * One delivery for each event in (after, through] and each enabled endpoint of its organization
 * that wants its type and existed when it occurred, each with the job id its first attempt runs
 * under. The first `leases` of them, in event order, are leased to this instance for
 * `leaseSeconds` (migration 0016); the others are for pg-boss jobs. The payload is the event
 * exactly as the change feed sends it (the feed's own expression, event-json.ts). The place moves
 * in the same transaction, so no event is passed twice; the unique (endpoint, event) makes a
 * repeat harmless all the same, should the place ever be moved back by hand.
 */
export async function insertDeliveries(
  trx: Kysely<Database>,
  range: { after: FeedPosition; through: FeedPosition },
  lease: { leases: number; leaseSeconds: number },
): Promise<DispatchedDelivery[]> {
  const { after, through } = range
  const result = await sql<{ id: string; job_id: string; leased: boolean }>`
    INSERT INTO webhook_deliveries (org_id, endpoint_id, event_id, event_type, payload, job_id, lease_until)
    SELECT e.org_id, w.id, e.id, e.type, ${eventJson('e')}::text, gen_random_uuid(),
      CASE WHEN row_number() OVER (ORDER BY e.tx, e.seq, w.id) <= ${lease.leases}
        THEN now() + make_interval(secs => ${lease.leaseSeconds}) END
    FROM events e
    JOIN webhook_endpoints w ON w.org_id = e.org_id AND w.enabled AND w.created_at <= e.occurred_at
      AND (w.event_types IS NULL OR e.type = ANY(w.event_types))
    WHERE (e.tx, e.seq) > (${after.tx}::bigint, ${after.seq}::bigint)
      AND (e.tx, e.seq) <= (${through.tx}::bigint, ${through.seq}::bigint)
    ORDER BY e.tx, e.seq, w.id
    ON CONFLICT (endpoint_id, event_id) DO NOTHING
    RETURNING id, job_id, lease_until IS NOT NULL AS leased
  `.execute(trx)
  return result.rows.map((row) => ({ id: row.id, jobId: row.job_id, leased: row.leased }))
}

export async function moveDispatchPosition(trx: Kysely<Database>, to: FeedPosition): Promise<void> {
  await trx.updateTable('webhook_dispatch').set({ tx: to.tx, seq: to.seq }).where('id', '=', 1).execute()
}

export interface UnqueuedDelivery {
  id: string
  jobId: string
  startAfter: Date
  /** Sent again by an admin (it has attempts already), not a first attempt. */
  manual: boolean
}

/**
 * Gives up to `limit` pending deliveries that need a job (those sent again, and leased first
 * attempts whose lease ran out: their instance stopped before recording them) the id of the job
 * about to be queued for each, in this transaction. SKIP LOCKED: a delivery another transaction is
 * queuing or recording is left to it.
 */
export async function claimUnqueued(trx: Kysely<Database>, limit: number): Promise<UnqueuedDelivery[]> {
  const result = await sql<{ id: string; job_id: string; next_attempt_at: Date | null; attempts: number }>`
    UPDATE webhook_deliveries d SET job_id = gen_random_uuid(), lease_until = NULL
    WHERE d.id IN (
      SELECT id FROM webhook_deliveries
      WHERE status = 'pending' AND (job_id IS NULL OR lease_until IS NOT NULL)
        AND (job_id IS NULL OR lease_until < now())
      ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING d.id, d.job_id, d.next_attempt_at, d.attempts
  `.execute(trx)
  return result.rows.map((row) => ({
    id: row.id,
    jobId: row.job_id,
    startAfter: row.next_attempt_at ?? new Date(),
    manual: row.attempts > 0,
  }))
}
