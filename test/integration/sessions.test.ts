// The idp-session cookie on the API (DESIGN §4 "Session cookie"): a signed-in user calls the same
// /api/v1 endpoints as keys, with the permissions of their role, inside their own org only.
// Forged, expired, revoked and signed-out cookies are 401 with their own codes; a cookie write
// from another site is 403 and writes nothing; sessions share their user's rate-limit budget.
// Sign-in (OIDC) comes later: sessions are created with the same function sign-in will call.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, startApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { deleteEndedSessions, revokeSession } from '../../src/store/sessions.ts'
import { createSession, hashSessionValue, SESSION_IDLE_TIMEOUT_MS } from '../../src/auth/sessions.ts'

const LIST = '/api/v1/relationships'
const SAME_ORIGIN = { origin: TEST_PUBLIC_URL }
const PARTNER = 'https://partner.example'

interface TestUser {
  id: string
  orgId: string
}

describe.each(storeKinds())('session cookies on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgA: string
  let orgB: string
  let viewer: TestUser
  let advisor: TestUser
  let admin: TestUser
  let userB: TestUser
  let householdA: string
  let householdB: string

  async function addUser(orgId: string, role: UserRole): Promise<TestUser> {
    const email = `${role}-${randomBytes(4).toString('hex')}@example.test`
    const user = await createUser(store.db, { orgId, email, name: `A ${role}`, role })
    if (!user) throw new Error('user not created')
    return { id: user.id, orgId }
  }
  const signIn = async (user: TestUser) => (await createSession(store.db, user)).value

  /** fetch with the idp-session cookie (and no Authorization header). */
  const withCookie = (
    value: string,
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    base = api.url,
  ) =>
    call(`${base}${path}`, undefined, { ...init, headers: { cookie: `idp-session=${value}`, ...(init.headers ?? {}) } })

  const householdCount = async (orgId: string) =>
    Number(
      (
        await store.db
          .selectFrom('households')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    )

  const sessionRow = (value: string) =>
    store.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashSessionValue(value))
      .executeTakeFirstOrThrow()

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    orgA = (await createOrg(store.db, 'Org A')).id
    orgB = (await createOrg(store.db, 'Org B')).id
    viewer = await addUser(orgA, 'viewer')
    advisor = await addUser(orgA, 'advisor')
    admin = await addUser(orgA, 'admin')
    userB = await addUser(orgB, 'admin')
    const keyA = await createKey(store.db, orgA)
    const keyB = await createKey(store.db, orgB)
    householdA = (
      (await call(`${api.url}${LIST}`, keyA.key, { body: { name: 'The Aldens' } })).body.household as { id: string }
    ).id
    householdB = (
      (await call(`${api.url}${LIST}`, keyB.key, { body: { name: 'The Bakers' } })).body.household as { id: string }
    ).id
    await addFrameOrigin(store.db, orgA, PARTNER)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  describe('with the permissions of the role', () => {
    it('a viewer lists and reads households, and cannot write (403 missing_permission)', async () => {
      const cookie = await signIn(viewer)
      const list = await withCookie(cookie, LIST)
      expect(list.status).toBe(200)
      expect((list.body.households as { id: string }[]).map((h) => h.id)).toContain(householdA)
      expect((await withCookie(cookie, `${LIST}/${householdA}`)).status).toBe(200)
      expect((await withCookie(cookie, '/api/v1/households')).status).toBe(200)

      const before = await householdCount(orgA)
      const write = await withCookie(cookie, LIST, { body: { name: 'Nope' }, headers: SAME_ORIGIN })
      expect(write.status).toBe(403)
      expect(write.body).toMatchObject({ code: 'missing_permission', error: expect.stringContaining('viewer') })
      expect(write.body.error).toContain('relationships:write')
      const mint = await withCookie(cookie, '/api/v1/embed/chart-sessions', {
        body: { frameOrigin: PARTNER },
        headers: SAME_ORIGIN,
      })
      expect(mint.status).toBe(403)
      expect(await householdCount(orgA)).toBe(before)
    })

    it('an advisor creates and patches (If-Match); the audit log names the user', async () => {
      const cookie = await signIn(advisor)
      const created = await withCookie(cookie, LIST, { body: { name: 'The Carters' }, headers: SAME_ORIGIN })
      expect(created.status).toBe(201)
      const id = (created.body.household as { id: string }).id
      const etag = created.headers.get('etag') ?? ''
      const patched = await withCookie(cookie, `${LIST}/${id}`, {
        method: 'PATCH',
        body: { name: 'The Carter Family' },
        headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json', 'if-match': etag },
      })
      expect(patched.status).toBe(200)
      expect((patched.body.household as { name: string }).name).toBe('The Carter Family')

      const audit = await store.db
        .selectFrom('audit_log')
        .select(['actor_type', 'actor_id', 'action', 'org_id'])
        .where('household_id', '=', id)
        .orderBy('id')
        .execute()
      expect(audit).toEqual([
        { actor_type: 'user', actor_id: advisor.id, action: 'household.create', org_id: orgA },
        { actor_type: 'user', actor_id: advisor.id, action: 'household.update', org_id: orgA },
      ])
    })

    it('an advisor and an admin mint chart tokens (embed:chart), recorded as minted by the user', async () => {
      for (const user of [advisor, admin]) {
        const cookie = await signIn(user)
        const mint = await withCookie(cookie, '/api/v1/embed/chart-sessions', {
          body: { frameOrigin: PARTNER },
          headers: SAME_ORIGIN,
        })
        expect(mint.status).toBe(201)
        expect(mint.body).toMatchObject({ token: expect.any(String), embedUrl: expect.any(String) })
        const row = await store.db
          .selectFrom('chart_mints')
          .select(['actor_type', 'key_id'])
          .where('key_id', '=', user.id)
          .executeTakeFirstOrThrow()
        expect(row).toEqual({ actor_type: 'user', key_id: user.id })
      }
    })

    it('a role change applies to live sessions at once', async () => {
      const user = await addUser(orgA, 'viewer')
      const cookie = await signIn(user)
      const body = { name: 'Promoted' }
      expect((await withCookie(cookie, LIST, { body, headers: SAME_ORIGIN })).status).toBe(403)
      await store.db.updateTable('users').set({ role: 'advisor' }).where('id', '=', user.id).execute()
      expect((await withCookie(cookie, LIST, { body, headers: SAME_ORIGIN })).status).toBe(201)
    })
  })

  it("a user of one org never sees another org's households", async () => {
    const cookie = await signIn(userB)
    const list = await withCookie(cookie, LIST)
    expect(list.status).toBe(200)
    const ids = (list.body.households as { id: string }[]).map((h) => h.id)
    expect(ids).toContain(householdB)
    expect(ids).not.toContain(householdA)
    expect((await withCookie(cookie, `${LIST}/${householdA}`)).status).toBe(404)
    expect((await withCookie(cookie, `/api/v1/households/${householdA}`)).status).toBe(404)
    const patch = await withCookie(cookie, `${LIST}/${householdA}`, {
      method: 'PATCH',
      body: { name: 'Taken over' },
      headers: { ...SAME_ORIGIN, 'content-type': 'application/merge-patch+json', 'if-match': '"1"' },
    })
    expect(patch.status).toBe(404)
    const viewerA = await withCookie(await signIn(viewer), `${LIST}/${householdB}`)
    expect(viewerA.status).toBe(404)
  })

  describe('refused cookies', () => {
    async function expect401(response: Awaited<ReturnType<typeof call>>, code: string) {
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ code, error: expect.any(String) })
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="hearth"')
      // The browser is told to drop the dead cookie.
      expect(response.headers.get('set-cookie')).toMatch(
        /^idp-session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/,
      )
    }

    it('401 session_invalid for forged values', async () => {
      for (const forged of [
        randomBytes(32).toString('base64url'),
        'short',
        'x'.repeat(43),
        `${randomBytes(32).toString('base64url')}=`,
      ]) {
        await expect401(await withCookie(forged, LIST), 'session_invalid')
      }
    })

    it('401 session_expired after the idle timeout and after the absolute lifetime', async () => {
      const idle = await signIn(viewer)
      expect((await withCookie(idle, LIST)).status).toBe(200)
      const idleRow = await sessionRow(idle)
      await store.db
        .updateTable('sessions')
        .set({ idle_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', idleRow.id)
        .execute()
      await expect401(await withCookie(idle, LIST), 'session_expired')

      const absolute = await signIn(viewer)
      const absoluteRow = await sessionRow(absolute)
      await store.db
        .updateTable('sessions')
        .set({ absolute_expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', absoluteRow.id)
        .execute()
      expect((await sessionRow(absolute)).idle_expires_at.getTime()).toBeGreaterThan(Date.now())
      await expect401(await withCookie(absolute, LIST), 'session_expired')
    })

    it('slides the idle expiry with use, at most once a minute, never past the absolute expiry', async () => {
      const value = await signIn(viewer)
      const { id, idle_expires_at: first } = await sessionRow(value)
      await withCookie(value, LIST)
      expect((await sessionRow(value)).idle_expires_at).toEqual(first) // used within the minute: no write

      const twoMinutesAgo = new Date(Date.now() - 120_000)
      await store.db
        .updateTable('sessions')
        .set({ last_seen_at: twoMinutesAgo, idle_expires_at: new Date(Date.now() + 60_000) })
        .where('id', '=', id)
        .execute()
      await withCookie(value, LIST)
      const slid = await sessionRow(value)
      expect(slid.last_seen_at.getTime()).toBeGreaterThan(twoMinutesAgo.getTime())
      expect(slid.idle_expires_at.getTime()).toBeGreaterThan(Date.now() + SESSION_IDLE_TIMEOUT_MS - 60_000)

      const inAnHour = new Date(Date.now() + 3600_000)
      await store.db
        .updateTable('sessions')
        .set({ last_seen_at: twoMinutesAgo, absolute_expires_at: inAnHour })
        .where('id', '=', id)
        .execute()
      await withCookie(value, LIST)
      expect((await sessionRow(value)).idle_expires_at).toEqual(inAnHour)
    })

    it('401 session_revoked once revoked, and session_invalid once the user is removed', async () => {
      const value = await signIn(viewer)
      expect((await withCookie(value, LIST)).status).toBe(200)
      await revokeSession(store.db, (await sessionRow(value)).id)
      await expect401(await withCookie(value, LIST), 'session_revoked')

      const removed = await addUser(orgA, 'viewer')
      const removedCookie = await signIn(removed)
      await store.db.deleteFrom('users').where('id', '=', removed.id).execute()
      await expect401(await withCookie(removedCookie, LIST), 'session_invalid')
    })

    it('the hourly sweep forgets sessions ended over a day ago, and only those', async () => {
      const now = new Date()
      const ended = await signIn(viewer)
      await revokeSession(store.db, (await sessionRow(ended)).id)
      await store.db
        .updateTable('sessions')
        .set({ revoked_at: new Date(now.getTime() - 2 * 86_400_000) })
        .where('token_hash', '=', hashSessionValue(ended))
        .execute()
      const recentlyEnded = await signIn(viewer)
      await revokeSession(store.db, (await sessionRow(recentlyEnded)).id)
      const live = await signIn(viewer)
      expect(await deleteEndedSessions(store.db, now)).toBeGreaterThanOrEqual(1)
      const left = await store.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('token_hash', 'in', [ended, recentlyEnded, live].map(hashSessionValue))
        .execute()
      expect(left.map((row) => row.token_hash).sort()).toEqual([recentlyEnded, live].map(hashSessionValue).sort())
      await expect401(await withCookie(ended, LIST), 'session_invalid')
      expect((await withCookie(live, LIST)).status).toBe(200)
    })

    it('never takes a key from the cookie nor a session from the Authorization header', async () => {
      const { key } = await createKey(store.db, orgA)
      const keyInCookie = await withCookie(key, LIST)
      await expect401(keyInCookie, 'session_invalid')
      expect(keyInCookie.body.error).toMatch(/only from the Authorization header/)

      const session = await signIn(viewer)
      const sessionInHeader = await call(`${api.url}${LIST}`, session)
      expect(sessionInHeader.status).toBe(401)
      expect(sessionInHeader.body.code).toBe('invalid_credentials')
      // With both, the header decides: a bad key is not rescued by a good cookie.
      const both = await call(`${api.url}${LIST}`, 'idx_not-a-key', { headers: { cookie: `idp-session=${session}` } })
      expect(both.body.code).toBe('invalid_credentials')
      // An empty cookie (what a cleared cookie can leave behind) is no credential at all.
      expect((await withCookie('', LIST)).body.code).toBe('missing_credentials')
    })
  })

  describe('sign out', () => {
    it('ends the session server-side and clears the cookie; the same cookie is then 401', async () => {
      const value = await signIn(viewer)
      const out = await withCookie(value, '/auth/sign-out', { method: 'POST', headers: SAME_ORIGIN })
      expect(out.status).toBe(204)
      const cleared = out.headers.get('set-cookie') ?? ''
      expect(cleared).toMatch(/^idp-session=;/)
      expect(cleared).toContain('Max-Age=0')
      expect(cleared).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT')
      expect(cleared).toContain('HttpOnly')
      expect(cleared).toContain('SameSite=Lax')
      expect(cleared).toContain('Path=/')
      expect(cleared).toContain('Secure')
      expect((await withCookie(value, LIST)).body.code).toBe('session_revoked')
      expect((await withCookie(value, '/auth/sign-out', { method: 'POST', headers: SAME_ORIGIN })).status).toBe(401)
    })

    it('needs a session cookie (a key is not one) and a same-origin request', async () => {
      const { key } = await createKey(store.db, orgA)
      const withKey = await call(`${api.url}/auth/sign-out`, key, { method: 'POST', headers: SAME_ORIGIN })
      expect(withKey.status).toBe(401)
      expect(withKey.body.code).toBe('missing_credentials')
      expect((await call(`${api.url}/auth/sign-out`, undefined, { method: 'POST', headers: SAME_ORIGIN })).status).toBe(
        401,
      )

      const value = await signIn(viewer)
      const crossSite = await withCookie(value, '/auth/sign-out', {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      })
      expect(crossSite.status).toBe(403)
      expect(crossSite.body.code).toBe('cross_site_request')
      expect((await withCookie(value, LIST)).status).toBe(200)
    })

    it("everywhere: ends all of the user's sessions and no one else's", async () => {
      const mine = [await signIn(advisor), await signIn(advisor), await signIn(advisor)]
      const someoneElse = await signIn(admin)
      const out = await withCookie(mine[0] ?? '', '/auth/sign-out-everywhere', {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin' },
      })
      expect(out.status).toBe(204)
      expect(out.headers.get('set-cookie')).toMatch(/^idp-session=; Max-Age=0;/)
      for (const value of mine) expect((await withCookie(value, LIST)).body.code).toBe('session_revoked')
      expect((await withCookie(someoneElse, LIST)).status).toBe(200)
    })

    it('sets Secure except when the public URL is plain http on localhost', async () => {
      const local = await startApp(store, { publicUrl: 'http://localhost:3000' })
      try {
        const value = await signIn(viewer)
        const out = await withCookie(
          value,
          '/auth/sign-out',
          { method: 'POST', headers: { origin: 'http://localhost:3000' } },
          local.url,
        )
        expect(out.status).toBe(204)
        expect(out.headers.get('set-cookie')).toBe(
          'idp-session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
        )
      } finally {
        await local.close()
      }
    })
  })

  describe('cross-site writes with the cookie', () => {
    const refusedHeaders: [string, Record<string, string>][] = [
      ['a foreign Origin', { origin: 'https://evil.example' }],
      ['Origin null (sandboxed frame, data: URL)', { origin: 'null' }],
      ['the same host on another scheme', { origin: TEST_PUBLIC_URL.replace('http:', 'https:') }],
      ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
      [
        'Sec-Fetch-Site: same-origin with a foreign Origin',
        { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
      ],
      ['the right Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: TEST_PUBLIC_URL }],
      ['neither header', {}],
    ]

    it.each(refusedHeaders)('403 cross_site_request with %s, and nothing is written', async (_name, headers) => {
      const value = await signIn(advisor)
      const before = await householdCount(orgA)
      const response = await withCookie(value, LIST, { body: { name: 'Forged' }, headers })
      expect(response.status).toBe(403)
      expect(response.body).toMatchObject({ code: 'cross_site_request', error: expect.any(String) })
      expect(await householdCount(orgA)).toBe(before)
    })

    it('403 on PATCH and DELETE too; the household is unchanged', async () => {
      const value = await signIn(advisor)
      const evil = { origin: 'https://evil.example' }
      const patch = await withCookie(value, `${LIST}/${householdA}`, {
        method: 'PATCH',
        body: { name: 'Forged' },
        headers: { ...evil, 'content-type': 'application/merge-patch+json', 'if-match': '"1"' },
      })
      expect(patch.body.code).toBe('cross_site_request')
      const remove = await withCookie(value, `${LIST}/${householdA}`, {
        method: 'DELETE',
        headers: { ...evil, 'if-match': '"1"' },
      })
      expect(remove.body.code).toBe('cross_site_request')
      const after = await withCookie(value, `${LIST}/${householdA}`)
      expect(after.status).toBe(200)
      expect((after.body.household as { name: string }).name).toBe('The Aldens')
    })

    it("allows writes from the app's own origin (Origin or Sec-Fetch-Site), and reads from anywhere", async () => {
      const value = await signIn(advisor)
      const allowed: Record<string, string>[] = [
        { origin: TEST_PUBLIC_URL },
        { 'sec-fetch-site': 'same-origin' },
        { 'sec-fetch-site': 'same-origin', origin: TEST_PUBLIC_URL },
      ]
      for (const headers of allowed) {
        expect((await withCookie(value, LIST, { body: { name: 'Same origin' }, headers })).status).toBe(201)
      }
      expect(
        (await withCookie(value, LIST, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } }))
          .status,
      ).toBe(200)
    })

    it('does not apply to API keys: a browser never adds the Authorization header by itself', async () => {
      const { key } = await createKey(store.db, orgA)
      const response = await call(`${api.url}${LIST}`, key, {
        body: { name: 'Server to server' },
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      })
      expect(response.status).toBe(201)
    })
  })

  it("rate-limits per user: all of a user's sessions share one budget", async () => {
    const limited = await startApp(store, { rateLimitMax: 3, rateLimitWindowSeconds: 3600 })
    try {
      const [one, two] = [await signIn(viewer), await signIn(viewer)]
      const statuses = []
      for (const value of [one, two, one, two]) statuses.push((await withCookie(value, LIST, {}, limited.url)).status)
      expect(statuses).toEqual([200, 200, 200, 429])
      const refused = await withCookie(two, LIST, {}, limited.url)
      expect(refused.body).toMatchObject({ code: 'rate_limited', resetAt: expect.any(String) })
      // Another user of the same org has their own budget.
      expect((await withCookie(await signIn(advisor), LIST, {}, limited.url)).status).toBe(200)
    } finally {
      await limited.close()
    }
  })
})
