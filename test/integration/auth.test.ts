// Bearer API keys: every way a credential can be wrong gets 401 with WWW-Authenticate; a valid
// key without the permission gets 403; households:* and relationships:* are the same on both paths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { generateApiKey } from '../../src/auth/api-keys.ts'
import { revokeApiKey } from '../../src/store/api-keys.ts'
import { until } from '../helpers/cli.ts'

describe.each(storeKinds())('authentication on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgId: string
  let key: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ orgId, key } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const list = (headers: Record<string, string>, path = '/api/v1/relationships') =>
    call(`${api.url}${path}`, undefined, { headers })

  async function expect401(response: Awaited<ReturnType<typeof list>>, code: string) {
    expect(response.status).toBe(401)
    expect(response.body).toMatchObject({ code, error: expect.any(String) })
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="hearth"/)
  }

  it('401 missing_credentials without an Authorization header', async () => {
    const response = await list({})
    await expect401(response, 'missing_credentials')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="hearth"')
  })

  it.each([
    ['a Basic header', () => 'Basic dXNlcjpwYXNz'],
    ['Bearer without a token', () => 'Bearer '],
    ['a key with a broken checksum', () => `Bearer ${generateApiKey().key.slice(0, -1)}A`],
    ['a truncated key', () => `Bearer ${generateApiKey().key.slice(0, 30)}`],
    ['a token that is not a key', () => 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x'],
    ['two tokens', () => `Bearer ${generateApiKey().key} ${generateApiKey().key}`],
  ])('401 invalid_credentials for %s', async (_name, header) => {
    await expect401(await list({ authorization: header() }), 'invalid_credentials')
  })

  it('401 invalid_credentials for a well-formed key nobody issued', async () => {
    await expect401(await list({ authorization: `Bearer ${generateApiKey().key}` }), 'invalid_credentials')
  })

  it('accepts the scheme in any case and the key', async () => {
    expect((await list({ authorization: `bearer ${key}` })).status).toBe(200)
    expect((await list({ authorization: `BEARER ${key}` })).status).toBe(200)
  })

  it('401 api_key_revoked once the revocation is heard of', async () => {
    const revoked = await createKey(store.db, orgId)
    expect((await list({ authorization: `Bearer ${revoked.key}` })).status).toBe(200)
    const generation = store.keyChanges.generation
    await revokeApiKey(store.db, revoked.id)
    // On PostgreSQL the notification follows the commit by a few milliseconds (api-key-cache.test.ts).
    await until(() => store.keyChanges.generation > generation, 'the notification of the revocation', 5000)
    await expect401(await list({ authorization: `Bearer ${revoked.key}` }), 'api_key_revoked')
  })

  it('401 api_key_expired after expiry, 200 before', async () => {
    const expired = await createKey(store.db, orgId, undefined, new Date(Date.now() - 1000))
    await expect401(await list({ authorization: `Bearer ${expired.key}` }), 'api_key_expired')
    const later = await createKey(store.db, orgId, undefined, new Date(Date.now() + 3_600_000))
    expect((await list({ authorization: `Bearer ${later.key}` })).status).toBe(200)
  })

  it('never reads a key from the query string or a cookie', async () => {
    for (const path of [
      `/api/v1/relationships?api_key=${key}`,
      `/api/v1/relationships?access_token=${key}`,
      `/api/v1/relationships?key=${key}`,
    ]) {
      const response = await list({}, path)
      await expect401(response, 'missing_credentials')
      expect(response.body.error).toMatch(/only from the Authorization header/)
    }
    for (const cookie of [`api_key=${key}`, `authorization=Bearer ${key}`]) {
      const response = await list({ cookie })
      await expect401(response, 'missing_credentials')
      expect(response.body.error).toMatch(/only from the Authorization header/)
    }
    // The session cookie holds sessions only: a key there is not a session (and we say where keys go).
    const inSessionCookie = await list({ cookie: `idp-session=${key}` })
    await expect401(inSessionCookie, 'session_invalid')
    expect(inSessionCookie.body.error).toMatch(/only from the Authorization header/)
  })

  it('403 missing_permission for a valid key without the permission, naming it', async () => {
    const embedOnly = await createKey(store.db, orgId, ['embed:chart'])
    const read = await list({ authorization: `Bearer ${embedOnly.key}` })
    expect(read.status).toBe(403)
    expect(read.body).toMatchObject({
      code: 'missing_permission',
      error: expect.stringContaining('relationships:read (or households:read, relationships:write, households:write)'),
    })
    const readOnly = await createKey(store.db, orgId, ['relationships:read'])
    const write = await call(`${api.url}/api/v1/relationships`, readOnly.key, { body: { name: 'Nope' } })
    expect(write.status).toBe(403)
    expect(write.body.error).toContain('relationships:write (or households:write)')
  })

  it('treats households:* and relationships:* as equivalent on both paths, a write permission implying read', async () => {
    const cases: [string[], 'GET' | 'POST', number][] = [
      [['households:read'], 'GET', 200],
      [['relationships:read'], 'GET', 200],
      [['households:write'], 'POST', 201],
      [['relationships:write'], 'POST', 201],
      [['households:write'], 'GET', 200],
      [['relationships:write'], 'GET', 200],
      [['relationships:read'], 'POST', 403],
      [['households:read'], 'POST', 403],
    ]
    for (const [permissions, method, status] of cases) {
      const { key: scoped } = await createKey(store.db, orgId, permissions)
      for (const path of ['/api/v1/relationships', '/api/v1/households']) {
        const response = await call(
          `${api.url}${path}`,
          scoped,
          method === 'POST' ? { body: { name: 'Equivalence' } } : {},
        )
        expect(response.status, `${permissions.join(',')} ${method} ${path}`).toBe(status)
      }
    }
  })

  it('records the last use and the calls per key, legacy paths apart', async () => {
    const tracked = await createKey(store.db, orgId)
    await call(`${api.url}/api/v1/relationships`, tracked.key)
    await call(`${api.url}/api/v1/households`, tracked.key)
    await call(`${api.url}/api/v1/households`, tracked.key)
    await api.app.close() // flushes usage; reopen a server for the remaining tests
    api = await startApp(store)
    const row = await store.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', tracked.id)
      .executeTakeFirstOrThrow()
    expect(row.last_used_at).toBeInstanceOf(Date)
    const usage = await store.db
      .selectFrom('api_key_usage')
      .select(['legacy', 'calls'])
      .where('key_id', '=', tracked.id)
      .orderBy('legacy')
      .execute()
    expect(usage).toEqual([
      { legacy: false, calls: 1 },
      { legacy: true, calls: 2 },
    ])
  })
})
