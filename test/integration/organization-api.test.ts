// The organization admin API (keys, embed origins, users, usage) over real HTTP: only a signed-in
// admin reaches it — advisors, viewers and API keys (whatever they carry) are 403; it acts inside
// the admin's organization only (another org's ids are 404); cookie writes from another site are
// 403 and change nothing; the organization always keeps an admin, also under concurrent changes.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { ALL_PERMISSIONS, call, createKey, startApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser, removeUser, updateUserRole } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { recordChartRender } from '../../src/store/chart-mints.ts'
import { createSession } from '../../src/auth/sessions.ts'

const SAME_ORIGIN = { origin: TEST_PUBLIC_URL }
const PARTNER = 'https://partner.example'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface TestUser {
  id: string
  orgId: string
  email: string
}

type Response = Awaited<ReturnType<typeof call>>

describe.each(storeKinds())('the admin API on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgA: string
  let orgB: string
  let adminA: TestUser
  let adminB: TestUser
  let cookieA: string
  let cookieB: string

  async function addUser(orgId: string, role: UserRole): Promise<TestUser> {
    const email = `${role}-${randomBytes(4).toString('hex')}@example.test`
    const user = await createUser(store.db, { orgId, email, name: `A ${role}`, role })
    if (!user) throw new Error('user not created')
    return { id: user.id, orgId, email }
  }
  const signIn = async (user: { id: string; orgId: string }) => (await createSession(store.db, user)).value

  /** A call with the idp-session cookie; writes come from the app's own origin unless headers say otherwise. */
  const as = (
    cookie: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    base = api.url,
  ) => {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST')
    const origin = method === 'GET' ? {} : SAME_ORIGIN
    return call(`${base}${path}`, undefined, {
      ...init,
      method,
      headers: { cookie: `idp-session=${cookie}`, ...origin, ...(init.headers ?? {}) },
    })
  }

  function expectError(response: Response, status: number, code: string) {
    expect(response.status, JSON.stringify(response.body)).toBe(status)
    expect(response.body).toMatchObject({ code, error: expect.any(String), requestId: expect.any(String) })
  }

  const roleOf = async (userId: string) =>
    (await store.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst())?.role
  const adminCount = async (orgId: string) =>
    (await store.db.selectFrom('users').select('id').where('org_id', '=', orgId).where('role', '=', 'admin').execute())
      .length

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    orgA = (await createOrg(store.db, 'Org A')).id
    orgB = (await createOrg(store.db, 'Org B')).id
    adminA = await addUser(orgA, 'admin')
    adminB = await addUser(orgB, 'admin')
    cookieA = await signIn(adminA)
    cookieB = await signIn(adminB)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  /** Every admin operation, with a request that would succeed for an admin of orgA. */
  const operations = (): [string, string, unknown][] => [
    ['GET', '/api/v1/keys', undefined],
    ['POST', '/api/v1/keys', { name: 'Refused', permissions: ['relationships:read'] }],
    ['DELETE', `/api/v1/keys/${randomUUID()}`, undefined],
    ['GET', '/api/v1/embed/origins', undefined],
    ['POST', '/api/v1/embed/origins', { origin: 'https://refused.example' }],
    ['DELETE', `/api/v1/embed/origins/${encodeURIComponent(PARTNER)}`, undefined],
    ['GET', '/api/v1/users', undefined],
    ['POST', '/api/v1/users', { email: 'refused@example.test', role: 'viewer' }],
    ['PATCH', `/api/v1/users/${adminA.id}`, { role: 'admin' }],
    ['DELETE', `/api/v1/users/${randomUUID()}`, undefined],
    ['GET', '/api/v1/usage', undefined],
  ]

  describe('who may call it', () => {
    it('403 missing_permission for advisors and viewers, on every operation', async () => {
      for (const role of ['advisor', 'viewer'] as const) {
        const cookie = await signIn(await addUser(orgA, role))
        for (const [method, path, body] of operations()) {
          const response = await as(cookie, path, { method, body })
          expectError(response, 403, 'missing_permission')
          expect(response.body.error, `${role} ${method} ${path}`).toContain('org:admin')
        }
      }
    })

    it('403 missing_permission for an API key, even one with every permission; 401 without credentials', async () => {
      const { key } = await createKey(store.db, orgA, ALL_PERMISSIONS)
      for (const [method, path, body] of operations()) {
        expectError(await call(`${api.url}${path}`, key, { method, body }), 403, 'missing_permission')
        expectError(await call(`${api.url}${path}`, undefined, { method, body }), 401, 'missing_credentials')
      }
    })

    it("403 cross_site_request for cookie writes without the app's Origin, and nothing changes", async () => {
      const { id: keyId } = await createKey(store.db, orgA)
      const victim = await addUser(orgA, 'advisor')
      await addFrameOrigin(store.db, orgA, 'https://kept.example')
      // lastUsedAt is bookkeeping, flushed every few seconds for the keys earlier tests used; what
      // must not change is which keys exist and what they may do.
      const keysWithoutUsage = (body: Record<string, unknown>) =>
        (body.keys as Record<string, unknown>[]).map((key) => ({ ...key, lastUsedAt: 'not compared' }))
      const snapshot = async () => [
        keysWithoutUsage((await as(cookieA, '/api/v1/keys')).body),
        (await as(cookieA, '/api/v1/embed/origins')).body,
        (await as(cookieA, '/api/v1/users')).body,
      ]
      const before = await snapshot()
      const writes: [string, string, unknown][] = [
        ['POST', '/api/v1/keys', { name: 'Forged', permissions: ['relationships:read'] }],
        ['DELETE', `/api/v1/keys/${keyId}`, undefined],
        ['POST', '/api/v1/embed/origins', { origin: 'https://evil.example' }],
        ['DELETE', `/api/v1/embed/origins/${encodeURIComponent('https://kept.example')}`, undefined],
        ['POST', '/api/v1/users', { email: 'mallory@evil.example', role: 'admin' }],
        ['PATCH', `/api/v1/users/${victim.id}`, { role: 'admin' }],
        ['DELETE', `/api/v1/users/${victim.id}`, undefined],
      ]
      const refused: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        {},
      ]
      for (const headers of refused) {
        for (const [method, path, body] of writes) {
          const response = await call(`${api.url}${path}`, undefined, {
            method,
            body,
            headers: { cookie: `idp-session=${cookieA}`, ...headers },
          })
          expectError(response, 403, 'cross_site_request')
        }
      }
      expect(await snapshot()).toEqual(before)
    })
  })

  describe('API keys', () => {
    it('creates a key shown once, which works as a Bearer key until it is revoked', async () => {
      const created = await as(cookieA, '/api/v1/keys', {
        body: { name: '  CRM sync ', permissions: ['relationships:read', 'embed:chart'], expiresInDays: 30 },
      })
      expect(created.status).toBe(201)
      const key = created.body.key as string
      expect(key).toMatch(/^idx_[A-Za-z0-9]{38}$/)
      const apiKey = created.body.apiKey as Record<string, unknown>
      expect(apiKey).toEqual({
        id: expect.stringMatching(UUID),
        name: 'CRM sync',
        prefix: key.slice(0, 12),
        permissions: ['relationships:read', 'embed:chart'],
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
      })
      const days = (Date.parse(apiKey.expiresAt as string) - Date.parse(apiKey.createdAt as string)) / 86_400_000
      expect(days).toBeCloseTo(30, 2)

      // The key does what its permissions say, in the admin's organization.
      expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
      expectError(
        await call(`${api.url}/api/v1/relationships`, key, { body: { name: 'No write' } }),
        403,
        'missing_permission',
      )
      expectError(await call(`${api.url}/api/v1/keys`, key), 403, 'missing_permission')

      // Listed newest first, never with the key or its hash.
      const newer = await as(cookieA, '/api/v1/keys', { body: { name: 'Newer', permissions: ['relationships:write'] } })
      const listed = await as(cookieA, '/api/v1/keys')
      expect(listed.status).toBe(200)
      const keys = listed.body.keys as Record<string, unknown>[]
      const ids = keys.map((k) => k.id)
      expect(ids.indexOf((newer.body.apiKey as { id: string }).id)).toBeLessThan(ids.indexOf(apiKey.id))
      expect(keys.find((k) => k.id === apiKey.id)).toMatchObject({ name: 'CRM sync', revokedAt: null })
      expect(JSON.stringify(listed.body)).not.toContain(key.slice(12))
      expect(JSON.stringify(listed.body)).not.toMatch(/hash|secret|"key"/i)

      const revoked = await as(cookieA, `/api/v1/keys/${apiKey.id as string}`, { method: 'DELETE' })
      expect(revoked.status).toBe(204)
      expectError(await call(`${api.url}/api/v1/relationships`, key), 401, 'api_key_revoked')
      const revokedAt = ((await as(cookieA, '/api/v1/keys')).body.keys as Record<string, unknown>[]).find(
        (k) => k.id === apiKey.id,
      )?.revokedAt
      expect(typeof revokedAt).toBe('string')
      // Idempotent: the first revocation time stays.
      expect((await as(cookieA, `/api/v1/keys/${apiKey.id as string}`, { method: 'DELETE' })).status).toBe(204)
      expect(
        ((await as(cookieA, '/api/v1/keys')).body.keys as Record<string, unknown>[]).find((k) => k.id === apiKey.id)
          ?.revokedAt,
      ).toBe(revokedAt)
    })

    it('applies the rules of hearth keys create: 400 invalid_body for bad names, permissions and expiries', async () => {
      // Each with the field the error names (a JSON Pointer into the body).
      const bodies: [unknown, string][] = [
        [{ permissions: ['relationships:read'] }, '/name'],
        [{ name: '   ', permissions: ['relationships:read'] }, '/name'],
        [{ name: 'x'.repeat(101), permissions: ['relationships:read'] }, '/name'],
        [{ name: 'Empty', permissions: [] }, '/permissions'],
        [{ name: 'Admin', permissions: ['org:admin'] }, '/permissions/0'],
        [{ name: 'Unknown', permissions: ['relationships:delete'] }, '/permissions/0'],
        [{ name: 'Twice', permissions: ['relationships:read', 'relationships:read'] }, '/permissions'],
        [{ name: 'Zero', permissions: ['relationships:read'], expiresInDays: 0 }, '/expiresInDays'],
        [{ name: 'Long', permissions: ['relationships:read'], expiresInDays: 3651 }, '/expiresInDays'],
        [{ name: 'Half', permissions: ['relationships:read'], expiresInDays: 1.5 }, '/expiresInDays'],
        [{ name: 'Text', permissions: ['relationships:read'], expiresInDays: '30' }, '/expiresInDays'],
        [{ name: 'Extra', permissions: ['relationships:read'], orgId: orgB }, '/orgId'],
      ]
      const before = ((await as(cookieA, '/api/v1/keys')).body.keys as unknown[]).length
      for (const [body, field] of bodies) {
        const response = await as(cookieA, '/api/v1/keys', { body })
        expectError(response, 400, 'invalid_body')
        expect(response.body.field, JSON.stringify(body)).toBe(field)
      }
      expect(((await as(cookieA, '/api/v1/keys')).body.keys as unknown[]).length).toBe(before)
      const longest = await as(cookieA, '/api/v1/keys', {
        body: { name: 'x'.repeat(100), permissions: ['households:read'], expiresInDays: 3650 },
      })
      expect(longest.status).toBe(201)
    })

    it("lists only the organization's keys; another org's key, an unknown id and a malformed one are 404", async () => {
      const other = await createKey(store.db, orgB)
      const listed = (await as(cookieA, '/api/v1/keys')).body.keys as { id: string }[]
      expect(listed.map((k) => k.id)).not.toContain(other.id)
      for (const id of [other.id, randomUUID(), 'not-a-uuid', other.id.toUpperCase()]) {
        expectError(await as(cookieA, `/api/v1/keys/${id}`, { method: 'DELETE' }), 404, 'not_found')
      }
      expect((await call(`${api.url}/api/v1/relationships`, other.key)).status).toBe(200)
      // Its own admin can revoke it (any case of the id).
      expect((await as(cookieB, `/api/v1/keys/${other.id.toUpperCase()}`, { method: 'DELETE' })).status).toBe(204)
      expectError(await call(`${api.url}/api/v1/relationships`, other.key), 401, 'api_key_revoked')
    })
  })

  describe('embed origins', () => {
    it('adds (201, then 200), lists, and removes an origin; chart tokens follow', async () => {
      const origin = 'https://app.partner.example:8443'
      const added = await as(cookieA, '/api/v1/embed/origins', { body: { origin } })
      expect(added.status).toBe(201)
      expect(added.body).toEqual({ origin, createdAt: expect.any(String) })
      const again = await as(cookieA, '/api/v1/embed/origins', { body: { origin } })
      expect(again.status).toBe(200)
      expect(again.body).toEqual(added.body)

      const listed = await as(cookieA, '/api/v1/embed/origins')
      expect(listed.status).toBe(200)
      expect(listed.body.origins).toContainEqual(added.body)
      const origins = (listed.body.origins as { origin: string }[]).map((o) => o.origin)
      expect(origins).toEqual([...origins].sort())

      const { key } = await createKey(store.db, orgA, ['embed:chart'])
      const mint = () => call(`${api.url}/api/v1/embed/chart-sessions`, key, { body: { frameOrigin: origin } })
      expect((await mint()).status).toBe(201)
      expect(
        (await as(cookieA, `/api/v1/embed/origins/${encodeURIComponent(origin)}`, { method: 'DELETE' })).status,
      ).toBe(204)
      expectError(await mint(), 403, 'frame_origin_not_registered')
      expectError(
        await as(cookieA, `/api/v1/embed/origins/${encodeURIComponent(origin)}`, { method: 'DELETE' }),
        404,
        'not_found',
      )
      expect(
        ((await as(cookieA, '/api/v1/embed/origins')).body.origins as { origin: string }[]).map((o) => o.origin),
      ).not.toContain(origin)
    })

    it('400 invalid_frame_origin with the reason for an origin that is not bare', async () => {
      const cases: [string, RegExp][] = [
        ['https://partner.example/', /did you mean https:\/\/partner.example/],
        ['https://partner.example/page', /not a bare origin/],
        ['http://partner.example', /http is allowed only for localhost/],
        ['https://*.partner.example', /wildcards/],
        ['partner.example', /not a URL/],
      ]
      for (const [origin, reason] of cases) {
        const response = await as(cookieA, '/api/v1/embed/origins', { body: { origin } })
        expectError(response, 400, 'invalid_frame_origin')
        expect(response.body.error).toMatch(reason)
        expect(response.body.field).toBe('/origin')
      }
      expectError(await as(cookieA, '/api/v1/embed/origins', { body: {} }), 400, 'invalid_body')
    })

    it("another organization's origins are neither listed nor removable", async () => {
      const theirs = 'https://theirs.example'
      expect((await as(cookieB, '/api/v1/embed/origins', { body: { origin: theirs } })).status).toBe(201)
      expect(
        ((await as(cookieA, '/api/v1/embed/origins')).body.origins as { origin: string }[]).map((o) => o.origin),
      ).not.toContain(theirs)
      expectError(
        await as(cookieA, `/api/v1/embed/origins/${encodeURIComponent(theirs)}`, { method: 'DELETE' }),
        404,
        'not_found',
      )
      expect(
        ((await as(cookieB, '/api/v1/embed/origins')).body.origins as { origin: string }[]).map((o) => o.origin),
      ).toContain(theirs)
      // Registering the same origin in another organization is a registration of its own.
      expect((await as(cookieA, '/api/v1/embed/origins', { body: { origin: theirs } })).status).toBe(201)
    })
  })

  describe('users', () => {
    it("lists the organization's users with their status; invites one (201), once per email", async () => {
      const active = await addUser(orgA, 'advisor')
      const signedInAt = new Date('2026-01-02T03:04:05.000Z')
      await store.db
        .updateTable('users')
        .set({ idp_issuer: 'https://idp.example', idp_subject: 'sub-1', last_sign_in_at: signedInAt })
        .where('id', '=', active.id)
        .execute()

      const email = `Nina.${randomBytes(3).toString('hex')}@Example.com`
      const invited = await as(cookieA, '/api/v1/users', { body: { email, role: 'viewer' } })
      expect(invited.status).toBe(201)
      expect(invited.body).toEqual({
        id: expect.stringMatching(UUID),
        email,
        name: email.slice(0, email.indexOf('@')),
        role: 'viewer',
        createdAt: expect.any(String),
        lastSignInAt: null,
        status: 'invited',
      })
      const named = await as(cookieA, '/api/v1/users', {
        body: { email: `ole.${randomBytes(3).toString('hex')}@example.com`, name: '  Ole Olsen ', role: 'admin' },
      })
      expect(named.body).toMatchObject({ name: 'Ole Olsen', role: 'admin' })
      expectError(
        await as(cookieA, '/api/v1/users', { body: { email: email.toLowerCase(), role: 'advisor' } }),
        409,
        'user_exists',
      )
      // Emails are unique per organization only.
      expect((await as(cookieB, '/api/v1/users', { body: { email, role: 'advisor' } })).status).toBe(201)

      const listed = await as(cookieA, '/api/v1/users')
      expect(listed.status).toBe(200)
      const users = listed.body.users as Record<string, unknown>[]
      expect(users.find((u) => u.id === active.id)).toMatchObject({
        status: 'active',
        lastSignInAt: signedInAt.toISOString(),
        role: 'advisor',
      })
      expect(users.find((u) => u.id === adminA.id)).toMatchObject({
        status: 'invited',
        lastSignInAt: null,
        role: 'admin',
      })
      expect(users.find((u) => u.id === invited.body.id)).toEqual(invited.body)
      expect(users.map((u) => u.id)).not.toContain(adminB.id)
      expect(users.filter((u) => String(u.email).toLowerCase() === email.toLowerCase())).toHaveLength(1)
    })

    it('400 invalid_body for a bad email, name or role', async () => {
      // Each with the field the error names (a JSON Pointer into the body).
      const bodies: [unknown, string][] = [
        [{ email: 'not-an-email', role: 'viewer' }, '/email'],
        [{ email: `${'x'.repeat(250)}@example.com`, role: 'viewer' }, '/email'],
        [{ email: 'ann@example.com', role: 'owner' }, '/role'],
        [{ email: 'ann@example.com' }, '/role'],
        [{ email: 'ann@example.com', role: 'viewer', name: '  ' }, '/name'],
        [{ email: 'ann@example.com', role: 'viewer', name: 'x'.repeat(201) }, '/name'],
        [{ email: 'ann@example.com', role: 'viewer', orgId: orgB }, '/orgId'],
      ]
      for (const [body, field] of bodies) {
        const response = await as(cookieA, '/api/v1/users', { body })
        expectError(response, 400, 'invalid_body')
        expect(response.body.field, JSON.stringify(body)).toBe(field)
      }
      expectError(
        await as(cookieA, `/api/v1/users/${adminA.id}`, { method: 'PATCH', body: { role: 'owner' } }),
        400,
        'invalid_body',
      )
      expectError(await as(cookieA, `/api/v1/users/${adminA.id}`, { method: 'PATCH', body: {} }), 400, 'invalid_body')
    })

    it("a role change applies from the user's next request: a demoted admin is 403 at once", async () => {
      const other = await addUser(orgA, 'admin')
      const cookie = await signIn(other)
      expect((await as(cookie, '/api/v1/keys')).status).toBe(200)
      const demoted = await as(cookieA, `/api/v1/users/${other.id}`, { method: 'PATCH', body: { role: 'advisor' } })
      expect(demoted.status).toBe(200)
      expect(demoted.body).toMatchObject({ id: other.id, role: 'advisor', email: other.email, status: 'invited' })
      expectError(await as(cookie, '/api/v1/keys'), 403, 'missing_permission')
      // Still signed in, with the advisor's permissions.
      expect((await as(cookie, '/api/v1/relationships', { body: { name: 'Advised' } })).status).toBe(201)
      const promoted = await as(cookieA, `/api/v1/users/${other.id}`, {
        method: 'PATCH',
        body: { role: 'admin' },
        headers: { 'content-type': 'application/merge-patch+json' },
      })
      expect(promoted.body.role).toBe('admin')
      expect((await as(cookie, '/api/v1/keys')).status).toBe(200)
    })

    it('removes a user with their sessions and assignments', async () => {
      const leaving = await addUser(orgA, 'advisor')
      const cookie = await signIn(leaving)
      const { key } = await createKey(store.db, orgA)
      const household = (
        (await call(`${api.url}/api/v1/relationships`, key, { body: { name: 'The Leavers' } })).body.household as {
          id: string
        }
      ).id
      const assigned = await call(`${api.url}/api/v1/relationships/${household}/assignments`, key, {
        method: 'PUT',
        body: { assignments: [{ userId: leaving.id, role: 'leadAdvisor' }] },
        headers: { 'if-match': '*' },
      })
      expect(assigned.status, JSON.stringify(assigned.body)).toBe(200)
      expect((await as(cookie, '/api/v1/relationships')).status).toBe(200)

      expect((await as(cookieA, `/api/v1/users/${leaving.id}`, { method: 'DELETE' })).status).toBe(204)
      expectError(await as(cookie, '/api/v1/relationships'), 401, 'session_invalid')
      expect(await store.db.selectFrom('sessions').select('id').where('user_id', '=', leaving.id).execute()).toEqual([])
      expect((await call(`${api.url}/api/v1/relationships/${household}/assignments`, key)).body).toEqual({
        assignments: [],
      })
      expect(((await as(cookieA, '/api/v1/users')).body.users as { id: string }[]).map((u) => u.id)).not.toContain(
        leaving.id,
      )
      expectError(await as(cookieA, `/api/v1/users/${leaving.id}`, { method: 'DELETE' }), 404, 'not_found')
    })

    it("another organization's user, an unknown id and a malformed one are 404, and nothing changes", async () => {
      for (const id of [adminB.id, randomUUID(), 'not-a-uuid']) {
        expectError(
          await as(cookieA, `/api/v1/users/${id}`, { method: 'PATCH', body: { role: 'viewer' } }),
          404,
          'not_found',
        )
        expectError(await as(cookieA, `/api/v1/users/${id}`, { method: 'DELETE' }), 404, 'not_found')
      }
      expect(await roleOf(adminB.id)).toBe('admin')
    })

    it('409 last_admin when demoting or removing the only admin; fine once there is another', async () => {
      const org = (await createOrg(store.db, 'One admin')).id
      const only = await addUser(org, 'admin')
      const cookie = await signIn(only)
      for (const role of ['advisor', 'viewer']) {
        const response = await as(cookie, `/api/v1/users/${only.id}`, { method: 'PATCH', body: { role } })
        expectError(response, 409, 'last_admin')
        expect(response.body.error).toMatch(/at least one admin/)
      }
      expectError(await as(cookie, `/api/v1/users/${only.id}`, { method: 'DELETE' }), 409, 'last_admin')
      // Staying admin is no demotion; other users come and go freely.
      expect((await as(cookie, `/api/v1/users/${only.id}`, { method: 'PATCH', body: { role: 'admin' } })).status).toBe(
        200,
      )
      const viewer = await addUser(org, 'viewer')
      expect((await as(cookie, `/api/v1/users/${viewer.id}`, { method: 'DELETE' })).status).toBe(204)
      expect(await roleOf(only.id)).toBe('admin')

      const second = await as(cookie, '/api/v1/users', {
        body: { email: `second-${randomBytes(3).toString('hex')}@example.com`, role: 'admin' },
      })
      expect(
        (await as(cookie, `/api/v1/users/${only.id}`, { method: 'PATCH', body: { role: 'advisor' } })).status,
      ).toBe(200)
      expect(await adminCount(org)).toBe(1)
      // The admin who demoted themselves is no admin any more; the other one is the last.
      expectError(await as(cookie, '/api/v1/users'), 403, 'missing_permission')
      expect(await updateUserRole(store.db, org, String(second.body.id), 'viewer')).toEqual({
        ok: false,
        reason: 'last_admin',
      })
    })

    it('keeps an admin when two admins demote or remove each other at the same time', async () => {
      for (let round = 0; round < 8; round++) {
        const org = (await createOrg(store.db, `Race ${round}`)).id
        const [x, y] = [await addUser(org, 'admin'), await addUser(org, 'admin')]
        const results =
          round % 2 === 0
            ? await Promise.all([
                updateUserRole(store.db, org, x.id, 'advisor'),
                updateUserRole(store.db, org, y.id, 'viewer'),
              ])
            : await Promise.all([removeUser(store.db, org, x.id), removeUser(store.db, org, y.id)])
        expect(results.filter((r) => r.ok)).toHaveLength(1)
        expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'last_admin' }])
        expect(await adminCount(org)).toBe(1)
      }
      // And over HTTP: each admin demotes the other.
      const org = (await createOrg(store.db, 'Race over HTTP')).id
      const [x, y] = [await addUser(org, 'admin'), await addUser(org, 'admin')]
      const [cx, cy] = [await signIn(x), await signIn(y)]
      const responses = await Promise.all([
        as(cx, `/api/v1/users/${y.id}`, { method: 'PATCH', body: { role: 'advisor' } }),
        as(cy, `/api/v1/users/${x.id}`, { method: 'PATCH', body: { role: 'advisor' } }),
      ])
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1)
      // The loser either was demoted before its request was authorized (403) or lost the lock (409).
      expect([403, 409]).toContain(responses.find((r) => r.status !== 200)?.status)
      expect(await adminCount(org)).toBe(1)
    })
  })

  describe('usage', () => {
    it('counts chart mints and renders per origin, and API calls per key with legacy calls apart', async () => {
      const org = (await createOrg(store.db, 'Metered')).id
      const cookie = await signIn(await addUser(org, 'admin'))
      const other = 'https://other.example'
      await addFrameOrigin(store.db, org, PARTNER)
      await addFrameOrigin(store.db, org, other)
      const crm = await createKey(store.db, org)
      const quiet = await createKey(store.db, org)
      const elsewhere = await createKey(store.db, orgB)

      // A server of its own, closed at the end to flush the call counts it batches.
      const metered = await startApp(store)
      const jtis: string[] = []
      for (const frameOrigin of [PARTNER, PARTNER, other]) {
        const minted = await call(`${metered.url}/api/v1/embed/chart-sessions`, crm.key, { body: { frameOrigin } })
        expect(minted.status).toBe(201)
        const payload = JSON.parse(
          Buffer.from(String(minted.body.token).split('.')[1] ?? '', 'base64url').toString(),
        ) as { jti: string }
        jtis.push(payload.jti)
      }
      expect(await recordChartRender(store.db, jtis[0] ?? '')).toBe(true)
      await call(`${metered.url}/api/v1/relationships`, crm.key)
      await call(`${metered.url}/api/v1/households`, crm.key)
      await call(`${metered.url}/api/v1/households`, crm.key)
      await call(`${metered.url}/api/v1/relationships`, elsewhere.key)
      await metered.close()

      const today = new Date().toISOString().slice(0, 10)
      const usage = await as(cookie, '/api/v1/usage')
      expect(usage.status).toBe(200)
      expect(usage.body.since).toBe(new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10))
      expect(usage.body.chart).toEqual([
        { day: today, frameOrigin: other, mints: 1, renders: 0 },
        { day: today, frameOrigin: PARTNER, mints: 2, renders: 1 },
      ])
      expect(usage.body.apiCalls).toEqual([
        { day: today, keyId: crm.id, keyName: 'test', keyPrefix: crm.key.slice(0, 12), calls: 6, legacyCalls: 2 },
      ])
      expect(quiet.id).not.toBe(crm.id)

      // Earlier days are reported from since on.
      const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)
      await store.db
        .insertInto('api_key_usage')
        .values({ key_id: quiet.id, day: tenDaysAgo, legacy: true, calls: 7 })
        .execute()
      const withOld = await as(cookie, '/api/v1/usage')
      expect(withOld.body.apiCalls).toEqual([
        {
          day: tenDaysAgo,
          keyId: quiet.id,
          keyName: 'test',
          keyPrefix: quiet.key.slice(0, 12),
          calls: 7,
          legacyCalls: 7,
        },
        expect.objectContaining({ day: today, keyId: crm.id }),
      ])
      const sinceToday = await as(cookie, `/api/v1/usage?since=${today}`)
      expect(sinceToday.body).toMatchObject({ since: today, apiCalls: [expect.objectContaining({ keyId: crm.id })] })
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
      expect((await as(cookie, `/api/v1/usage?since=${tomorrow}`)).body).toEqual({
        since: tomorrow,
        chart: [],
        apiCalls: [],
      })
    })

    it('400 invalid_query for a since that is not a real day', async () => {
      for (const since of [
        '2025-02-30',
        '2025-2-3',
        'yesterday',
        '0000-01-01',
        '1999-12-31',
        '2025-01-01T00:00:00Z',
        '',
      ]) {
        const response = await as(cookieA, `/api/v1/usage?since=${encodeURIComponent(since)}`)
        expectError(response, 400, 'invalid_query')
        expect(response.body.field).toBe('/since')
      }
      expect((await as(cookieA, '/api/v1/usage?since=2024-02-29')).status).toBe(200)
    })
  })

  it('documents every admin operation: tag admin, the session only, and why keys are refused', async () => {
    const doc = (await call(`${api.url}/api/v1/openapi.json`, undefined)).body as {
      paths: Record<
        string,
        Record<string, { tags?: string[]; security?: unknown; description?: string; operationId?: string }>
      >
    }
    const expected: [string, string][] = [
      ['/api/v1/keys', 'get'],
      ['/api/v1/keys', 'post'],
      ['/api/v1/keys/{keyId}', 'delete'],
      ['/api/v1/embed/origins', 'get'],
      ['/api/v1/embed/origins', 'post'],
      ['/api/v1/embed/origins/{origin}', 'delete'],
      ['/api/v1/users', 'get'],
      ['/api/v1/users', 'post'],
      ['/api/v1/users/{userId}', 'patch'],
      ['/api/v1/users/{userId}', 'delete'],
      ['/api/v1/usage', 'get'],
    ]
    for (const [path, method] of expected) {
      const operation = doc.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(operation?.tags).toEqual(['admin'])
      expect(operation?.security).toEqual([{ SessionAuth: [] }])
      expect(operation?.description).toContain('org:admin')
      expect(operation?.description).toContain('API keys can never carry it')
    }
  })
})
