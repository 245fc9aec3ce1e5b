// POST /api/v1/embed/chart-sessions: a token that verifies offline against the JWKS published on
// the embed origin, bound to a registered frame origin; every refusal; every mint recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import type { FastifyInstance } from 'fastify'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { CHART_VERSION } from '../../chart/version.ts'

const PARTNER = 'https://partner.example.com'

describe.each(storeKinds())('chart sessions on %s', (kind) => {
  let store: TestStore
  let embed: FastifyInstance
  let embedOrigin: string
  let api: TestApp
  let orgId: string
  let key: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    embed = buildEmbedApp({
      db: store.db,
      releases: new Map(),
      limiter: new RateLimiter(new MemoryRateLimitStore()),
      addressBudget: { limit: 100_000, windowSeconds: 60 },
    })
    await embed.listen({ host: '127.0.0.1', port: 0 })
    const address = embed.server.address()
    embedOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    api = await startApp(store, { embedOrigin })
    ;({ orgId, key } = await createOrgWithKey(store.db))
    await addFrameOrigin(store.db, orgId, PARTNER)
    await addFrameOrigin(store.db, orgId, 'http://localhost:3002')
  })
  afterAll(async () => {
    await api?.close()
    await embed?.close()
    await store?.drop()
  })

  const mintAs = (withKey: string | undefined, body: unknown) =>
    call(`${api.url}/api/v1/embed/chart-sessions`, withKey, { method: 'POST', body })
  const mint = (body: unknown) => mintAs(key, body)

  it("answers 201 {token, expiresAt, embedUrl} with a token that verifies against the embed origin's JWKS", async () => {
    const { status, body, headers } = await mint({ frameOrigin: PARTNER })
    expect(status).toBe(201)
    // The release the source builds: the newest (chart/version.ts).
    expect(body.embedUrl).toBe(`${embedOrigin}/chart/v${CHART_VERSION}/index.html`)
    expect(headers.get('ratelimit')).toMatch(/^"default";r=\d+/)
    const token = body.token as string
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: expect.any(String) })
    const jwks = createRemoteJWKSet(new URL(`${embedOrigin}/.well-known/jwks.json`))
    const { payload } = await jwtVerify(token, jwks, { issuer: 'http://api.hearth.test', audience: embedOrigin })
    expect(payload).toMatchObject({ sub: orgId, frameOrigin: PARTNER, jti: expect.any(String) })
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(600)
    expect(Date.parse(body.expiresAt as string)).toBe((payload.exp ?? 0) * 1000)
    // Recorded for metering, with the key that minted it.
    const row = await store.db
      .selectFrom('chart_mints')
      .selectAll()
      .where('jti', '=', payload.jti!)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ org_id: orgId, frame_origin: PARTNER })
  })

  it('signs every token with the same published key, and each token is distinct', async () => {
    const a = await mint({ frameOrigin: 'http://localhost:3002' })
    const b = await mint({ frameOrigin: 'http://localhost:3002' })
    expect(a.body.token).not.toBe(b.body.token)
    expect(decodeProtectedHeader(a.body.token as string).kid).toBe(decodeProtectedHeader(b.body.token as string).kid)
    const jwks = (await (await fetch(`${embedOrigin}/.well-known/jwks.json`)).json()) as {
      keys: Record<string, unknown>[]
    }
    expect(jwks.keys).toHaveLength(1)
    expect(jwks.keys[0]).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      use: 'sig',
      kid: decodeProtectedHeader(a.body.token as string).kid,
    })
    expect(jwks.keys[0]?.d).toBeUndefined() // never the private part
    expect(Object.keys(jwks.keys[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'])
  })

  it('refuses a token altered or meant for another audience', async () => {
    const { body } = await mint({ frameOrigin: PARTNER })
    const jwks = createRemoteJWKSet(new URL(`${embedOrigin}/.well-known/jwks.json`))
    const token = body.token as string
    const [h, p, s] = token.split('.')
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), frameOrigin: 'https://evil.example' })).toString('base64url')}.${s}`
    await expect(jwtVerify(forged, jwks)).rejects.toThrow()
    await expect(jwtVerify(token, jwks, { audience: 'https://other-embed.example' })).rejects.toThrow()
  })

  it.each([
    'https://partner.example.com/',
    'https://partner.example.com/page',
    '*',
    'null',
    'ftp://partner.example.com',
    'http://partner.example.com',
    'https://*.example.com',
    '',
  ])('400 invalid_frame_origin for %j', async (frameOrigin) => {
    const { status, body } = await mint({ frameOrigin })
    expect(status).toBe(400)
    expect(body.code).toBe('invalid_frame_origin')
  })

  it('400 for a body without frameOrigin or with other fields', async () => {
    expect((await mint({})).body.code).toBe('invalid_body')
    expect((await mint({ frameOrigin: PARTNER, extra: 1 })).body.code).toBe('invalid_body')
  })

  it('403 for an origin not registered for the organization, saying how to register it', async () => {
    const { status, body } = await mint({ frameOrigin: 'https://stranger.example.com' })
    expect(status).toBe(403)
    expect(body).toMatchObject({
      code: 'frame_origin_not_registered',
      error: expect.stringContaining('hearth origins add'),
    })
    // Registered for another org is not registered for this one.
    const other = await createOrgWithKey(store.db)
    const theirs = await mintAs(other.key, { frameOrigin: PARTNER })
    expect(theirs.status).toBe(403)
  })

  it('401 without credentials, 403 without embed:chart', async () => {
    const none = await mintAs(undefined, { frameOrigin: PARTNER })
    expect(none.status).toBe(401)
    const reader = await createKey(store.db, orgId, ['relationships:read', 'relationships:write'])
    const denied = await mintAs(reader.key, { frameOrigin: PARTNER })
    expect(denied.status).toBe(403)
    expect(denied.body).toMatchObject({ code: 'missing_permission', error: expect.stringContaining('embed:chart') })
  })
})
