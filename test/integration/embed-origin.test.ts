// The embed origin over HTTP: pinned releases served immutable (the page revalidated, carrying
// its CSP), 404 for latest and unknown versions, and render metering through the key request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { CHART_VERSION } from '../../chart/version.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { recordChartMint } from '../../src/store/chart-mints.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { createOrgWithKey } from '../helpers/app.ts'
import { currentChartRelease } from '../helpers/chart-stack.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import type { ChartReleases } from '../../src/embed/releases.ts'

const PARTNER = 'https://crm.partner.example'
const PAGE = `/chart/v${CHART_VERSION}/index.html`

describe.each(storeKinds())('the embed origin on %s', (kind) => {
  let store: TestStore
  let embed: FastifyInstance
  let url: string
  let releases: ChartReleases
  let orgId: string
  let keyId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    releases = await currentChartRelease()
    embed = buildEmbedApp({
      db: store.db,
      releases,
      limiter: new RateLimiter(new MemoryRateLimitStore()),
      addressBudget: { limit: 100_000, windowSeconds: 60 },
    })
    await embed.listen({ host: '127.0.0.1', port: 0 })
    url = `http://127.0.0.1:${(embed.server.address() as AddressInfo).port}`
    ;({ orgId, keyId } = await createOrgWithKey(store.db, ['embed:chart']))
    await addFrameOrigin(store.db, orgId, PARTNER)
  }, 60_000)
  afterAll(async () => {
    await embed?.close()
    await store?.drop()
  })

  it('serves every file of the release byte for byte; assets are immutable and loadable from partner pages', async () => {
    expect(releases.size).toBeGreaterThanOrEqual(7)
    for (const [path, file] of releases) {
      const response = await fetch(`${url}${path}`)
      expect(response.status, path).toBe(200)
      expect(Buffer.compare(Buffer.from(await response.arrayBuffer()), file.body), path).toBe(0)
      expect(response.headers.get('content-type')).toBe(file.contentType)
      expect(response.headers.get('etag')).toBe(file.etag)
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('set-cookie')).toBeNull()
      if (file.isPage) continue
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('content-security-policy')).toBeNull()
    }
  })

  it('serves the page revalidated (no-cache, strong ETag, 304) with the CSP of DESIGN §4 on every answer', async () => {
    const headers = { referer: `${PARTNER}/clients/42` }
    const first = await fetch(`${url}${PAGE}`, { headers })
    expect(first.headers.get('cache-control')).toBe('no-cache')
    expect(first.headers.get('vary')).toBe('Referer')
    expect(first.headers.get('x-frame-options')).toBeNull()
    const policy = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${PARTNER}`
    expect(first.headers.get('content-security-policy')).toBe(policy)
    const etag = first.headers.get('etag') ?? ''
    const again = await fetch(`${url}${PAGE}`, { headers: { ...headers, 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('content-security-policy')).toBe(policy)
  })

  it('answers 404 {error, code} for latest, unknown versions and anything else, naming the released versions', async () => {
    for (const path of [
      '/chart/latest',
      '/chart/latest/index.html',
      '/chart/v9.9.9/index.html',
      `/chart/v${CHART_VERSION}/`,
      `/chart/v${CHART_VERSION}/nope.js`,
      `/chart/v${CHART_VERSION}/../v${CHART_VERSION}/index.html.map`,
      '/',
      '/index.html',
    ]) {
      const response = await fetch(`${url}${path}`)
      expect(response.status, path).toBe(404)
      const body = (await response.json()) as { error: string; code: string }
      expect(body.code).toBe('not_found')
      if (path.startsWith('/chart/')) expect(body.error).toContain(`/chart/v${CHART_VERSION}/index.html`)
    }
  })

  it('meters a render the first time a minted token id asks for the keys, and only then', async () => {
    const jti = randomUUID()
    await recordChartMint(store.db, { jti, orgId, actorType: 'apiKey', actorId: keyId, frameOrigin: PARTNER })
    const renderedAt = async () =>
      (await store.db.selectFrom('chart_mints').select('rendered_at').where('jti', '=', jti).executeTakeFirstOrThrow())
        .rendered_at

    const plain = await fetch(`${url}/.well-known/jwks.json`)
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300')
    expect(await renderedAt()).toBeNull()

    const metered = await fetch(`${url}/.well-known/jwks.json?render=${jti}`)
    expect(metered.status).toBe(200)
    expect(metered.headers.get('cache-control')).toBe('no-store')
    expect(((await metered.json()) as { keys: unknown[] }).keys).toBeInstanceOf(Array)
    const first = await renderedAt()
    expect(first).toBeInstanceOf(Date)

    await fetch(`${url}/.well-known/jwks.json?render=${jti}`)
    expect(await renderedAt()).toEqual(first)

    // Unknown ids and junk change nothing and still get the keys.
    for (const render of [randomUUID(), 'not-a-uuid', "'; DROP TABLE chart_mints; --"]) {
      const response = await fetch(`${url}/.well-known/jwks.json?render=${encodeURIComponent(render)}`)
      expect(response.status).toBe(200)
    }
    const count = await store.db
      .selectFrom('chart_mints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('rendered_at', 'is not', null)
      .executeTakeFirstOrThrow()
    expect(count.n).toBe(1)
  })

  it('does not meter a token id minted too long ago to still be valid', async () => {
    const jti = randomUUID()
    await recordChartMint(store.db, { jti, orgId, actorType: 'apiKey', actorId: keyId, frameOrigin: PARTNER })
    await sql`UPDATE chart_mints SET created_at = now() - interval '1 hour' WHERE jti = ${jti}`.execute(store.db)
    await fetch(`${url}/.well-known/jwks.json?render=${jti}`)
    const row = await store.db
      .selectFrom('chart_mints')
      .select('rendered_at')
      .where('jti', '=', jti)
      .executeTakeFirstOrThrow()
    expect(row.rendered_at).toBeNull()
  })

  it('limits the database-backed answers (the page, every key fetch) per client address; assets never', async () => {
    const limited = buildEmbedApp({
      db: store.db,
      releases,
      limiter: new RateLimiter(new MemoryRateLimitStore()),
      addressBudget: { limit: 4, windowSeconds: 60 },
    })
    await limited.listen({ host: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${(limited.server.address() as AddressInfo).port}`
    try {
      const asset = [...releases.keys()].find((path) => path.endsWith('.js') && !path.endsWith('sdk.js')) ?? ''
      for (let i = 0; i < 5; i++) expect((await fetch(`${base}${asset}`)).status).toBe(200)
      expect((await fetch(`${base}${PAGE}`)).status).toBe(200)
      expect((await fetch(`${base}${PAGE}`)).status).toBe(200)
      expect((await fetch(`${base}/.well-known/jwks.json?render=${randomUUID()}`)).status).toBe(200)
      const verifier = await fetch(`${base}/.well-known/jwks.json`)
      expect(verifier.status).toBe(200)
      expect(verifier.headers.get('ratelimit')).toMatch(/^"address";r=0;t=\d+$/)
      const refused = await fetch(`${base}${PAGE}`)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
      const body = (await refused.json()) as { code: string; resetAt: string }
      expect(body.code).toBe('rate_limited')
      expect(Date.parse(body.resetAt)).toBeGreaterThan(Date.now() - 1000)
      expect((await fetch(`${base}/.well-known/jwks.json?render=${randomUUID()}`)).status).toBe(429)
      // A key fetch without a render to meter still reads the keys: it is limited too (it was not).
      expect((await fetch(`${base}/.well-known/jwks.json`)).status).toBe(429)
      // The assets are immutable files served from memory: not counted.
      expect((await fetch(`${base}${asset}`)).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
