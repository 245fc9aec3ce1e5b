// Fixed-window request counting. Routes and the HTTP plugin see only this interface, so the
// in-memory store (one process) and a shared store (several instances) are interchangeable.

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number
  /** Epoch milliseconds when the current window ends. */
  resetAt: number
}

/**
 * Where rate-limit counts are kept right now, for readiness (GET /readyz) and operators:
 * - 'memory': this process only, by configuration (no REDIS_URL);
 * - 'ok': the shared store (Redis) answers: the budget holds across every instance;
 * - 'unreachable': REDIS_URL is set but Redis does not answer: each instance counts on its own
 *   until it is back (see fallback-store.ts), so N instances allow up to N× the budget.
 */
export type RateLimitStatus = 'ok' | 'unreachable' | 'memory'

export interface RateLimitHealth {
  status(): RateLimitStatus
}

export interface RateLimitStore extends RateLimitHealth {
  /** Counts one request for `key` in the window of `windowMs` that contains `now`. */
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>
  /** Takes back one request counted for `key` in the window containing `now` (never below zero). */
  refund(key: string, windowMs: number, now: number): Promise<WindowCount>
  close(): Promise<void>
}

/** Windows are aligned to multiples of their length since the epoch, so every instance agrees on them. */
export function windowOf(now: number, windowMs: number): { start: number; end: number } {
  const start = Math.floor(now / windowMs) * windowMs
  return { start, end: start + windowMs }
}
