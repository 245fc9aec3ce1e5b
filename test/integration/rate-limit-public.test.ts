// Every route has a limit, and budgets are shared where they should be: routes without credentials
// (sign-in, health, the OpenAPI document, 404s) count per client address, sign-in at 20 units and
// with its pending rows bounded per address; all keys of an organization share its budget. That a
// burst on each side of a window boundary cannot pass twice the budget is proven with an injected
// clock in test/unit/rate-limit.test.ts (memory and Redis stores), not here by racing the wall clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { startSignInApp, type SignInApp } from '../helpers/sign-in-app.ts'
import { startFakeOidcProvider, type FakeOidcProvider } from '../helpers/fake-oidc-provider.ts'
import { PENDING_PER_ADDRESS } from '../../src/store/sign-in-attempts.ts'
import { SIGN_IN_COST } from '../../src/rate-limit/costs.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'

describe('limits on routes without credentials, sign-in and organizations', () => {
  let store: TestStore
  const apps: TestApp[] = []
  const fakes: FakeOidcProvider[] = []

  beforeAll(async () => {
    store = await openTestStore('pglite')
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    for (const fake of fakes) await fake.close()
    await store?.drop()
  })

  async function signInApp(addressRateLimitMax: number): Promise<SignInApp> {
    const app = await startSignInApp(
      store,
      async (redirectUri) => {
        const fake = await startFakeOidcProvider({ redirectUri })
        fakes.push(fake)
        return fake
      },
      { addressRateLimitMax },
    )
    apps.push(app.api)
    return app
  }

  const pendingFrom = async (address: string) =>
    Number(
      (
        await store.db
          .selectFrom('sign_in_attempts')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('client_address', '=', address)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('limits sign-in per client address at 20 units a start (5 starts on a budget of 100), with the cost in RateLimit-Policy', async () => {
    const { url } = await signInApp(5 * SIGN_IN_COST)
    const starts = []
    for (let i = 0; i < 6; i++) starts.push(await fetch(`${url}/auth/sign-in`, { redirect: 'manual' }))
    expect(starts.map((r) => r.status)).toEqual([302, 302, 302, 302, 302, 429])
    expect(starts[0]?.headers.get('ratelimit-policy')).toBe('"address";q=100;w=60;hearth-cost=20')
    expect(starts.map((r) => r.headers.get('ratelimit')?.replace(/;t=\d+/, ''))).toEqual([
      '"address";r=80',
      '"address";r=60',
      '"address";r=40',
      '"address";r=20',
      '"address";r=0',
      '"address";r=0',
    ])
    const refused = starts[5]
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await refused?.json()).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(/^Too many requests from this address/),
      resetAt: expect.any(String),
    })
    // The callback costs as much: it is refused too.
    expect((await fetch(`${url}/auth/callback?state=x&code=y`, { redirect: 'manual' })).status).toBe(429)
  })

  it('keeps at most 20 pending sign-ins per address and deletes expired ones when it writes one', async () => {
    const { url } = await signInApp(1_000_000)
    await store.db
      .insertInto('sign_in_attempts')
      .values({
        state_hash: 'expired-elsewhere',
        code_verifier: 'v',
        nonce: 'n',
        return_to: '/',
        expires_at: new Date(Date.now() - 1000),
        client_address: '192.0.2.1',
      })
      .execute()
    const before = await pendingFrom('127.0.0.1')
    for (let i = 0; i < PENDING_PER_ADDRESS + 10; i++)
      expect((await fetch(`${url}/auth/sign-in?returnTo=/${'x'.repeat(2000)}`, { redirect: 'manual' })).status).toBe(
        302,
      )
    expect(before).toBeLessThanOrEqual(PENDING_PER_ADDRESS)
    expect(await pendingFrom('127.0.0.1')).toBe(PENDING_PER_ADDRESS)
    expect(await pendingFrom('192.0.2.1')).toBe(0)
  })

  it('limits the OpenAPI document and 404s per client address, with RateLimit headers', async () => {
    const api = await startApp(store, { addressRateLimitMax: 3 })
    apps.push(api)
    // Each body is read: an unread one (the 60 KB OpenAPI document) holds its response open, and the app's close with it.
    const responses = []
    for (const path of ['/api/v1/openapi.json', '/nothing-here', '/docs', '/nothing-here']) {
      const response = await fetch(`${api.url}${path}`)
      responses.push({ status: response.status, headers: response.headers, text: await response.text() })
    }
    expect(responses.map((r) => r.status)).toEqual([200, 404, 200, 429])
    for (const response of responses) expect(response.headers.get('ratelimit-policy')).toBe('"address";q=3;w=60')
    expect(responses[2]?.headers.get('ratelimit')).toMatch(/^"address";r=0;t=\d+$/)
    expect(JSON.parse(responses[3]?.text ?? '')).toMatchObject({
      code: 'rate_limited',
      resetAt: expect.any(String),
      requestId: expect.any(String),
    })
    // A key's requests do not spend the address's budget: they have their own.
    const { key } = await createOrgWithKey(store.db)
    expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
  })

  it('limits health and metrics per client address in a budget of their own, counted per instance and never in the shared store', async () => {
    const shared = new MemoryRateLimitStore()
    const api = await startApp(store, { addressRateLimitMax: 4, rateLimitStore: shared })
    apps.push(api)
    // Probes spend nothing of the shared address budget...
    for (let i = 0; i < 4; i++) expect((await fetch(`${api.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${api.url}/nothing-here`)).status).toBe(404)
    // ...and an exhausted shared address budget does not refuse them.
    for (let i = 0; i < 3; i++) await fetch(`${api.url}/nothing-here`)
    expect((await fetch(`${api.url}/nothing-here`)).status).toBe(429)
    // Their own budget (4) is spent by the four probes above: the fifth, of any of the three, is refused.
    const probes = []
    for (const path of ['/healthz', '/readyz', '/metrics']) probes.push(await fetch(`${api.url}${path}`))
    expect(probes.map((r) => r.status)).toEqual([429, 429, 429])
    expect(probes[0]?.headers.get('ratelimit-policy')).toBe('"health";q=4;w=60')
    expect(await probes[0]?.json()).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(/^Too many health or metrics requests from this address to this instance/),
    })
  })

  it("does not let health probes of other instances spend this one's: each instance counts its own", async () => {
    const shared = new MemoryRateLimitStore()
    const first = await startApp(store, { addressRateLimitMax: 2, rateLimitStore: shared })
    const second = await startApp(store, { addressRateLimitMax: 2, rateLimitStore: shared })
    apps.push(first, second)
    for (let i = 0; i < 2; i++) expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${first.url}/healthz`)).status).toBe(429)
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200)
  })

  it('shares one organization budget among all its keys; another organization is unaffected', async () => {
    const api = await startApp(store, { rateLimitMax: 100, orgRateLimitMax: 10 })
    apps.push(api)
    const { orgId } = await createOrgWithKey(store.db)
    const keys = []
    for (let i = 0; i < 6; i++) keys.push((await createKey(store.db, orgId)).key)
    for (const key of keys.slice(0, 5)) {
      for (let i = 0; i < 2; i++) expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
    }
    const sixth = await call(`${api.url}/api/v1/relationships`, keys[5])
    expect(sixth.status).toBe(429)
    expect(sixth.body.error).toMatch(/^Your organization used up its request budget \(10 units per 60 s\)/)
    expect(sixth.headers.get('ratelimit')?.replace(/;t=\d+/g, '')).toBe('"default";r=100, "org";r=0')
    const other = await createOrgWithKey(store.db)
    expect((await call(`${api.url}/api/v1/relationships`, other.key)).status).toBe(200)
  })

  it('charges a search 5 units, a deep offset page 5, a blank search 1', async () => {
    const api = await startApp(store, { rateLimitMax: 100 })
    apps.push(api)
    const { key } = await createOrgWithKey(store.db)
    const search = await call(`${api.url}/api/v1/relationships?search=smith`, key)
    expect(search.status).toBe(200)
    expect(search.headers.get('ratelimit-policy')).toMatch(
      /^"default";q=100;w=60;hearth-cost=5, "org";q=\d+;w=60;hearth-cost=5$/,
    )
    expect(search.headers.get('ratelimit')).toMatch(/^"default";r=95;/)
    const blank = await call(`${api.url}/api/v1/relationships?search=%20`, key)
    expect(blank.headers.get('ratelimit')).toMatch(/^"default";r=94;/)
    const deep = await call(`${api.url}/api/v1/relationships?page=201&pageSize=50`, key)
    expect(deep.headers.get('ratelimit')).toMatch(/^"default";r=89;/)
  })
})
