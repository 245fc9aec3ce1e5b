// Shared rate limits (REDIS_URL): two app instances, each with its own connection to the same real
// Redis, share one budget per credential exactly — in turn, in parallel bursts, and with the 0.1
// unit a 304 keeps of its cost. Then an outage of a throw-away redis-server of this file's own: the service keeps
// answering, each instance limits on its own (documented: up to N× the budget), the switch is
// logged once and status() says 'unreachable'; when Redis is back, counts are shared again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSharedRateLimitStore, type FallbackRateLimitStore } from '../../src/rate-limit/fallback-store.ts'
import { REDIS_KEY_PREFIX } from '../../src/rate-limit/redis-store.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { REDIS_URL } from '../helpers/environment.ts'
import {
  deleteKeys,
  redisAvailable,
  redisServerAvailable,
  testPrefix,
  ThrowawayRedis,
  until,
} from '../helpers/redis.ts'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { Redis } from 'ioredis'

const LIST = '/api/v1/relationships'
const MAX = 10
const ORG_MAX = 1000
// A day: a test never straddles a window boundary in practice, and its keys expire within a day.
const WINDOW_SECONDS = 86_400

type Response = Awaited<ReturnType<typeof call>>

/** "r" of the RateLimit header: the budget left. */
function remaining(response: Response): number {
  const match = /;r=(\d+);/.exec(response.headers.get('ratelimit') ?? '')
  if (!match) throw new Error(`no RateLimit header (status ${response.status})`)
  return Number(match[1])
}

function expectRefused(response: Response): void {
  expect(response.status).toBe(429)
  expect(response.body).toMatchObject({ code: 'rate_limited', resetAt: expect.any(String) })
  expect(response.headers.get('ratelimit-policy')).toBe(
    `"default";q=${MAX};w=${WINDOW_SECONDS}, "org";q=${ORG_MAX};w=${WINDOW_SECONDS}`,
  )
  expect(remaining(response)).toBe(0)
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
}

/** Two instances on one database, each counting through its own connection to `url`. */
async function startInstances(store: TestStore, url: string, prefix: string) {
  // A loaded CI machine can stall a process longer than production's 250 ms command timeout, which
  // would send a hit to the per-instance fallback and break exact counts; an outage here is a
  // killed redis-server, which refuses at once whatever the timeout.
  const options = { prefix, commandTimeoutMs: 5000 }
  const stores = [await openSharedRateLimitStore(url, options), await openSharedRateLimitStore(url, options)] as const
  const apps: TestApp[] = []
  for (const rateLimitStore of stores) {
    apps.push(
      await startApp(store, {
        rateLimitMax: MAX,
        orgRateLimitMax: ORG_MAX,
        rateLimitWindowSeconds: WINDOW_SECONDS,
        rateLimitStore,
      }),
    )
  }
  return { stores, apps: apps as [TestApp, TestApp] }
}

function captureLogs(store: FallbackRateLimitStore) {
  const lines: { level: 'warn' | 'info'; message: string }[] = []
  store.logTo({
    warn: (_details, message) => lines.push({ level: 'warn', message }),
    info: (_details, message) => lines.push({ level: 'info', message }),
  })
  return lines
}

