// Moves events into webhook deliveries and queues the deliveries' attempts. One round is one
// transaction: lock the dispatcher's place (another instance holding it means it is dispatching,
// and this one skips the round), make the deliveries of the next events, move the place past
// them, and queue a job for each delivery without one (new ones, and those an admin sent again).
// A crash before the commit leaves everything as it was; after it, nothing is left to redo. So
// any number of instances may run a dispatcher: at most one works at a time, and every event is
// passed once.
import { randomUUID } from 'node:crypto'
import type PgBoss from 'pg-boss'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import {
  claimUnqueued,
  insertDeliveries,
  lastEventToDispatch,
  lockDispatchPosition,
  moveDispatchPosition,
} from '../store/webhook-dispatch.ts'
import { ATTEMPT_QUEUE, transactionDb, type AttemptJob } from './queue.ts'
import type { JobSettings } from './job-settings.ts'

/** Events per round: small enough for one short transaction, which the next round continues. */
const EVENTS_PER_ROUND = 200
const QUEUED_PER_ROUND = 500

export interface DispatchRound {
  /** false: another instance holds the dispatcher's place. */
  dispatched: boolean
  deliveries: number
  queued: number
  /** true when a round found as much as it takes: run the next one at once. */
  more: boolean
}

export async function dispatchRound(db: Kysely<Database>, boss: PgBoss, jobs: JobSettings): Promise<DispatchRound> {
  return db.transaction().execute(async (trx) => {
    let deliveries = 0
    let moreEvents = false
    const position = await lockDispatchPosition(trx)
    if (position) {
      const through = await lastEventToDispatch(trx, position, EVENTS_PER_ROUND)
      if (through) {
        deliveries = await insertDeliveries(trx, position, through)
        await moveDispatchPosition(trx, through)
        moreEvents = true
      }
    }
    const unqueued = await claimUnqueued(trx, QUEUED_PER_ROUND)
    if (unqueued.length > 0) {
      await boss.insert(
        unqueued.map((delivery) => ({
          ...jobs.insertOptions(),
          id: delivery.jobId,
          name: ATTEMPT_QUEUE,
          data: { deliveryId: delivery.id, manual: delivery.manual } satisfies AttemptJob,
          startAfter: delivery.startAfter.toISOString(),
        })),
        { db: transactionDb(trx) },
      )
    }
    return {
      dispatched: position !== undefined,
      deliveries,
      queued: unqueued.length,
      more: moreEvents || unqueued.length === QUEUED_PER_ROUND,
    }
  })
}

/** A job id for a delivery's next attempt, queued by the worker that recorded the last one. */
export const newJobId = (): string => randomUUID()
