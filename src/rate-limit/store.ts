// Sliding-window budgets, counted in sub-buckets. Routes and the HTTP plugin see only this
// interface (through limiter.ts), so the in-memory store (one process) and a shared store (Redis,
// several instances) are interchangeable; both run the algorithm written out in sliding-window.ts.

/** One budget a request is checked against, e.g. an API key's own or its organization's. */
export interface Budget {
  /** Names the budget in the headers and its key: `default`, `org`, `address`, `auth-failure`. */
  policy: string
  /** Whose budget: a key id, an organization id, a client address. */
  key: string
  /** Budget per window, in milli-units (1 unit = 1000), so that fractional costs (0.1) count exactly. */
  limitMilli: number
  windowMs: number
}

/** Where one budget stands after a consume() or refund(). */
export interface BudgetState {
  /** Milli-units counted in the window, this request's charge included when it was admitted. */
  usedMilli: number
  /**
   * Epoch ms. Refused: when enough old buckets have left the window for the request's cost to
   * fit. Admitted: when the oldest counted bucket leaves the window (the remaining grows then).
   */
  resetAt: number
}

export interface ConsumeResult {
  /** True when every budget had room; then each was charged, otherwise none was. */
  allowed: boolean
  /** One per budget, in the order given. */
  states: BudgetState[]
}

/** What a consume() charged, so that part of it can be given back (a 304) where it was counted. */
export interface Charge {
  budgets: Budget[]
  costMilli: number
  /** When it was charged: it sits in the bucket containing this time. */
  at: number
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
  /** Charges `costMilli` to every budget if each has room for it, else to none (atomically). */
  consume(budgets: Budget[], costMilli: number, now: number): Promise<ConsumeResult>
  /** Gives back `milli` of a charge, in the bucket it was charged to (never below zero). */
  refund(charge: Charge, milli: number, now: number): Promise<BudgetState[]>
  close(): Promise<void>
}
