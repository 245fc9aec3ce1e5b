// One household: GET (ETag, If-None-Match → 304 that costs 0.1 unit of rate-limit budget), PATCH (merge
// patch under If-Match), DELETE (under If-Match) on both prefixes; permissions, rate limits, the
// 404 that never says another org's household exists, concurrent writers, a list walked while
// households disappear, and the audit log (field names, never values).
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { householdCounts } from '../../src/store/orgs.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { seedHouseholds } from '../helpers/seed.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'

const RELATIONSHIPS = '/api/v1/relationships'
const HOUSEHOLDS = '/api/v1/households'
const PREFIXES = [RELATIONSHIPS, HOUSEHOLDS] as const

const FULL = {
  name: '  Record Family  ',
  dsueReceived: 2500000.5,
  deceasedSpouseName: 'Walter Record',
  dsueDateOfDeath: '2018-07-04',
  metadata: {
    crmId: 'R-1',
    tags: ['a', 'b'],
    nested: { deeper: { deepest: [1, { x: null }] } },
    score: 4.25,
    flag: false,
  },
  primaryClientAsDonor: true,
  coClientAsDonor: false,
  currency: 'EUR',
  portabilityElected: 'yes',
  primaryClientLifetimeGifts: 250000,
  coClientLifetimeGifts: 1000.5,
  primaryClientExemptionUsed: 2250000.25,
  coClientExemptionUsed: 0,
  primaryClientUsCitizen: true,
  coClientUsCitizen: false,
}

/** The keys of a household from GET: the list item's plus every create field. */
const HOUSEHOLD_KEYS = [
  'assignments',
  'coClientAsDonor',
  'coClientExemptionUsed',
  'coClientLifetimeGifts',
  'coClientUsCitizen',
  'counts',
  'createdAt',
  'currency',
  'deceasedSpouseName',
  'dsueDateOfDeath',
  'dsueReceived',
  'externalId',
  'id',
  'isSample',
  'members',
  'metadata',
  'name',
  'portabilityElected',
  'primaryClientAsDonor',
  'primaryClientExemptionUsed',
  'primaryClientLifetimeGifts',
  'primaryClientUsCitizen',
  'updatedAt',
]

type Response = Awaited<ReturnType<typeof call>>
type Household = Record<string, unknown> & { id: string; name: string; createdAt: string; updatedAt: string }

function householdOf(response: Response): Household {
  return response.body.household as Household
}

/** Every error: {error, code, requestId} with the request id of the response. */
function expectError(response: Response, status: number, code: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status)
  // Validation and rule errors also name the part of the request at fault (`field`, a JSON Pointer:
  // "" is the whole body); test/integration/error-fields.test.ts checks which pointer each one gets.
  const { field, ...rest } = response.body as { field?: unknown }
  expect(rest).toEqual({ error: expect.any(String), code, requestId: response.headers.get('x-request-id') })
  if (field !== undefined) expect(field).toMatch(/^(\/.*)?$/)
}

