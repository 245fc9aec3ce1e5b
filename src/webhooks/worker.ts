// Makes the attempts: fetches attempt jobs from pg-boss (FOR UPDATE SKIP LOCKED: each job goes to
// one worker of one instance), and takes the first attempts its dispatcher leased to this instance
// (dispatcher.ts), up to `concurrency` at once, each on its own, so that a slow receiver holds one
// slot for at most the attempt's timeout and never the others. Successes are recorded in batches
// (success-recorder.ts). After an
// attempt, one transaction records it, updates the delivery and the endpoint (its failing spell,
// and disabling it after three days of failures), queues the next attempt when there is one, and
// completes the job: all of it or none. A job whose delivery has moved on (sent again, or recorded
// by another worker after this one's lease ran out) sends nothing when it starts; when it moves on
// during the attempt, the attempt was sent, so it is recorded, but it schedules nothing: the
// delivery's current job decides what comes next.
import type PgBoss from 'pg-boss'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import {
  disableEndpoint,
  endpointFailed,
  endpointSucceeded,
  countStaleAttempt,
  insertAttempt,
  lockDeliveryForRecord,
  readAttemptTargets,
  updateDelivery,
  type AttemptRecord,
  type AttemptTarget,
  type LockedDelivery,
} from '../store/webhook-attempts.ts'
import { ATTEMPT_QUEUE, transactionDb, type AttemptJob } from './queue.ts'
import { DISABLE_AFTER_WORDS, failedTooLong, nextAttemptAt, type RetrySchedule } from './schedule.ts'
import { signMessage } from './secrets.ts'
import { sendAttempt, type AttemptResult, type SendSettings } from './send.ts'
import type { JobSettings } from './job-settings.ts'
import { newJobId, type AttemptSlots } from './dispatcher.ts'
import { SuccessRecorder } from './success-recorder.ts'
import { ConnectionPools } from './connections.ts'

/** One attempt to make: a pg-boss job's, or a first attempt leased to this instance without a job. */
export interface Attempt {
  /** The job id the delivery names while this attempt owns it (a leased attempt's has no job row). */
  jobId: string
  deliveryId: string
  /** Sent again by an admin (recorded as a manual attempt). */
  manual: boolean
  /** A pg-boss job, to complete or hand back; false for a leased first attempt, whose lease does that. */
  queued: boolean
}

const fromJob = (job: PgBoss.Job<AttemptJob>): Attempt => ({
  jobId: job.id,
  deliveryId: job.data.deliveryId,
  manual: job.data.manual,
  queued: true,
})

export interface WorkerSettings {
  concurrency: number
  /** How often an idle worker looks for jobs. */
  pollIntervalMs: number
  schedule: RetrySchedule
  send: SendSettings
  jobs: JobSettings
}

type Logger = (error: unknown, message: string) => void

/**
 * Leased first attempts that may wait per attempt slot. A dispatcher round brings many at once
 * (service.ts gathers events between rounds); those that find no room go to pg-boss jobs, which
 * cost the database three more writes each.
 */
export const WAITING_PER_SLOT = 4

/** An attempt waiting for a slot, with the read of its delivery (made with its batch's). */
interface Waiting {
  attempt: Attempt
  targets: Promise<Map<string, AttemptTarget>>
}

