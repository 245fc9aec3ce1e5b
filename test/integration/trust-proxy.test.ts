// HEARTH_TRUST_PROXY over real HTTP, through a real forwarding proxy, with forged X-Forwarded-For
// headers: the client address that failed authentications are limited by is the rightmost hop that
// is not a trusted proxy, never the leftmost entry the client wrote. The API and the embed origin
// (started by serve(), as `hearth serve` does) take the same setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { startApp, type TestApp } from '../helpers/app.ts'
import { getFrom, startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.ts'
import { freshPgliteDir, openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { loadConfig } from '../../src/config.ts'
import { serve, type RunningService } from '../../src/serve.ts'

/** The failed-authentication budget per client address in these tests. */
const BUDGET = 3
/** Each party on its own loopback address: the proxy, and the clients behind it. */
const PROXY = '127.0.0.2'
const CLIENT = '127.0.0.3'
const OTHER_CLIENT = '127.0.0.4'
const BAD_KEY = { authorization: 'Bearer idx_not_a_key' }

/** BUDGET failed authentications, each claiming another address in X-Forwarded-For, then one more. */
async function rotatingForgeries(from: string, url: string, chain: (forged: string) => string): Promise<number[]> {
  const statuses: number[] = []
  for (let i = 1; i <= BUDGET + 1; i++)
    statuses.push(await getFrom(from, url, { ...BAD_KEY, 'x-forwarded-for': chain(`1.2.3.${i}`) }))
  return statuses
}
const EXHAUSTED = [...Array<number>(BUDGET).fill(401), 429]

describe.each(storeKinds())('HEARTH_TRUST_PROXY on the API on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  describe('a hop count of 1, behind one proxy', () => {
    let api: TestApp
    let proxy: ForwardingProxy
    beforeAll(async () => {
      api = await startApp(store, {
        rateLimitMax: BUDGET,
        rateLimitWindowSeconds: 3600,
        trustProxy: loadConfig({ HEARTH_TRUST_PROXY: '1' }).trustProxy,
      })
      proxy = await startForwardingProxy(api.url, PROXY)
    })
    afterAll(async () => {
      await proxy?.close()
      await api?.close()
    })

    it('counts the address the proxy saw: forged X-Forwarded-For values do not escape the failed-authentication limit', async () => {
      expect(await rotatingForgeries(CLIENT, `${proxy.url}/api/v1/relationships`, (forged) => forged)).toEqual(
        EXHAUSTED,
      )
    })

    it("and not the proxy's own address: another client behind the same proxy still has its budget", async () => {
      expect(
        await getFrom(OTHER_CLIENT, `${proxy.url}/api/v1/relationships`, { ...BAD_KEY, 'x-forwarded-for': '1.2.3.1' }),
      ).toBe(401)
    })
  })

  describe('a list of proxy addresses and ranges', () => {
    let api: TestApp
    const url = () => `${api.url}/api/v1/relationships`
    beforeAll(async () => {
      api = await startApp(store, {
        rateLimitMax: BUDGET,
        rateLimitWindowSeconds: 3600,
        trustProxy: loadConfig({ HEARTH_TRUST_PROXY: `${PROXY},192.168.0.0/16` }).trustProxy,
      })
    })
    afterAll(async () => {
      await api?.close()
    })

    it('takes the rightmost hop that is not a listed proxy, whatever the client wrote left of it', async () => {
      // Through the proxy at PROXY and a second one in 192.168/16: the client is 10.9.9.9.
      expect(await rotatingForgeries(PROXY, url(), (forged) => `${forged}, 10.9.9.9, 192.168.1.5`)).toEqual(EXHAUSTED)
      // Another client behind the same two proxies has a budget of its own.
      expect(await getFrom(PROXY, url(), { ...BAD_KEY, 'x-forwarded-for': '10.9.9.8, 192.168.1.5' })).toBe(401)
    })

    it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
      expect(await rotatingForgeries(CLIENT, url(), (forged) => `${forged}, 192.168.1.5`)).toEqual(EXHAUSTED)
      // Claiming a fresh address does not help the peer whose own budget is spent.
      expect(await getFrom(CLIENT, url(), { ...BAD_KEY, 'x-forwarded-for': '10.7.7.7' })).toBe(429)
    })
  })
})

describe('HEARTH_TRUST_PROXY on the embed origin (hearth serve --only embed)', () => {
  let dataDir: string
  let service: RunningService
  let proxy: ForwardingProxy
  beforeAll(async () => {
    dataDir = freshPgliteDir()
    const config = loadConfig({
      HEARTH_DATA_DIR: dataDir,
      HEARTH_EMBED_PORT: '0',
      HEARTH_DEMO: '0',
      HEARTH_TRUST_PROXY: '1',
      HEARTH_RATE_LIMIT_MAX: String(BUDGET),
      HEARTH_ADDRESS_RATE_LIMIT_MAX: String(BUDGET),
      HEARTH_RATE_LIMIT_WINDOW: '3600',
      HEARTH_LOG_LEVEL: 'silent',
    })
    service = await serve(config, 'embed')
    proxy = await startForwardingProxy(service.embedUrl ?? '', PROXY)
  })
  afterAll(async () => {
    await proxy?.close()
    await service?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it("limits the metered key fetch by the address the proxy saw, not the forged one nor the proxy's", async () => {
    const jwks = () => `${proxy.url}/.well-known/jwks.json?render=${randomUUID()}`
    const statuses: number[] = []
    for (let i = 1; i <= BUDGET + 1; i++)
      statuses.push(await getFrom(CLIENT, jwks(), { 'x-forwarded-for': `1.2.3.${i}` }))
    expect(statuses).toEqual([...Array<number>(BUDGET).fill(200), 429])
    expect(await getFrom(OTHER_CLIENT, jwks(), { 'x-forwarded-for': '1.2.3.1' })).toBe(200)
  })
})
