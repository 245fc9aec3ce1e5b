import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { RateLimiter, type BudgetRule } from '../../src/rate-limit/limiter.ts'
import type { Budget, Charge, RateLimitStore } from '../../src/rate-limit/store.ts'
import { RedisRateLimitStore, type AvailabilityListener } from '../../src/rate-limit/redis-store.ts'
import { FallbackRateLimitStore, type SharedRateLimitStore } from '../../src/rate-limit/fallback-store.ts'
import { REDIS_URL } from '../helpers/environment.ts'
import { deleteKeys, redisAvailable, testPrefix } from '../helpers/redis.ts'

const MINUTE = 60_000
const T0 = 1_800_000_000_000 // a multiple of the minute and of its 1 s buckets

function rule(policy: string, key: string, limit: number, windowSeconds = 60): BudgetRule {
  return { policy, key, limit, windowSeconds, refusal: `${policy} is spent` }
}

function budget(key: string, limit: number, windowMs = MINUTE): Budget {
  return { policy: 'default', key, limitMilli: limit * 1000, windowMs }
}

/**
 * The guarantee of sliding-window.ts, with random arrival times and costs (and some 304-style
 * refunds): the net charges admitted within any window never exceed the budget. A fixed window
 * fails this at its boundary; a full token bucket after an idle spell fails it too.
 */
async function neverMoreThanTheBudget(store: RateLimitStore, keyPrefix: string, runs: number): Promise<void> {
  let run = 0
  // Gaps are mostly short (a budget is often spent) with some long ones (windows slide by).
  const gap = fc.oneof(
    fc.integer({ min: 0, max: 1500 }),
    fc.integer({ min: 0, max: 1500 }),
    fc.integer({ min: 0, max: 30_000 }),
  )
  const arrival = fc.record({ gap, cost: fc.constantFrom(100, 1000, 1000, 1000, 5000, 20_000), refund: fc.boolean() })
  await fc.assert(
    fc.asyncProperty(
      fc.array(arrival, { minLength: 1, maxLength: 120 }),
      fc.integer({ min: 0, max: MINUTE }),
      async (arrivals, offset) => {
        const limit = 8
        const key = budget(`${keyPrefix}${run++}`, limit)
        let now = T0 + offset
        const admitted: { at: number; milli: number }[] = []
        for (const { gap, cost, refund } of arrivals) {
          now += gap
          const result = await store.consume([key], cost, now)
          if (!result.allowed) continue
          let milli = Math.min(cost, key.limitMilli)
          if (refund && milli > 100) {
            await store.refund({ budgets: [key], costMilli: cost, at: now }, milli - 100, now)
            milli = 100
          }
          admitted.push({ at: now, milli })
        }
        for (const last of admitted) {
          const inWindow = admitted.filter(({ at }) => at > last.at - MINUTE && at <= last.at)
          expect(inWindow.reduce((sum, { milli }) => sum + milli, 0)).toBeLessThanOrEqual(key.limitMilli)
        }
      },
    ),
    { numRuns: runs },
  )
}

