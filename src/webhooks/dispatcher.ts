// Moves events into webhook deliveries. One round is one transaction: lock the dispatcher's place
// (another instance holding it means it is dispatching, and this one skips the round), make the
// deliveries of the next events, move the place past them, and queue a pg-boss job for each
// delivery that needs one. A crash before the commit leaves everything as it was; after it,
// nothing is left to redo. So any number of instances may run a dispatcher: at most one works at
// a time, and every event is passed once.
//
// First attempts. As many new deliveries as this instance's worker has room for are leased to it
// (migration 0016) and attempted by it straight after the commit, without a job: a job's
// insert, fetch and completion for every delivery were most of what webhooks cost the database.
// The rest, deliveries sent again, and leased ones whose lease ran out (their instance stopped
// before recording the attempt) get jobs, which any instance's worker fetches.
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
  type DispatchedDelivery,
} from '../store/webhook-dispatch.ts'
import { ATTEMPT_QUEUE, transactionDb, type AttemptJob } from './queue.ts'
import type { JobSettings } from './job-settings.ts'

/** Events per round: small enough for one short transaction, which the next round continues. */
const EVENTS_PER_ROUND = 200
const QUEUED_PER_ROUND = 500

/** Room in the worker for first attempts, as the dispatcher takes it for those it leases. */
export interface AttemptSlots {
  /** Takes room for up to `wanted` attempts now; answers for how many it took. */
  reserve(wanted: number): number
  /** Gives back room taken and not used. */
  release(count: number): void
}

export interface DispatchRound {
  /** false: another instance holds the dispatcher's place. */
  dispatched: boolean
  deliveries: number
  /** Deliveries whose first attempt is this instance's to make now, each in room reserved for it. */
  leased: DispatchedDelivery[]
  queued: number
  /** true when a round found as much as it takes: run the next one at once. */
  more: boolean
  /** true when it found events at all: more are likely soon (see service.ts). */
  found: boolean
}

export async function dispatchRound(
  db: Kysely<Database>,
  boss: PgBoss,
  jobs: JobSettings,
  slots: AttemptSlots,
): Promise<DispatchRound> {
  const reserved = slots.reserve(Number.MAX_SAFE_INTEGER)
  let leased: DispatchedDelivery[] = []
  try {
    const round = await db.transaction().execute(async (trx) => {
      let created: DispatchedDelivery[] = []
      let found = 0
      const position = await lockDispatchPosition(trx)
      if (position) {
        const next = await lastEventToDispatch(trx, position, EVENTS_PER_ROUND)
        if (next) {
          const { through } = next
          found = next.events
          created = await insertDeliveries(
            trx,
            { after: position, through },
            { leases: reserved, leaseSeconds: jobs.firstAttemptLeaseSeconds() },
          )
          await moveDispatchPosition(trx, through)
        }
      }
      const unqueued = await claimUnqueued(trx, QUEUED_PER_ROUND)
      const toQueue = [
        ...created
          .filter((delivery) => !delivery.leased)
          .map((delivery) => ({ id: delivery.id, jobId: delivery.jobId, manual: false, startAfter: new Date() })),
        ...unqueued,
      ]
      if (toQueue.length > 0) {
        await boss.insert(
          toQueue.map((delivery) => ({
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
        deliveries: created.length,
        leased: created.filter((delivery) => delivery.leased),
        queued: toQueue.length,
        more: found === EVENTS_PER_ROUND || unqueued.length === QUEUED_PER_ROUND,
        found: found > 0,
      }
    })
    leased = round.leased
    return round
  } finally {
    slots.release(reserved - leased.length)
  }
}

/** A job id for a delivery's next attempt, queued by the worker that recorded the last one. */
export const newJobId = (): string => randomUUID()