export class AttemptWorker implements AttemptSlots {
  private readonly inFlight = new Set<Promise<void>>()
  /**
   * Leased first attempts waiting for a slot, oldest first; they go before any job. At most
   * WAITING_PER_SLOT × `concurrency` wait, so each starts within that many attempts' timeouts of
   * its lease (JobSettings.firstAttemptLeaseSeconds).
   */
  private readonly waiting: Waiting[] = []
  /** Places in `waiting` the dispatcher has taken for the first attempts it is leasing (dispatcher.ts). */
  private reserved = 0
  private readonly stop = new AbortController()
  private wake: (() => void) | undefined
  private loop: Promise<void> | undefined
  /** Set by halt(): results are dropped, as if the process had died. */
  private halted = false
  private readonly successes: SuccessRecorder
  private readonly connections = new ConnectionPools()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly boss: PgBoss,
    private readonly settings: WorkerSettings,
    private readonly log: Logger,
  ) {
    this.successes = new SuccessRecorder(db, boss, (trx, success, locked) =>
      recordStale(trx, success.attempt, success.target, locked, success.at, success.result),
    )
  }

  reserve(wanted: number): number {
    const room = WAITING_PER_SLOT * this.settings.concurrency - this.waiting.length - this.reserved
    const taken = this.stop.signal.aborted ? 0 : Math.max(0, Math.min(wanted, room))
    this.reserved += taken
    return taken
  }

  release(count: number): void {
    this.reserved -= count
  }

  /**
   * Makes the first attempts the dispatcher leased to this instance, in the places it reserved.
   * Stopped or not, their places are given back; an attempt not made is made by a job once its lease runs out.
   */
  attemptLeased(deliveries: readonly { id: string; jobId: string }[]): void {
    this.release(deliveries.length)
    if (deliveries.length === 0 || this.stop.signal.aborted) return
    const attempts = deliveries.map((d) => ({ jobId: d.jobId, deliveryId: d.id, manual: false, queued: false }))
    const targets = this.readTargets(attempts)
    for (const attempt of attempts) this.waiting.push({ attempt, targets })
    this.startWaiting()
  }

  /** Reads the attempts' deliveries together (one query for a batch, not one per attempt). */
  private readTargets(attempts: readonly Attempt[]): Promise<Map<string, AttemptTarget>> {
    const targets = readAttemptTargets(
      this.db,
      attempts.map((attempt) => attempt.deliveryId),
      new Date(),
    )
    // Each attempt awaits the read inside its own error handling; this keeps an early failure from being unhandled.
    targets.catch(() => undefined)
    return targets
  }

  /** Starts waiting first attempts in the free slots. */
  private startWaiting(): void {
    while (this.inFlight.size < this.settings.concurrency && !this.stop.signal.aborted) {
      const next = this.waiting.shift()
      if (!next) return
      this.track(this.attempt(next.attempt, next.targets))
    }
  }

  start(): void {
    this.loop ??= this.run()
  }

  /** Looks for jobs now (a dispatcher round queued some). */
  notify(): void {
    this.wake?.()
  }

  private async run(): Promise<void> {
    while (!this.stop.signal.aborted) {
      // Jobs take only the slots no leased first attempt is waiting for.
      const free = this.settings.concurrency - this.inFlight.size - this.waiting.length
      let fetched = 0
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch<AttemptJob>(ATTEMPT_QUEUE, { batchSize: free })
          fetched = jobs.length
          if (jobs.length > 0) {
            const attempts = jobs.map(fromJob)
            const targets = this.readTargets(attempts)
            for (const attempt of attempts) this.track(this.attempt(attempt, targets))
          }
        } catch (error) {
          this.log(error, 'webhooks: could not fetch attempt jobs')
        }
      }
      // A full batch may mean more are waiting; otherwise wait for a free slot, a notice or the interval.
      if (fetched > 0 && fetched === free) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.settings.pollIntervalMs)
        this.wake = () => {
          clearTimeout(timer)
          resolve()
        }
        this.stop.signal.addEventListener('abort', this.wake, { once: true })
      })
      if (this.wake) this.stop.signal.removeEventListener('abort', this.wake)
      this.wake = undefined
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work)
    void work.finally(() => {
      this.inFlight.delete(work)
      this.startWaiting()
      this.wake?.()
    })
  }

  /**
   * Stops fetching and ends the attempts in flight: their requests are aborted and their jobs
   * failed back to pg-boss, which hands them to a worker again within seconds (here after a
   * restart, or on another instance). The receiver may have had the message: webhook-id lets it
   * drop the repeat.
   */
  async close(): Promise<void> {
    this.stop.abort()
    // First attempts not started are left to their leases: a job makes each once its lease runs out.
    this.waiting.length = 0
    await this.loop
    await Promise.all(this.inFlight)
    this.connections.close()
  }

  /** Stops at once as a killed process would: nothing more is recorded, jobs keep their leases until they run out. */
  async halt(): Promise<void> {
    this.halted = true
    await this.close()
  }

  private async attempt(attempt: Attempt, targets: Promise<Map<string, AttemptTarget>>): Promise<void> {
    try {
      const now = new Date()
      const target = (await targets).get(attempt.deliveryId)
      if (target?.jobId !== attempt.jobId || target.status !== 'pending') {
        if (attempt.queued) await this.boss.complete(ATTEMPT_QUEUE, attempt.jobId)
        return
      }
      if (!target.enabled) {
        await this.record(attempt, target, now, {
          succeeded: false,
          responseStatus: null,
          error: 'not sent: the endpoint is disabled',
          durationMs: 0,
        })
        return
      }
      const headers = signMessage(target.secrets, target.eventId, now, target.payload)
      const result = await sendAttempt(
        target.url,
        headers,
        target.payload,
        this.settings.send,
        this.connections,
        this.stop.signal,
      )
      if (this.halted) return
      if (this.stop.signal.aborted && !result.succeeded) {
        // A leased attempt is left to its lease: the next dispatcher round after it queues a job.
        if (attempt.queued)
          await this.boss.fail(ATTEMPT_QUEUE, attempt.jobId, { reason: 'the instance stopped during the attempt' })
        return
      }
      if (result.succeeded) await this.successes.record({ attempt, target, at: now, result })
      else await this.record(attempt, target, now, result)
    } catch (error) {
      if (this.halted) return
      this.log(error, 'webhooks: an attempt could not be made or recorded; it will be made again')
      if (!attempt.queued) return
      await this.boss.fail(ATTEMPT_QUEUE, attempt.jobId).catch((failure: unknown) => {
        this.log(failure, 'webhooks: could not hand an attempt back; its lease will run out')
      })
    }
  }

  private async record(job: Attempt, target: AttemptTarget, at: Date, result: AttemptResult): Promise<void> {
    const { schedule, jobs } = this.settings
    await this.db.transaction().execute(async (trx) => {
      const queue = transactionDb(trx)
      const locked = await lockDeliveryForRecord(trx, target.deliveryId, job.jobId)
      if (locked && !locked.current) await recordStale(trx, job, target, locked, at, result)
      else if (locked) {
        const attempt = locked.attempts + 1
        const disabledBefore = !target.enabled
        if (!disabledBefore) {
          await insertAttempt(trx, attemptRecord(job, target.deliveryId, attempt, at, result))
        }
        const last = { at, responseStatus: result.responseStatus, error: result.error }
        const attempts = disabledBefore ? locked.attempts : attempt
        if (result.succeeded) {
          await endpointSucceeded(trx, locked.endpointId)
          await updateDelivery(trx, target.deliveryId, {
            ...last,
            status: 'succeeded',
            attempts,
            jobId: null,
            nextAttemptAt: null,
          })
        } else {
          let disabled = disabledBefore
          if (!disabled) {
            const spell = await endpointFailed(trx, locked.endpointId, at)
            if (spell?.enabled && failedTooLong(schedule, spell.failingSince, at)) {
              await disableEndpoint(trx, locked.endpointId, disabledReason(spell.failingSince, at, result))
              disabled = true
            }
          }
          const next = disabled ? undefined : nextAttemptAt(schedule, attempt, at)
          if (next) {
            const jobId = newJobId()
            await this.boss.insert(
              [
                {
                  ...jobs.insertOptions(),
                  id: jobId,
                  name: ATTEMPT_QUEUE,
                  data: { deliveryId: target.deliveryId, manual: false } satisfies AttemptJob,
                  startAfter: next.toISOString(),
                },
              ],
              { db: queue },
            )
            await updateDelivery(trx, target.deliveryId, {
              ...last,
              status: 'pending',
              attempts,
              jobId,
              nextAttemptAt: next,
            })
          } else {
            const why =
              disabled && !disabledBefore ? `${result.error ?? 'failed'}; the endpoint is now disabled` : result.error
            await updateDelivery(trx, target.deliveryId, {
              ...last,
              error: why,
              status: 'failed',
              attempts,
              jobId: null,
              nextAttemptAt: null,
            })
          }
        }
      }
      if (job.queued) await this.boss.complete(ATTEMPT_QUEUE, job.jobId, {}, { db: queue })
    })
  }
}

