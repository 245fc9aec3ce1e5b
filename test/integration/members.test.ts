// Members of a household: …/{id}/members (GET, POST) and …/{id}/members/{memberId} (GET, PATCH,
// DELETE) on both prefixes. Every rule's refusal and its code, relationships (mutual ones stored
// once and shown on both members, parent links on the child), 404s across households and orgs,
// the household ETag that members move, counts/sort/search following each change, concurrent
// edits under one If-Match, the audit log, and responses against the OpenAPI document.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { hasCycle } from '../../src/store/members.ts'
import { insertMembers } from '../../src/store/households.ts'
import { PAYLOAD_LIMITS } from '../../chart/payload.ts'

const REL = '/api/v1/relationships'
const LEGACY = '/api/v1/households'
const NO_SUCH = '00000000-0000-4000-8000-000000000000'

interface Member {
  id: string
  name: string
  role: string
  birthDate: string | null
  deathDate: string | null
  email: string | null
  externalId: string | null
  relationships: Kin[]
}
interface Kin {
  memberId: string
  type: string
  parentKind: string | null
  since: string | null
  until: string | null
}
type CallResult = Awaited<ReturnType<typeof call>>

/** A relationship as the API answers it: every detail, null when not stated. */
const kin = (memberId: string, type: string, details: Partial<Omit<Kin, 'memberId' | 'type'>> = {}): Kin => ({
  memberId,
  type,
  parentKind: null,
  since: null,
  until: null,
  ...details,
})

describe('ancestry cycles', () => {
  it('are found in long chains without recursion, and diamonds are not cycles', () => {
    const edges: [string, string][] = Array.from({ length: 50_000 }, (_, i) => [`n${i}`, `n${i + 1}`])
    expect(hasCycle(edges)).toBe(false)
    expect(hasCycle([...edges, ['n50000', 'n0']])).toBe(true)
    expect(
      hasCycle([
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'd'],
        ['c', 'd'],
      ]),
    ).toBe(false)
    expect(
      hasCycle([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'b'],
      ]),
    ).toBe(true)
  })
})

