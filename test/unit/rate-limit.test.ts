import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { windowOf } from '../../src/rate-limit/store.ts'
import { RedisRateLimitStore, type AvailabilityListener } from '../../src/rate-limit/redis-store.ts'
import { FallbackRateLimitStore, type SharedRateLimitStore } from '../../src/rate-limit/fallback-store.ts'
import { REDIS_URL } from '../helpers/environment.ts'
import { deleteKeys, redisAvailable, testPrefix } from '../helpers/redis.ts'

describe('fixed-window rate limiting', () => {
  const store = new MemoryRateLimitStore()
  afterEach(() => store.sweep(Number.MAX_SAFE_INTEGER))

  it('allows max requests per window, then refuses until the window ends', async () => {
    const limiter = new RateLimiter(store, 3, 60)
    const start = 1_800_000_000_000 // a window boundary (multiple of 60 s)
    const decisions = []
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('k', start + 1000))
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false])
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0])
    expect(decisions[3]?.resetAt).toBe(start + 60_000)
    expect(decisions[3]?.headers).toEqual({
      'RateLimit-Policy': '"default";q=3;w=60',
      RateLimit: '"default";r=0;t=59',
      'Retry-After': '59',
    })
    const next = await limiter.consume('k', start + 60_000)
    expect(next).toMatchObject({ allowed: true, remaining: 2 })
  })

  it('keeps every key on its own budget', async () => {
    const limiter = new RateLimiter(store, 1, 60)
    const now = 1_800_000_000_000
    expect((await limiter.consume('a', now)).allowed).toBe(true)
    expect((await limiter.consume('a', now)).allowed).toBe(false)
    expect((await limiter.consume('b', now)).allowed).toBe(true)
  })

  it('forgets finished windows', async () => {
    const now = 1_800_000_000_000
    await store.hit('old', 1000, now)
    store.sweep(now + 1000)
    expect(await store.hit('old', 1000, now + 1000)).toEqual({ count: 1, resetAt: now + 2000 })
  })
})

// The Lua scripts of the shared store, on the run's real Redis (REDIS_URL), under a key prefix of
// this file's own: windows aligned to the epoch, keys expiring exactly at the window's end.
describe.runIf(redisAvailable())('Redis rate-limit scripts', () => {
  const url = REDIS_URL ?? ''
  const prefix = testPrefix()
  const windowMs = 60_000
  let store: RedisRateLimitStore

  beforeAll(async () => {
    store = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 5000 })
    expect(await store.connected()).toBe(true)
  })
  afterAll(async () => {
    await store?.close()
    await deleteKeys(url, prefix)
  })

  it('counts in hearth:rl:<key>:<windowStart> and expires the key at the window end', async () => {
    const now = Date.now()
    const { start, end } = windowOf(now, windowMs)
    expect(store.keyOf('k1', start)).toBe(`${prefix}k1:${start}`)
    expect(await store.hit('k1', windowMs, now)).toEqual({ count: 1, resetAt: end })
    expect(await store.client.pexpiretime(store.keyOf('k1', start))).toBe(end)
    const ttl = await store.client.pttl(store.keyOf('k1', start))
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(windowMs)
    // The last millisecond of the window is still the same window; the next starts a new key.
    expect(await store.hit('k1', windowMs, end - 1)).toEqual({ count: 2, resetAt: end })
    expect(await store.hit('k1', windowMs, end)).toEqual({ count: 1, resetAt: end + windowMs })
    expect(await store.client.pexpiretime(store.keyOf('k1', end))).toBe(end + windowMs)
    expect(await store.client.get(store.keyOf('k1', start))).toBe('2')
  })

  it('refunds never below zero, never create a key, and keep the expiry', async () => {
    const now = Date.now()
    const { start, end } = windowOf(now, windowMs)
    expect(await store.refund('k2', windowMs, now)).toEqual({ count: 0, resetAt: end })
    expect(await store.client.exists(store.keyOf('k2', start))).toBe(0)
    await store.hit('k2', windowMs, now)
    await store.hit('k2', windowMs, now)
    expect((await store.refund('k2', windowMs, now)).count).toBe(1)
    expect((await store.refund('k2', windowMs, now)).count).toBe(0)
    expect((await store.refund('k2', windowMs, now)).count).toBe(0)
    expect(await store.client.get(store.keyOf('k2', start))).toBe('0')
    expect(await store.client.pexpiretime(store.keyOf('k2', start))).toBe(end)
    expect((await store.hit('k2', windowMs, now)).count).toBe(1)
  })

  it('counts atomically across connections: 200 concurrent hits get 1…200 once each', async () => {
    const other = new RedisRateLimitStore(url, { prefix, commandTimeoutMs: 5000 })
    try {
      expect(await other.connected()).toBe(true)
      const now = Date.now()
      const counts = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? store : other).hit('k3', windowMs, now)))
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1))
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
    hit(key: string, windowMs: number, now: number) {
      return this.down ? Promise.reject(new Error('Connection is closed.')) : this.counts.hit(key, windowMs, now)
    }
    refund(key: string, windowMs: number, now: number) {
      return this.down ? Promise.reject(new Error('Connection is closed.')) : this.counts.refund(key, windowMs, now)
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
    const lines: Array<{ level: 'warn' | 'info'; details: object; message: string }> = []
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
    const now = 1_800_000_000_000
    expect(store.status()).toBe('ok')
    expect((await store.hit('k', 60_000, now)).count).toBe(1)
    expect((await store.hit('k', 60_000, now)).count).toBe(2)

    shared.down = true
    const during = []
    for (let i = 0; i < 3; i++) during.push((await store.hit('k', 60_000, now)).count)
    expect(during).toEqual([1, 2, 3]) // this instance's own count, from zero
    expect(store.status()).toBe('unreachable')
    shared.announce(false) // the connection's own news of the same outage: no second line
    expect(lines.map((l) => l.level)).toEqual(['warn'])
    expect(lines[0]?.details).toMatchObject({ rateLimits: 'per-instance', reason: 'Connection is closed.' })

    shared.down = false
    shared.announce(true)
    expect(store.status()).toBe('ok')
    expect((await store.hit('k', 60_000, now)).count).toBe(3) // shared counts resume where they were
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info'])
    await store.close()
  })

  it('logs an outage that began before a logger was attached when it is attached', async () => {
    const shared = new FlakyShared()
    shared.down = true
    const store = new FallbackRateLimitStore(shared)
    expect(store.status()).toBe('unreachable')
    expect((await store.hit('k', 60_000, 1_800_000_000_000)).count).toBe(1)
    const { lines, logger } = capture()
    store.logTo(logger)
    expect(lines.map((l) => l.level)).toEqual(['warn'])
    await store.close()
  })
})