describe('sliding-window rate limiting (memory)', () => {
  const store = new MemoryRateLimitStore()
  afterEach(() => store.sweep(Number.MAX_SAFE_INTEGER))
  afterAll(() => store.close())

  it('allows the budget, then refuses until enough of the oldest buckets leave the window', async () => {
    const limiter = new RateLimiter(store)
    const decisions = []
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume([rule('default', 'k', 3)], 1, T0 + 1000 * i))
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
    expect(decisions.map((d) => d.headers.RateLimit)).toEqual([
      '"default";r=2;t=61', // the bucket of T0 leaves the window at T0 + 61 s
      '"default";r=1;t=60',
      '"default";r=0;t=59',
      '"default";r=0;t=58',
    ])
    const refused = decisions[3]
    expect(refused?.resetAt).toBe(T0 + 61_000)
    expect(refused?.refusedBy?.policy).toBe('default')
    expect(refused?.headers['RateLimit-Policy']).toBe('"default";q=3;w=60')
    expect(refused?.headers['Retry-After']).toBe('58')
    // One bucket (1 s) before that time it is still refused; at it, one unit fits again.
    expect((await limiter.consume([rule('default', 'k', 3)], 1, T0 + 60_999)).allowed).toBe(false)
    expect((await limiter.consume([rule('default', 'k', 3)], 1, T0 + 61_000)).allowed).toBe(true)
  })

  it('lets no more than the budget through across a window boundary (a fixed window let 2x through)', async () => {
    const limiter = new RateLimiter(store)
    const spend = async (at: number) => {
      let admitted = 0
      for (let i = 0; i < 10; i++)
        if ((await limiter.consume([rule('default', 'burst', 10)], 1, at)).allowed) admitted++
      return admitted
    }
    expect(await spend(T0 + 59_500)).toBe(10) // the end of one minute…
    expect(await spend(T0 + 60_500)).toBe(0) // …and the start of the next: nothing more
    expect(await spend(T0 + 120_000)).toBe(10)
  })

  it('charges a request its cost, and refuses one that does not fit whole', async () => {
    const limiter = new RateLimiter(store)
    const search = await limiter.consume([rule('default', 'c', 10)], 5, T0)
    expect(search.headers).toMatchObject({
      'RateLimit-Policy': '"default";q=10;w=60;hearth-cost=5',
      RateLimit: '"default";r=5;t=61',
    })
    expect((await limiter.consume([rule('default', 'c', 10)], 5, T0)).allowed).toBe(true)
    expect((await limiter.consume([rule('default', 'c', 10)], 0.1, T0)).allowed).toBe(false)
  })

  it('checks every budget of a request and charges all of them or none', async () => {
    const limiter = new RateLimiter(store)
    const org = rule('org', 'o1', 3)
    for (const key of ['k1', 'k2', 'k3'])
      expect((await limiter.consume([rule('default', key, 2), org], 1, T0)).allowed).toBe(true)
    const refused = await limiter.consume([rule('default', 'k4', 2), org], 1, T0)
    expect(refused.allowed).toBe(false)
    expect(refused.refusedBy?.policy).toBe('org')
    expect(refused.headers.RateLimit).toBe('"default";r=2;t=0, "org";r=0;t=61')
    // The org refused it: the key's own budget was not charged.
    const alone = await limiter.consume([rule('default', 'k4', 2)], 1, T0)
    expect(alone.headers.RateLimit).toBe('"default";r=1;t=61')
  })

  it('refunds part of a charge in the bucket it was charged to, never below zero', async () => {
    const limiter = new RateLimiter(store)
    const decision = await limiter.consume([rule('default', 'r', 2)], 1, T0)
    expect(await limiter.refund(decision, 0.1, T0 + 10_000)).toEqual({
      'RateLimit-Policy': '"default";q=2;w=60;hearth-cost=0.1',
      RateLimit: '"default";r=1;t=51',
    })
    // 10 such 304s cost one unit: the 0.1 each keeps adds up.
    for (let i = 0; i < 10; i++)
      await limiter.refund(await limiter.consume([rule('default', 'r', 2)], 1, T0 + 20_000), 0.1, T0 + 20_000)
    expect((await limiter.consume([rule('default', 'r', 2)], 1, T0 + 20_000)).allowed).toBe(false)
    // A refund of more than is there leaves zero, not a credit.
    await store.refund({ budgets: [budget('r', 2)], costMilli: 1000, at: T0 }, 1000, T0 + 20_000)
    await store.refund({ budgets: [budget('r', 2)], costMilli: 1000, at: T0 }, 1000, T0 + 20_000)
    expect(await store.consume([budget('r', 2)], 1000, T0 + 20_000)).toMatchObject({
      allowed: true,
      states: [{ usedMilli: 2000 }],
    })
  })

  it('never admits more than the budget in any window (random arrivals and costs)', async () => {
    await neverMoreThanTheBudget(store, 'p', 200)
  })

  it('forgets budgets with nothing left in their window', async () => {
    await store.consume([budget('old', 1, 1000)], 1000, T0)
    store.sweep(T0 + 2000)
    expect((await store.consume([budget('old', 1, 1000)], 1000, T0 + 2000)).allowed).toBe(true)
  })
})

