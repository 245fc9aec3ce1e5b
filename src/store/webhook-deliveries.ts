// The delivery log (webhook_deliveries and webhook_attempts, migration 0014) as an organization's
// admins read it, and what they may ask of it: a test message, and sending a delivery again. Both
// only write rows; the dispatcher queues them (src/webhooks/dispatcher.ts), so neither the API nor
// the CLI needs the job queue.
import { sql, type Kysely, type Selectable } from 'kysely'
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable } from './tables.ts'

export type DeliveryRow = Omit<Selectable<WebhookDeliveriesTable>, 'payload' | 'job_id' | 'lease_until' | 'org_id'>
export type AttemptRow = Selectable<WebhookAttemptsTable>

const COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_at',
  'last_attempt_at',
  'last_response_status',
  'last_error',
  'created_at',
] as const

/** Where a page of the log starts: after this delivery, in newest-first order. */
export interface DeliveryPosition {
  createdAt: Date
  id: string
}

export interface DeliveryQuery {
  orgId: string | undefined
  endpointId: string
  status: 'pending' | 'succeeded' | 'failed' | undefined
  before: DeliveryPosition | undefined
  limit: number
}

export function listDeliveries(db: Kysely<Database>, query: DeliveryQuery): Promise<DeliveryRow[]> {
  let select = db
    .selectFrom('webhook_deliveries')
    .select(COLUMNS)
    .where('endpoint_id', '=', query.endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
  if (query.orgId !== undefined) select = select.where('org_id', '=', query.orgId)
  if (query.status) select = select.where('status', '=', query.status)
  const before = query.before
  if (before)
    select = select.where(
      sql<boolean>`(created_at, id) < (${before.createdAt.toISOString()}::timestamptz, ${before.id}::uuid)`,
    )
  return select.execute()
}

export async function findDelivery(
  db: Kysely<Database>,
  orgId: string | undefined,
  endpointId: string,
  id: string,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] } | undefined> {
  let select = db
    .selectFrom('webhook_deliveries')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('endpoint_id', '=', endpointId)
  if (orgId !== undefined) select = select.where('org_id', '=', orgId)
  const delivery = await select.executeTakeFirst()
  if (!delivery) return undefined
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', id)
    .orderBy('attempt')
    .execute()
  return { delivery, attempts }
}

/**
 * Sends a delivery again, now, whatever its state: it is pending once more, not queued (the
 * dispatcher queues it within a second), and a job already waiting for it becomes stale. Its next
 * attempt is numbered on from the last one and recorded as manual.
 */
export async function resendDelivery(
  db: Kysely<Database>,
  orgId: string | undefined,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  let update = db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', job_id: null, lease_until: null, next_attempt_at: sql`now()` })
    .where('id', '=', id)
    .where('endpoint_id', '=', endpointId)
  if (orgId !== undefined) update = update.where('org_id', '=', orgId)
  return update.returning(COLUMNS).executeTakeFirst()
}

export interface TestDelivery {
  orgId: string
  endpointId: string
  eventId: string
  eventType: string
  payload: string
}

export function insertTestDelivery(db: Kysely<Database>, input: TestDelivery): Promise<DeliveryRow> {
  return db
    .insertInto('webhook_deliveries')
    .values({
      org_id: input.orgId,
      endpoint_id: input.endpointId,
      event_id: input.eventId,
      event_type: input.eventType,
      payload: input.payload,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

/** Forgets deliveries (and their attempts) created before `before`; answers how many. */
export async function deleteDeliveriesBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', before)
    .where('status', '!=', 'pending')
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
