// The rate-limit policy: every request is checked against one or more budgets at once (an API
// key's own and its organization's; a client address's), charged its cost in all of them or in
// none, and told where it stands in the IETF httpapi headers (draft-ietf-httpapi-ratelimit-headers-10):
//   RateLimit-Policy: "default";q=600;w=60, "org";q=1800;w=60
//   RateLimit: "default";r=595;t=58, "org";r=1790;t=58
// A request that costs other than 1 unit says so with the vendor parameter `hearth-cost` on each
// policy item (the draft asks for a vendor prefix on service-specific parameters).
import type { BudgetState, Charge, RateLimitStore } from './store.ts'

/** One budget a request is checked against. */
export interface BudgetRule {
  /** `default` (a key or a user), `org`, `address` (routes without credentials), `auth-failure`, `health` (health and metrics, per instance). */
  policy: string
  /** Whose budget it is: a key id, a user id, an organization id, a client address. */
  key: string
  /** Units per window. */
  limit: number
  windowSeconds: number
  /** Says whose budget ran out, for the 429's message (e.g. "This API key used up its request budget"). */
  refusal: string
}

export interface LimitDecision {
  allowed: boolean
  /** Refused: when the request will fit (epoch ms). Admitted: when the first budget grows again. */
  resetAt: number
  /** Refused: the budget that ran out (the one that frees up last, if several did). */
  refusedBy: BudgetRule | undefined
  headers: Record<string, string>
  /** What was charged, for refund(). */
  charge: Charge & { rules: BudgetRule[] }
}

const MILLI = 1000

export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /** Checks `cost` units against every rule's budget and charges all of them, or none. */
  async consume(rules: BudgetRule[], cost = 1, now = Date.now()): Promise<LimitDecision> {
    const budgets = rules.map((rule) => ({
      policy: rule.policy,
      key: rule.key,
      limitMilli: rule.limit * MILLI,
      windowMs: rule.windowSeconds * 1000,
    }))
    const costMilli = Math.round(cost * MILLI)
    const { allowed, states } = await this.store.consume(budgets, costMilli, now)
    let refusedBy: BudgetRule | undefined
    let resetAt = Number.POSITIVE_INFINITY
    if (allowed) {
      for (const state of states) resetAt = Math.min(resetAt, state.resetAt)
    } else {
      resetAt = 0
      rules.forEach((rule, i) => {
        const state = states[i]
        if (
          state &&
          state.usedMilli + Math.min(costMilli, rule.limit * MILLI) > rule.limit * MILLI &&
          state.resetAt > resetAt
        ) {
          resetAt = state.resetAt
          refusedBy = rule
        }
      })
    }
    const headers = headersOf(rules, states, cost, now)
    if (!allowed) headers['Retry-After'] = String(secondsUntil(resetAt, now))
    return { allowed, resetAt, refusedBy, headers, charge: { budgets, costMilli, at: now, rules } }
  }

  /** Gives back all of an admitted request's charge but `keep` units (a 304 keeps 0.1); answers the new headers. */
  async refund(decision: LimitDecision, keep: number, now = Date.now()): Promise<Record<string, string>> {
    const { charge } = decision
    const states = await this.store.refund(charge, charge.costMilli - Math.round(keep * MILLI), now)
    return headersOf(charge.rules, states, keep, now)
  }

  close(): Promise<void> {
    return this.store.close()
  }
}

function headersOf(rules: BudgetRule[], states: BudgetState[], cost: number, now: number): Record<string, string> {
  const costParameter = cost === 1 ? '' : `;hearth-cost=${cost}`
  return {
    'RateLimit-Policy': rules
      .map((rule) => `"${rule.policy}";q=${rule.limit};w=${rule.windowSeconds}${costParameter}`)
      .join(', '),
    RateLimit: rules
      .map((rule, i) => {
        const state = states[i] ?? { usedMilli: 0, resetAt: now }
        const remaining = Math.max(0, Math.floor((rule.limit * MILLI - state.usedMilli) / MILLI))
        return `"${rule.policy}";r=${remaining};t=${secondsUntil(state.resetAt, now)}`
      })
      .join(', '),
  }
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000))
}
