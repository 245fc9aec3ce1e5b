// GET /api/v1/relationships?cursor=…: walking a list by nextCursor gives the same pages as page
// numbers, in every order and filter, ties included; it continues right after the page it came
// with even when households are added or removed meanwhile; and a cursor that does not fit is 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { seedHouseholds, type SeedHousehold } from '../helpers/seed.ts'

// Names repeat in other cases and member counts repeat, so that ties are broken by id.
const NAMES = [
  'Smith Family',
  'smith family',
  'SMITH FAMILY',
  'Okafor',
  'Ångström',
  'Baker',
  'baker',
  'Zhou',
  '100% Club',
]
const HOUSEHOLDS: SeedHousehold[] = Array.from({ length: 23 }, (_, i) => ({
  name: NAMES[i % NAMES.length] ?? 'Unnamed',
  members: Array.from({ length: i % 4 }, (_, m) => `Person ${i}-${m}`),
  sample: i % 5 === 0,
}))

interface Item {
  id: string
  name: string
}
interface ListBody {
  households: Item[]
  total: number
  page: number
  pageSize: number
  nextCursor: string | null
}

describe.each(storeKinds())('list relationships by cursor on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    const org = await createOrgWithKey(store.db)
    key = org.key
    orgId = org.orgId
    await seedHouseholds(store.db, orgId, HOUSEHOLDS)
    // createdAt ties: households in threes share one instant (the column keeps milliseconds), and
    // neighbouring threes are a millisecond apart.
    await sql`
      UPDATE households h SET created_at = timestamptz '2026-01-02 03:04:05.678+00' + (r.n / 3) * interval '1 millisecond'
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS n FROM households WHERE org_id = ${orgId}) r
      WHERE h.id = r.id
    `.execute(store.db)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const list = async (query: string, apiKey = key) => {
    const response = await call(`${api.url}/api/v1/relationships?${query}`, apiKey)
    return response as typeof response & { body: ListBody & { code?: string; error?: string } }
  }

  /** Every page by page number, until an empty page. */
  async function byPageNumber(query: string): Promise<ListBody[]> {
    const pages: ListBody[] = []
    for (let page = 1; ; page++) {
      const { status, body } = await list(`${query}&page=${page}`)
      expect(status).toBe(200)
      if (body.households.length === 0) return pages
      pages.push(body)
    }
  }

  /** Page 1, then every nextCursor until it is null. */
  async function byCursor(query: string): Promise<ListBody[]> {
    const pages: ListBody[] = []
    let cursor: string | null = null
    do {
      const { status, body }: { status: number; body: ListBody } = await list(
        cursor ? `${query}&cursor=${encodeURIComponent(cursor)}` : query,
      )
      expect(status).toBe(200)
      pages.push(body)
      cursor = body.nextCursor
    } while (cursor !== null)
    return pages
  }

  const queries = ['createdAt', 'name', 'members'].flatMap((sortBy) =>
    ['asc', 'desc'].map((sortOrder) => `pageSize=4&sortBy=${sortBy}&sortOrder=${sortOrder}`),
  )
  it.each([
    ...queries,
    'pageSize=1&sortBy=createdAt',
    'pageSize=2&sortBy=members&isSample=false',
    'pageSize=3&sortBy=name&search=smith',
  ])('gives the same pages as page numbers: %s', async (query) => {
    const numbered = await byPageNumber(query)
    const walked = await byCursor(query)
    expect(numbered.length).toBeGreaterThan(1)
    expect(walked.map((p) => p.households.map((h) => h.id))).toEqual(numbered.map((p) => p.households.map((h) => h.id)))
    expect(walked.map((p) => p.page)).toEqual(numbered.map((_, i) => i + 1))
    expect(new Set(walked.map((p) => p.total))).toEqual(new Set([numbered[0]?.total]))
    // Only the last page says there is nothing more, by page number as by cursor.
    expect(numbered.map((p) => p.nextCursor === null)).toEqual(numbered.map((_, i) => i === numbered.length - 1))
  })

  it('gives a nextCursor with a numbered page that continues after it', async () => {
    const third = await list('pageSize=4&sortBy=name&page=3')
    const fourth = await list('pageSize=4&sortBy=name&page=4')
    const next = await list(`pageSize=4&sortBy=name&cursor=${third.body.nextCursor}`)
    expect(next.body.page).toBe(4)
    expect(next.body.households.map((h) => h.id)).toEqual(fourth.body.households.map((h) => h.id))
  })

  it('continues right after its page when households are added and removed meanwhile', async () => {
    const query = 'pageSize=5&sortBy=createdAt&sortOrder=desc'
    const before = await byPageNumber(query)
    const first = await list(query)
    // Newest first: new households go before the cursor, and page numbers would shift by them.
    const other = await createOrgWithKey(store.db)
    await seedHouseholds(store.db, orgId, [{ name: 'Newcomer A' }, { name: 'Newcomer B' }])
    // The page's last household goes; the cursor does not need it to exist.
    const lastOnPage = first.body.households.at(-1)
    expect(lastOnPage).toBeDefined()
    const current = await call(`${api.url}/api/v1/relationships/${lastOnPage?.id}`, key)
    const removed = await call(`${api.url}/api/v1/relationships/${lastOnPage?.id}`, key, {
      method: 'DELETE',
      headers: { 'if-match': current.headers.get('etag') ?? '' },
    })
    expect(removed.status).toBe(204)

    const second = await list(`${query}&cursor=${first.body.nextCursor}`)
    expect(second.body.households.map((h) => h.id)).toEqual(before[1]?.households.map((h) => h.id))
    expect(second.body.total).toBe(HOUSEHOLDS.length + 1)
    const shifted = await list(`${query}&page=2`)
    expect(shifted.body.households.map((h) => h.id)).not.toEqual(before[1]?.households.map((h) => h.id))

    // The cursor keeps to the organization of the key that sends it.
    const elsewhere = await list(`${query}&cursor=${first.body.nextCursor}`, other.key)
    expect(elsewhere.status).toBe(200)
    expect(elsewhere.body.households).toEqual([])
    expect(elsewhere.body.total).toBe(0)
  })

  it('answers a cursor that does not fit with 400 and says why', async () => {
    const { body } = await list('pageSize=4&sortBy=name')
    const cursor = body.nextCursor ?? ''
    expect(cursor).not.toBe('')

    for (const other of [
      'pageSize=5&sortBy=name',
      'pageSize=4&sortBy=members',
      'pageSize=4&sortBy=name&sortOrder=asc',
      'pageSize=4&sortBy=name&search=smith',
      'pageSize=4&sortBy=name&isSample=true',
    ]) {
      const refused = await list(`${other}&cursor=${cursor}`)
      expect(refused.status, other).toBe(400)
      expect(refused.body).toMatchObject({ code: 'invalid_cursor', error: expect.stringContaining('another query') })
    }

    const [version, fingerprint, page, , id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[]
    const forged = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url')
    for (const bad of [
      'not a cursor',
      'e30',
      forged([version, fingerprint, page, 42, id]),
      forged([version, fingerprint, page, 'x', 'not-a-uuid']),
      forged([2, fingerprint, page, 'x', id]),
      forged([version, fingerprint, 1, 'x', id]),
    ]) {
      const refused = await list(`pageSize=4&sortBy=name&cursor=${encodeURIComponent(bad)}`)
      expect(refused.status, bad).toBe(400)
      expect(refused.body).toMatchObject({ code: 'invalid_cursor', error: expect.stringContaining('nextCursor') })
    }

    // Keys of the right type that the database would refuse to cast are refused here, as 400.
    const withKey = async (query: string, key: unknown) => {
      const { body: first } = await list(query)
      const [v, f, p, , i] = JSON.parse(Buffer.from(first.nextCursor ?? '', 'base64url').toString()) as unknown[]
      return list(`${query}&cursor=${forged([v, f, p, key, i])}`)
    }
    for (const [query, key] of [
      ['pageSize=4&sortBy=createdAt', '2026-13-45T25:61:61.000000Z'],
      ['pageSize=4&sortBy=createdAt', '2026-02-30T00:00:00.000000Z'],
      ['pageSize=4&sortBy=createdAt', '0000-01-01T00:00:00.000000Z'],
      ['pageSize=4&sortBy=members', 2 ** 31],
      ['pageSize=4&sortBy=members', -1],
      ['pageSize=4&sortBy=name', 'smith\u0000'],
      ['pageSize=4&sortBy=name', '\ud800'],
    ] as const) {
      const refused = await withKey(query, key)
      expect(refused.status, `${query} ${JSON.stringify(key)}`).toBe(400)
      expect(refused.body.code).toBe('invalid_cursor')
    }

    // A page number beyond any int still answers (the list only reports it).
    const far = await list(
      `pageSize=4&sortBy=name&cursor=${forged([version, fingerprint, 2 ** 40, body.households.at(-1)?.name.toLowerCase(), body.households.at(-1)?.id])}`,
    )
    expect(far.status).toBe(200)
    expect(far.body.page).toBe(2 ** 40)

    const both = await list(`pageSize=4&sortBy=name&page=2&cursor=${cursor}`)
    expect(both.status).toBe(400)
    expect(both.body).toMatchObject({ code: 'invalid_query', error: expect.stringContaining('either page or cursor') })
  })

  it('accepts a cursor on the legacy path with the same meaning', async () => {
    const query = 'pageSize=6&sortBy=members&sortOrder=asc'
    const first = await call(`${api.url}/api/v1/households?${query}`, key)
    const cursor = first.body.nextCursor as string | null
    const legacy = await call(`${api.url}/api/v1/households?${query}&cursor=${cursor}`, key)
    const current = await list(`${query}&cursor=${cursor}`)
    expect(legacy.status).toBe(200)
    expect(legacy.body).toEqual(current.body)
  })
})
