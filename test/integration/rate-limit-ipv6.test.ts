// Per-address limits count an IPv6 client by its /64 (src/net/client-key.ts): a client handed a
// /64 can send every request from a fresh address, which must not be a fresh budget. The clients'
// addresses reach the app as a trusted proxy's X-Forwarded-For (the loopback peer is the proxy),
// so that addresses from a documentation /64 (2001:db8::/32) can be used on a loopback-only machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApp, type TestApp } from '../helpers/app.ts'
import { startSignInApp } from '../helpers/sign-in-app.ts'
import { startFakeOidcProvider, type FakeOidcProvider } from '../helpers/fake-oidc-provider.ts'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { PENDING_PER_ADDRESS } from '../../src/store/sign-in-attempts.ts'

const BUDGET = 3

describe('per-address limits key IPv6 clients by their /64', () => {
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

  async function behindProxy(): Promise<TestApp> {
    const api = await startApp(store, {
      addressRateLimitMax: BUDGET,
      rateLimitMax: BUDGET,
      trustProxy: ['127.0.0.1'],
    })
    apps.push(api)
    return api
  }
  const from = (url: string, address: string, headers: Record<string, string> = {}) =>
    fetch(url, { headers: { ...headers, 'x-forwarded-for': address } })

  it('spends one address budget for every address of a /64; the next /64 has its own', async () => {
    const { url } = await behindProxy()
    const statuses = []
    for (let i = 1; i <= BUDGET + 1; i++)
      statuses.push((await from(`${url}/nothing-here`, `2001:db8:1:2::${i.toString(16)}`)).status)
    expect(statuses).toEqual([...Array<number>(BUDGET).fill(404), 429])
    expect((await from(`${url}/nothing-here`, '2001:db8:1:2:ffff:ffff:ffff:ffff')).status).toBe(429)
    expect((await from(`${url}/nothing-here`, '2001:db8:1:3::1')).status).toBe(404)
  })

  it('spends one failed-authentication budget for every address of a /64', async () => {
    const { url } = await behindProxy()
    const statuses = []
    for (let i = 1; i <= BUDGET + 1; i++) {
      statuses.push(
        (await from(`${url}/api/v1/relationships`, `2001:db8:7:7:${i}::1`, { authorization: 'Bearer idx_not_a_key' }))
          .status,
      )
    }
    expect(statuses).toEqual([...Array<number>(BUDGET).fill(401), 429])
  })

  it('counts an IPv4-mapped IPv6 address in the budget of the IPv4 address', async () => {
    const { url } = await behindProxy()
    const statuses = []
    for (const address of ['192.0.2.9', '::ffff:192.0.2.9', '::ffff:c000:209', '192.0.2.9'])
      statuses.push((await from(`${url}/nothing-here`, address)).status)
    expect(statuses).toEqual([404, 404, 404, 429])
  })

  it('keeps at most 20 pending sign-ins per /64, however many of its addresses start one', async () => {
    const { oidc } = await startSignInApp(
      store,
      async (redirectUri) => {
        const fake = await startFakeOidcProvider({ redirectUri })
        fakes.push(fake)
        return fake
      },
      { addressRateLimitMax: 1_000_000 },
    ).then((app) => {
      apps.push(app.api)
      return app
    })
    for (let i = 1; i <= PENDING_PER_ADDRESS + 10; i++)
      expect((await oidc.start('/', `2001:db8:5:5::${i.toString(16)}`)).ok).toBe(true)
    const pending = await store.db
      .selectFrom('sign_in_attempts')
      .select(['client_address'])
      .where('client_address', 'like', '2001:db8:5:5%')
      .execute()
    expect(pending.map((row) => row.client_address)).toEqual(
      Array<string>(PENDING_PER_ADDRESS).fill('2001:db8:5:5::/64'),
    )
  })
})
