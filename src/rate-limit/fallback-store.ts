// Rate limits stay on when the shared store (Redis) fails: the service keeps answering, and each
// instance counts on its own in memory until Redis is back.
//
// Decision: during an outage each instance limits on its own, so N instances allow up to N× the
// budget for that time. The alternative, refusing every request while the counter is unreachable,
// would turn a Redis outage into an outage of the whole API. Counts made in memory are not carried
// to Redis when it returns (a refund may land in the other store: it never goes below zero).
// A dead Redis fails each request's count at once; a hung one after the command timeout (250 ms),
// and a hit that timed out may still be counted by Redis later.
//
// Each switch is logged once (warn when falling back, info when shared again), and status() tells
// readiness which of the two is counting now.
import { MemoryRateLimitStore } from './memory-store.ts'
import type { Budget, BudgetState, Charge, ConsumeResult, RateLimitStore } from './store.ts'
import { RedisRateLimitStore, type AvailabilityListener, type RedisRateLimitOptions } from './redis-store.ts'

export interface SharedRateLimitStore extends RateLimitStore {
  onAvailability(listener: AvailabilityListener): void
  /** The last connection error, if any (named in the log line of an outage). */
  readonly lastError?: string | undefined
}

/** The two log levels used, in pino's argument order (Fastify's `app.log` fits). */
export interface RateLimitLogger {
  warn(details: object, message: string): void
  info(details: object, message: string): void
}

/**
 * What serve.ts uses when REDIS_URL is set: Redis, falling back to per-instance memory. Waits for
 * the first connection attempt (about a second at most), so that a healthy Redis is in use from
 * the first request; an unreachable one does not stop the service from starting.
 */
export async function openSharedRateLimitStore(
  url: string,
  options?: RedisRateLimitOptions,
): Promise<FallbackRateLimitStore> {
  const redis = new RedisRateLimitStore(url, options)
  await redis.connected()
  return new FallbackRateLimitStore(redis)
}

export class FallbackRateLimitStore implements RateLimitStore {
  private readonly local = new MemoryRateLimitStore()
  private state: 'ok' | 'unreachable'
  private reason: string | undefined
  private logger: RateLimitLogger | undefined

  constructor(private readonly shared: SharedRateLimitStore) {
    this.state = shared.status() === 'ok' ? 'ok' : 'unreachable'
    if (this.state === 'unreachable') this.reason = shared.lastError ?? 'no connection to Redis yet'
    shared.onAvailability((available, reason) => (available ? this.recovered() : this.failed(reason)))
  }

  /** Where switches are logged from now on; an outage already under way is logged now. */
  logTo(logger: RateLimitLogger): void {
    this.logger = logger
    if (this.state === 'unreachable') this.warn()
  }

  consume(budgets: Budget[], costMilli: number, now: number): Promise<ConsumeResult> {
    return this.either((store) => store.consume(budgets, costMilli, now))
  }

  refund(charge: Charge, milli: number, now: number): Promise<BudgetState[]> {
    return this.either((store) => store.refund(charge, milli, now))
  }

  status(): 'ok' | 'unreachable' {
    return this.state
  }

  async close(): Promise<void> {
    await this.shared.close()
    await this.local.close()
  }

  /** Redis first, every time (it fails at once while disconnected); memory when it fails. */
  private async either<T>(operation: (store: RateLimitStore) => Promise<T>): Promise<T> {
    try {
      const result = await operation(this.shared)
      this.recovered()
      return result
    } catch (error) {
      this.failed((error as Error).message)
      return operation(this.local)
    }
  }

  private failed(reason: string | undefined): void {
    if (this.state === 'unreachable') return
    this.state = 'unreachable'
    this.reason = reason
    this.warn()
  }

  private recovered(): void {
    if (this.state === 'ok') return
    this.state = 'ok'
    this.logger?.info({ rateLimits: 'shared' }, 'Redis answers again: rate limits are shared across instances again')
  }

  private warn(): void {
    this.logger?.warn(
      { rateLimits: 'per-instance', reason: this.reason },
      'Redis is unreachable: each instance now limits on its own (up to N× the budget for N instances) until it is back',
    )
  }
}
