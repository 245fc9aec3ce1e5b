// The legacy /api/v1/households paths (same data, deprecation headers) and tenant isolation:
// no household is ever visible to another organization by list, search or ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { seedHouseholds } from '../helpers/seed.ts'

describe.each(storeKinds())('legacy paths and tenancy on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let sunsetApi: TestApp
  let alice: { orgId: string; key: string }
  let bob: { orgId: string; key: string }
  let aliceIds: Map<string, string>

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    sunsetApi = await startApp(store, { householdsSunset: '2027-06-30' })
    alice = await createOrgWithKey(store.db)
    bob = await createOrgWithKey(store.db)
    aliceIds = await seedHouseholds(store.db, alice.orgId, [
      { name: 'Alice Secret Household', members: ['Zebulon Unique'] },
      { name: 'Alice Sample', sample: true },
    ])
    await seedHouseholds(store.db, bob.orgId, [{ name: 'Bob Household', members: ['Bob Member'] }])
  })
  afterAll(async () => {
    await api?.close()
    await sunsetApi?.close()
    await store?.drop()
  })

  it('answers the same list on both paths', async () => {
    const current = await call(`${api.url}/api/v1/relationships?sortBy=name`, alice.key)
    const legacy = await call(`${api.url}/api/v1/households?sortBy=name`, alice.key)
    expect(legacy.status).toBe(200)
    expect(legacy.body).toEqual(current.body)
    expect(Object.keys(legacy.body)).toEqual(['households', 'total', 'page', 'pageSize', 'nextCursor'])
  })

  it('marks legacy responses deprecated (RFC 9745) with the successor, also on errors', async () => {
    for (const response of [
      await call(`${api.url}/api/v1/households`, alice.key),
      await call(`${api.url}/api/v1/households?page=0`, alice.key),
      await call(`${api.url}/api/v1/households`, undefined),
      await call(`${api.url}/api/v1/households`, alice.key, { body: { name: 'Legacy' } }),
    ]) {
      expect(response.headers.get('deprecation')).toMatch(/^@\d+$/)
      expect(response.headers.get('link')).toBe('</api/v1/relationships>; rel="successor-version"')
      expect(response.headers.get('sunset')).toBeNull()
    }
    const current = await call(`${api.url}/api/v1/relationships`, alice.key)
    expect(current.headers.get('deprecation')).toBeNull()
    expect(current.headers.get('link')).toBeNull()
  })

  it('adds Sunset when HEARTH_HOUSEHOLDS_SUNSET is set', async () => {
    const response = await call(`${sunsetApi.url}/api/v1/households`, alice.key)
    expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT')
    expect((await call(`${sunsetApi.url}/api/v1/relationships`, alice.key)).headers.get('sunset')).toBeNull()
  })

  it("never shows one organization's households to another", async () => {
    for (const path of ['/api/v1/relationships', '/api/v1/households']) {
      const all = await call(`${api.url}${path}`, bob.key)
      expect((all.body.households as { name: string }[]).map((h) => h.name)).toEqual(['Bob Household'])
      expect(all.body.total).toBe(1)
      for (const query of ['?search=alice', '?search=zebulon', '?isSample=true', '?excludeSample=true&search=secret']) {
        const found = await call(`${api.url}${path}${query}`, bob.key)
        expect(found.body.households, query).toEqual([])
        expect(found.body.total, query).toBe(0)
      }
      const byId = await call(`${api.url}${path}?ids=${[...aliceIds.values()].join(',')}`, bob.key)
      expect(byId.body).toMatchObject({ households: [], total: 0 })
    }
  })

  it("creates into the caller's organization only", async () => {
    const created = await call(`${api.url}/api/v1/relationships`, bob.key, { body: { name: 'Bob Second' } })
    const id = (created.body.household as { id: string }).id
    const asAlice = await call(`${api.url}/api/v1/relationships?ids=${id}`, alice.key)
    expect(asAlice.body.total).toBe(0)
    expect((await call(`${api.url}/api/v1/relationships`, bob.key)).body.total).toBe(2)
  })
})
