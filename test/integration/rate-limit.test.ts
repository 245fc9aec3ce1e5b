// Rate limits per credential, with the IETF draft headers, 429 {error, code, resetAt} and
// Retry-After; one key's budget never touches another's; failed authentications per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { generateApiKey } from '../../src/auth/api-keys.ts'

// The limiter is store-independent; the embedded store is enough here.
describe('rate limits', () => {
  let store: TestStore
  let api: TestApp
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore('pglite')
    api = await startApp(store, { rateLimitMax: 3, orgRateLimitMax: 1000, rateLimitWindowSeconds: 3600 })
    ;({ orgId } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('tells the remaining budget on every response and refuses past it with 429', async () => {
    const { key } = await createKey(store.db, orgId)
    const responses = []
    for (let i = 0; i < 4; i++) responses.push(await call(`${api.url}/api/v1/relationships`, key))
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429])
    expect(responses.map((r) => r.headers.get('ratelimit')?.replace(/;t=\d+/g, ''))).toEqual([
      '"default";r=2, "org";r=999',
      '"default";r=1, "org";r=998',
      '"default";r=0, "org";r=997',
      '"default";r=0, "org";r=997', // refused: nothing charged
    ])
    for (const r of responses)
      expect(r.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3600, "org";q=1000;w=3600')
    const refused = responses[3]
    expect(refused?.body).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(/^This API key used up its request budget/),
    })
    const resetAt = Date.parse(refused?.body.resetAt as string)
    expect(resetAt).toBeGreaterThan(Date.now())
    // At most a window and one bucket (1/60 of it) away: the sliding window counts that bucket too.
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 3600_000 + 60_000)
    const retryAfter = Number(refused?.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(Math.abs(Date.now() + retryAfter * 1000 - resetAt)).toBeLessThan(2000)
  })

  it('counts writes and the legacy path against the same budget', async () => {
    const { key } = await createKey(store.db, orgId)
    expect((await call(`${api.url}/api/v1/relationships`, key, { body: { name: 'a' } })).status).toBe(201)
    expect((await call(`${api.url}/api/v1/households`, key)).status).toBe(200)
    expect((await call(`${api.url}/api/v1/households`, key, { body: { name: 'b' } })).status).toBe(201)
    const refused = await call(`${api.url}/api/v1/households`, key, { body: { name: 'c' } })
    expect(refused.status).toBe(429)
    expect(refused.body.resetAt).toEqual(expect.any(String))
  })

  it("never lets one key spend another key's budget", async () => {
    const a = await createKey(store.db, orgId)
    const b = await createKey(store.db, orgId)
    for (let i = 0; i < 4; i++) await call(`${api.url}/api/v1/relationships`, a.key)
    expect((await call(`${api.url}/api/v1/relationships`, a.key)).status).toBe(429)
    const fresh = await call(`${api.url}/api/v1/relationships`, b.key)
    expect(fresh.status).toBe(200)
    expect(fresh.headers.get('ratelimit')).toMatch(/^"default";r=2;t=\d+, "org";r=\d+;t=\d+$/)
  })

  it('limits failed authentications per client address', async () => {
    const other = await startApp(store, { rateLimitMax: 3, rateLimitWindowSeconds: 3600 })
    try {
      const responses = []
      for (let i = 0; i < 5; i++) responses.push(await call(`${other.url}/api/v1/relationships`, generateApiKey().key))
      expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 429, 429])
      expect(responses.map((r) => r.headers.get('ratelimit')?.replace(/;t=\d+/, ''))).toEqual([
        '"auth-failure";r=2',
        '"auth-failure";r=1',
        '"auth-failure";r=0',
        '"auth-failure";r=0',
        '"auth-failure";r=0',
      ])
      expect(Number(responses[3]?.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(responses[3]?.body.resetAt).toEqual(expect.any(String))
      // A valid key from the same address still works: its budget is its own.
      const { key } = await createKey(store.db, orgId)
      expect((await call(`${other.url}/api/v1/relationships`, key)).status).toBe(200)
    } finally {
      await other.close()
    }
  })
})
