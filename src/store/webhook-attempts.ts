// What a webhook worker reads before an attempt and writes after it (src/webhooks/worker.ts): the
// delivery with its endpoint, and the attempt's record with the delivery's and the endpoint's new
// state, all in one transaction with the job's completion and the next attempt's job.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface AttemptTarget {
  deliveryId: string
  jobId: string | null
  status: 'pending' | 'succeeded' | 'failed'
  eventId: string
  payload: string
  endpointId: string
  url: string
  enabled: boolean
  /** The secrets that sign now: the current one, and the previous one during its overlap. */
  secrets: string[]
}

/**
 * The deliveries `deliveryIds` with their endpoints, by delivery id, in one query: a worker reads
 * the targets of every job it fetched at once (one round trip for the batch, not one per job).
 * A delivery that is gone is absent.
 */
export async function readAttemptTargets(
  db: Kysely<Database>,
  deliveryIds: readonly string[],
  now: Date,
): Promise<Map<string, AttemptTarget>> {
  const targets = new Map<string, AttemptTarget>()
  if (deliveryIds.length === 0) return targets
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.job_id',
      'd.status',
      'd.event_id',
      'd.payload',
      'w.id as endpoint_id',
      'w.url',
      'w.enabled',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
    ])
    .where('d.id', '=', sql<string>`ANY(${[...deliveryIds]}::uuid[])`)
    .execute()
  for (const row of rows) {
    const overlapEnds = row.previous_secret === null ? null : row.previous_secret_expires_at
    const previousSigns = overlapEnds !== null && overlapEnds.getTime() > now.getTime()
    targets.set(row.id, {
      deliveryId: row.id,
      jobId: row.job_id,
      status: row.status,
      eventId: row.event_id,
      payload: row.payload,
      endpointId: row.endpoint_id,
      url: row.url,
      enabled: row.enabled,
      secrets: previousSigns && row.previous_secret !== null ? [row.secret, row.previous_secret] : [row.secret],
    })
  }
  return targets
}

/** The delivery as an attempt's recording finds it, locked. */
export interface LockedDelivery {
  attempts: number
  endpointId: string
  /**
   * Whether `jobId` is still the job meant to attempt it. When not (sent again while the attempt
   * was in flight, or recorded by another worker after this job's lease ran out), the attempt that
   * was made is recorded all the same, but it decides nothing more: the delivery belongs to its
   * current job.
   */
  current: boolean
  lastAttemptAt: Date | null
}

/**
 * Locks the delivery to record an attempt of job `jobId`; undefined when it is gone. Locked by its
 * id, whatever its job: an attempt that was sent is recorded even when its job is stale, and the
 * lock numbers concurrent attempts of one delivery (a stale one and the current one) one after the other.
 */
export async function lockDeliveryForRecord(
  trx: Kysely<Database>,
  deliveryId: string,
  jobId: string,
): Promise<LockedDelivery | undefined> {
  const row = (await lockDeliveriesForRecord(trx, [deliveryId])).get(deliveryId)
  return row && lockedFor(row, jobId)
}

/** A delivery as a batch's recording finds it, locked: whose job it is, and how far it got. */
export interface LockedDeliveryRow {
  attempts: number
  endpointId: string
  jobId: string | null
  status: 'pending' | 'succeeded' | 'failed'
  lastAttemptAt: Date | null
}

/** Whether job `jobId` is still the one meant to attempt the locked delivery (see LockedDelivery.current). */
export function lockedFor(row: LockedDeliveryRow, jobId: string): LockedDelivery {
  return {
    attempts: row.attempts,
    endpointId: row.endpointId,
    current: row.jobId === jobId && row.status === 'pending',
    lastAttemptAt: row.lastAttemptAt,
  }
}

/** Locks the deliveries `deliveryIds` (in id order, so two recorders never wait on each other in a cycle), by id. */
export async function lockDeliveriesForRecord(
  trx: Kysely<Database>,
  deliveryIds: readonly string[],
): Promise<Map<string, LockedDeliveryRow>> {
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select(['id', 'attempts', 'endpoint_id', 'job_id', 'status', 'last_attempt_at'])
    .where('id', '=', sql<string>`ANY(${[...deliveryIds]}::uuid[])`)
    .orderBy('id')
    .forUpdate()
    .execute()
  return new Map(
    rows.map((row) => [
      row.id,
      {
        attempts: row.attempts,
        endpointId: row.endpoint_id,
        jobId: row.job_id,
        status: row.status,
        lastAttemptAt: row.last_attempt_at,
      },
    ]),
  )
}

/** A successful attempt of a delivery its job still owns, with the attempt's number. */
export interface SucceededAttempt {
  deliveryId: string
  endpointId: string
  attempt: number
  trigger: 'schedule' | 'manual'
  at: Date
  durationMs: number
  responseStatus: number | null
}

