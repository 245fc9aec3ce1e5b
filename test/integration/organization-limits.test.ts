// GET and PATCH /api/v1/limits: an organization's admins see its budgets and what requests cost,
// and can lower the organization's budget or each key's below what the operator allows, never
// above it; the API enforces the lowered budgets at once (they come with the credential).
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, startApp, TEST_PUBLIC_URL, type TestApp } from '../helpers/app.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { createUser } from '../../src/store/users.ts'
import type { UserRole } from '../../src/domain/user-roles.ts'
import { createSession } from '../../src/auth/sessions.ts'
import { setOperatorRateLimits } from '../../src/store/org-limits.ts'

describe.each(storeKinds())('the rate limits admin API on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgId: string
  let otherOrgId: string
  let admin: string

  const signedIn = async (org: string, role: UserRole) => {
    const user = await createUser(store.db, {
      orgId: org,
      email: `${role}-${randomBytes(4).toString('hex')}@example.test`,
      name: role,
      role,
    })
    if (!user) throw new Error('user not created')
    return (await createSession(store.db, { id: user.id, orgId: org })).value
  }
  const as = (cookie: string, body?: unknown) =>
    call(`${api.url}/api/v1/limits`, undefined, {
      method: body === undefined ? 'GET' : 'PATCH',
      body,
      headers: { cookie: `idp-session=${cookie}`, ...(body === undefined ? {} : { origin: TEST_PUBLIC_URL }) },
    })
  const budget = (limit: number, ceiling: number, operatorOverride: number | null, adminLowered: number | null) => ({
    limit,
    ceiling,
    operatorOverride,
    adminLowered,
  })

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store, { rateLimitMax: 600, orgRateLimitMax: 1800 })
    orgId = (await createOrg(store.db, 'Limits Partners')).id
    otherOrgId = (await createOrg(store.db, 'Other Firm')).id
    admin = await signedIn(orgId, 'admin')
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('shows the budgets in force, the window and the cost table to an admin only', async () => {
    const shown = await as(admin)
    expect(shown.status).toBe(200)
    expect(shown.body).toMatchObject({
      windowSeconds: 60,
      organization: budget(1800, 1800, null, null),
      perCredential: budget(600, 600, null, null),
    })
    expect(shown.body.costs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ units: 5 }),
        expect.objectContaining({ units: 0.1 }),
        expect.objectContaining({ units: 20 }),
      ]),
    )
    expect((await as(await signedIn(orgId, 'advisor'))).status).toBe(403)
    const { key } = await createKey(store.db, orgId)
    expect((await call(`${api.url}/api/v1/limits`, key)).body.code).toBe('missing_permission')
  })

  it('refuses to raise a budget above what the operator allows, naming the ceiling', async () => {
    const refused = await as(admin, { requests: 1801 })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({
      code: 'invalid_body',
      error: expect.stringContaining('at most 1800, what the operator allows'),
      field: '/requests',
    })
    const tooManyPerKey = await as(admin, { keyRequests: 601 })
    expect(tooManyPerKey.body.error).toContain('at most 600')
    expect(tooManyPerKey.body.field).toBe('/keyRequests')
    expect((await as(admin, { requests: 0 })).status).toBe(400)
    // Not below one signed-in user's budget: the admin's own web app spends the organization's budget too.
    const tooLow = await as(admin, { requests: 599 })
    expect(tooLow.status).toBe(400)
    expect(tooLow.body.error).toContain('no lower than 600')
    expect(tooLow.body.field).toBe('/requests')
    expect((await as(admin, { requests: 600 })).body.organization).toEqual(budget(600, 1800, null, 600))
    const unknown = await as(admin, { burst: 5 })
    expect(unknown.status).toBe(400)
    expect(unknown.body.field).toBe('/burst')
    // Under an operator's override the ceiling is the override.
    await setOperatorRateLimits(store.db, orgId, { requests: 3000 })
    const lowered = await as(admin, { requests: 2000 })
    expect(lowered.status).toBe(200)
    expect(lowered.body.organization).toEqual(budget(2000, 3000, 3000, 2000))
  })

  it("lowers each key's budget at once, for this organization only; null removes the lowering", async () => {
    expect((await as(admin, { keyRequests: 2 })).body.perCredential).toEqual(budget(2, 600, null, 2))
    const { key } = await createKey(store.db, orgId)
    const responses = []
    for (let i = 0; i < 3; i++) responses.push(await call(`${api.url}/api/v1/relationships`, key))
    expect(responses.map((r) => r.status)).toEqual([200, 200, 429])
    expect(responses[0]?.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60, "org";q=2000;w=60')
    expect(responses[2]?.body.error).toMatch(/^This API key used up its request budget \(2 units per 60 s\)/)
    // The admin's own session keeps the instance's per-user budget: lowering keys cannot lock them out.
    expect((await as(admin)).headers.get('ratelimit-policy')).toBe('"default";q=600;w=60, "org";q=2000;w=60')
    const other = await createKey(store.db, otherOrgId)
    expect((await call(`${api.url}/api/v1/relationships`, other.key)).headers.get('ratelimit-policy')).toBe(
      '"default";q=600;w=60, "org";q=1800;w=60',
    )
    const cleared = await as(admin, { keyRequests: null })
    expect(cleared.body.perCredential, JSON.stringify(cleared.body)).toEqual(budget(600, 600, null, null))
    expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
  })

  it("tells a signed-in user the per-user budget that ran out, not the organization's per-key one", async () => {
    const small = await startApp(store, { rateLimitMax: 2, orgRateLimitMax: 1800 })
    try {
      const org = (await createOrg(store.db, 'Raised Keys')).id
      await setOperatorRateLimits(store.db, org, { keyRequests: 50 })
      const cookie = await signedIn(org, 'viewer')
      const responses = []
      for (let i = 0; i < 3; i++)
        responses.push(
          await call(`${small.url}/api/v1/relationships`, undefined, { headers: { cookie: `idp-session=${cookie}` } }),
        )
      expect(responses.map((r) => r.status)).toEqual([200, 200, 429])
      expect(responses[2]?.body.error).toMatch(/^Your user used up its request budget \(2 units per 60 s\)/)
    } finally {
      await small.close()
    }
  })
})
