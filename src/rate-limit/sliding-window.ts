// The limiting algorithm: a sliding window counted in sub-buckets, conservative.
//
// A budget is `limit` units per window of W ms. Time is cut into buckets of g = floor(W / 60) ms
// (at least 1), aligned to the epoch so that every instance agrees on them. A request of cost c is
// admitted for a budget iff
//
//     (sum of the buckets whose start is >= floor((now - W) / g) * g) + c <= limit
//
// i.e. the whole last window plus the partly elapsed bucket before it. Counting that little extra
// is what makes the guarantee hold:
//
//   INVARIANT: the charges admitted at times within any W ms (a_1 <= … <= a_n, a_n - a_1 < W),
//   net of refunds, never add up to more than `limit`.
//   Proof: when a_n was admitted every a_i > a_n - W, so floor(a_i / g) * g >= floor((a_n - W) / g) * g:
//   each a_i's bucket was in the sum that, with a_n's cost, was <= limit. (Refunds only lower a
//   bucket, and only the bucket the charge went to.) test/unit/rate-limit.test.ts checks it with
//   random arrivals and costs.
//
// Why not the usual alternatives: a fixed window (what Hearth had) lets 2× the budget through
// across a boundary (the end of one window and the start of the next); a token bucket or GCRA with
// a burst of the whole budget lets about 2× through in the first window after an idle spell (a full
// bucket, then the refill). This one admits at most the budget in any window, at the price of up to
// one bucket (1/60 of the window) of extra wait at the edge.
//
// Costs are integers of milli-units (a 304 costs 100 = 0.1 unit). A cost above a budget's whole
// limit is counted as the limit, or such a request could never pass. The Redis store runs the same
// rules in Lua (redis-store.ts); the memory store calls the functions below.
import type { BudgetState } from './store.ts'

/** The bucket length of a window: 1/60 of it, in whole ms. */
export function bucketMsOf(windowMs: number): number {
  return Math.max(1, Math.floor(windowMs / 60))
}

/** The index (start / g) of the oldest bucket still counted at `now`. */
export function oldestCountedBucket(now: number, windowMs: number): number {
  return Math.floor((now - windowMs) / bucketMsOf(windowMs))
}

/** When the bucket of index `index` stops being counted: once now - W reaches its end. */
function bucketLeavesAt(index: number, windowMs: number): number {
  const g = bucketMsOf(windowMs)
  return (index + 1) * g + windowMs
}

/** A request's cost as charged to one budget: never more than the whole budget. */
export function chargeFor(costMilli: number, limitMilli: number): number {
  return Math.min(costMilli, limitMilli)
}

/**
 * Where a budget stands, from its counted buckets ([index, milli], oldest first). `admitted` says
 * whether the buckets include this request's charge; if not, resetAt is when `costMilli` fits.
 */
export function stateOf(
  buckets: readonly (readonly [number, number])[],
  limitMilli: number,
  windowMs: number,
  costMilli: number,
  now: number,
  admitted: boolean,
): BudgetState {
  let usedMilli = 0
  for (const [, milli] of buckets) usedMilli += milli
  const charge = chargeFor(costMilli, limitMilli)
  if (admitted || usedMilli + charge <= limitMilli) {
    const oldest = buckets.find(([, milli]) => milli > 0)
    return { usedMilli, resetAt: oldest ? bucketLeavesAt(oldest[0], windowMs) : now }
  }
  // Refused: the exact time at which enough of the oldest buckets have left.
  let left = usedMilli
  for (const [index, milli] of buckets) {
    left -= milli
    if (left + charge <= limitMilli) return { usedMilli, resetAt: bucketLeavesAt(index, windowMs) }
  }
  return { usedMilli, resetAt: now }
}