// The Lua scripts of the shared store, on the run's real Redis (REDIS_URL), under a key prefix of
// this file's own.
describe.runIf(redisAvailable())('Redis rate-limit scripts', () => {
  const url = REDIS_URL ?? ''
  const prefix = testPrefix()
  let store: RedisRateLimitStore

  beforeAll(async () => {
    store = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 5000 })
    expect(await store.connected()).toBe(true)
  })
  afterAll(async () => {
    await store?.close()
    await deleteKeys(url, prefix)
  })

  it('counts in a hash hearth:rl:<policy>:<key> of bucket -> milli-units, expiring a window and a bucket after the last charge', async () => {
    const now = Date.now()
    const key = budget('k1', 10)
    expect(store.keyOf(key)).toBe(`${prefix}default:k1`)
    expect(await store.consume([key], 1000, now)).toEqual({
      allowed: true,
      states: [{ usedMilli: 1000, resetAt: (Math.floor(now / 1000) + 1) * 1000 + MINUTE }],
    })
    await store.consume([key], 100, now)
    expect(await store.client.hgetall(store.keyOf(key))).toEqual({ [String(Math.floor(now / 1000))]: '1100' })
    const ttl = await store.client.pttl(store.keyOf(key))
    expect(ttl).toBeGreaterThan(MINUTE)
    expect(ttl).toBeLessThanOrEqual(MINUTE + 1000)
    // Buckets that left the window are deleted when the key is next used.
    await store.consume([key], 1000, now + 2 * MINUTE)
    expect(Object.keys(await store.client.hgetall(store.keyOf(key)))).toEqual([
      String(Math.floor((now + 2 * MINUTE) / 1000)),
    ])
  })

  it('charges every budget of a request or none, in one script', async () => {
    const org = { ...budget('o1', 2), policy: 'org' }
    expect((await store.consume([budget('ka', 5), org], 1000, T0)).allowed).toBe(true)
    expect((await store.consume([budget('kb', 5), org], 1000, T0)).allowed).toBe(true)
    const refused = await store.consume([budget('kc', 5), org], 1000, T0 + 5000)
    expect(refused).toEqual({
      allowed: false,
      states: [
        { usedMilli: 0, resetAt: T0 + 5000 },
        { usedMilli: 2000, resetAt: T0 + 61_000 },
      ],
    })
    expect(await store.client.exists(store.keyOf(budget('kc', 5)))).toBe(0)
  })

  it('refunds in the bucket of the charge, never below zero, never creating it', async () => {
    const key = budget('k2', 10)
    expect(await store.refund({ budgets: [key], costMilli: 1000, at: T0 }, 900, T0)).toEqual([
      { usedMilli: 0, resetAt: T0 },
    ])
    expect(await store.client.exists(store.keyOf(key))).toBe(0)
    await store.consume([key], 1000, T0)
    await store.consume([key], 1000, T0 + 3000)
    expect(await store.refund({ budgets: [key], costMilli: 1000, at: T0 }, 900, T0 + 4000)).toEqual([
      { usedMilli: 1100, resetAt: T0 + 61_000 },
    ])
    await store.refund({ budgets: [key], costMilli: 1000, at: T0 }, 900, T0 + 4000)
    expect(await store.client.hgetall(store.keyOf(key))).toEqual({
      [String(T0 / 1000)]: '0',
      [String(T0 / 1000 + 3)]: '1000',
    })
  })

  it('never admits more than the budget in any window (random arrivals and costs)', async () => {
    await neverMoreThanTheBudget(store, 'p', 60)
  })

  it('counts atomically across connections: of 200 concurrent requests on a budget of 150, exactly 150 pass', async () => {
    const other = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 5000 })
    try {
      expect(await other.connected()).toBe(true)
      const now = Date.now()
      const key = budget('k3', 150)
      const org = { ...budget('o3', 1000), policy: 'org' }
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? store : other).consume([key, org], 1000, now)),
      )
      expect(results.filter((r) => r.allowed)).toHaveLength(150)
      expect(await store.client.hgetall(store.keyOf(org))).toEqual({ [String(Math.floor(now / 1000))]: '150000' })
    } finally {
      await other.close()
    }
  })
})

