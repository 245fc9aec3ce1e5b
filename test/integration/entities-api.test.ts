// Entities of a household over HTTP: …/{id}/entities (GET, POST), …/{id}/entities/{entityId}
// (GET, PATCH, DELETE) and …/entities/{entityId}/valuations on both prefixes. The household's ETag
// that entities move, permissions, another organization's household or entity id in the path (404
// and nothing written), concurrent edits under one If-Match, the per-household limit, a household
// deleted with its entities, fast-check bodies (4xx {error, code, field}, never 5xx), and every
// route in the OpenAPI document.
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { ENTITY_KINDS, ESTATE_LIMITS } from '../../src/domain/estate-vocabulary.ts'
import type { Entity, Valuation } from '../../src/schemas/entity.ts'

const REL = '/api/v1/relationships'
const LEGACY = '/api/v1/households'
const NO_SUCH = '00000000-0000-4000-8000-000000000000'
const PROPERTY_TEST_TIMEOUT_MS = 180_000
type CallResult = Awaited<ReturnType<typeof call>>

describe.each(storeKinds())('household entities on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string
  let other: { orgId: string; key: string }

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ key, orgId } = await createOrgWithKey(store.db))
    other = await createOrgWithKey(store.db)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const url = (path: string) => `${api.url}${path}`
  async function household(as = key): Promise<string> {
    const created = await call(url(REL), as, { body: { name: `Estate ${Math.random().toString(36).slice(2, 8)}` } })
    expect(created.status).toBe(201)
    return (created.body.household as { id: string }).id
  }
  const etagOf = async (id: string, as = key) => (await call(url(`${REL}/${id}`), as)).headers.get('etag') ?? ''
  type As = string | null
  const list = (id: string, as: As = key, base = REL) => call(url(`${base}/${id}/entities`), as ?? undefined)
  const add = (id: string, body: unknown, headers: Record<string, string> = {}, as: As = key, base = REL) =>
    call(url(`${base}/${id}/entities`), as ?? undefined, { method: 'POST', body, headers })
  const one = (id: string, entityId: string, as: As = key, base = REL) =>
    call(url(`${base}/${id}/entities/${entityId}`), as ?? undefined)
  const valuationsOf = (id: string, entityId: string, as: As = key, base = REL) =>
    call(url(`${base}/${id}/entities/${entityId}/valuations`), as ?? undefined)
  const patch = (id: string, entityId: string, body: unknown, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/entities/${entityId}`), as ?? undefined, {
      method: 'PATCH',
      body,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  const remove = (id: string, entityId: string, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/entities/${entityId}`), as ?? undefined, {
      method: 'DELETE',
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  async function entity(id: string, body: Record<string, unknown>, as = key): Promise<Entity> {
    const response = await add(id, body, {}, as)
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body.entity as Entity
  }
  const entities = async (id: string, as = key) => (await list(id, as)).body.entities as Entity[]

  it('adds, reads, lists, changes and removes entities; each change moves the household ETag', async () => {
    const h = await household()
    const before = await etagOf(h)
    const created = await add(h, {
      name: ' Ann Revocable Trust ',
      shortName: 'RLT',
      kind: 'revocableTrust',
      value: 1200000,
      valueAsOf: '2025-01-31',
      externalId: 'rlt',
    })
    expect(created.status).toBe(201)
    const trust = created.body.entity as Entity
    expect(trust).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Ann Revocable Trust',
      shortName: 'RLT',
      kind: 'revocableTrust',
      value: 1200000,
      valueAsOf: '2025-01-31',
      estate: 'in',
      estateSet: false,
      notes: null,
      externalId: 'rlt',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    expect(created.headers.get('location')).toBe(`${REL}/${h}/entities/${trust.id}`)
    const etag = created.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"\d+"$/)
    expect(etag).not.toBe(before)
    expect(await etagOf(h)).toBe(etag)

    const ilit = await entity(h, { name: 'ILIT', kind: 'ilit' })
    const listed = await list(h)
    expect(listed.status).toBe(200)
    expect(listed.headers.get('etag')).toBe(await etagOf(h))
    expect(listed.body).toEqual({ entities: [trust, ilit] })
    const read = await one(h, trust.id.toUpperCase())
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ entity: trust })
    expect(
      (await call(url(`${REL}/${h}/entities`), key, { headers: { 'if-none-match': await etagOf(h) } })).status,
    ).toBe(304)

    // PATCH needs If-Match: 428 without, 412 when stale.
    expect((await patch(h, trust.id, { value: 1 }, undefined)).status).toBe(428)
    expect((await patch(h, trust.id, { value: 1 }, '"1"')).status).toBe(412)
    const changed = await patch(
      h,
      trust.id,
      { value: 1300000, valueAsOf: '2025-06-30', estate: 'out', shortName: null },
      await etagOf(h),
    )
    expect(changed.status).toBe(200)
    expect(changed.body.entity).toMatchObject({
      value: 1300000,
      valueAsOf: '2025-06-30',
      estate: 'out',
      estateSet: true,
      shortName: null,
    })
    expect(changed.headers.get('etag')).toBe(await etagOf(h))
    // application/merge-patch+json is a merge patch too.
    const merged = await call(url(`${REL}/${h}/entities/${trust.id}`), key, {
      method: 'PATCH',
      body: { estate: null },
      headers: { 'if-match': '*', 'content-type': 'application/merge-patch+json' },
    })
    expect(merged.body.entity).toMatchObject({ estate: 'in', estateSet: false, value: 1300000 })

    const history = await valuationsOf(h, trust.id)
    expect(history.status).toBe(200)
    expect((history.body.valuations as Valuation[]).map((v) => [v.value, v.valueAsOf])).toEqual([
      [1300000, '2025-06-30'],
      [1200000, '2025-01-31'],
    ])

    expect((await remove(h, trust.id, undefined)).status).toBe(428)
    const removed = await remove(h, trust.id, await etagOf(h))
    expect(removed.status).toBe(204)
    expect(removed.headers.get('etag')).toBe(await etagOf(h))
    expect((await one(h, trust.id)).status).toBe(404)
    expect((await valuationsOf(h, trust.id)).status).toBe(404)
    expect(await entities(h)).toEqual([ilit])
  })

  it('answers each refusal as 400 with its code and field, and writes nothing', async () => {
    const h = await household()
    const etag = await etagOf(h)
    const refusals: [unknown, string, string][] = [
      [{ name: 'Firm', kind: 'lawFirm', value: 5 }, 'entity_party_value', '/value'],
      [{ name: 'X', kind: 'llc', value: 1.234 }, 'invalid_body', '/value'],
      [{ name: 'X', kind: 'llc', valueAsOf: '2999-12-31' }, 'invalid_body', '/valueAsOf'],
      [{ name: 'X', kind: 'llc', externalId: 'has space' }, 'invalid_body', '/externalId'],
      [{ name: 'X', kind: 'castle' }, 'invalid_body', '/kind'],
      [{ name: 'X' }, 'invalid_body', ''],
      [{ name: 'X', kind: 'llc', colour: 'red' }, 'invalid_body', ''],
    ]
    for (const [body, code, field] of refusals) {
      const response = await add(h, body)
      expect(response.status, JSON.stringify(response.body)).toBe(400)
      expect(response.body).toMatchObject({ code, error: expect.any(String) })
      if (code !== 'invalid_body' || field !== '') expect(response.body.field).toBe(field)
    }
    expect(await etagOf(h)).toBe(etag)
    expect(await entities(h)).toEqual([])
    await entity(h, { name: 'A', kind: 'llc', externalId: 'a' })
    const taken = await add(h, { name: 'B', kind: 'llc', externalId: 'a' })
    expect(taken.body).toMatchObject({ code: 'entity_external_id_taken', field: '/externalId' })
  })

  it('404s another organization’s household and entity ids in the path, and writes nothing', async () => {
    const mine = await household()
    const mineEntity = await entity(mine, { name: 'Mine', kind: 'llc' })
    const theirs = await household(other.key)
    const theirEntity = await entity(theirs, { name: 'Theirs', kind: 'flp', value: 10 }, other.key)
    const theirEtag = await etagOf(theirs, other.key)
    for (const base of [REL, LEGACY]) {
      for (const [householdId, entityId] of [
        [theirs, theirEntity.id],
        [mine, theirEntity.id],
        [theirs, mineEntity.id],
        [NO_SUCH, mineEntity.id],
        [mine, NO_SUCH],
        [mine, 'nope'],
        ['nope', mineEntity.id],
      ] as const) {
        for (const response of [
          await one(householdId, entityId, key, base),
          await valuationsOf(householdId, entityId, key, base),
          await patch(householdId, entityId, { name: 'Intruder', value: 1 }, '*', key, base),
          await remove(householdId, entityId, '*', key, base),
        ]) {
          expect(response.status).toBe(404)
          expect(response.body.code).toBe('not_found')
        }
      }
      for (const householdId of [theirs, NO_SUCH, 'nope']) {
        for (const response of [
          await list(householdId, key, base),
          await add(householdId, { name: 'Intruder', kind: 'llc' }, {}, key, base),
        ]) {
          expect(response.status).toBe(404)
          expect(response.body.code).toBe('not_found')
        }
      }
    }
    expect(await etagOf(theirs, other.key)).toBe(theirEtag)
    expect(await entities(theirs, other.key)).toEqual([theirEntity])
    expect((await entities(mine)).map((e) => e.name)).toEqual(['Mine'])
    const intruders = await store.db.selectFrom('entities').select('id').where('name', '=', 'Intruder').execute()
    expect(intruders).toEqual([])
  })

  it('needs relationships:read (or a write permission) to read and relationships:write to write (households:* count)', async () => {
    const h = await household()
    const e = await entity(h, { name: 'Perm', kind: 'daf' })
    const read = (await createKey(store.db, orgId, ['relationships:read'])).key
    const write = (await createKey(store.db, orgId, ['households:write'])).key
    const legacyRead = (await createKey(store.db, orgId, ['households:read'])).key
    for (const reader of [read, legacyRead, write]) {
      for (const base of [REL, LEGACY]) {
        expect((await list(h, reader, base)).status).toBe(200)
        expect((await one(h, e.id, reader, base)).status).toBe(200)
        expect((await valuationsOf(h, e.id, reader, base)).status).toBe(200)
      }
    }
    for (const reader of [read, legacyRead]) {
      expect((await add(h, { name: 'No', kind: 'llc' }, {}, reader)).status).toBe(403)
      expect((await patch(h, e.id, { name: 'No' }, '*', reader)).status).toBe(403)
      expect((await remove(h, e.id, '*', reader)).status).toBe(403)
    }
    expect((await add(h, { name: 'Yes', kind: 'llc' }, {}, write, LEGACY)).status).toBe(201)
    expect((await patch(h, e.id, { name: 'Yes' }, '*', write)).status).toBe(200)
    expect((await list(h, null)).status).toBe(401)
    expect((await entities(h)).map((x) => x.name)).toEqual(['Yes', 'Yes'])
  })

  it('serves every entity route on the legacy prefix, with deprecation headers and legacy Locations', async () => {
    const h = await household()
    const created = await add(h, { name: 'Legacy LLC', kind: 'llc', value: 5 }, {}, key, LEGACY)
    expect(created.status).toBe(201)
    const e = created.body.entity as Entity
    expect(created.headers.get('location')).toBe(`${LEGACY}/${h}/entities/${e.id}`)
    const responses = [
      created,
      await list(h, key, LEGACY),
      await one(h, e.id, key, LEGACY),
      await valuationsOf(h, e.id, key, LEGACY),
      await patch(h, e.id, { name: 'Legacy Renamed' }, created.headers.get('etag') ?? '', key, LEGACY),
      await patch(h, e.id, { name: 'Stale' }, '"1"', key, LEGACY),
      await remove(h, e.id, await etagOf(h), key, LEGACY),
    ]
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 200, 412, 204])
    for (const response of responses) {
      expect(response.headers.get('deprecation')).toMatch(/^@\d+$/)
      expect(response.headers.get('link')).toBe('</api/v1/relationships>; rel="successor-version"')
    }
    expect((await list(h)).headers.get('deprecation')).toBeNull()
  })

  it('two PATCHes of one entity with the same ETag: exactly one 200 and one 412', async () => {
    const h = await household()
    const e = await entity(h, { name: 'Contested', kind: 'taxableAccount', value: 1 })
    for (let round = 0; round < 4; round++) {
      const etag = await etagOf(h)
      const results = await Promise.all([
        patch(h, e.id, { name: `Left ${round}`, value: 100 + round }, etag),
        patch(h, e.id, { name: `Right ${round}`, notes: 'right' }, etag),
      ])
      expect(results.map((r) => r.status).sort()).toEqual([200, 412])
      const winner = results.find((r) => r.status === 200)!
      expect((await one(h, e.id)).body.entity).toEqual(winner.body.entity)
      expect(await etagOf(h)).toBe(winner.headers.get('etag'))
    }
  })

  it(`enforces the limit of ${ESTATE_LIMITS.entities} entities per household (household_entities_limit)`, async () => {
    const h = await household()
    await store.db
      .insertInto('entities')
      .values(
        Array.from({ length: ESTATE_LIMITS.entities - 1 }, (_, i) => ({
          household_id: h,
          name: `Holding ${i}`,
          kind: 'otherAsset' as const,
          position: i,
        })),
      )
      .execute()
    expect((await add(h, { name: 'The last one', kind: 'llc' })).status).toBe(201)
    const refused = await add(h, { name: 'One too many', kind: 'llc' })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'household_entities_limit', field: '' })
    expect(await entities(h)).toHaveLength(ESTATE_LIMITS.entities)
  })

  it('a household deleted with its entities takes them with it', async () => {
    const h = await household()
    const e = await entity(h, { name: 'Doomed Trust', kind: 'dynastyTrust', value: 10 })
    await entity(h, { name: 'Doomed LLC', kind: 'llc' })
    expect((await call(url(`${REL}/${h}`), key, { method: 'DELETE', headers: { 'if-match': '*' } })).status).toBe(204)
    expect((await list(h)).status).toBe(404)
    expect((await one(h, e.id)).status).toBe(404)
    expect((await valuationsOf(h, e.id)).status).toBe(404)
    const rows = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM entities WHERE household_id = ${h})::int
           + (SELECT count(*) FROM entity_valuations WHERE household_id = ${h})::int AS n
    `.execute(store.db)
    expect(rows.rows[0]?.n).toBe(0)
  })

  describe('fast-check bodies', () => {
    // Keys the JSON parser refuses as prototype poisoning (invalid_json, about no one field) are left out.
    const anything = fc.anything({
      key: fc.string().filter((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype'),
    })
    const value = fc.oneof(
      fc.constantFrom(null, 0, 1e12, 1e12 + 1, -1, 0.01, 0.005, Number.MAX_VALUE, '10'),
      fc.double({ noNaN: true }),
      fc.integer({ min: -10, max: 1_000_000 }),
    )
    const date = fc.oneof(
      fc.constantFrom(null, '2024-02-29', '2023-02-29', '1799-12-31', '2999-01-01', '2024-13-01', ''),
      fc.string({ maxLength: 12 }),
    )
    const text = fc.oneof(fc.constantFrom(null, '', ' ', '\u0000', '\ud800', 'x'.repeat(4001)), fc.string())
    const fields = {
      name: text,
      shortName: text,
      kind: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...ENTITY_KINDS) }, { weight: 1, arbitrary: fc.string() }),
      value,
      valueAsOf: date,
      estate: fc.constantFrom(null, 'in', 'out', 'maybe', 1),
      notes: text,
      externalId: fc.oneof(fc.constantFrom(null, 'a', 'x'.repeat(65), 'dup'), fc.string({ maxLength: 70 })),
      extra: anything,
    }
    // Bodies are JSON (text that is not JSON is invalid_json, about no field); undefined is sent as null.
    const asJson = (body: unknown) => JSON.stringify(body) ?? 'null'

    /** Every 4xx is {error, code, field}; never a 5xx. */
    function checkAnswer(response: CallResult, body: unknown) {
      const said = JSON.stringify({ body, answer: response.body })
      expect(response.status, said).toBeLessThan(500)
      if (response.status < 400) return
      expect(response.body, said).toMatchObject({ error: expect.any(String), code: expect.any(String) })
      expect(typeof response.body.field, said).toBe('string')
    }

    it('POST …/entities: 201 or 4xx with its field, never a 5xx', { timeout: PROPERTY_TEST_TIMEOUT_MS }, async () => {
      const h = await household()
      await entity(h, { name: 'Dup', kind: 'llc', externalId: 'dup' })
      const body = fc.oneof(
        { weight: 8, arbitrary: fc.record(fields, { requiredKeys: [] }) },
        { weight: 1, arbitrary: anything },
      )
      await fc.assert(
        fc.asyncProperty(body, async (sent) => {
          checkAnswer(await add(h, asJson(sent)), sent)
        }),
        { numRuns: 150 },
      )
      // Whatever was added holds to the rules.
      for (const e of await entities(h)) {
        if (['corporateTrustee', 'lawFirm', 'otherParty'].includes(e.kind))
          expect([e.value, e.valueAsOf, e.estate]).toEqual([null, null, null])
      }
    })

    it(
      'PATCH …/entities/{entityId}: 200 or 4xx with its field, never a 5xx',
      { timeout: PROPERTY_TEST_TIMEOUT_MS },
      async () => {
        const h = await household()
        await entity(h, { name: 'Dup', kind: 'llc', externalId: 'dup' })
        const targets = [
          (await entity(h, { name: 'Trust', kind: 'slat', value: 5 })).id,
          (await entity(h, { name: 'Bank', kind: 'corporateTrustee' })).id,
        ]
        const body = fc.oneof(
          { weight: 8, arbitrary: fc.record(fields, { requiredKeys: [] }) },
          { weight: 1, arbitrary: anything },
        )
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...targets), body, async (target, sent) => {
            checkAnswer(await patch(h, target, asJson(sent), '*'), sent)
          }),
          { numRuns: 150 },
        )
        expect((await entities(h)).filter((e) => e.externalId === 'dup')).toHaveLength(1)
      },
    )
  })

  it('lists every entity route in the OpenAPI document under both prefixes, with its errors', async () => {
    const doc = (await (await fetch(url('/api/v1/openapi.json'))).json()) as {
      paths: Record<string, Record<string, { operationId: string; deprecated?: boolean; responses: object }>>
    }
    const routes = [
      ['get', '/{id}/entities', ['200', '304', '404', '401', '403', '429']],
      ['post', '/{id}/entities', ['201', '400', '404', '412', '413', '415', '401', '403', '429']],
      ['get', '/{id}/entities/{entityId}', ['200', '304', '404', '401', '403', '429']],
      ['patch', '/{id}/entities/{entityId}', ['200', '400', '404', '412', '413', '415', '428', '401', '403', '429']],
      ['delete', '/{id}/entities/{entityId}', ['204', '400', '404', '412', '413', '415', '428', '401', '403', '429']],
      ['get', '/{id}/entities/{entityId}/valuations', ['200', '304', '404', '401', '403', '429']],
    ] as const
    const ids = new Set<string>()
    for (const base of [REL, LEGACY]) {
      for (const [method, path, statuses] of routes) {
        const op = doc.paths[`${base}${path}`]?.[method]
        expect(op, `${method} ${base}${path}`).toBeDefined()
        expect(Object.keys(op?.responses ?? {}).sort()).toEqual([...statuses].sort())
        expect(op?.deprecated).toBe(base === LEGACY ? true : undefined)
        ids.add(op?.operationId ?? '')
      }
    }
    expect(ids.size).toBe(routes.length * 2)
  })
})
