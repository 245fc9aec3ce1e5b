import { afterEach, describe, expect, it } from 'vitest'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'

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