/**
 * A stale job's attempt (its delivery sent again meanwhile, or recorded by another worker after
 * this job's lease ran out): it was sent, so it is in the log and counted, but the delivery's status
 * and next attempt are its current job's to decide.
 */
async function recordStale(
  trx: Kysely<Database>,
  job: Attempt,
  target: AttemptTarget,
  locked: LockedDelivery,
  at: Date,
  result: AttemptResult,
): Promise<void> {
  // Nothing was sent when the endpoint was disabled: nothing to record.
  if (!target.enabled) return
  const attempt = locked.attempts + 1
  await insertAttempt(trx, attemptRecord(job, target.deliveryId, attempt, at, result))
  const newer = locked.lastAttemptAt === null || locked.lastAttemptAt.getTime() <= at.getTime()
  await countStaleAttempt(
    trx,
    target.deliveryId,
    attempt,
    newer ? { at, responseStatus: result.responseStatus, error: result.error } : undefined,
  )
  // The receiver's answer is news of its health all the same, unless a newer attempt has already
  // told; disabling is left to the current job.
  if (newer && result.succeeded) await endpointSucceeded(trx, locked.endpointId)
  else if (newer) await endpointFailed(trx, locked.endpointId, at)
}

function attemptRecord(
  job: Attempt,
  deliveryId: string,
  attempt: number,
  at: Date,
  result: AttemptResult,
): AttemptRecord {
  return {
    deliveryId,
    attempt,
    trigger: job.manual ? 'manual' : 'schedule',
    at,
    durationMs: result.durationMs,
    succeeded: result.succeeded,
    responseStatus: result.responseStatus,
    error: result.error,
  }
}

/**
 * Says how to catch up as it is: the dispatcher makes deliveries only for enabled endpoints
 * (webhook-dispatch.ts), so what happened while disabled is in the change feed, not the log.
 */
function disabledReason(failingSince: Date, at: Date, result: AttemptResult): string {
  return (
    `Disabled at ${at.toISOString()}: every attempt since ${failingSince.toISOString()} failed (more than ${DISABLE_AFTER_WORDS}); ` +
    `the last one: ${result.error ?? 'failed'}. Fix the receiver, then enable the endpoint again (PATCH enabled: true): ` +
    'deliveries start again with new events. Its failed deliveries can be sent again from the log; events that ' +
    'occurred while it was disabled make no deliveries: read them from the change feed (GET /api/v1/events, ' +
    'events:read) from the cursor of the last event you processed.'
  )
}
