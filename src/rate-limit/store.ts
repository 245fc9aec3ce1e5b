// Fixed-window request counting. Routes and the HTTP plugin see only this interface, so the
// in-memory store (one process) and a shared store (several instances) are interchangeable.

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number
  /** Epoch milliseconds when the current window ends. */
  resetAt: number
}

export interface RateLimitStore {
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
