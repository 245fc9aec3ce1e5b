// How each attempt's job is queued. The job's lease (expireInSeconds) is the attempt's timeout and
// a margin to record it: a worker that vanishes mid-attempt (its instance killed) loses the lease,
// pg-boss's maintenance on any instance puts the job back, and another worker makes the attempt.
// pg-boss's own retries are only for that and for faults on our side (the database gone during
// the recording); a receiver's failure is not one: the worker records it and queues the next
// attempt itself, on the schedule (schedule.ts).
import type PgBoss from 'pg-boss'
import { WAITING_PER_SLOT } from './worker.ts'

/** Time to record an attempt after it ended, beyond the attempt's own timeout. */
const RECORD_MARGIN_SECONDS = 15

export class JobSettings {
  constructor(
    private readonly attemptTimeoutMs: number,
    /** Shorter in tests, so that a lost lease is noticed within seconds. */
    private readonly recordMarginSeconds = RECORD_MARGIN_SECONDS,
  ) {}

  /** How long a job's attempt owns its delivery: the attempt's timeout and the margin to record it. */
  leaseSeconds(): number {
    return Math.ceil(this.attemptTimeoutMs / 1000) + this.recordMarginSeconds
  }

  /**
   * How long a first attempt leased by its dispatcher owns its delivery (migration 0016): it may
   * wait for a slot first, behind at most WAITING_PER_SLOT attempts per slot (worker.ts), so for
   * at most that many attempts' timeouts, then make its own.
   */
  firstAttemptLeaseSeconds(): number {
    return WAITING_PER_SLOT * Math.ceil(this.attemptTimeoutMs / 1000) + this.leaseSeconds()
  }

  insertOptions(): Pick<PgBoss.JobInsert, 'expireInSeconds' | 'retryLimit' | 'retryDelay' | 'retryBackoff'> {
    return {
      expireInSeconds: this.leaseSeconds(),
      retryLimit: 20,
      retryDelay: 2,
      retryBackoff: true,
    }
  }
}