/**
 * Records successful attempts of deliveries locked by this transaction, all in one statement:
 * their attempt rows, their deliveries succeeded (no next attempt), and their endpoints' failing
 * spells ended. One round trip for a batch, where recording them one by one took six each.
 */
export async function recordSucceededAttempts(
  trx: Kysely<Database>,
  attempts: readonly SucceededAttempt[],
): Promise<void> {
  if (attempts.length === 0) return
  const column = <T>(pick: (attempt: SucceededAttempt) => T) => attempts.map(pick)
  await sql`
    WITH input AS (
      SELECT * FROM unnest(
        ${column((a) => a.deliveryId)}::uuid[], ${column((a) => a.endpointId)}::uuid[],
        ${column((a) => a.attempt)}::int[], ${column((a) => a.trigger)}::text[],
        ${column((a) => a.at.toISOString())}::timestamptz[], ${column((a) => a.durationMs)}::int[],
        ${column((a) => a.responseStatus)}::int[]
      ) AS i (delivery_id, endpoint_id, attempt, trigger, at, duration_ms, response_status)
    ), attempts AS (
      INSERT INTO webhook_attempts (delivery_id, attempt, trigger, at, duration_ms, succeeded, response_status, error)
      SELECT delivery_id, attempt, trigger, at, duration_ms, true, response_status, NULL FROM input
    ), deliveries AS (
      UPDATE webhook_deliveries d SET status = 'succeeded', attempts = i.attempt, job_id = NULL, lease_until = NULL,
        next_attempt_at = NULL, last_attempt_at = i.at, last_response_status = i.response_status, last_error = NULL
      FROM input i WHERE d.id = i.delivery_id
    )
    UPDATE webhook_endpoints SET failing_since = NULL
    WHERE id IN (SELECT endpoint_id FROM input) AND failing_since IS NOT NULL
  `.execute(trx)
}

export interface AttemptRecord {
  deliveryId: string
  attempt: number
  trigger: 'schedule' | 'manual'
  at: Date
  durationMs: number
  succeeded: boolean
  responseStatus: number | null
  error: string | null
}

export async function insertAttempt(trx: Kysely<Database>, record: AttemptRecord): Promise<void> {
  await trx
    .insertInto('webhook_attempts')
    .values({
      delivery_id: record.deliveryId,
      attempt: record.attempt,
      trigger: record.trigger,
      at: record.at,
      duration_ms: record.durationMs,
      succeeded: record.succeeded,
      response_status: record.responseStatus,
      error: record.error,
    })
    .execute()
}

export interface DeliveryOutcome {
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  /** The next attempt's job and time, while pending. */
  jobId: string | null
  nextAttemptAt: Date | null
  at: Date
  responseStatus: number | null
  error: string | null
}

export async function updateDelivery(trx: Kysely<Database>, deliveryId: string, outcome: DeliveryOutcome) {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      job_id: outcome.jobId,
      // A leased first attempt's lease ends with its recording: the next attempt is a job's.
      lease_until: null,
      next_attempt_at: outcome.nextAttemptAt,
      last_attempt_at: outcome.at,
      last_response_status: outcome.responseStatus,
      last_error: outcome.error,
    })
    .where('id', '=', deliveryId)
    .execute()
}

/**
 * Counts a stale job's attempt in the delivery, leaving its status and its current job alone. The
 * last attempt's fields take it only when it started after the one they describe: a stale attempt
 * usually started first, and the newer one's answer is the one to show.
 */
export async function countStaleAttempt(
  trx: Kysely<Database>,
  deliveryId: string,
  attempts: number,
  last: { at: Date; responseStatus: number | null; error: string | null } | undefined,
): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts,
      ...(last ? { last_attempt_at: last.at, last_response_status: last.responseStatus, last_error: last.error } : {}),
    })
    .where('id', '=', deliveryId)
    .execute()
}

/** A success ends the endpoint's failing spell. */
export async function endpointSucceeded(trx: Kysely<Database>, endpointId: string): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', endpointId)
    .where('failing_since', 'is not', null)
    .execute()
}

/** A failure starts the endpoint's failing spell unless one runs; answers since when it fails and whether it is enabled. */
export async function endpointFailed(
  trx: Kysely<Database>,
  endpointId: string,
  at: Date,
): Promise<{ failingSince: Date; enabled: boolean } | undefined> {
  const row = await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql`coalesce(failing_since, ${at.toISOString()}::timestamptz)` })
    .where('id', '=', endpointId)
    .returning(['failing_since', 'enabled'])
    .executeTakeFirst()
  return row?.failing_since ? { failingSince: row.failing_since, enabled: row.enabled } : undefined
}

export async function disableEndpoint(trx: Kysely<Database>, endpointId: string, reason: string): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, disabled_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', endpointId)
    .execute()
}