describe.each(storeKinds())('one household (GET, PATCH, DELETE) on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let orgId: string
  let key: string
  let keyId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ orgId, key, keyId } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const url = (path: string) => `${api.url}${path}`
  const create = async (body: unknown = FULL, prefix: string = RELATIONSHIPS, as = key): Promise<Household> => {
    const response = await call(url(prefix), as, { method: 'POST', body })
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return householdOf(response)
  }
  const get = (id: string, headers: Record<string, string> = {}, prefix: string = RELATIONSHIPS, as = key) =>
    call(url(`${prefix}/${id}`), as, { headers })
  const patch = (
    id: string,
    body: unknown,
    ifMatch: string | undefined,
    prefix: string = RELATIONSHIPS,
    extra: Record<string, string> = {},
    as = key,
  ) =>
    call(url(`${prefix}/${id}`), as, {
      method: 'PATCH',
      body,
      headers: {
        'content-type': 'application/merge-patch+json',
        ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
        ...extra,
      },
    })
  const remove = (id: string, ifMatch: string | undefined, prefix: string = RELATIONSHIPS, as = key) =>
    call(url(`${prefix}/${id}`), as, {
      method: 'DELETE',
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  const etag = async (id: string) => (await get(id)).headers.get('etag') ?? ''
  const row = (id: string) => store.db.selectFrom('households').selectAll().where('id', '=', id).executeTakeFirst()

  describe('GET', () => {
    it('answers the list-item shape plus every create field, exactly, as created', async () => {
      const created = await create()
      const response = await get(created.id)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const household = householdOf(response)
      expect(Object.keys(response.body)).toEqual(['household'])
      expect(Object.keys(household).sort()).toEqual(HOUSEHOLD_KEYS)
      expect(household).toEqual({
        ...FULL,
        name: 'Record Family',
        externalId: null,
        id: created.id,
        createdAt: created.createdAt,
        updatedAt: created.updatedAt,
        isSample: false,
        members: [],
        assignments: [],
        counts: { members: 0, assignments: 0, entities: 0 },
      })
      // The create answered the same household.
      expect(household).toEqual(created)
      // The same item is in the list, with the list's keys only.
      const list = await call(url(`${RELATIONSHIPS}?ids=${created.id}`), key)
      const item = (list.body.households as Household[])[0]
      expect(item).toEqual(Object.fromEntries(Object.entries(household).filter(([k]) => k in (item ?? {}))))
    })

    it('answers null for every unset optional field', async () => {
      const created = await create({ name: 'Bare' })
      const household = householdOf(await get(created.id))
      expect(household).toMatchObject({
        dsueReceived: null,
        deceasedSpouseName: null,
        dsueDateOfDeath: null,
        metadata: null,
        primaryClientAsDonor: null,
        coClientAsDonor: null,
        currency: 'USD',
        portabilityElected: null,
        primaryClientLifetimeGifts: null,
        coClientLifetimeGifts: null,
        primaryClientExemptionUsed: null,
        coClientExemptionUsed: null,
        primaryClientUsCitizen: null,
        coClientUsCitizen: null,
        externalId: null,
      })
      expect(Object.keys(household).sort()).toEqual(HOUSEHOLD_KEYS)
    })

    it('round-trips awkward values: whole and fractional dollars, unicode, a date at the edge', async () => {
      const body = {
        name: 'Ünïcödé 😀',
        dsueReceived: 1e12,
        dsueDateOfDeath: '1800-01-01',
        metadata: { '': '', ключ: ['😀', 0.1, -0, 1e300], n: null },
      }
      const created = await create(body)
      const household = householdOf(await get(created.id))
      expect(household).toMatchObject({ ...body, metadata: { '': '', ключ: ['😀', 0.1, 0, 1e300], n: null } })
      const small = householdOf(await get((await create({ name: 'Cents', dsueReceived: 0.01 })).id))
      expect(small.dsueReceived).toBe(0.01)
    })

    it('sends a strong ETag "<version>" that follows the household\'s version', async () => {
      const created = await create({ name: 'Tagged' })
      const response = await get(created.id)
      expect(response.headers.get('etag')).toBe('"1"')
      const version = (await row(created.id))?.version
      expect(response.headers.get('etag')).toBe(`"${version}"`)
      expect((await patch(created.id, { name: 'Tagged Again' }, '"1"')).headers.get('etag')).toBe('"2"')
      expect(await etag(created.id)).toBe('"2"')
    })

    it('answers 304 with the ETag and no body to If-None-Match naming the current version (exact, weak, in a list); * is not a match on a read', async () => {
      const created = await create({ name: 'Conditional' })
      for (const header of ['"1"', 'W/"1"', '"7", "1"', '"7",W/"1"', ' "1" ']) {
        const response = await fetch(url(`${RELATIONSHIPS}/${created.id}`), {
          headers: { authorization: `Bearer ${key}`, 'if-none-match': header },
        })
        expect(response.status, header).toBe(304)
        expect(response.headers.get('etag'), header).toBe('"1"')
        expect(await response.text(), header).toBe('')
      }
      for (const header of ['"2"', 'W/"2"', '"1', '1', 'abc', '"01"', '""', '*', '"7", *']) {
        const response = await get(created.id, { 'if-none-match': header })
        expect(response.status, header).toBe(200)
        expect(response.headers.get('etag')).toBe('"1"')
      }
      // After a change the old tag no longer matches.
      await patch(created.id, { name: 'Conditional 2' }, '"1"')
      expect((await get(created.id, { 'if-none-match': '"1"' })).status).toBe(200)
      expect((await get(created.id, { 'if-none-match': '"2"' })).status).toBe(304)
    })

    it('a 304 costs 0.1 unit of rate-limit budget, never nothing; a 200 (and If-None-Match: *) a whole one', async () => {
      const limited = await startApp(store, { rateLimitMax: 100, rateLimitWindowSeconds: 3600 })
      try {
        const fresh = (await createKey(store.db, orgId)).key
        const created = await create({ name: 'Budget' })
        const remaining = (response: Response | globalThis.Response) =>
          Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1])
        const first = await call(`${limited.url}${RELATIONSHIPS}/${created.id}`, fresh)
        expect(first.status).toBe(200)
        expect(remaining(first)).toBe(99)
        // 50 revalidations cost 5 units together.
        let last: Awaited<ReturnType<typeof call>> | undefined
        for (let i = 0; i < 50; i++) {
          last = await call(`${limited.url}${RELATIONSHIPS}/${created.id}`, fresh, {
            headers: { 'if-none-match': '"1"' },
          })
          expect(last.status).toBe(304)
        }
        expect(last?.headers.get('ratelimit-policy')).toMatch(/^"default";q=100;w=3600;hearth-cost=0\.1, /)
        expect(remaining(last ?? first)).toBe(94)
        // The legacy prefix refunds the same way.
        const legacy = await call(`${limited.url}${HOUSEHOLDS}/${created.id}`, fresh, {
          headers: { 'if-none-match': 'W/"1"' },
        })
        expect(legacy.status).toBe(304)
        expect(remaining(legacy)).toBe(93) // 6.1 units spent
        const second = await call(`${limited.url}${RELATIONSHIPS}/${created.id}`, fresh)
        expect(second.status).toBe(200)
        expect(remaining(second)).toBe(92)
        // * names no copy: the household is answered whole, at a whole unit (it was a 304 for free).
        const star = await call(`${limited.url}${RELATIONSHIPS}/${created.id}`, fresh, {
          headers: { 'if-none-match': '*' },
        })
        expect(star.status).toBe(200)
        expect(star.body).toMatchObject({ household: { id: created.id } })
        expect(remaining(star)).toBe(91)
        // A 404 is not a 304: it costs budget.
        const missing = await call(`${limited.url}${RELATIONSHIPS}/00000000-0000-4000-8000-000000000000`, fresh, {
          headers: { 'if-none-match': '*' },
        })
        expect(missing.status).toBe(404)
        expect(remaining(missing)).toBe(90)
      } finally {
        await limited.close()
      }
    })

    it("answers the same 404 for an unknown id, a malformed id and another org's id; never 403", async () => {
      const other = await createOrgWithKey(store.db)
      const theirs = await create({ name: 'Theirs', metadata: { secret: 1 } }, RELATIONSHIPS, other.key)
      const mine = await create({ name: 'Mine' })
      const ids = [
        '00000000-0000-4000-8000-000000000000',
        theirs.id,
        'abc',
        '..%2Fx',
        `${mine.id}x`,
        mine.id.slice(1),
        `${mine.id}%00`,
        '%20',
        "1'%20OR%20'1'%3D'1",
        'null',
      ]
      const messages = new Set<string>()
      for (const prefix of PREFIXES) {
        for (const id of ids) {
          for (const response of [
            await get(id, {}, prefix),
            await patch(id, { name: 'x' }, '*', prefix),
            await remove(id, '*', prefix),
          ]) {
            expectError(response, 404, 'not_found')
            messages.add(String(response.body.error))
          }
        }
      }
      expect(messages.size, 'one message for every kind of missing').toBe(1)
      // A path that URL normalization turns into another route is a 404 of its own, with the same code.
      expectError(await get('%2E%2E'), 404, 'not_found')
      // Even with a writer key, their household is untouched; they still read it.
      const still = await get(theirs.id, {}, RELATIONSHIPS, other.key)
      expect(still.status).toBe(200)
      expect(householdOf(still)).toEqual(theirs)
      // A UUID in upper case is the same id.
      const upper = await get(mine.id.toUpperCase())
      expect(upper.status).toBe(200)
      expect(householdOf(upper).id).toBe(mine.id)
    })
  })

  describe('PATCH', () => {
    it('merges: absent fields stay, null clears an optional field, name is trimmed', async () => {
      const created = await create()
      const first = await patch(created.id, { dsueReceived: 10.5, deceasedSpouseName: null }, '"1"')
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(householdOf(first)).toEqual({
        ...created,
        dsueReceived: 10.5,
        deceasedSpouseName: null,
        updatedAt: householdOf(first).updatedAt,
      })
      const second = await patch(
        created.id,
        {
          name: '  Renamed  ',
          metadata: null,
          primaryClientAsDonor: null,
          dsueDateOfDeath: null,
          coClientAsDonor: true,
        },
        '"2"',
      )
      expect(second.status).toBe(200)
      expect(householdOf(second)).toMatchObject({
        name: 'Renamed',
        metadata: null,
        primaryClientAsDonor: null,
        dsueDateOfDeath: null,
        coClientAsDonor: true,
        dsueReceived: 10.5,
      })
      // metadata is replaced as a whole (not merged key by key).
      const third = await patch(created.id, { metadata: { only: 'this' } }, '"3"')
      expect(householdOf(third).metadata).toEqual({ only: 'this' })
      // The PATCH answer is what GET answers.
      expect(householdOf(await get(created.id))).toEqual(householdOf(third))
    })

    it('sets and clears the estate settings; currency takes another code but is never cleared', async () => {
      const created = await create({ name: 'Settings' })
      const set = await patch(
        created.id,
        { currency: 'CHF', portabilityElected: 'no', coClientLifetimeGifts: 12.34, primaryClientUsCitizen: false },
        '"1"',
      )
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      expect(householdOf(set)).toMatchObject({
        currency: 'CHF',
        portabilityElected: 'no',
        coClientLifetimeGifts: 12.34,
        primaryClientUsCitizen: false,
      })
      const cleared = await patch(created.id, { portabilityElected: null, coClientLifetimeGifts: null }, '"2"')
      expect(householdOf(cleared)).toMatchObject({
        currency: 'CHF',
        portabilityElected: null,
        coClientLifetimeGifts: null,
      })
      const refused = await patch(created.id, { currency: null }, '"3"')
      expectError(refused, 400, 'invalid_body')
      expect(refused.body).toMatchObject({ field: '/currency', error: expect.stringContaining('send an ISO 4217') })
      expect(householdOf(await get(created.id)).currency).toBe('CHF')
    })

    it('moves updatedAt on every change and never createdAt; answers the new ETag', async () => {
      const created = await create({ name: 'Clock' })
      let previous = created.updatedAt
      for (let version = 1; version <= 3; version++) {
        // updatedAt has millisecond precision (as the API shows it): let one pass between writes.
        await new Promise((resolve) => setTimeout(resolve, 2))
        const response = await patch(created.id, { name: `Clock ${version}` }, `"${version}"`)
        expect(response.status).toBe(200)
        expect(response.headers.get('etag')).toBe(`"${version + 1}"`)
        const household = householdOf(response)
        expect(household.createdAt).toBe(created.createdAt)
        expect(Date.parse(household.updatedAt)).toBeGreaterThan(Date.parse(previous))
        previous = household.updatedAt
      }
      const stored = await row(created.id)
      expect(stored?.created_at.toISOString()).toBe(created.createdAt)
    })

    it('refuses every create rule with 400 invalid_body, and a refused patch changes nothing', async () => {
      const created = await create({ name: 'Rules' })
      const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)
      const bad: unknown[] = [
        {},
        { name: null },
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(201) },
        { name: 'tab\there' },
        { name: 1 },
        { deceasedSpouseName: '   ' },
        { deceasedSpouseName: 'y'.repeat(201) },
        { dsueReceived: 1.005 },
        { dsueReceived: -1 },
        { dsueReceived: 1e12 + 1 },
        { dsueReceived: '12' },
        { dsueDateOfDeath: '2021-02-29' },
        { dsueDateOfDeath: '1799-12-31' },
        { dsueDateOfDeath: future },
        { dsueDateOfDeath: '2020-1-1' },
        { metadata: [] },
        { metadata: 'x' },
        { metadata: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } },
        { metadata: { blob: 'x'.repeat(17 * 1024) } },
        { metadata: { a: '\u0000' } },
        { primaryClientAsDonor: 'yes' },
        { coClientAsDonor: 0 },
        { currency: null },
        { currency: 'eur' },
        { currency: 'EU' },
        { portabilityElected: 'elected' },
        { primaryClientLifetimeGifts: 0.001 },
        { coClientExemptionUsed: -5 },
        { primaryClientUsCitizen: 'true' },
        { color: 'red' },
        { name: 'ok', id: '00000000-0000-4000-8000-000000000000' },
        { createdAt: '2020-01-01T00:00:00.000Z' },
        [],
        '"text"',
        '1',
        null,
      ]
      for (const body of bad) {
        const response = await patch(created.id, body, '*')
        expectError(response, 400, 'invalid_body')
      }
      expectError(await patch(created.id, '{"name":', '*'), 400, 'invalid_json')
      const after = await get(created.id)
      expect(after.headers.get('etag')).toBe('"1"')
      expect(householdOf(after)).toEqual(created)
    })

    it('needs If-Match: 428 without it, 412 when stale, weak or junk; * takes any version', async () => {
      const created = await create({ name: 'Preconditions' })
      expectError(await patch(created.id, { name: 'x' }, undefined), 428, 'precondition_required')
      expectError(await patch(created.id, { name: 'x' }, ''), 428, 'precondition_required')
      for (const header of ['"2"', '"0"', 'W/"1"', '1', '"1', 'abc', '"01"', '""', '"1"x', `"${'9'.repeat(12)}"`]) {
        expectError(await patch(created.id, { name: 'x' }, header), 412, 'precondition_failed')
      }
      expect((await row(created.id))?.version, 'nothing was written').toBe(1)
      // A list passes when one of its tags is current.
      expect((await patch(created.id, { name: 'Listed' }, '"9", "1"')).status).toBe(200)
      const star = await patch(created.id, { name: 'Star' }, '*')
      expect(star.status).toBe(200)
      expect(star.headers.get('etag')).toBe('"3"')
      // The tag from before the change is now stale.
      expectError(await patch(created.id, { name: 'Late' }, '"2"'), 412, 'precondition_failed')
      expect(householdOf(await get(created.id)).name).toBe('Star')
    })

    it('takes application/merge-patch+json and application/json, and refuses text/plain with 415', async () => {
      const created = await create({ name: 'Types' })
      expect(
        (
          await patch(created.id, { name: 'Merge' }, '"1"', RELATIONSHIPS, {
            'content-type': 'application/merge-patch+json',
          })
        ).status,
      ).toBe(200)
      expect(
        (await patch(created.id, { name: 'Plain JSON' }, '"2"', RELATIONSHIPS, { 'content-type': 'application/json' }))
          .status,
      ).toBe(200)
      expect(
        (
          await patch(created.id, { name: 'Charset' }, '"3"', RELATIONSHIPS, {
            'content-type': 'application/merge-patch+json; charset=utf-8',
          })
        ).status,
      ).toBe(200)
      expectError(
        await patch(created.id, { name: 'Text' }, '"4"', RELATIONSHIPS, { 'content-type': 'text/plain' }),
        415,
        'unsupported_media_type',
      )
      expectError(
        await patch(created.id, { name: 'Latin' }, '"4"', RELATIONSHIPS, {
          'content-type': 'application/json; charset=latin1',
        }),
        415,
        'unsupported_media_type',
      )
      expect(householdOf(await get(created.id)).name).toBe('Charset')
    })
  })

  describe('DELETE', () => {
    it('answers 204; the household leaves GET, the list, its total, search, ids and sortBy=members at once', async () => {
      const { orgId: soloOrg, key: solo } = await createOrgWithKey(store.db)
      const ids = await seedHouseholds(store.db, soloOrg, [
        { name: 'Keeper One', members: ['Ann Keeper'] },
        { name: 'Doomed Zyx', members: ['Zed Zyxwv', 'Zoe Zyxwv', 'Zack Zyxwv'] },
        { name: 'Keeper Two', members: ['Bob Keeper', 'Cy Keeper'] },
      ])
      const doomed = ids.get('Doomed Zyx') ?? ''
      const list = async (query: string) => {
        const response = await call(url(`${RELATIONSHIPS}?${query}`), solo)
        expect(response.status).toBe(200)
        return { total: response.body.total as number, ids: (response.body.households as Household[]).map((h) => h.id) }
      }
      expect((await list('')).total).toBe(3)
      expect((await list('search=zyxwv')).ids).toEqual([doomed])
      expect((await list('sortBy=members&sortOrder=desc')).ids[0]).toBe(doomed)

      expectError(await remove(doomed, undefined, RELATIONSHIPS, solo), 428, 'precondition_required')
      expectError(await remove(doomed, '"2"', RELATIONSHIPS, solo), 412, 'precondition_failed')
      expectError(await remove(doomed, 'W/"1"', RELATIONSHIPS, solo), 412, 'precondition_failed')
      expect((await list('')).total, 'refused deletes remove nothing').toBe(3)

      const deleted = await fetch(url(`${RELATIONSHIPS}/${doomed}`), {
        method: 'DELETE',
        headers: { authorization: `Bearer ${solo}`, 'if-match': '"1"' },
      })
      expect(deleted.status).toBe(204)
      expect(await deleted.text()).toBe('')

      expectError(await get(doomed, {}, RELATIONSHIPS, solo), 404, 'not_found')
      expectError(await get(doomed, {}, HOUSEHOLDS, solo), 404, 'not_found')
      const after = await list('')
      expect(after.total).toBe(2)
      expect(after.ids).not.toContain(doomed)
      expect(await list('search=zyxwv')).toEqual({ total: 0, ids: [] })
      expect(await list(`ids=${doomed}`)).toEqual({ total: 0, ids: [] })
      const byMembers = await list('sortBy=members&sortOrder=desc')
      expect(byMembers.ids).toEqual([ids.get('Keeper Two'), ids.get('Keeper One')])
      expect(byMembers.total).toBe(2)
      // The per-org counters and the member rows followed.
      expect((await householdCounts(store.db, soloOrg)).households).toBe(2)
      const members = await store.db
        .selectFrom('members')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('household_id', '=', doomed)
        .executeTakeFirstOrThrow()
      expect(members.n).toBe(0)

      // Twice: 404, whatever If-Match says.
      for (const header of ['"1"', '"2"', '*'])
        expectError(await remove(doomed, header, RELATIONSHIPS, solo), 404, 'not_found')
      expectError(await patch(doomed, { name: 'Back' }, '*', RELATIONSHIPS, {}, solo), 404, 'not_found')
    })

    it('takes If-Match: * and a current tag in a list', async () => {
      const a = await create({ name: 'Star Delete' })
      expect((await remove(a.id, '*')).status).toBe(204)
      const b = await create({ name: 'List Delete' })
      expect((await remove(b.id, '"5", "1"')).status).toBe(204)
    })
  })

  describe('legacy /api/v1/households prefix', () => {
    it('does the same with deprecation headers on every answer and household field names', async () => {
      const created = await create(FULL, HOUSEHOLDS)
      const responses: Response[] = []
      const read = await get(created.id, {}, HOUSEHOLDS)
      responses.push(read)
      expect(read.status).toBe(200)
      expect(Object.keys(read.body)).toEqual(['household'])
      expect(Object.keys(householdOf(read)).sort()).toEqual(HOUSEHOLD_KEYS)
      expect(householdOf(read)).toEqual(householdOf(await get(created.id)))
      responses.push(await get(created.id, { 'if-none-match': '"1"' }, HOUSEHOLDS))
      expect(responses.at(-1)?.status).toBe(304)
      responses.push(await patch(created.id, { name: 'x' }, undefined, HOUSEHOLDS))
      expect(responses.at(-1)?.status).toBe(428)
      responses.push(await patch(created.id, { name: 'x' }, '"9"', HOUSEHOLDS))
      expect(responses.at(-1)?.status).toBe(412)
      const patched = await patch(created.id, { name: 'Legacy Patched' }, '"1"', HOUSEHOLDS)
      responses.push(patched)
      expect(patched.status).toBe(200)
      expect(patched.headers.get('etag')).toBe('"2"')
      expect(householdOf(patched).name).toBe('Legacy Patched')
      responses.push(await remove(created.id, '"2"', HOUSEHOLDS))
      expect(responses.at(-1)?.status).toBe(204)
      responses.push(await get(created.id, {}, HOUSEHOLDS))
      expect(responses.at(-1)?.status).toBe(404)
      for (const response of responses) {
        expect(response.headers.get('deprecation'), String(response.status)).toMatch(/^@\d+$/)
        expect(response.headers.get('link'), String(response.status)).toBe(
          '</api/v1/relationships>; rel="successor-version"',
        )
      }
      const current = await get((await create({ name: 'Current' })).id)
      expect(current.headers.get('deprecation')).toBeNull()
      expect(current.headers.get('link')).toBeNull()
    })

    it('a household created on one prefix is read, changed and deleted on the other', async () => {
      const created = await create({ name: 'Crossing' }, RELATIONSHIPS)
      expect((await patch(created.id, { name: 'Crossed' }, '"1"', HOUSEHOLDS)).status).toBe(200)
      expect(householdOf(await get(created.id, {}, RELATIONSHIPS)).name).toBe('Crossed')
      expect((await remove(created.id, '"2"', HOUSEHOLDS)).status).toBe(204)
      expect((await get(created.id, {}, RELATIONSHIPS)).status).toBe(404)
    })
  })

  describe('permissions and rate limits', () => {
    it('reads need relationships:read or households:read (or a write permission), writes relationships:write or households:write, on both prefixes', async () => {
      const keys = {
        read: (await createKey(store.db, orgId, ['relationships:read'])).key,
        legacyRead: (await createKey(store.db, orgId, ['households:read'])).key,
        write: (await createKey(store.db, orgId, ['relationships:write'])).key,
        legacyWrite: (await createKey(store.db, orgId, ['households:write'])).key,
        embed: (await createKey(store.db, orgId, ['embed:chart'])).key,
        none: (await createKey(store.db, orgId, [])).key,
      }
      const created = await create({ name: 'Guarded' })
      for (const prefix of PREFIXES) {
        for (const reader of [keys.read, keys.legacyRead, keys.write, keys.legacyWrite])
          expect((await get(created.id, {}, prefix, reader)).status).toBe(200)
        for (const other of [keys.embed, keys.none])
          expectError(await get(created.id, {}, prefix, other), 403, 'missing_permission')
        for (const other of [keys.read, keys.legacyRead, keys.embed, keys.none]) {
          expectError(await patch(created.id, { name: 'No' }, '*', prefix, {}, other), 403, 'missing_permission')
          expectError(await remove(created.id, '*', prefix, other), 403, 'missing_permission')
        }
        for (const writer of [keys.write, keys.legacyWrite])
          expect((await patch(created.id, { name: `By ${prefix}` }, '*', prefix, {}, writer)).status).toBe(200)
      }
      expect((await remove(created.id, '*', HOUSEHOLDS, keys.legacyWrite)).status).toBe(204)
      expect((await remove((await create({ name: 'Guarded 2' })).id, '*', RELATIONSHIPS, keys.write)).status).toBe(204)
      // Without credentials: 401 before anything about the household.
      for (const prefix of PREFIXES) {
        const response = await call(url(`${prefix}/${created.id}`), undefined)
        expectError(response, 401, 'missing_credentials')
      }
    })

    it("GET, PATCH and DELETE spend the credential's budget; past it 429 with resetAt", async () => {
      const limited = await startApp(store, { rateLimitMax: 4, rateLimitWindowSeconds: 3600 })
      try {
        for (const prefix of PREFIXES) {
          const fresh = (await createKey(store.db, orgId)).key
          const created = await create({ name: `Limited ${prefix}` })
          const at = `${limited.url}${prefix}/${created.id}`
          const statuses = [
            (await call(at, fresh)).status,
            (await call(at, fresh, { method: 'PATCH', body: { name: 'L' }, headers: { 'if-match': '*' } })).status,
            (await call(at, fresh, { method: 'PATCH', body: { name: 'M' }, headers: { 'if-match': '*' } })).status,
            (await call(at, fresh)).status,
          ]
          expect(statuses).toEqual([200, 200, 200, 200])
          for (const init of [
            {},
            { method: 'PATCH', body: { name: 'N' }, headers: { 'if-match': '*' } },
            { method: 'DELETE', headers: { 'if-match': '*' } },
          ]) {
            const refused = await call(at, fresh, init)
            expectError({ ...refused, body: { ...refused.body, resetAt: undefined } }, 429, 'rate_limited')
            expect(Date.parse(String(refused.body.resetAt))).toBeGreaterThan(Date.now())
            expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
          }
          // A refused write wrote nothing.
          expect(householdOf(await get(created.id)).name).toBe('M')
        }
      } finally {
        await limited.close()
      }
    })
  })

  describe('concurrency', () => {
    it("N PATCHes with the same If-Match at once: exactly one 200, the others 412, and the winner's name is stored", async () => {
      for (const prefix of PREFIXES) {
        const created = await create({ name: 'Race' })
        const n = 8
        const responses = await Promise.all(
          Array.from({ length: n }, (_, i) => patch(created.id, { name: `Racer ${i}` }, '"1"', prefix)),
        )
        const statuses = responses.map((r) => r.status)
        expect(
          statuses.filter((s) => s === 200),
          JSON.stringify(statuses),
        ).toHaveLength(1)
        expect(
          statuses.filter((s) => s === 412),
          JSON.stringify(statuses),
        ).toHaveLength(n - 1)
        for (const response of responses.filter((r) => r.status === 412))
          expectError(response, 412, 'precondition_failed')
        const winner = responses.findIndex((r) => r.status === 200)
        const stored = householdOf(await get(created.id))
        expect(stored.name).toBe(`Racer ${winner}`)
        expect((await row(created.id))?.version).toBe(2)
        const audits = await store.db
          .selectFrom('audit_log')
          .select('action')
          .where('household_id', '=', created.id)
          .where('action', '=', 'household.update')
          .execute()
        expect(audits, 'one audit row: the losers rolled back').toHaveLength(1)
      }
    })

    it('a PATCH racing a DELETE with the same If-Match: one wins cleanly', async () => {
      for (let round = 0; round < 10; round++) {
        const created = await create({ name: `Doomed race ${round}` })
        const [patched, deleted] = await Promise.all([
          patch(created.id, { name: 'Patched' }, '"1"'),
          remove(created.id, '"1"'),
        ])
        const after = await get(created.id)
        if (patched.status === 200) {
          expectError(deleted, 412, 'precondition_failed')
          expect(householdOf(after).name).toBe('Patched')
        } else {
          expect(deleted.status).toBe(204)
          // The PATCH found either the old version gone (412) or the row gone (404).
          expect([404, 412]).toContain(patched.status)
          expectError(patched, patched.status, patched.status === 404 ? 'not_found' : 'precondition_failed')
          expectError(after, 404, 'not_found')
        }
      }
    })

    it('no lost update: concurrent read-modify-write loops that retry on 412 count every increment', async () => {
      const created = await create({ name: 'Counter', metadata: { count: 0 } })
      const clients = 4
      const increments = 5
      const worker = async (): Promise<void> => {
        for (let done = 0; done < increments;) {
          const read = await get(created.id)
          const count = (householdOf(read).metadata as { count: number }).count
          const response = await patch(created.id, { metadata: { count: count + 1 } }, read.headers.get('etag') ?? '')
          // Anything but a 412 is a failure; a 412 is retried with a fresh read.
          if (response.status === 200) done++
          else expectError(response, 412, 'precondition_failed')
        }
      }
      await Promise.all(Array.from({ length: clients }, worker))
      const final = householdOf(await get(created.id))
      expect(final.metadata).toEqual({ count: clients * increments })
      expect((await row(created.id))?.version).toBe(1 + clients * increments)
    })

    it('a list walked page by page while households are deleted: every page 200, totals within what was deleted around it', async () => {
      const { orgId: walkOrg, key: walker } = await createOrgWithKey(store.db)
      const initial = 60
      const seeded = await seedHouseholds(
        store.db,
        walkOrg,
        Array.from({ length: initial }, (_, i) => ({
          name: `Walk ${String(i).padStart(3, '0')}`,
          members: i % 3 === 0 ? ['Pat Walker'] : [],
        })),
      )
      const victims = [...seeded.values()].filter((_, i) => i % 2 === 1).slice(0, 25)
      let started = 0
      let completed = 0
      const deleting = (async () => {
        for (const id of victims) {
          started++
          const response = await remove(id, '*', RELATIONSHIPS, walker)
          expect(response.status).toBe(204)
          completed++
        }
      })()
      const seen: string[] = []
      const walks = ['sortBy=name&sortOrder=asc', 'sortBy=members&sortOrder=desc', 'sortBy=createdAt', 'search=walk']
      for (let pass = 0; pass < 3; pass++) {
        for (const query of walks) {
          for (let page = 1; page <= 20; page++) {
            const completedBefore = completed
            const response = await call(url(`${RELATIONSHIPS}?${query}&pageSize=4&page=${page}`), walker)
            const startedAfter = started
            expect(response.status, JSON.stringify(response.body)).toBe(200)
            const total = response.body.total as number
            expect(total, `${query} page ${page}`).toBeLessThanOrEqual(initial - completedBefore)
            expect(total, `${query} page ${page}`).toBeGreaterThanOrEqual(initial - startedAfter)
            const items = response.body.households as Household[]
            expect(items.length).toBeLessThanOrEqual(4)
            seen.push(...items.map((h) => h.id))
            if (items.length === 0) break
          }
        }
      }
      await deleting
      const known = new Set(seeded.values())
      for (const id of seen) expect(known.has(id)).toBe(true)
      const final = await call(url(`${RELATIONSHIPS}?pageSize=1000`), walker)
      expect(final.body.total).toBe(initial - victims.length)
      expect((final.body.households as Household[]).map((h) => h.id).sort()).toEqual(
        [...seeded.values()].filter((id) => !victims.includes(id)).sort(),
      )
      expect((await householdCounts(store.db, walkOrg)).households).toBe(initial - victims.length)
      // A walk after the deletes sees each remaining household exactly once.
      const after: string[] = []
      for (let page = 1; page <= 20; page++) {
        const response = await call(url(`${RELATIONSHIPS}?sortBy=name&pageSize=4&page=${page}`), walker)
        after.push(...(response.body.households as Household[]).map((h) => h.id))
      }
      expect(after.length).toBe(initial - victims.length)
      expect(new Set(after).size).toBe(after.length)
    })
  })

  describe('audit log', () => {
    it('records create, update and delete with the actor and field names, never metadata values', async () => {
      // The database's clock and ours are the same machine's; a second of slack for rounding.
      const startedAt = Date.now() - 1000
      const secret = `SECRET-${kind}-value-${Math.random().toString(36).slice(2)}`
      const created = await create({
        name: 'Audited',
        dsueReceived: 12.34,
        metadata: { hidden: secret, [`key-${secret}`]: 1 },
      })
      const refused = await patch(created.id, { name: 'Never' }, '"9"')
      expect(refused.status).toBe(412)
      expect((await patch(created.id, { metadata: { other: secret }, name: 'Audited 2' }, '"1"')).status).toBe(200)
      expect((await patch(created.id, { deceasedSpouseName: null }, '"2"', HOUSEHOLDS)).status).toBe(200)
      expect((await remove(created.id, '"3"')).status).toBe(204)

      const rows = await store.db
        .selectFrom('audit_log')
        .selectAll()
        .where('household_id', '=', created.id)
        .orderBy('id')
        .execute()
      expect(rows.map((r) => r.action)).toEqual([
        'household.create',
        'household.update',
        'household.update',
        'household.delete',
      ])
      for (const r of rows) {
        expect(r).toMatchObject({ org_id: orgId, actor_type: 'apiKey', actor_id: keyId })
        expect(r.at.getTime()).toBeGreaterThanOrEqual(startedAt)
        expect(r.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000)
      }
      expect(rows[0]?.changed).toEqual(expect.arrayContaining(['name', 'dsueReceived', 'metadata']))
      expect(rows[1]?.changed).toEqual(['metadata', 'name'])
      expect(rows[2]?.changed).toEqual(['deceasedSpouseName'])
      expect(rows[3]?.changed).toEqual([])
      // No value of metadata (nor a key of it) anywhere in the whole log.
      const dump = await sql<{
        text: string
      }>`SELECT coalesce(string_agg(row_to_json(a)::text, ','), '') AS text FROM audit_log a`.execute(store.db)
      expect(dump.rows[0]?.text).not.toContain(secret)
      expect(dump.rows[0]?.text).not.toContain('hidden')
    })
  })
})