describe.each(storeKinds())('household members on %s', (kind) => {
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
  async function household(
    name = `Household ${Math.random().toString(36).slice(2, 8)}`,
    as = key,
  ): Promise<{ id: string; etag: string }> {
    const created = await call(url(REL), as, { body: { name } })
    expect(created.status).toBe(201)
    return { id: (created.body.household as { id: string }).id, etag: created.headers.get('etag') ?? '' }
  }
  const etagOf = async (id: string, as = key) => (await call(url(`${REL}/${id}`), as)).headers.get('etag') ?? ''
  // `as`: the API key to call with; null calls without one.
  type As = string | null
  const list = (id: string, as: As = key, base = REL) => call(url(`${base}/${id}/members`), as ?? undefined)
  const add = (id: string, body: unknown, headers: Record<string, string> = {}, as: As = key, base = REL) =>
    call(url(`${base}/${id}/members`), as ?? undefined, { method: 'POST', body, headers })
  const patch = (id: string, memberId: string, body: unknown, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/members/${memberId}`), as ?? undefined, {
      method: 'PATCH',
      body,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  const remove = (id: string, memberId: string, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/members/${memberId}`), as ?? undefined, {
      method: 'DELETE',
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  async function member(id: string, body: Record<string, unknown>): Promise<Member> {
    const response = await add(id, body)
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body.member as Member
  }
  const members = async (id: string) => (await list(id)).body.members as Member[]
  const byName = (all: Member[], name: string) => all.find((m) => m.name === name)!
  /** A write refused with 400 and this code leaves the household (version and members) as it was. */
  async function refused(id: string, response: CallResult, code: string) {
    expect(response.status, JSON.stringify(response.body)).toBe(400)
    expect(response.body).toMatchObject({ code, error: expect.any(String) })
    return response
  }

  describe('add, read, change, remove', () => {
    it('adds a member: 201, Location, the member, and a new household ETag that GETs agree on', async () => {
      const h = await household('Adding Family')
      const created = await add(h.id, {
        name: '  Ada Lovelace ',
        role: 'primaryClient',
        birthDate: '1815-12-10',
        deathDate: '1852-11-27',
        email: ' ada@example.com ',
      })
      expect(created.status).toBe(201)
      const ada = created.body.member as Member
      expect(ada).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Ada Lovelace',
        role: 'primaryClient',
        birthDate: '1815-12-10',
        deathDate: '1852-11-27',
        email: 'ada@example.com',
        externalId: null,
        relationships: [],
      })
      expect(created.headers.get('location')).toBe(`${REL}/${h.id}/members/${ada.id}`)
      const etag = created.headers.get('etag')
      expect(etag).toMatch(/^"\d+"$/)
      expect(etag).not.toBe(h.etag)
      expect(await etagOf(h.id)).toBe(etag)

      const listed = await list(h.id)
      expect(listed.status).toBe(200)
      expect(listed.headers.get('etag')).toBe(etag)
      expect(listed.body).toEqual({ members: [ada] })
      const one = await call(url(`${REL}/${h.id}/members/${ada.id}`), key)
      expect(one.status).toBe(200)
      expect(one.body).toEqual({ member: ada })
      expect(one.headers.get('etag')).toBe(etag)
      // The household keeps its list-item member shape.
      const full = await call(url(`${REL}/${h.id}`), key)
      expect((full.body.household as { members: unknown }).members).toEqual([
        { id: ada.id, name: 'Ada Lovelace', role: 'primaryClient' },
      ])
      // If-None-Match with the current ETag is 304.
      const cached = await call(url(`${REL}/${h.id}/members`), key, { headers: { 'if-none-match': etag ?? '' } })
      expect(cached.status).toBe(304)
    })

    it('needs only name and role; optional fields are null when not set; members keep the order they were added in', async () => {
      const h = await household()
      const a = await member(h.id, { name: 'First', role: 'child' })
      const b = await member(h.id, { name: 'Second', role: 'other', email: null, birthDate: null })
      expect(b).toMatchObject({ birthDate: null, deathDate: null, email: null, relationships: [] })
      expect((await members(h.id)).map((m) => m.id)).toEqual([a.id, b.id])
    })

    it('honours If-Match on add when sent: stale is 412 and adds nothing; current and * add', async () => {
      const h = await household()
      const stale = await add(h.id, { name: 'Late', role: 'child' }, { 'if-match': '"999"' })
      expect(stale.status).toBe(412)
      expect(stale.body.code).toBe('precondition_failed')
      expect(await members(h.id)).toEqual([])
      expect(await etagOf(h.id)).toBe(h.etag)
      const current = await add(h.id, { name: 'On Time', role: 'child' }, { 'if-match': h.etag })
      expect(current.status).toBe(201)
      const star = await add(h.id, { name: 'Any', role: 'child' }, { 'if-match': '*' })
      expect(star.status).toBe(201)
      const again = await add(h.id, { name: 'Again', role: 'child' }, { 'if-match': h.etag })
      expect(again.status).toBe(412)
    })

    it('patches as a merge patch under If-Match: 428 without it, 412 when stale, null clears, others stay', async () => {
      const h = await household()
      const m = await member(h.id, {
        name: 'Grace Hopper',
        role: 'child',
        birthDate: '1906-12-09',
        email: 'grace@example.com',
      })
      const etag = await etagOf(h.id)
      const missing = await patch(h.id, m.id, { name: 'X' }, undefined)
      expect(missing.status).toBe(428)
      expect(missing.body.code).toBe('precondition_required')
      expect((await patch(h.id, m.id, { name: 'X' }, '"1"')).status).toBe(412)
      const changed = await patch(h.id, m.id, { name: 'Rear Admiral Hopper', email: null, role: 'other' }, etag)
      expect(changed.status).toBe(200)
      expect(changed.body.member).toEqual({ ...m, name: 'Rear Admiral Hopper', email: null, role: 'other' })
      const newEtag = changed.headers.get('etag')
      expect(newEtag).not.toBe(etag)
      expect(await etagOf(h.id)).toBe(newEtag)
      // The old ETag is spent.
      expect((await patch(h.id, m.id, { name: 'Y' }, etag)).status).toBe(412)
      // application/merge-patch+json works too.
      const merge = await call(url(`${REL}/${h.id}/members/${m.id}`), key, {
        method: 'PATCH',
        body: { deathDate: '1992-01-01' },
        headers: { 'if-match': newEtag ?? '', 'content-type': 'application/merge-patch+json' },
      })
      expect(merge.status).toBe(200)
      expect(merge.body.member).toMatchObject({
        name: 'Rear Admiral Hopper',
        birthDate: '1906-12-09',
        deathDate: '1992-01-01',
      })
    })

    it('removes a member under If-Match: 428, 412, then 204 with a new ETag; twice is 404', async () => {
      const h = await household()
      const m = await member(h.id, { name: 'Leaving', role: 'child' })
      const etag = await etagOf(h.id)
      expect((await remove(h.id, m.id, undefined)).status).toBe(428)
      expect((await remove(h.id, m.id, '"1"')).status).toBe(412)
      const removed = await remove(h.id, m.id, etag)
      expect(removed.status).toBe(204)
      expect(removed.headers.get('etag')).not.toBe(etag)
      expect(await etagOf(h.id)).toBe(removed.headers.get('etag'))
      expect(await members(h.id)).toEqual([])
      const twice = await remove(h.id, m.id, '*')
      expect(twice.status).toBe(404)
      expect(twice.body.code).toBe('not_found')
    })
  })

  describe('field rules (400 invalid_body)', () => {
    let h: { id: string }
    let m: Member
    beforeAll(async () => {
      h = await household('Rules Family')
      m = await member(h.id, { name: 'Rule Subject', role: 'child', birthDate: '1990-05-05' })
    })

    it.each([
      [{ role: 'child' }, /name is required/],
      [{ name: 'No Role' }, /role is required/],
      [{ name: '   ', role: 'child' }, /name must not be blank/],
      [{ name: 'x'.repeat(201), role: 'child' }, /at most 200/],
      [{ name: 'Tab\there', role: 'child' }, /control characters/],
      [
        { name: 'X', role: 'cousin' },
        /role must be one of: primaryClient, coClient, spouse, child, grandchild, greatGrandchild, parent, sibling, inLaw, other/,
      ],
      [{ name: 'X', role: 'child', birthDate: '2021-02-30' }, /birthDate/],
      [{ name: 'X', role: 'child', birthDate: '1700-01-01' }, /birthDate must be a real calendar date/],
      [{ name: 'X', role: 'child', birthDate: '2999-01-01' }, /birthDate must be a real calendar date/],
      [{ name: 'X', role: 'child', deathDate: '12/01/2020' }, /deathDate/],
      [
        { name: 'X', role: 'child', birthDate: '2000-01-02', deathDate: '2000-01-01' },
        /deathDate \(2000-01-01\) must not be before birthDate/,
      ],
      [{ name: 'X', role: 'child', email: 'not an email' }, /email must be a plausible address/],
      [{ name: 'X', role: 'child', email: 'a@b' }, /email must be a plausible address/],
      [{ name: 'X', role: 'child', email: '' }, /email must be a plausible address/],
      [{ name: 'X', role: 'child', email: `${'a'.repeat(60)}@${'b'.repeat(200)}.com` }, /at most 254/],
      [{ name: 'X', role: 'child', email: 7 }, /email must be a string or null/],
      [{ name: 'X', role: 'child', id: NO_SUCH }, /unknown field "id"/],
      [
        { name: 'X', role: 'child', relationships: [{ memberId: NO_SUCH, type: 'cousin' }] },
        /relationships.0.type must be one of: spouse, partner, exSpouse, parent/,
      ],
      [{ name: 'X', role: 'child', relationships: [{ memberId: 'nope', type: 'spouse' }] }, /memberId/],
      [{ name: 'X', role: 'child', relationships: [{ memberId: `urn:uuid:${NO_SUCH}`, type: 'spouse' }] }, /memberId/],
      [{ name: 'X', role: 'child', relationships: {} }, /relationships must be an array/],
      [{ name: 'X', role: 'child', externalId: 'has space' }, /externalId must match pattern/],
      [{ name: 'X', role: 'child', externalId: 'x'.repeat(65) }, /externalId/],
      [
        { name: 'X', role: 'child', relationships: [{ memberId: NO_SUCH, type: 'parent', parentKind: 'birth' }] },
        /relationships.0.parentKind must be one of: biological, adopted, step, foster/,
      ],
      [
        { name: 'X', role: 'child', relationships: [{ memberId: NO_SUCH, type: 'spouse', parentKind: 'step' }] },
        /parentKind is only for parent relationships/,
      ],
      [
        { name: 'X', role: 'child', relationships: [{ memberId: NO_SUCH, type: 'parent', since: '2000-01-01' }] },
        /since is only for spouse, partner and exSpouse/,
      ],
      [
        { name: 'X', role: 'child', relationships: [{ memberId: NO_SUCH, type: 'spouse', since: '2000-13-01' }] },
        /since/,
      ],
      [
        {
          name: 'X',
          role: 'child',
          relationships: [{ memberId: NO_SUCH, type: 'exSpouse', since: '2000-01-02', until: '2000-01-01' }],
        },
        /until \(2000-01-01\) must not be before since \(2000-01-02\)/,
      ],
      [[], /object/],
    ])('refuses to add %j', async (body, message) => {
      const before = await etagOf(h.id)
      const response = await refused(h.id, await add(h.id, body), 'invalid_body')
      expect(response.body.error).toMatch(message)
      expect(await etagOf(h.id)).toBe(before)
      expect(await members(h.id)).toHaveLength(1)
    })

    it.each([
      [{}, /must NOT have fewer than 1 properties/],
      [{ name: null }, /name must be a string/],
      [{ role: null }, /role/],
      [{ name: '' }, /name/],
      [{ deathDate: '1980-01-01' }, /deathDate \(1980-01-01\) must not be before birthDate \(1990-05-05\)/],
      [{ birthDate: '2999-01-01' }, /birthDate/],
      [{ email: 'x@@example.com' }, /email/],
      [{ extra: true }, /unknown field "extra"/],
    ])('refuses to patch with %j, checking the merged member', async (body, message) => {
      const before = await etagOf(h.id)
      const response = await refused(h.id, await patch(h.id, m.id, body, before), 'invalid_body')
      expect(response.body.error).toMatch(message)
      expect(await etagOf(h.id)).toBe(before)
      expect(byName(await members(h.id), 'Rule Subject')).toEqual(m)
    })
  })

  describe('roles', () => {
    it('allows one primaryClient and one coClient: a second is 400 member_role_taken, on add and on patch', async () => {
      const h = await household()
      const primary = await member(h.id, { name: 'Primary', role: 'primaryClient' })
      await member(h.id, { name: 'Co', role: 'coClient' })
      const child = await member(h.id, { name: 'Kid', role: 'child' })
      await refused(h.id, await add(h.id, { name: 'Second Primary', role: 'primaryClient' }), 'member_role_taken')
      await refused(h.id, await add(h.id, { name: 'Second Co', role: 'coClient' }), 'member_role_taken')
      await refused(h.id, await patch(h.id, child.id, { role: 'coClient' }, await etagOf(h.id)), 'member_role_taken')
      expect((await members(h.id)).map((m) => m.role)).toEqual(['primaryClient', 'coClient', 'child'])
      // The role is free once its holder changes role; a member may keep its own role.
      expect(
        (await patch(h.id, primary.id, { role: 'other', name: 'Former Primary' }, await etagOf(h.id))).status,
      ).toBe(200)
      expect((await patch(h.id, child.id, { role: 'primaryClient' }, await etagOf(h.id))).status).toBe(200)
      expect(
        (await patch(h.id, child.id, { role: 'primaryClient', name: 'Kid Grown' }, await etagOf(h.id))).status,
      ).toBe(200)
      // Other households have their own.
      const elsewhere = await household()
      await member(elsewhere.id, { name: 'Their Primary', role: 'primaryClient' })
    })
  })

  describe("the chart's people: roles, externalId, parent kinds and a couple's dates", () => {
    it('adds a deceased spouse as a member who is a parent, an in-law and a great-grandchild, on both prefixes', async () => {
      const h = await household('Chart People')
      const rose = await member(h.id, { name: 'Rose Elder', role: 'primaryClient', externalId: 'crm:p-1' })
      const walter = await member(h.id, {
        name: 'Walter Elder',
        role: 'spouse',
        birthDate: '1938-03-03',
        deathDate: '2020-02-02',
        externalId: 'crm:p-2',
        relationships: [{ memberId: rose.id, type: 'spouse', since: '1960-06-18', until: '2020-02-02' }],
      })
      expect(walter).toMatchObject({ role: 'spouse', deathDate: '2020-02-02', externalId: 'crm:p-2' })
      const son = await member(h.id, {
        name: 'Sam Elder',
        role: 'child',
        relationships: [
          { memberId: rose.id, type: 'parent', parentKind: 'biological' },
          { memberId: walter.id, type: 'parent', parentKind: 'adopted', since: null, until: null },
        ],
      })
      const inLaw = (
        await add(
          h.id,
          {
            name: 'Ines Elder',
            role: 'inLaw',
            relationships: [{ memberId: son.id, type: 'partner', since: '2001-01-01' }],
          },
          {},
          key,
          LEGACY,
        )
      ).body.member as Member
      const great = await member(h.id, {
        name: 'Gus Elder',
        role: 'greatGrandchild',
        relationships: [{ memberId: inLaw.id, type: 'parent', parentKind: 'foster' }],
      })
      const all = await members(h.id)
      expect(all.map((m) => [m.name, m.role])).toEqual([
        ['Rose Elder', 'primaryClient'],
        ['Walter Elder', 'spouse'],
        ['Sam Elder', 'child'],
        ['Ines Elder', 'inLaw'],
        ['Gus Elder', 'greatGrandchild'],
      ])
      // The couple's dates show on both; the parent kinds on the children.
      const marriage = { since: '1960-06-18', until: '2020-02-02' }
      expect(byName(all, 'Rose Elder').relationships).toEqual([kin(walter.id, 'spouse', marriage)])
      expect(byName(all, 'Walter Elder').relationships).toEqual([kin(rose.id, 'spouse', marriage)])
      expect(byName(all, 'Sam Elder').relationships).toEqual([
        kin(rose.id, 'parent', { parentKind: 'biological' }),
        kin(walter.id, 'parent', { parentKind: 'adopted' }),
        kin(inLaw.id, 'partner', { since: '2001-01-01' }),
      ])
      expect(byName(all, 'Gus Elder').relationships).toEqual([kin(inLaw.id, 'parent', { parentKind: 'foster' })])
      // The list items and the legacy prefix read the same members.
      const legacy = await list(h.id, key, LEGACY)
      expect(legacy.body).toEqual({ members: all })
      expect(great.role).toBe('greatGrandchild')

      // A relationship read back is a valid relationship to send: the member's set round-trips.
      const sam = byName(all, 'Sam Elder')
      const again = await patch(h.id, sam.id, { relationships: sam.relationships }, await etagOf(h.id))
      expect(again.status, JSON.stringify(again.body)).toBe(200)
      expect((again.body.member as Member).relationships).toEqual(sam.relationships)
      // Either side changes a couple's dates, by sending the relationship again.
      const ended = await patch(
        h.id,
        sam.id,
        {
          relationships: [
            { memberId: rose.id, type: 'parent', parentKind: 'biological' },
            { memberId: walter.id, type: 'parent', parentKind: 'adopted' },
            { memberId: inLaw.id, type: 'exSpouse', since: '2001-01-01', until: '2015-05-05' },
          ],
        },
        await etagOf(h.id),
      )
      expect(ended.status).toBe(200)
      expect(byName(await members(h.id), 'Ines Elder').relationships).toEqual([
        kin(sam.id, 'exSpouse', { since: '2001-01-01', until: '2015-05-05' }),
      ])
    })

    it("refuses a detail a relationship does not take, naming the entry's field; changes nothing", async () => {
      const h = await household()
      const a = await member(h.id, { name: 'A', role: 'primaryClient' })
      const b = await member(h.id, { name: 'B', role: 'child' })
      const cases: [unknown[], string][] = [
        [[{ memberId: a.id, type: 'spouse', parentKind: 'biological' }], '/relationships/0/parentKind'],
        [
          [
            { memberId: a.id, type: 'parent' },
            { memberId: NO_SUCH, type: 'parent', until: '2000-01-01' },
          ],
          '/relationships/1/until',
        ],
        [[{ memberId: a.id, type: 'partner', since: '2010-01-01', until: '2009-12-31' }], '/relationships/0/until'],
        [[{ memberId: a.id, type: 'partner', since: '1799-12-31' }], '/relationships/0/since'],
      ]
      for (const [relationships, field] of cases) {
        const before = await etagOf(h.id)
        const response = await refused(h.id, await patch(h.id, b.id, { relationships }, before), 'invalid_body')
        expect(response.body.field).toBe(field)
        expect(await etagOf(h.id)).toBe(before)
      }
      expect(byName(await members(h.id), 'B').relationships).toEqual([])
    })

    it('keeps an externalId to one member of a household: 400 member_external_id_taken at /externalId', async () => {
      const h = await household()
      const first = await member(h.id, { name: 'First', role: 'child', externalId: 'ext-1' })
      const taken = await refused(
        h.id,
        await add(h.id, { name: 'Second', role: 'child', externalId: 'ext-1' }),
        'member_external_id_taken',
      )
      expect(taken.body.field).toBe('/externalId')
      const second = await member(h.id, { name: 'Second', role: 'child' })
      const patched = await refused(
        h.id,
        await patch(h.id, second.id, { externalId: 'ext-1' }, await etagOf(h.id)),
        'member_external_id_taken',
      )
      expect(patched.body.field).toBe('/externalId')
      // Freed by its holder, it can be taken; another household has its own ids.
      expect((await patch(h.id, first.id, { externalId: null }, await etagOf(h.id))).status).toBe(200)
      expect((await patch(h.id, second.id, { externalId: 'ext-1' }, await etagOf(h.id))).status).toBe(200)
      const elsewhere = await household()
      expect(await member(elsewhere.id, { name: 'Twin', role: 'child', externalId: 'ext-1' })).toMatchObject({
        externalId: 'ext-1',
      })
      expect((await members(h.id)).map((m) => [m.name, m.externalId])).toEqual([
        ['First', null],
        ['Second', 'ext-1'],
      ])
    })
  })

  describe('relationships', () => {
    it('stores spouse once and shows it on both members; parent shows on the child, pointing at the parent', async () => {
      const h = await household()
      const mum = await member(h.id, { name: 'Mum', role: 'primaryClient' })
      const dad = await member(h.id, {
        name: 'Dad',
        role: 'coClient',
        relationships: [{ memberId: mum.id, type: 'spouse' }],
      })
      const kid = await member(h.id, {
        name: 'Kid',
        role: 'child',
        relationships: [
          { memberId: mum.id.toUpperCase(), type: 'parent' },
          { memberId: dad.id, type: 'parent' },
        ],
      })
      expect(kid.relationships).toEqual([kin(mum.id, 'parent'), kin(dad.id, 'parent')])
      const all = await members(h.id)
      expect(byName(all, 'Mum').relationships).toEqual([kin(dad.id, 'spouse')])
      expect(byName(all, 'Dad').relationships).toEqual([kin(mum.id, 'spouse')])
      const rows = await store.db
        .selectFrom('member_relationships')
        .select(['from_member_id', 'to_member_id', 'type'])
        .where('household_id', '=', h.id)
        .execute()
      expect(rows).toHaveLength(3)
      expect(rows.filter((r) => r.type === 'spouse')).toEqual([
        { from_member_id: [mum.id, dad.id].sort()[0], to_member_id: [mum.id, dad.id].sort()[1], type: 'spouse' },
      ])
      expect(
        rows
          .filter((r) => r.type === 'parent')
          .map((r) => [r.from_member_id, r.to_member_id])
          .sort(),
      ).toEqual(
        [
          [mum.id, kid.id],
          [dad.id, kid.id],
        ].sort(),
      )

      // Either side can change a mutual relationship; a pair never holds two.
      const divorced = await patch(
        h.id,
        mum.id,
        { relationships: [{ memberId: dad.id, type: 'exSpouse' }] },
        await etagOf(h.id),
      )
      expect(divorced.status).toBe(200)
      expect((divorced.body.member as Member).relationships).toEqual([kin(dad.id, 'exSpouse')])
      expect(byName(await members(h.id), 'Dad').relationships).toEqual([kin(mum.id, 'exSpouse')])
      expect(
        await store.db
          .selectFrom('member_relationships')
          .select('type')
          .where('household_id', '=', h.id)
          .where('type', '<>', 'parent')
          .execute(),
      ).toEqual([{ type: 'exSpouse' }])

      // A parent's own set does not include (or clear) its children's links to it.
      expect((await patch(h.id, dad.id, { relationships: [] }, await etagOf(h.id))).status).toBe(200)
      expect(byName(await members(h.id), 'Kid').relationships).toHaveLength(2)
      expect(byName(await members(h.id), 'Mum').relationships).toEqual([])
      // null clears the member's own set.
      expect((await patch(h.id, kid.id, { relationships: null }, await etagOf(h.id))).status).toBe(200)
      expect(byName(await members(h.id), 'Kid').relationships).toEqual([])
      // A patch without relationships leaves them.
      await patch(h.id, kid.id, { relationships: [{ memberId: mum.id, type: 'parent' }] }, await etagOf(h.id))
      await patch(h.id, kid.id, { name: 'Kid Renamed' }, await etagOf(h.id))
      expect(byName(await members(h.id), 'Kid Renamed').relationships).toEqual([kin(mum.id, 'parent')])
      // Removing a member removes every relationship to it.
      expect((await remove(h.id, mum.id, await etagOf(h.id))).status).toBe(204)
      expect((await members(h.id)).flatMap((m) => m.relationships)).toEqual([])
      // The same relationship named twice is one.
      const twice = await patch(
        h.id,
        kid.id,
        {
          relationships: [
            { memberId: dad.id, type: 'parent' },
            { memberId: dad.id, type: 'parent' },
          ],
        },
        await etagOf(h.id),
      )
      expect((twice.body.member as Member).relationships).toEqual([kin(dad.id, 'parent')])
    })

    it('refuses a member of another household, of another org, or no member: 400 relationship_member_unknown', async () => {
      const h = await household()
      const a = await member(h.id, { name: 'A', role: 'child' })
      const elsewhere = await household()
      const stranger = await member(elsewhere.id, { name: 'Stranger', role: 'child' })
      const foreignHousehold = await household('Foreign', other.key)
      const foreign = (await add(foreignHousehold.id, { name: 'Foreigner', role: 'child' }, {}, other.key)).body
        .member as Member
      for (const memberId of [stranger.id, foreign.id, NO_SUCH]) {
        for (const type of ['spouse', 'parent']) {
          const before = await etagOf(h.id)
          await refused(
            h.id,
            await add(h.id, { name: 'New', role: 'child', relationships: [{ memberId, type }] }),
            'relationship_member_unknown',
          )
          await refused(
            h.id,
            await patch(h.id, a.id, { relationships: [{ memberId, type }] }, before),
            'relationship_member_unknown',
          )
          expect(await etagOf(h.id)).toBe(before)
        }
      }
      expect((await members(h.id)).map((m) => m.name)).toEqual(['A'])
      expect((await members(elsewhere.id))[0]?.relationships).toEqual([])
    })

    it('refuses a relationship with oneself: 400 relationship_self', async () => {
      const h = await household()
      const a = await member(h.id, { name: 'Narcissus', role: 'child' })
      for (const type of ['spouse', 'parent']) {
        await refused(
          h.id,
          await patch(h.id, a.id, { relationships: [{ memberId: a.id.toUpperCase(), type }] }, await etagOf(h.id)),
          'relationship_self',
        )
      }
    })

    it('refuses two relationships for one pair of members: 400 relationship_conflict', async () => {
      const h = await household()
      const a = await member(h.id, { name: 'A', role: 'primaryClient' })
      const b = await member(h.id, { name: 'B', role: 'child', relationships: [{ memberId: a.id, type: 'parent' }] })
      await refused(
        h.id,
        await add(h.id, {
          name: 'C',
          role: 'other',
          relationships: [
            { memberId: a.id, type: 'spouse' },
            { memberId: a.id, type: 'partner' },
          ],
        }),
        'relationship_conflict',
      )
      // a is b's parent: a cannot also call b a spouse.
      await refused(
        h.id,
        await patch(h.id, a.id, { relationships: [{ memberId: b.id, type: 'spouse' }] }, await etagOf(h.id)),
        'relationship_conflict',
      )
      // b can turn the link into another one, since b owns it.
      expect(
        (await patch(h.id, b.id, { relationships: [{ memberId: a.id, type: 'partner' }] }, await etagOf(h.id))).status,
      ).toBe(200)
      expect(byName(await members(h.id), 'A').relationships).toEqual([kin(b.id, 'partner')])
    })

    it('refuses anyone becoming their own ancestor, however long the chain: 400 relationship_cycle', async () => {
      const h = await household()
      const chain: Member[] = [await member(h.id, { name: 'G0', role: 'other' })]
      for (let i = 1; i < 6; i++) {
        chain.push(
          await member(h.id, {
            name: `G${i}`,
            role: 'other',
            relationships: [{ memberId: chain[i - 1]!.id, type: 'parent' }],
          }),
        )
      }
      const [first, second] = chain as [Member, Member]
      const last = chain[chain.length - 1]!
      // Directly: the parent naming its child as its parent.
      await refused(
        h.id,
        await patch(h.id, first.id, { relationships: [{ memberId: second.id, type: 'parent' }] }, await etagOf(h.id)),
        'relationship_cycle',
      )
      // Through five generations.
      await refused(
        h.id,
        await patch(h.id, first.id, { relationships: [{ memberId: last.id, type: 'parent' }] }, await etagOf(h.id)),
        'relationship_cycle',
      )
      expect(byName(await members(h.id), 'G0').relationships).toEqual([])
      // A second parent that is not a descendant is fine.
      const outsider = await member(h.id, { name: 'Outsider', role: 'other' })
      expect(
        (
          await patch(
            h.id,
            last.id,
            {
              relationships: [
                { memberId: chain[4]!.id, type: 'parent' },
                { memberId: outsider.id, type: 'parent' },
              ],
            },
            await etagOf(h.id),
          )
        ).status,
      ).toBe(200)
    })
  })

  describe("404s: unknown, malformed and other organizations' ids", () => {
    it('answers 404 not_found on every member route, never 403, and changes nothing', async () => {
      const mine = await household()
      const mineMember = await member(mine.id, { name: 'Mine', role: 'child' })
      const sibling = await household()
      const theirs = await household('Theirs', other.key)
      const theirMember = (await add(theirs.id, { name: 'Theirs', role: 'child' }, {}, other.key)).body.member as Member
      const theirEtag = await etagOf(theirs.id, other.key)

      const targets: [string, string][] = [
        [NO_SUCH, mineMember.id],
        ['not-a-uuid', mineMember.id],
        [theirs.id, theirMember.id],
        [theirs.id, mineMember.id],
        [mine.id, theirMember.id],
        [mine.id, NO_SUCH],
        [mine.id, 'nope'],
        [sibling.id, mineMember.id],
      ]
      for (const base of [REL, LEGACY]) {
        for (const [householdId, memberId] of targets) {
          const responses = [
            await call(url(`${base}/${householdId}/members/${memberId}`), key),
            await patch(householdId, memberId, { name: 'Hijack' }, '*', key, base),
            await remove(householdId, memberId, '*', key, base),
          ]
          for (const response of responses) {
            expect(response.status, `${base} ${householdId} ${memberId} ${JSON.stringify(response.body)}`).toBe(404)
            expect(response.body.code).toBe('not_found')
          }
        }
        for (const householdId of [NO_SUCH, 'nope', theirs.id]) {
          for (const response of [
            await list(householdId, key, base),
            await add(householdId, { name: 'Intruder', role: 'child' }, {}, key, base),
          ]) {
            expect(response.status).toBe(404)
            expect(response.body.code).toBe('not_found')
          }
        }
      }
      expect(await etagOf(theirs.id, other.key)).toBe(theirEtag)
      expect(await members(mine.id)).toEqual([mineMember])
      expect((await list(theirs.id, other.key)).body.members).toEqual([theirMember])
    })

    it('needs relationships:read (or a write permission) to read and relationships:write to write (households:* count)', async () => {
      const h = await household()
      const m = await member(h.id, { name: 'Perm', role: 'child' })
      const read = (await createKey(store.db, orgId, ['relationships:read'])).key
      const write = (await createKey(store.db, orgId, ['households:write'])).key
      const legacyRead = (await createKey(store.db, orgId, ['households:read'])).key
      expect((await list(h.id, read)).status).toBe(200)
      expect((await list(h.id, legacyRead, LEGACY)).status).toBe(200)
      expect((await list(h.id, write)).status).toBe(200)
      expect((await add(h.id, { name: 'No', role: 'child' }, {}, read)).status).toBe(403)
      expect((await patch(h.id, m.id, { name: 'No' }, '*', read)).status).toBe(403)
      expect((await remove(h.id, m.id, '*', legacyRead)).status).toBe(403)
      expect((await add(h.id, { name: 'Yes', role: 'child' }, {}, write)).status).toBe(201)
      expect((await list(h.id, null)).status).toBe(401)
    })
  })

  it('serves every member route on the legacy prefix, with deprecation headers and legacy Locations', async () => {
    const h = await household()
    const created = await add(h.id, { name: 'Legacy Member', role: 'child' }, {}, key, LEGACY)
    expect(created.status).toBe(201)
    const m = created.body.member as Member
    expect(created.headers.get('location')).toBe(`${LEGACY}/${h.id}/members/${m.id}`)
    const responses = [
      created,
      await list(h.id, key, LEGACY),
      await call(url(`${LEGACY}/${h.id}/members/${m.id}`), key),
      await patch(h.id, m.id, { name: 'Legacy Renamed' }, created.headers.get('etag') ?? '', key, LEGACY),
      await patch(h.id, m.id, { name: 'Stale' }, '"1"', key, LEGACY),
    ]
    const removed = await remove(h.id, m.id, await etagOf(h.id), key, LEGACY)
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 412])
    expect(removed.status).toBe(204)
    for (const response of [...responses, removed]) {
      expect(response.headers.get('deprecation')).toMatch(/^@\d+$/)
      expect(response.headers.get('link')).toBe('</api/v1/relationships>; rel="successor-version"')
    }
    expect((responses[3]?.body.member as Member).name).toBe('Legacy Renamed')
    expect((await list(h.id)).headers.get('deprecation')).toBeNull()
  })

  it('keeps counts, sortBy=members and search in step with every add, rename and remove', async () => {
    const tag = Math.random().toString(36).slice(2, 8)
    const a = await household(`Counted A ${tag}`)
    const b = await household(`Counted B ${tag}`)
    const item = async (id: string) =>
      (
        (await call(url(`${REL}?ids=${id}`), key)).body.households as {
          counts: { members: number }
          members: { name: string }[]
        }[]
      )[0]
    const search = async (text: string) =>
      ((await call(url(`${REL}?search=${encodeURIComponent(text)}`), key)).body.households as { id: string }[]).map(
        (x) => x.id,
      )
    const sorted = async () =>
      (
        (await call(url(`${REL}?ids=${a.id},${b.id}&sortBy=members&sortOrder=desc`), key)).body.households as {
          id: string
        }[]
      ).map((x) => x.id)

    const z = await member(a.id, { name: `Zebediah${tag} Quux`, role: 'child' })
    await member(b.id, { name: 'One', role: 'child' })
    await member(b.id, { name: 'Two', role: 'child' })
    expect((await item(a.id))?.counts.members).toBe(1)
    expect(await sorted()).toEqual([b.id, a.id])
    expect(await search(`zebediah${tag}`)).toEqual([a.id])

    await member(a.id, { name: 'Three', role: 'child' })
    await member(a.id, { name: 'Four', role: 'child' })
    expect((await item(a.id))?.counts.members).toBe(3)
    expect(await sorted()).toEqual([a.id, b.id])

    expect((await patch(a.id, z.id, { name: `Ezekiel${tag}` }, await etagOf(a.id))).status).toBe(200)
    expect(await search(`zebediah${tag}`)).toEqual([])
    expect(await search(`ezekiel${tag}`)).toEqual([a.id])
    expect((await item(a.id))?.members.map((m) => m.name)).toContain(`Ezekiel${tag}`)

    expect((await remove(a.id, z.id, await etagOf(a.id))).status).toBe(204)
    expect(await search(`ezekiel${tag}`)).toEqual([])
    expect((await item(a.id))?.counts.members).toBe(2)
    const [one] = await members(a.id)
    await remove(a.id, one!.id, await etagOf(a.id))
    expect((await item(a.id))?.counts.members).toBe(1)
    expect(await sorted()).toEqual([b.id, a.id])
  })

  describe('concurrent member edits under one If-Match', () => {
    it("two PATCHes at once: exactly one 200 and one 412, and the winner's change is what stays", async () => {
      const h = await household()
      const m = await member(h.id, { name: 'Contested', role: 'child', email: 'start@example.com' })
      for (let round = 0; round < 5; round++) {
        const etag = await etagOf(h.id)
        const bodies = [
          { name: `Left ${round}`, email: `left${round}@example.com` },
          { name: `Right ${round}`, birthDate: '1970-01-01', email: null },
        ]
        const results = await Promise.all(bodies.map((body) => patch(h.id, m.id, body, etag)))
        expect(results.map((r) => r.status).sort()).toEqual([200, 412])
        const winner = results.findIndex((r) => r.status === 200)
        const final = (await members(h.id))[0]!
        expect(final).toEqual(results[winner]!.body.member)
        expect(final.name).toBe(winner === 0 ? `Left ${round}` : `Right ${round}`)
        expect(final.email).toBe(winner === 0 ? `left${round}@example.com` : null)
        expect(await etagOf(h.id)).toBe(results[winner]!.headers.get('etag'))
        await patch(h.id, m.id, { birthDate: null }, '*')
      }
    })

    it("a PATCH and a DELETE at once: one wins, the other is 412, and the state is the winner's", async () => {
      const h = await household()
      for (let round = 0; round < 4; round++) {
        const m = await member(h.id, { name: `Round ${round}`, role: 'child' })
        const etag = await etagOf(h.id)
        const [patched, removed] = await Promise.all([
          patch(h.id, m.id, { name: `Patched ${round}` }, etag),
          remove(h.id, m.id, etag),
        ])
        // Exactly one wins: the PATCH (200, then the DELETE is 412) or the DELETE (204, then the PATCH is 412).
        expect([
          [200, 412],
          [412, 204],
        ]).toContainEqual([patched.status, removed.status])
        const left = (await members(h.id)).filter((x) => x.id === m.id)
        if (removed.status === 204) expect(left).toEqual([])
        else expect(left.map((x) => x.name)).toEqual([`Patched ${round}`])
      }
    })

    it('two adds of a primaryClient at once: one is added, the other refused (member_role_taken)', async () => {
      const h = await household()
      const results = await Promise.all([
        add(h.id, { name: 'P1', role: 'primaryClient' }),
        add(h.id, { name: 'P2', role: 'primaryClient' }),
      ])
      expect(results.map((r) => r.status).sort()).toEqual([201, 400])
      expect(results.find((r) => r.status === 400)?.body.code).toBe('member_role_taken')
      expect(await members(h.id)).toHaveLength(1)
    })

    // No index can stop this one: only the household lock that every member write takes. Each
    // PATCH alone is fine; together they would make each the other's parent.
    it('two PATCHes with If-Match: * that together would close a parent cycle: one 200, one relationship_cycle', async () => {
      for (let round = 0; round < 3; round++) {
        const h = await household()
        const a = await member(h.id, { name: `A ${round}`, role: 'child' })
        const b = await member(h.id, { name: `B ${round}`, role: 'child' })
        const results = await Promise.all([
          patch(h.id, a.id, { relationships: [{ memberId: b.id, type: 'parent' }] }, '*'),
          patch(h.id, b.id, { relationships: [{ memberId: a.id, type: 'parent' }] }, '*'),
        ])
        expect(results.map((r) => r.status).sort()).toEqual([200, 400])
        expect(results.find((r) => r.status === 400)?.body.code).toBe('relationship_cycle')
        const parents = (await members(h.id)).flatMap((m) => m.relationships.filter((r) => r.type === 'parent'))
        expect(parents).toHaveLength(1)
      }
    })
  })

  it('refuses a member past the most one household can have (household_members_limit)', async () => {
    const h = await household()
    await insertMembers(
      store.db,
      h.id,
      Array.from({ length: PAYLOAD_LIMITS.people }, (_, i) => ({ name: `Person ${i}`, role: 'other' as const })),
    )
    const refused = await add(h.id, { name: 'One too many', role: 'other' })
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('household_members_limit')
    expect(await members(h.id)).toHaveLength(PAYLOAD_LIMITS.people)
  })

  it('records every member write in the audit log, with field names only; refusals record nothing', async () => {
    const h = await household()
    const m = await member(h.id, { name: 'Audited', role: 'primaryClient', email: 'secret@example.com' })
    const kid = await member(h.id, { name: 'Kid', role: 'child', relationships: [{ memberId: m.id, type: 'parent' }] })
    await patch(h.id, m.id, { email: null, name: 'Audited Again' }, await etagOf(h.id))
    await patch(h.id, kid.id, { relationships: [] }, await etagOf(h.id))
    await add(h.id, { name: 'Refused', role: 'primaryClient' })
    await patch(h.id, kid.id, { relationships: [{ memberId: kid.id, type: 'parent' }] }, await etagOf(h.id))
    await remove(h.id, kid.id, await etagOf(h.id))
    const rows = await store.db
      .selectFrom('audit_log')
      .select(['org_id', 'actor_type', 'actor_id', 'action', 'member_id', 'changed'])
      .where('household_id', '=', h.id)
      .where('action', 'like', 'member.%')
      .orderBy('id')
      .execute()
    const keyRow = await store.db
      .selectFrom('api_keys')
      .select('id')
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .executeTakeFirstOrThrow()
    expect(rows).toEqual([
      {
        org_id: orgId,
        actor_type: 'apiKey',
        actor_id: keyRow.id,
        action: 'member.create',
        member_id: m.id,
        changed: ['email', 'name', 'role'],
      },
      {
        org_id: orgId,
        actor_type: 'apiKey',
        actor_id: keyRow.id,
        action: 'member.create',
        member_id: kid.id,
        changed: ['name', 'relationships', 'role'],
      },
      {
        org_id: orgId,
        actor_type: 'apiKey',
        actor_id: keyRow.id,
        action: 'member.update',
        member_id: m.id,
        changed: ['email', 'name'],
      },
      {
        org_id: orgId,
        actor_type: 'apiKey',
        actor_id: keyRow.id,
        action: 'member.update',
        member_id: kid.id,
        changed: ['relationships'],
      },
      {
        org_id: orgId,
        actor_type: 'apiKey',
        actor_id: keyRow.id,
        action: 'member.delete',
        member_id: kid.id,
        changed: [],
      },
    ])
    expect(JSON.stringify(rows)).not.toContain('secret@example.com')
  })

  it('answers as the OpenAPI document says, for every status of every member operation', async () => {
    const doc = (await (await fetch(url('/api/v1/openapi.json'))).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string
            deprecated?: boolean
            responses: Record<string, { content?: Record<string, { schema: object }> }>
          }
        >
      >
    }
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true })
    addFormats.default(ajv)
    const produced = new Map<string, Set<string>>()
    const check = (path: string, method: string, response: CallResult) => {
      const op = doc.paths[path]?.[method]
      expect(op, `${method} ${path}`).toBeDefined()
      const documented = op?.responses[String(response.status)]
      expect(documented, `${method} ${path} ${response.status} is documented`).toBeDefined()
      const schema = documented?.content?.['application/json']?.schema
      if (schema) {
        const validate = ajv.compile(schema)
        expect(
          validate(response.body),
          `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}`,
        ).toBe(true)
      }
      produced.set(`${method} ${path}`, (produced.get(`${method} ${path}`) ?? new Set()).add(String(response.status)))
    }
    const limited = await startApp(store, { rateLimitMax: 1 })
    try {
      for (const base of [REL, LEGACY]) {
        const collection = `${base}/{id}/members`
        const one = `${base}/{id}/members/{memberId}`
        const h = await household()
        const created = await add(
          h.id,
          { name: 'Doc', role: 'primaryClient', birthDate: '1950-01-01', email: 'doc@example.com' },
          {},
          key,
          base,
        )
        const m = created.body.member as Member
        const kid = await member(h.id, {
          name: 'Doc Kid',
          role: 'child',
          relationships: [{ memberId: m.id, type: 'parent' }],
        })
        const readOnly = (await createKey(store.db, orgId, ['relationships:read'])).key

        check(collection, 'post', created)
        check(collection, 'post', await add(h.id, { name: 'Doc', role: 'primaryClient' }, {}, key, base))
        check(collection, 'post', await add(NO_SUCH, { name: 'Doc', role: 'child' }, {}, key, base))
        check(collection, 'post', await add(h.id, { name: 'Doc', role: 'child' }, { 'if-match': '"1"' }, key, base))
        check(
          collection,
          'post',
          await add(h.id, JSON.stringify({ name: 'x'.repeat(1024 * 1024), role: 'child' }), {}, key, base),
        )
        check(
          collection,
          'post',
          await call(url(`${base}/${h.id}/members`), key, {
            method: 'POST',
            body: 'name=x',
            headers: { 'content-type': 'text/plain' },
          }),
        )
        check(collection, 'post', await add(h.id, { name: 'x', role: 'child' }, {}, null, base))
        check(collection, 'post', await add(h.id, { name: 'x', role: 'child' }, {}, readOnly, base))

        const listed = await list(h.id, key, base)
        check(collection, 'get', listed)
        expect(
          (
            await call(url(`${base}/${h.id}/members`), key, {
              headers: { 'if-none-match': listed.headers.get('etag') ?? '' },
            })
          ).status,
        ).toBe(304)
        check(collection, 'get', await list(NO_SUCH, key, base))
        check(collection, 'get', await list(h.id, null, base))
        check(collection, 'get', await list(h.id, (await createKey(store.db, orgId, ['embed:chart'])).key, base))

        check(one, 'get', await call(url(`${base}/${h.id}/members/${kid.id}`), key))
        check(one, 'get', await call(url(`${base}/${h.id}/members/${NO_SUCH}`), key))
        check(one, 'get', await call(url(`${base}/${h.id}/members/${kid.id}`), undefined))
        check(
          one,
          'get',
          await call(url(`${base}/${h.id}/members/${kid.id}`), (await createKey(store.db, orgId, ['embed:chart'])).key),
        )

        check(one, 'patch', await patch(h.id, kid.id, { name: 'Doc Kid Two' }, await etagOf(h.id), key, base))
        check(
          one,
          'patch',
          await patch(h.id, kid.id, { relationships: [{ memberId: kid.id, type: 'parent' }] }, '*', key, base),
        )
        check(one, 'patch', await patch(h.id, NO_SUCH, { name: 'x' }, '*', key, base))
        check(one, 'patch', await patch(h.id, kid.id, { name: 'x' }, '"1"', key, base))
        check(one, 'patch', await patch(h.id, kid.id, { name: 'x' }, undefined, key, base))
        check(
          one,
          'patch',
          await patch(h.id, kid.id, JSON.stringify({ name: 'x'.repeat(1024 * 1024) }), '*', key, base),
        )
        check(
          one,
          'patch',
          await call(url(`${base}/${h.id}/members/${kid.id}`), key, {
            method: 'PATCH',
            body: 'x',
            headers: { 'content-type': 'text/plain', 'if-match': '*' },
          }),
        )
        check(one, 'patch', await patch(h.id, kid.id, { name: 'x' }, '*', null, base))
        check(one, 'patch', await patch(h.id, kid.id, { name: 'x' }, '*', readOnly, base))

        check(one, 'delete', await remove(h.id, kid.id, '"1"', key, base))
        const withBody = (body: string, contentType: string) =>
          call(url(`${base}/${h.id}/members/${kid.id}`), key, {
            method: 'DELETE',
            body,
            headers: { 'content-type': contentType, 'if-match': '"1"' },
          })
        check(one, 'delete', await withBody('{"not json', 'application/json'))
        check(one, 'delete', await withBody('x', 'text/plain'))
        check(one, 'delete', await withBody(JSON.stringify({ blob: 'x'.repeat(1024 * 1024) }), 'application/json'))
        check(one, 'delete', await remove(h.id, kid.id, undefined, key, base))
        check(one, 'delete', await remove(h.id, NO_SUCH, '*', key, base))
        check(one, 'delete', await remove(h.id, kid.id, '*', null, base))
        check(one, 'delete', await remove(h.id, kid.id, '*', readOnly, base))
        const deleted = await remove(h.id, kid.id, await etagOf(h.id), key, base)
        expect(deleted.status).toBe(204)
        produced.get(`delete ${one}`)?.add('204')
        produced.get(`get ${collection}`)?.add('304')
        produced.get(`get ${one}`)?.add('304')

        // Rate limits: the second call of a key with a budget of one.
        for (const [path, method, target] of [
          [collection, 'get', `${base}/${h.id}/members`],
          [collection, 'post', `${base}/${h.id}/members`],
          [one, 'get', `${base}/${h.id}/members/${m.id}`],
          [one, 'patch', `${base}/${h.id}/members/${m.id}`],
          [one, 'delete', `${base}/${h.id}/members/${NO_SUCH}`],
        ] as const) {
          const fresh = (await createKey(store.db, orgId, ['relationships:read', 'relationships:write'])).key
          const send = () =>
            call(`${limited.url}${target}`, fresh, {
              method: method.toUpperCase(),
              body: method === 'post' || method === 'patch' ? { name: 'Limited', role: 'other' } : undefined,
              headers: { 'if-match': '"1"' },
            })
          let response = await send()
          for (let i = 0; i < 4 && response.status !== 429; i++) response = await send()
          expect(response.status).toBe(429)
          check(path, method, response)
        }

        for (const [path, methods] of [
          [collection, ['get', 'post']],
          [one, ['get', 'patch', 'delete']],
        ] as const) {
          for (const method of methods) {
            const op = doc.paths[path]?.[method]
            expect(op?.deprecated ?? false).toBe(base === LEGACY)
            const documented = Object.keys(op?.responses ?? {})
            expect(
              documented.filter((status) => !produced.get(`${method} ${path}`)?.has(status)),
              `${method} ${path}`,
            ).toEqual([])
          }
        }
      }
      const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId))
      expect(new Set(ids).size).toBe(ids.length)
    } finally {
      await limited.close()
    }
  })
})