describe.runIf(redisAvailable())('shared rate limits on Redis (two instances)', () => {
  const url = REDIS_URL ?? ''
  const prefix = testPrefix()
  let store: TestStore
  let a: TestApp
  let b: TestApp
  let orgId: string
  let redis: Redis

  beforeAll(async () => {
    store = await openTestStore('pglite')
    ;({ orgId } = await createOrgWithKey(store.db))
    const instances = await startInstances(store, url, prefix)
    ;[a, b] = instances.apps
    for (const shared of instances.stores) expect(shared.status()).toBe('ok')
    redis = new Redis(url)
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    redis?.disconnect()
    await deleteKeys(url, prefix)
    await store?.drop()
  })

  /** The units a key has spent in the shared count (its hash of buckets in Redis). */
  async function sharedCount(keyId: string): Promise<number> {
    const buckets = await redis.hvals(`${prefix}default:credential:${keyId}`)
    return buckets.reduce((sum, milli) => sum + Number(milli), 0) / 1000
  }

  it("uses the service's key namespace", () => {
    expect(prefix.startsWith(REDIS_KEY_PREFIX)).toBe(true)
  })

  it('allows exactly max requests spread over both instances; the next on either is 429', async () => {
    const { id, key } = await createKey(store.db, orgId)
    const responses = []
    for (let i = 0; i < MAX; i++) responses.push(await call(`${(i % 2 ? b : a).url}${LIST}`, key))
    expect(responses.map((r) => r.status)).toEqual(Array(MAX).fill(200))
    expect(responses.map(remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    expectRefused(await call(`${a.url}${LIST}`, key))
    expectRefused(await call(`${b.url}${LIST}`, key))
    // A refused request charges nothing.
    expect(await sharedCount(id)).toBe(MAX)
  })

  it('counts parallel bursts atomically: 40 at once over both instances, exactly max succeed', async () => {
    const { id, key } = await createKey(store.db, orgId)
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(`${(i % 2 ? b : a).url}${LIST}`, key)),
    )
    const allowed = responses.filter((r) => r.status === 200)
    expect(allowed).toHaveLength(MAX)
    expect(responses.filter((r) => r.status === 429)).toHaveLength(40 - MAX)
    // Each allowed request saw its own count: the budgets left are 9…0, each once.
    expect(allowed.map(remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    for (const refused of responses.filter((r) => r.status === 429)) expectRefused(refused)
    expect(await sharedCount(id)).toBe(MAX)
  })

  it('gives back all but 0.1 unit of a 304 in the shared count, whichever instance answers', async () => {
    const { id, key } = await createKey(store.db, orgId)
    const created = await call(`${a.url}${LIST}`, key, { body: { name: 'Shared Budget Family' } })
    expect(created.status).toBe(201)
    const householdId = (created.body.household as { id: string }).id
    const read = await call(`${b.url}${LIST}/${householdId}`, key)
    expect(read.status).toBe(200)
    const etag = read.headers.get('etag') ?? ''
    expect(remaining(read)).toBe(MAX - 2)

    // Ten revalidations cost one unit together: 2.1, 2.2, … 3 units spent, 7 whole ones left.
    for (let i = 0; i < 10; i++) {
      const revalidated = await call(`${(i % 2 ? a : b).url}${LIST}/${householdId}`, key, {
        headers: { 'if-none-match': etag },
      })
      expect(revalidated.status).toBe(304)
      expect(remaining(revalidated)).toBe(MAX - 3)
    }
    expect(await sharedCount(id)).toBeCloseTo(3, 6)

    const rest = []
    for (let i = 0; i < MAX - 3; i++) rest.push(await call(`${(i % 2 ? a : b).url}${LIST}/${householdId}`, key))
    expect(rest.map((r) => r.status)).toEqual(Array(MAX - 3).fill(200))
    expectRefused(await call(`${a.url}${LIST}/${householdId}`, key))
    expectRefused(await call(`${b.url}${LIST}/${householdId}`, key))
  })
})

describe.runIf(redisServerAvailable())('shared rate limits through a Redis outage', () => {
  let server: ThrowawayRedis
  let store: TestStore
  let a: TestApp
  let b: TestApp
  let shared: readonly [FallbackRateLimitStore, FallbackRateLimitStore]
  let logs: { level: 'warn' | 'info'; message: string }[][]
  let orgId: string

  beforeAll(async () => {
    server = await ThrowawayRedis.start()
    store = await openTestStore('pglite')
    ;({ orgId } = await createOrgWithKey(store.db))
    const instances = await startInstances(store, server.url, REDIS_KEY_PREFIX)
    ;[a, b] = instances.apps
    shared = instances.stores
    logs = shared.map(captureLogs)
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await server?.kill()
    await store?.drop()
  })

  it('keeps answering with per-instance limits while Redis is down, and shares them again when it is back', async () => {
    const { key } = await createKey(store.db, orgId)
    const before = []
    for (let i = 0; i < 6; i++) before.push(await call(`${(i % 2 ? b : a).url}${LIST}`, key))
    expect(before.map(remaining)).toEqual([9, 8, 7, 6, 5, 4])
    expect(shared.map((s) => s.status())).toEqual(['ok', 'ok'])
    const readiness = async () => {
      const response = await fetch(`${a.url}/readyz`)
      return { status: response.status, redis: ((await response.json()) as { checks: { redis: string } }).checks.redis }
    }
    // The series an operator alerts on: 1 while Redis counts for every instance, 0 during the fallback.
    const sharedGauge = async () =>
      /^rate_limit_shared (\d)$/m.exec(await (await fetch(`${a.url}/metrics`)).text())?.[1]
    expect(await readiness()).toEqual({ status: 200, redis: 'ok' })
    expect(await sharedGauge()).toBe('1')

    // Redis dies (SIGKILL, as a crash): both instances notice and say so.
    await server.kill()
    await until(
      () => shared.every((s) => s.status() === 'unreachable'),
      10_000,
      'both instances to see Redis unreachable',
    )

    // Each instance now counts on its own, from zero: max each, so 2× max over the two.
    for (const instance of [a, b]) {
      const during = []
      for (let i = 0; i < MAX; i++) during.push(await call(`${instance.url}${LIST}`, key))
      expect(during.map((r) => r.status)).toEqual(Array(MAX).fill(200))
      expect(during.map(remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
      expectRefused(await call(`${instance.url}${LIST}`, key))
    }
    // Readiness says so, without taking the instance out of its load balancer.
    expect(await readiness()).toEqual({
      status: 200,
      redis: 'unreachable: rate limits are counted per instance until it is back',
    })
    expect(await sharedGauge()).toBe('0')
    // One line per instance for the whole outage, however many requests it answered.
    for (const lines of logs) {
      expect(lines.map((l) => l.level)).toEqual(['warn'])
      expect(lines[0]?.message).toMatch(/Redis is unreachable: each instance now limits on its own/)
    }

    // Redis is back on the same port (empty: it saved nothing): shared counting again.
    await server.restart()
    await until(() => shared.every((s) => s.status() === 'ok'), 10_000, 'both instances to see Redis again')
    expect(await readiness()).toEqual({ status: 200, redis: 'ok' })
    expect(await sharedGauge()).toBe('1')
    const after = []
    for (let i = 0; i < MAX; i++) after.push(await call(`${(i % 2 ? b : a).url}${LIST}`, key))
    expect(after.map((r) => r.status)).toEqual(Array(MAX).fill(200))
    expect(after.map(remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    expectRefused(await call(`${a.url}${LIST}`, key))
    expectRefused(await call(`${b.url}${LIST}`, key))
    for (const lines of logs) {
      expect(lines.map((l) => l.level)).toEqual(['warn', 'info'])
      expect(lines[1]?.message).toMatch(/rate limits are shared across instances again/)
    }
  })
})
