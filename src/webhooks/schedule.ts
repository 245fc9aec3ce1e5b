// When a failed delivery is tried again, and when an endpoint that keeps failing is disabled. The
// waits grow roughly exponentially (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, as Svix's schedule),
// then stay at 12 h, so that the attempts span more than three days (about 75.6 h) and a receiver
// down for a weekend still gets everything once it is back. Each wait gets up to 10 % more at
// random, so that the deliveries that failed together during an outage do not all come back in
// the same second. Times are in "schedule seconds": the unit (HEARTH_WEBHOOK_RETRY_UNIT_MS, 1000)
// can be shortened for tests; nothing else changes.

/** Seconds to wait after failed attempt n (index n - 1) before attempt n + 1; none after the last. */
export const RETRY_WAITS_SECONDS = [
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  10 * 3600,
  12 * 3600,
  12 * 3600,
  12 * 3600,
  12 * 3600,
] as const

/** An endpoint whose attempts have all failed for this long is disabled. */
const DISABLE_AFTER_SECONDS = 3 * 86_400

const JITTER = 0.1

export interface RetrySchedule {
  /** Milliseconds one schedule second lasts (1000 but in tests). */
  unitMs: number
}

/** When to try again after failed attempt `attempt` (1-based), or undefined when it was the last. */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempt: number,
  now: Date,
  random: () => number = Math.random,
): Date | undefined {
  const wait = RETRY_WAITS_SECONDS[attempt - 1]
  if (wait === undefined) return undefined
  return new Date(now.getTime() + wait * schedule.unitMs * (1 + JITTER * random()))
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function failedTooLong(schedule: RetrySchedule, failingSince: Date, now: Date): boolean {
  return now.getTime() - failingSince.getTime() >= DISABLE_AFTER_SECONDS * schedule.unitMs
}

/** "3 days" in the words of a disabled endpoint's reason. */
export const DISABLE_AFTER_WORDS = '3 days'
