// Records successful attempts in batches. Under load most attempts succeed, and recording each
// in its own transaction took eight round trips (lock, attempt, endpoint, delivery, job, begin,
// commit, and the target's read): that, not the sending, was most of what webhooks cost the API's
// database and process (bench/RESULTS.md, issue 17). Successes that end while a batch is being
// written wait for it and go together in the next one (group commit): one attempt alone is
// written at once, and a busy worker writes many for the price of one. Each batch is one
// transaction: it locks the deliveries, records those their job still owns in one statement,
// records the others as stale attempts (worker.ts explains), and completes every job, or does none
// of it; a failed batch fails each of its attempts, which then go back to pg-boss as one alone does.
import type PgBoss from 'pg-boss'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import {
  lockDeliveriesForRecord,
  lockedFor,
  recordSucceededAttempts,
  type AttemptTarget,
  type SucceededAttempt,
} from '../store/webhook-attempts.ts'
import { ATTEMPT_QUEUE, transactionDb } from './queue.ts'
import type { AttemptResult } from './send.ts'
import type { Attempt } from './worker.ts'

export interface Success {
  attempt: Attempt
  target: AttemptTarget
  at: Date
  result: AttemptResult
}

/** How a stale job's attempt is recorded (worker.ts's recordStale), inside the batch's transaction. */
export type RecordStale = (
  trx: Kysely<Database>,
  success: Success,
  locked: ReturnType<typeof lockedFor>,
) => Promise<void>

interface Waiting {
  success: Success
  recorded: () => void
  failed: (error: unknown) => void
}

export class SuccessRecorder {
  private waiting: Waiting[] = []
  private writing = false

  constructor(
    private readonly db: Kysely<Database>,
    private readonly boss: PgBoss,
    private readonly recordStale: RecordStale,
  ) {}

  /** Resolves once the success is committed with its batch; rejects when the batch failed. */
  record(success: Success): Promise<void> {
    return new Promise<void>((recorded, failed) => {
      this.waiting.push({ success, recorded, failed })
      if (!this.writing) void this.writeBatches()
    })
  }

  private async writeBatches(): Promise<void> {
    this.writing = true
    while (this.waiting.length > 0) {
      // A delivery appears once per batch: two attempts of one delivery (a stale job's and the
      // current one's) are numbered one after the other, so the second waits for the next batch.
      const batch: Waiting[] = []
      const later: Waiting[] = []
      const inBatch = new Set<string>()
      for (const entry of this.waiting) {
        const id = entry.success.target.deliveryId
        if (inBatch.has(id)) later.push(entry)
        else {
          inBatch.add(id)
          batch.push(entry)
        }
      }
      this.waiting = later
      try {
        await this.write(batch.map((entry) => entry.success))
        for (const entry of batch) entry.recorded()
      } catch (error) {
        for (const entry of batch) entry.failed(error)
      }
    }
    this.writing = false
  }

  private async write(successes: readonly Success[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const locked = await lockDeliveriesForRecord(
        trx,
        successes.map((s) => s.target.deliveryId),
      )
      const current: SucceededAttempt[] = []
      for (const success of successes) {
        const row = locked.get(success.target.deliveryId)
        if (!row) continue
        const delivery = lockedFor(row, success.attempt.jobId)
        if (!delivery.current) {
          await this.recordStale(trx, success, delivery)
          continue
        }
        current.push({
          deliveryId: success.target.deliveryId,
          endpointId: delivery.endpointId,
          attempt: delivery.attempts + 1,
          trigger: success.attempt.manual ? 'manual' : 'schedule',
          at: success.at,
          durationMs: success.result.durationMs,
          responseStatus: success.result.responseStatus,
        })
      }
      await recordSucceededAttempts(trx, current)
      // pg-boss takes (name, ids, data, options) whatever its types say: without the data
      // argument the options would be read as data, and the completion run outside this transaction.
      const complete = this.boss.complete.bind(this.boss) as (
        name: string,
        ids: string[],
        data: object,
        options: PgBoss.ConnectionOptions,
      ) => Promise<void>
      // Leased first attempts have no job to complete.
      const queued = successes.filter((s) => s.attempt.queued).map((s) => s.attempt.jobId)
      if (queued.length > 0) await complete(ATTEMPT_QUEUE, queued, {}, { db: transactionDb(trx) })
    })
  }
}