// Falling back to memory while the shared store fails, with a stand-in whose failures the test
// switches on and off (the real outage, a killed redis-server, is in the integration tests).
describe('falling back to per-instance counts', () => {
  class FlakyShared implements SharedRateLimitStore {
    readonly counts = new MemoryRateLimitStore()
    down = false
    private listener: AvailabilityListener | undefined
    consume(budgets: Budget[], costMilli: number, now: number) {
      return this.down
        ? Promise.reject(new Error('Connection is closed.'))
        : this.counts.consume(budgets, costMilli, now)
    }
    refund(charge: Charge, milli: number, now: number) {
      return this.down ? Promise.reject(new Error('Connection is closed.')) : this.counts.refund(charge, milli, now)
    }
    status() {
      return this.down ? ('unreachable' as const) : ('ok' as const)
    }
    onAvailability(listener: AvailabilityListener) {
      this.listener = listener
    }
    announce(available: boolean) {
      this.listener?.(available, available ? undefined : 'the connection to Redis closed')
    }
    close() {
      return this.counts.close()
    }
  }

  function capture() {
    const lines: { level: 'warn' | 'info'; details: object; message: string }[] = []
    return {
      lines,
      logger: {
        warn: (details: object, message: string) => lines.push({ level: 'warn', details, message }),
        info: (details: object, message: string) => lines.push({ level: 'info', details, message }),
      },
    }
  }

  it('counts in memory while the shared store fails, logs each switch once, and says so in status()', async () => {
    const shared = new FlakyShared()
    const store = new FallbackRateLimitStore(shared)
    const { lines, logger } = capture()
    store.logTo(logger)
    const now = T0
    const used = async () => (await store.consume([budget('k', 100)], 1000, now)).states[0]?.usedMilli
    expect(store.status()).toBe('ok')
    expect(await used()).toBe(1000)
    expect(await used()).toBe(2000)

    shared.down = true
    const during = []
    for (let i = 0; i < 3; i++) during.push(await used())
    expect(during).toEqual([1000, 2000, 3000]) // this instance's own count, from zero
    expect(store.status()).toBe('unreachable')
    shared.announce(false) // the connection's own news of the same outage: no second line
    expect(lines.map((l) => l.level)).toEqual(['warn'])
    expect(lines[0]?.details).toMatchObject({ rateLimits: 'per-instance', reason: 'Connection is closed.' })

    shared.down = false
    shared.announce(true)
    expect(store.status()).toBe('ok')
    expect(await used()).toBe(3000) // shared counts resume where they were
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info'])
    await store.close()
  })

  it('logs an outage that began before a logger was attached when it is attached', async () => {
    const shared = new FlakyShared()
    shared.down = true
    const store = new FallbackRateLimitStore(shared)
    expect(store.status()).toBe('unreachable')
    expect((await store.consume([budget('k', 100)], 1000, T0)).states[0]?.usedMilli).toBe(1000)
    const { lines, logger } = capture()
    store.logTo(logger)
    expect(lines.map((l) => l.level)).toEqual(['warn'])
    await store.close()
  })
})
