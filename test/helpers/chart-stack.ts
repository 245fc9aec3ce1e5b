// The whole embed path on loopback: a real store, the API (which mints), the embed origin serving
// the chart built from the current source, and a partner site on a third origin that is
// registered for the org (plus an unregistered one for abuse tests).
import type { FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import { buildChartRelease } from '../../chart/build.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { chartFile, type ChartReleases } from '../../src/embed/releases.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { call, createOrgWithKey, startApp, type TestApp } from './app.ts'
import { startSite, type Site } from './sites.ts'
import { openTestStore, type TestStore } from './stores.ts'

export interface ChartSession {
  token: string
  expiresAt: string
  embedUrl: string
}

export interface ChartStack {
  store: TestStore
  api: TestApp
  embed: FastifyInstance
  /** e.g. http://127.0.0.1:41234 */
  embedOrigin: string
  /** The pinned page of the current source's version. */
  chartUrl: string
  orgId: string
  /** An API key with embed:chart. */
  key: string
  /** Registered for the org. */
  partner: Site
  /** Registered for nobody. */
  stranger: Site
  /** Mints a token through the real API, for the partner's origin unless told otherwise. */
  mint(frameOrigin?: string): Promise<ChartSession>
  close(): Promise<void>
}

/** The chart as the current source builds it, as the embed origin would serve it. */
export async function currentChartRelease(): Promise<ChartReleases> {
  const releases: ChartReleases = new Map()
  for (const [name, bytes] of await buildChartRelease(CHART_VERSION)) {
    const file = chartFile(name, Buffer.from(bytes))
    if (file) releases.set(`/chart/v${CHART_VERSION}/${name}`, file)
  }
  return releases
}

export async function startChartStack(): Promise<ChartStack> {
  const store = await openTestStore('pglite')
  const embed = buildEmbedApp({
    db: store.db,
    releases: await currentChartRelease(),
    limiter: new RateLimiter(new MemoryRateLimitStore()),
    addressBudget: { limit: 100_000, windowSeconds: 60 },
  })
  await embed.listen({ host: '127.0.0.1', port: 0 })
  const embedOrigin = `http://127.0.0.1:${(embed.server.address() as AddressInfo).port}`
  const api = await startApp(store, { embedOrigin })
  const { orgId, key } = await createOrgWithKey(store.db, ['embed:chart'])
  const partner = await startSite()
  const stranger = await startSite()
  await addFrameOrigin(store.db, orgId, partner.origin)
  return {
    store,
    api,
    embed,
    embedOrigin,
    chartUrl: `${embedOrigin}/chart/v${CHART_VERSION}/index.html`,
    orgId,
    key,
    partner,
    stranger,
    async mint(frameOrigin = partner.origin) {
      const { status, body } = await call(`${api.url}/api/v1/embed/chart-sessions`, key, {
        method: 'POST',
        body: { frameOrigin },
      })
      if (status !== 201) throw new Error(`mint answered ${status}: ${JSON.stringify(body)}`)
      return body as unknown as ChartSession
    },
    async close() {
      await partner.close()
      await stranger.close()
      await api.close()
      await embed.close()
      await store.drop()
    },
  }
}
