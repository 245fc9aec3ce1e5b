// GET /api/v1/relationships: defaults, paging, sorting, search, filters, ids and exact totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { seedHouseholds } from '../helpers/seed.ts'

const HOUSEHOLDS = [
  { name: 'Whitfield Family', members: ['Margaret Whitfield', 'Thomas Whitfield', 'Emily Hart', 'Noah Hart'] },
  { name: 'Smith Family', members: ['Robert Smith', 'Linda Smith'] },
  { name: 'goldsmith household', members: ['Rebecca Goldsmith'] },
  { name: 'Okafor Family', members: ['Chidi Okafor', 'Grace Okafor', 'Adaeze Okafor'] },
  { name: 'Lindqvist Household', members: ['Ingrid Lindqvist'], deceasedSpouseName: 'Harold Smithson' },
  { name: '100% Club_Members', members: [] },
  { name: 'Ångström Household', members: ['Åsa Ångström'], sample: true },
  { name: 'Nakamura Household', members: ['Kenji Nakamura', 'Aiko Nakamura'], sample: true },
]

interface Item {
  id: string
  name: string
  isSample: boolean
  members: { name: string; role: string }[]
  counts: { members: number; assignments: number; entities: number }
  createdAt: string
}

describe.each(storeKinds())('list relationships on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let ids: Map<string, string>

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    const org = await createOrgWithKey(store.db)
    key = org.key
    ids = await seedHouseholds(store.db, org.orgId, HOUSEHOLDS)
    // createdAt keeps milliseconds, and households seeded back to back can share one: give them a
    // second each, in seeding order, so that the createdAt order is the order of HOUSEHOLDS.
    for (const [i, id] of [...ids.values()].entries()) {
      await sql`UPDATE households SET created_at = timestamptz '2026-01-01 00:00:00+00' + ${i} * interval '1 second' WHERE id = ${id}`.execute(
        store.db,
      )
    }
    // Another org's households must never show up.
    const other = await createOrgWithKey(store.db)
    await seedHouseholds(store.db, other.orgId, [{ name: 'Smith Other Org', members: ['Smith Stranger'] }])
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const list = async (query = '') => {
    const response = await call(`${api.url}/api/v1/relationships${query}`, key)
    return response as typeof response & { body: { households: Item[]; total: number; page: number; pageSize: number } }
  }
  const names = (items: Item[]) => items.map((h) => h.name)

  it('defaults to page 1 of 50, newest first, with members, assignments and counts', async () => {
    const { status, body } = await list()
    expect(status).toBe(200)
    expect(body.page).toBe(1)
    expect(body.pageSize).toBe(50)
    expect(body.total).toBe(HOUSEHOLDS.length)
    expect(names(body.households)).toEqual(HOUSEHOLDS.map((h) => h.name).reverse())
    const whitfield = body.households.find((h) => h.name === 'Whitfield Family')
    expect(whitfield).toMatchObject({
      isSample: false,
      counts: { members: 4, assignments: 0, entities: 0 },
      members: [
        { name: 'Margaret Whitfield', role: 'primaryClient' },
        { name: 'Thomas Whitfield', role: 'coClient' },
        { name: 'Emily Hart', role: 'child' },
        { name: 'Noah Hart', role: 'child' },
      ],
    })
    expect(Object.keys(whitfield ?? {}).sort()).toEqual([
      'assignments',
      'counts',
      'createdAt',
      'externalId',
      'id',
      'isSample',
      'members',
      'name',
      'updatedAt',
    ])
  })

  it('pages without overlap or gaps, with an exact total on every page', async () => {
    const seen: string[] = []
    for (let page = 1; page <= 3; page++) {
      const { body } = await list(`?pageSize=3&page=${page}&sortBy=name`)
      expect(body.total).toBe(HOUSEHOLDS.length)
      expect(body.page).toBe(page)
      seen.push(...body.households.map((h) => h.id))
    }
    expect(seen).toHaveLength(HOUSEHOLDS.length)
    expect(new Set(seen).size).toBe(HOUSEHOLDS.length)
    const past = await list('?pageSize=3&page=4')
    expect(past.body.households).toEqual([])
    expect(past.body.total).toBe(HOUSEHOLDS.length)
  })

  it('sorts by name case-insensitively, both ways', async () => {
    const asc = names((await list('?sortBy=name&sortOrder=asc')).body.households)
    expect(asc.slice(0, 3)).toEqual(['100% Club_Members', 'goldsmith household', 'Lindqvist Household'])
    const desc = names((await list('?sortBy=name&sortOrder=desc')).body.households)
    expect(desc).toEqual([...asc].reverse())
  })

  it('sorts by member count, ties by id', async () => {
    const items = (await list('?sortBy=members&sortOrder=desc')).body.households
    expect(items[0]?.name).toBe('Whitfield Family')
    const counts = items.map((h) => h.counts.members)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    const asc = (await list('?sortBy=members&sortOrder=asc')).body.households
    expect(asc[0]?.name).toBe('100% Club_Members')
    expect(asc.map((h) => h.id)).toEqual([...items].reverse().map((h) => h.id))
  })

  it('sorts by createdAt both ways', async () => {
    const asc = (await list('?sortBy=createdAt&sortOrder=asc')).body.households
    expect(names(asc)).toEqual(HOUSEHOLDS.map((h) => h.name))
    const times = asc.map((h) => Date.parse(h.createdAt))
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('searches names, members and the deceased spouse, case-insensitively, with an exact total', async () => {
    const smi = await list('?search=SMI&sortBy=name&sortOrder=asc')
    expect(names(smi.body.households)).toEqual(['goldsmith household', 'Lindqvist Household', 'Smith Family'])
    expect(smi.body.total).toBe(3)
    expect(names((await list('?search=adaeze')).body.households)).toEqual(['Okafor Family'])
    expect((await list('?search=nobody-by-that-name')).body).toMatchObject({ households: [], total: 0 })
    const paged = await list('?search=smi&pageSize=1&page=2&sortBy=name')
    expect(paged.body.total).toBe(3)
    expect(names(paged.body.households)).toEqual(['Lindqvist Household'])
  })

  it("counts a household's entities and finds it by an entity's name; deleted, it is gone from lists, search and totals at once", async () => {
    // An organization of its own, so the totals of the other tests stay as they are.
    const estate = await createOrgWithKey(store.db)
    const seeded = await seedHouseholds(store.db, estate.orgId, [
      { name: 'Trust Holders', members: ['Vera Holder'] },
      { name: 'Plain Neighbours', members: ['Paul Plain'] },
    ])
    const holders = seeded.get('Trust Holders') ?? ''
    // Entities are written as the estate's use cases write them (the list reads what triggers keep).
    await store.db
      .insertInto('entities')
      .values([
        { household_id: holders, name: 'Holder Family Revocable Trust', kind: 'revocableTrust', position: 0 },
        { household_id: holders, name: 'Quillfeather Holdings LLC', kind: 'llc', position: 1 },
      ])
      .execute()
    const estateList = async (query: string) => {
      const response = await call(`${api.url}/api/v1/relationships${query}`, estate.key)
      return response.body as { households: Item[]; total: number }
    }
    const all = await estateList('?sortBy=name&sortOrder=asc')
    expect(all.households.map((h) => [h.name, h.counts])).toEqual([
      ['Plain Neighbours', { members: 1, assignments: 0, entities: 0 }],
      ['Trust Holders', { members: 1, assignments: 0, entities: 2 }],
    ])
    for (const search of ['quillfeather', 'REVOCABLE TRUST', 'holdings llc']) {
      expect(await estateList(`?search=${encodeURIComponent(search)}`), search).toMatchObject({
        households: [{ id: holders }],
        total: 1,
      })
    }
    // An entity renamed or removed is searched by what it is now.
    await store.db
      .updateTable('entities')
      .set({ name: 'Holder Dynasty Trust' })
      .where('name', '=', 'Holder Family Revocable Trust')
      .execute()
    expect((await estateList('?search=revocable')).total).toBe(0)
    expect((await estateList('?search=dynasty')).total).toBe(1)
    await store.db.deleteFrom('entities').where('name', '=', 'Quillfeather Holdings LLC').execute()
    expect((await estateList('?search=quillfeather')).total).toBe(0)
    expect((await estateList(`?ids=${holders}`)).households[0]?.counts.entities).toBe(1)

    const removed = await call(`${api.url}/api/v1/relationships/${holders}`, estate.key, {
      method: 'DELETE',
      headers: { 'if-match': '*' },
    })
    expect(removed.status).toBe(204)
    expect(await estateList('')).toMatchObject({ households: [{ name: 'Plain Neighbours' }], total: 1 })
    expect(await estateList('?search=dynasty')).toEqual(expect.objectContaining({ households: [], total: 0 }))
    expect(await estateList(`?ids=${holders}`)).toEqual(expect.objectContaining({ households: [], total: 0 }))
    expect(await estateList('?sortBy=members')).toMatchObject({ total: 1 })
    expect(await store.db.selectFrom('entities').select('id').where('household_id', '=', holders).execute()).toEqual([])
  })

  it('treats %, _ and \\ in search as literal characters', async () => {
    expect(names((await list(`?search=${encodeURIComponent('100%')}`)).body.households)).toEqual(['100% Club_Members'])
    expect(names((await list(`?search=${encodeURIComponent('b_m')}`)).body.households)).toEqual(['100% Club_Members'])
    expect((await list(`?search=${encodeURIComponent('%')}`)).body.total).toBe(1)
    expect((await list(`?search=${encodeURIComponent('_')}`)).body.total).toBe(1)
    expect((await list(`?search=${encodeURIComponent('\\')}`)).body.total).toBe(0)
  })

  it('filters sample households with exact totals', async () => {
    const only = await list('?isSample=true')
    expect(names(only.body.households).sort()).toEqual(['Nakamura Household', 'Ångström Household'])
    expect(only.body.total).toBe(2)
    for (const query of ['?excludeSample=true', '?isSample=false', '?isSample=false&excludeSample=true']) {
      const { body } = await list(query)
      expect(body.total, query).toBe(6)
      expect(
        body.households.every((h) => !h.isSample),
        query,
      ).toBe(true)
    }
    expect((await list('?excludeSample=false')).body.total).toBe(8)
    expect((await list('?isSample=true&search=kenji')).body.total).toBe(1)
  })

  it('filters by ids, repeated and comma-separated, never across orgs', async () => {
    const a = ids.get('Smith Family')!
    const b = ids.get('Okafor Family')!
    const c = ids.get('Nakamura Household')!
    const { body } = await list(`?ids=${a},${b}&ids=${c.toUpperCase()}&sortBy=name&sortOrder=asc`)
    expect(names(body.households)).toEqual(['Nakamura Household', 'Okafor Family', 'Smith Family'])
    expect(body.total).toBe(3)
    const withSample = await list(`?ids=${a},${c}&excludeSample=true`)
    expect(names(withSample.body.households)).toEqual(['Smith Family'])
    const unknown = await list('?ids=00000000-0000-4000-8000-000000000000')
    expect(unknown.body).toMatchObject({ households: [], total: 0 })
  })

  // Page 1 of a filtered list takes its total from the rows it fetched when it fetched fewer than it
  // could (up to the next power of two over pageSize when prepared, pageSize + 1 when not), and
  // counts otherwise: every page size around every number of matches must give the same total.
  it('gives the exact total whether page 1 fetched every match, all but one, or fewer than all', async () => {
    const all = [...ids.values()]
    const samples = new Set([ids.get('Ångström Household'), ids.get('Nakamura Household')])
    for (let matches = 1; matches <= all.length; matches++) {
      const chosen = all.slice(0, matches)
      const nonSample = chosen.filter((id) => !samples.has(id)).length
      for (let pageSize = 1; pageSize <= all.length + 1; pageSize++) {
        const byIds = await list(`?ids=${chosen.join(',')}&pageSize=${pageSize}`)
        expect(byIds.body.total, `${matches} ids, pageSize ${pageSize}`).toBe(matches)
        expect(byIds.body.households).toHaveLength(Math.min(matches, pageSize))
        if (matches > pageSize) {
          // Pages past the first hold only their own rows: their total is counted.
          const second = await list(`?ids=${chosen.join(',')}&pageSize=${pageSize}&page=2&sortBy=name`)
          expect(second.body.total, `${matches} ids, pageSize ${pageSize}, page 2`).toBe(matches)
          const cursor = byIds.body.nextCursor
          if (typeof cursor !== 'string') throw new Error(`${matches} ids, pageSize ${pageSize}: no nextCursor`)
          const next = await list(`?ids=${chosen.join(',')}&pageSize=${pageSize}&cursor=${cursor}`)
          expect(next.body.total, `${matches} ids, pageSize ${pageSize}, by cursor`).toBe(matches)
        }
        const excluding = await list(`?ids=${chosen.join(',')}&pageSize=${pageSize}&excludeSample=true`)
        expect(excluding.body.total, `${matches} ids without samples, pageSize ${pageSize}`).toBe(nonSample)
      }
    }
    // "smith" is in three households (Smith Family, goldsmith, Harold Smithson), "e" in all eight,
    // and in both sample households ("e" with isSample=true).
    for (const [query, expected] of [
      ['search=smith', 3],
      ['search=e', 8],
      ['search=e&isSample=true', 2],
      ['search=e&sortBy=name', 8],
    ] as const) {
      for (let pageSize = 1; pageSize <= 9; pageSize++) {
        const { body } = await list(`?${query}&pageSize=${pageSize}`)
        expect(body.total, `${query}, pageSize ${pageSize}`).toBe(expected)
        expect(body.households).toHaveLength(Math.min(expected, pageSize))
      }
    }
  })

  it('takes 1000 ids in one URL, and answers an oversized request head with 431 in the error shape', async () => {
    const many = Array.from({ length: 999 }, (_, i) => `6f1c2a9e-0000-4000-8000-${String(i).padStart(12, '0')}`)
    many.push(ids.get('Smith Family')!)
    const { status, body } = await list(`?ids=${many.join(',')}`)
    expect(status).toBe(200)
    expect(names(body.households)).toEqual(['Smith Family'])
    const huge = await list(`?search=x&junk=${'y'.repeat(70 * 1024)}`)
    expect(huge.status).toBe(431)
    expect(huge.body).toMatchObject({ code: 'request_header_too_large', error: expect.any(String) })
  })

  it('ignores unknown query parameters', async () => {
    const { status, body } = await list('?foo=bar&limit=1')
    expect(status).toBe(200)
    expect(body.total).toBe(8)
  })

  it('accepts the bounds of page and pageSize', async () => {
    expect((await list('?pageSize=1')).body.households).toHaveLength(1)
    expect((await list('?pageSize=1000')).status).toBe(200)
    expect((await list('?page=10000000')).body.households).toEqual([])
  })

  it.each([
    ['page=0', /page/],
    ['page=-1', /page/],
    ['page=1.5', /page/],
    ['page=abc', /page/],
    ['page=1&page=2', /page/],
    ['page=10000001', /page/],
    ['pageSize=0', /pageSize/],
    ['pageSize=1001', /pageSize/],
    ['pageSize=', /pageSize/],
    ['sortBy=size', /sortBy must be one of: name, members, createdAt/],
    ['sortOrder=up', /sortOrder must be one of: asc, desc/],
    ['isSample=yes', /isSample/],
    ['excludeSample=', /excludeSample/],
    ['isSample=true&excludeSample=true', /contradict/],
    ['ids=123', /ids/],
    ['ids=', /ids/],
    [`search=${'x'.repeat(201)}`, /search/],
  ])('answers 400 {error, code: invalid_query} for %s', async (query, message) => {
    const { status, body } = await list(`?${query}`)
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'invalid_query', error: expect.stringMatching(message) })
    expect(typeof body.requestId).toBe('string')
  })
})
