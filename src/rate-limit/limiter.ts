// The rate-limit policy: a budget of `max` requests per `windowSeconds` per key, and the
// IETF httpapi draft headers that tell a client where it stands.
import type { RateLimitStore } from './store.ts'

export interface LimitDecision {
  allowed: boolean
  remaining: number
  resetAt: number
  headers: Record<string, string>
}

export class RateLimiter {
  constructor(
    private readonly store: RateLimitStore,
    readonly max: number,
    readonly windowSeconds: number,
  ) {}

  async consume(key: string, now = Date.now()): Promise<LimitDecision> {
    return this.decide(await this.store.hit(key, this.windowSeconds * 1000, now), now)
  }

  /** Gives back a request consume() counted (a 304 costs nothing); the headers say the new budget. */
  async refund(key: string, now = Date.now()): Promise<LimitDecision> {
    return this.decide(await this.store.refund(key, this.windowSeconds * 1000, now), now)
  }

  private decide({ count, resetAt }: { count: number; resetAt: number }, now: number): LimitDecision {
    const remaining = Math.max(0, this.max - count)
    const secondsLeft = Math.max(1, Math.ceil((resetAt - now) / 1000))
    const headers: Record<string, string> = {
      'RateLimit-Policy': `"default";q=${this.max};w=${this.windowSeconds}`,
      RateLimit: `"default";r=${remaining};t=${secondsLeft}`,
    }
    const allowed = count <= this.max
    if (!allowed) headers['Retry-After'] = String(secondsLeft)
    return { allowed, remaining, resetAt, headers }
  }

  close(): Promise<void> {
    return this.store.close()
  }
}
