// Links of a household's estate over HTTP: …/{id}/links (GET, with ?entityId=, and POST) and
// …/{id}/links/{linkId} (GET, PATCH, DELETE) on both prefixes. The household's ETag that links
// move, permissions, another organization's household, member, entity or link id anywhere (404 and
// nothing written), concurrent edits under one If-Match, concurrent links that would together make
// an ownership cycle (exactly one wins), and fast-check bodies (4xx {error, code, field}, never 5xx).
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import type { EntityKind } from '../../src/domain/estate-vocabulary.ts'
import { BENEFICIARY_TYPES, LINK_TYPES } from '../../src/domain/estate-vocabulary.ts'
import { listAudit } from '../../src/store/audit.ts'

const REL = '/api/v1/relationships'
const LEGACY = '/api/v1/households'
const NO_SUCH = '00000000-0000-4000-8000-000000000000'
const PROPERTY_TEST_TIMEOUT_MS = 180_000

interface Link {
  id: string
  from: string
  fromType: 'member' | 'entity'
  to: string
  type: string
  share: number | null
  beneficiaryType: string | null
  createdAt: string
}

describe.each(storeKinds())('household links on %s', (kind) => {
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
  async function member(id: string, name: string, as = key): Promise<string> {
    const added = await call(url(`${REL}/${id}/members`), as, { method: 'POST', body: { name, role: 'other' } })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    return (added.body.member as { id: string }).id
  }
  async function entity(householdId: string, name: string, entityKind: EntityKind, as = key): Promise<string> {
    const created = await call(url(`${REL}/${householdId}/entities`), as, {
      method: 'POST',
      body: { name, kind: entityKind },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return (created.body.entity as { id: string }).id
  }
  type As = string | null
  const list = (id: string, query = '', as: As = key, base = REL) =>
    call(url(`${base}/${id}/links${query}`), as ?? undefined)
  const add = (id: string, body: unknown, headers: Record<string, string> = {}, as: As = key, base = REL) =>
    call(url(`${base}/${id}/links`), as ?? undefined, { method: 'POST', body, headers })
  const one = (id: string, linkId: string, as: As = key, base = REL) =>
    call(url(`${base}/${id}/links/${linkId}`), as ?? undefined)
  const patch = (id: string, linkId: string, body: unknown, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/links/${linkId}`), as ?? undefined, {
      method: 'PATCH',
      body,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  const remove = (id: string, linkId: string, ifMatch: string | undefined, as: As = key, base = REL) =>
    call(url(`${base}/${id}/links/${linkId}`), as ?? undefined, {
      method: 'DELETE',
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  async function link(id: string, body: Record<string, unknown>): Promise<Link> {
    const response = await add(id, body)
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body.link as Link
  }
  const links = async (id: string, as = key) => (await list(id, '', as)).body.links as Link[]

  it('adds, reads, lists, changes and removes links; each change moves the household ETag', async () => {
    const h = await household()
    const ann = await member(h, 'Ann')
    const trust = await entity(h, 'Ann Revocable Trust', 'revocableTrust')
    const policy = await entity(h, 'Term policy', 'lifeInsurance')
    const before = await etagOf(h)
    const created = await add(h, { from: ann, to: trust, type: 'beneficiary', share: 50 })
    expect(created.status).toBe(201)
    const beneficiary = created.body.link as Link
    expect(beneficiary).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      from: ann,
      fromType: 'member',
      to: trust,
      type: 'beneficiary',
      share: 50,
      beneficiaryType: 'primary',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    expect(created.headers.get('location')).toBe(`${REL}/${h}/links/${beneficiary.id}`)
    const etag = created.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"\d+"$/)
    expect(etag).not.toBe(before)
    expect(await etagOf(h)).toBe(etag)

    const owner = await link(h, { from: trust, to: policy, type: 'owner', share: 100 })
    expect(owner.fromType).toBe('entity')
    const insured = await link(h, { from: ann, to: policy, type: 'insured' })
    const all = await list(h)
    expect(all.status).toBe(200)
    expect(all.body).toEqual({ links: [beneficiary, owner, insured] })
    const etagNow = all.headers.get('etag') ?? ''
    expect((await list(h, `?entityId=${trust}`)).body).toEqual({ links: [beneficiary, owner] })
    expect((await list(h, `?entityId=${policy.toUpperCase()}`)).body).toEqual({ links: [owner, insured] })
    expect((await list(h, `?entityId=${NO_SUCH}`)).status).toBe(404)
    expect((await list(h, '?entityId=nope')).status).toBe(404)
    expect((await list(h, `?entityId=${ann}`)).status).toBe(404)
    expect((await call(url(`${REL}/${h}/links`), key, { headers: { 'if-none-match': etagNow } })).status).toBe(304)

    const read = await one(h, owner.id)
    expect(read.status).toBe(200)
    expect(read.body).toEqual({ link: owner })
    expect(read.headers.get('etag')).toBe(etagNow)
    expect((await one(h, NO_SUCH)).status).toBe(404)
    expect((await one(h, 'not-a-uuid')).status).toBe(404)

    // PATCH: If-Match required, merge patch of share and beneficiaryType only.
    expect((await patch(h, beneficiary.id, { share: 40 }, undefined)).status).toBe(428)
    expect((await patch(h, beneficiary.id, { share: 40 }, '"1"')).status).toBe(412)
    const changed = await patch(h, beneficiary.id, { share: 40, beneficiaryType: 'contingent' }, etagNow, key)
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body.link).toEqual({ ...beneficiary, share: 40, beneficiaryType: 'contingent' })
    const afterPatch = changed.headers.get('etag') ?? ''
    expect(afterPatch).not.toBe(etagNow)
    const typeChange = await patch(h, beneficiary.id, { type: 'owner' }, afterPatch)
    expect(typeChange.status).toBe(400)
    expect(typeChange.body).toMatchObject({ code: 'invalid_body', field: '/type' })
    const merge = await call(url(`${REL}/${h}/links/${beneficiary.id}`), key, {
      method: 'PATCH',
      body: { share: null },
      headers: { 'if-match': afterPatch, 'content-type': 'application/merge-patch+json' },
    })
    expect(merge.status).toBe(200)
    expect((merge.body.link as Link).share).toBeNull()

    // DELETE: If-Match required.
    expect((await remove(h, insured.id, undefined)).status).toBe(428)
    const removed = await remove(h, insured.id, merge.headers.get('etag') ?? '')
    expect(removed.status).toBe(204)
    expect(removed.headers.get('etag')).toBe(await etagOf(h))
    expect((await remove(h, insured.id, '*')).status).toBe(404)
    expect((await links(h)).map((l) => l.id)).toEqual([beneficiary.id, owner.id])

    const audit = await listAudit(store.db, orgId, h, 50)
    expect(audit.filter((e) => e.action.startsWith('link.')).map((e) => [e.action, e.linkId, e.changed])).toEqual([
      ['link.create', beneficiary.id, ['from', 'share', 'to', 'type']],
      ['link.create', owner.id, ['from', 'share', 'to', 'type']],
      ['link.create', insured.id, ['from', 'to', 'type']],
      ['link.update', beneficiary.id, ['beneficiaryType', 'share']],
      ['link.update', beneficiary.id, ['share']],
      ['link.delete', insured.id, []],
    ])
  })

  it('answers each rule with 400, its code and field, and changes nothing', async () => {
    const h = await household()
    const ann = await member(h, 'Ann')
    const bo = await member(h, 'Bo')
    const trust = await entity(h, 'Trust', 'ilit')
    const bank = await entity(h, 'Bank', 'corporateTrustee')
    const account = await entity(h, 'Account', 'taxableAccount')
    await link(h, { from: ann, to: account, type: 'owner', share: 80 })
    const etag = await etagOf(h)
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ from: ann, to: trust, type: 'grantor', share: 5 }, 400, 'link_share_not_allowed', '/share'],
      [
        { from: ann, to: trust, type: 'trustee', beneficiaryType: 'primary' },
        400,
        'link_share_not_allowed',
        '/beneficiaryType',
      ],
      [{ from: bo, to: account, type: 'owner', share: 20.5 }, 400, 'link_shares_exceed', '/share'],
      [{ from: ann, to: bank, type: 'owner' }, 400, 'link_party_owned', '/to'],
      [{ from: ann, to: account, type: 'insured' }, 400, 'link_kind_mismatch', '/type'],
      [{ from: ann, to: account, type: 'owner', share: 1 }, 400, 'link_duplicate', '/type'],
      [{ from: NO_SUCH, to: trust, type: 'trustee' }, 404, 'not_found', '/from'],
      [{ from: ann, to: NO_SUCH, type: 'trustee' }, 404, 'not_found', '/to'],
      [{ from: ann, to: trust, type: 'owner', share: 0 }, 400, 'invalid_body', '/share'],
      [{ from: ann, to: trust, type: 'owner', share: 1.00001 }, 400, 'invalid_body', '/share'],
      [{ from: 'x', to: trust, type: 'owner' }, 400, 'invalid_body', '/from'],
      [{ from: ann, to: trust, type: 'parent' }, 400, 'invalid_body', '/type'],
      [{ from: ann, to: trust }, 400, 'invalid_body', '/type'],
      [{ from: ann, to: trust, type: 'trustee', extra: 1 }, 400, 'invalid_body', '/extra'],
    ]
    for (const [body, status, code, field] of cases) {
      const response = await add(h, body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect(response.body, JSON.stringify(body)).toMatchObject({ code, field, error: expect.any(String) })
    }
    expect(await etagOf(h)).toBe(etag)
    expect((await links(h)).length).toBe(1)
  })

  it("answers 404 for another organization's household, member, entity or link anywhere, and writes nothing", async () => {
    const mine = await household()
    const ann = await member(mine, 'Ann')
    const trust = await entity(mine, 'Trust', 'slat')
    const mineLink = await link(mine, { from: ann, to: trust, type: 'grantor' })
    const theirs = await household(other.key)
    const theirMember = await member(theirs, 'Them', other.key)
    const theirTrust = await entity(theirs, 'Their trust', 'slat', other.key)
    const theirLinkRes = await add(theirs, { from: theirMember, to: theirTrust, type: 'grantor' }, {}, other.key)
    expect(theirLinkRes.status).toBe(201)
    const theirLink = theirLinkRes.body.link as Link
    const [mineEtag, theirEtag] = [await etagOf(mine), await etagOf(theirs, other.key)]

    // Their household in the path, with my key.
    for (const base of [REL, LEGACY]) {
      expect((await list(theirs, '', key, base)).status).toBe(404)
      expect((await add(theirs, { from: theirMember, to: theirTrust, type: 'trustee' }, {}, key, base)).status).toBe(
        404,
      )
      expect((await one(theirs, theirLink.id, key, base)).status).toBe(404)
      expect((await patch(theirs, theirLink.id, { share: null }, '*', key, base)).status).toBe(404)
      expect((await remove(theirs, theirLink.id, '*', key, base)).status).toBe(404)
      // Their link under my household.
      expect((await one(mine, theirLink.id, key, base)).status).toBe(404)
      expect((await patch(mine, theirLink.id, { share: null }, '*', key, base)).status).toBe(404)
      expect((await remove(mine, theirLink.id, '*', key, base)).status).toBe(404)
      // Their entity as a filter.
      expect((await list(mine, `?entityId=${theirTrust}`, key, base)).status).toBe(404)
    }
    // Their member or entity in my link's body.
    const fromTheirs = await add(mine, { from: theirMember, to: trust, type: 'trustee' })
    expect(fromTheirs.status).toBe(404)
    expect(fromTheirs.body).toMatchObject({ code: 'not_found', field: '/from' })
    const toTheirs = await add(mine, { from: ann, to: theirTrust, type: 'trustee' })
    expect(toTheirs.status).toBe(404)
    expect(toTheirs.body).toMatchObject({ code: 'not_found', field: '/to' })

    expect(await etagOf(mine)).toBe(mineEtag)
    expect(await etagOf(theirs, other.key)).toBe(theirEtag)
    expect(await links(mine)).toEqual([mineLink])
    expect(await links(theirs, other.key)).toEqual([theirLink])
  })

  it('refuses another household of the same organization with link_target_other_household', async () => {
    const mine = await household()
    const ann = await member(mine, 'Ann')
    const neighbours = await household()
    const trust = await entity(neighbours, 'Their trust', 'grat')
    const response = await add(mine, { from: ann, to: trust, type: 'grantor' })
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'link_target_other_household', field: '/to' })
  })

  it('needs relationships:read to read and relationships:write to write (households:* count), on both prefixes', async () => {
    const h = await household()
    const ann = await member(h, 'Ann')
    const trust = await entity(h, 'Trust', 'crt')
    const existing = await link(h, { from: ann, to: trust, type: 'grantor' })
    const read = (await createKey(store.db, orgId, ['relationships:read'])).key
    const legacyRead = (await createKey(store.db, orgId, ['households:read'])).key
    const write = (await createKey(store.db, orgId, ['households:write'])).key
    expect((await list(h, '', read)).status).toBe(200)
    expect((await one(h, existing.id, legacyRead, LEGACY)).status).toBe(200)
    expect((await list(h, '', write)).status).toBe(200)
    expect((await add(h, { from: ann, to: trust, type: 'trustee' }, {}, read)).status).toBe(403)
    expect((await patch(h, existing.id, { share: null }, '*', legacyRead, LEGACY)).status).toBe(403)
    expect((await remove(h, existing.id, '*', read)).status).toBe(403)
    expect((await list(h, '', null)).status).toBe(401)
    const created = await add(h, { from: ann, to: trust, type: 'trustee' }, {}, write, LEGACY)
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(`${LEGACY}/${h}/links/${(created.body.link as Link).id}`)
    expect(created.headers.get('deprecation')).not.toBeNull()
  })

  it('two PATCHes with one ETag at once: one 200, the other 412', async () => {
    const h = await household()
    const ann = await member(h, 'Ann')
    const home = await entity(h, 'Home', 'realEstate')
    const owner = await link(h, { from: ann, to: home, type: 'owner', share: 50 })
    const etag = await etagOf(h)
    const answers = await Promise.all([
      patch(h, owner.id, { share: 60 }, etag),
      patch(h, owner.id, { share: 70 }, etag),
    ])
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412])
    const winner = answers.find((a) => a.status === 200)
    expect((await one(h, owner.id)).body.link).toEqual(winner?.body.link)
  })

  it('concurrent links that would together close an ownership cycle: exactly one is added', async () => {
    for (let round = 0; round < 3; round++) {
      const h = await household()
      const a = await entity(h, 'A', 'llc')
      const b = await entity(h, 'B', 'flp')
      const answers = await Promise.all([
        add(h, { from: a, to: b, type: 'owner', share: 50 }),
        add(h, { from: b, to: a, type: 'limitedPartner', share: 50 }, { 'if-match': '*' }),
      ])
      expect(answers.map((r) => r.status).sort()).toEqual([201, 400])
      expect(answers.find((r) => r.status === 400)?.body).toMatchObject({ code: 'link_ownership_cycle', field: '/to' })
      expect((await links(h)).length).toBe(1)
    }
  })

  describe('fast-check bodies', () => {
    // Keys the JSON parser refuses as prototype poisoning (invalid_json, about no one field) are left out.
    const anything = fc.anything({
      key: fc.string().filter((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype'),
    })
    const uuidOrJunk = (ids: string[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ids) },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
        { weight: 1, arbitrary: anything },
      )
    const share = fc.oneof(
      fc.constantFrom(null, 0, 100, 100.0001, -1, 50, 33.3333, 1e-7, Number.MAX_VALUE, '50'),
      fc.double({ noNaN: true }),
      fc.integer({ min: -10, max: 200 }),
    )
    const linkType = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...LINK_TYPES) },
      { weight: 1, arbitrary: fc.string() },
    )
    const beneficiaryType = fc.oneof(fc.constantFrom(null, ...BENEFICIARY_TYPES), fc.string(), fc.integer())

    // Bodies are JSON (text that is not JSON is invalid_json, about no field); undefined is sent as null.
    const asJson = (value: unknown) => JSON.stringify(value) ?? 'null'

    /** Every 4xx is {error, code, field}; never a 5xx. */
    function checkAnswer(response: Awaited<ReturnType<typeof call>>, body: unknown) {
      const said = JSON.stringify({ body, answer: response.body })
      expect(response.status, said).toBeLessThan(500)
      if (response.status < 400) return
      expect(response.body, said).toMatchObject({ error: expect.any(String), code: expect.any(String) })
      expect(typeof response.body.field, said).toBe('string')
    }

    it('POST …/links: valid or 4xx with its field, never a 5xx', { timeout: PROPERTY_TEST_TIMEOUT_MS }, async () => {
      const h = await household()
      const people = [await member(h, 'Ann'), await member(h, 'Bo')]
      const entities = [
        await entity(h, 'Trust', 'irrevocableTrust'),
        await entity(h, 'LLC', 'llc'),
        await entity(h, 'Corp', 'corporation'),
        await entity(h, 'Policy', 'lifeInsurance'),
        await entity(h, 'Bank', 'corporateTrustee'),
      ]
      const elsewhere = await household(other.key)
      const foreign = await entity(elsewhere, 'Foreign', 'llc', other.key)
      const body = fc.oneof(
        {
          weight: 8,
          arbitrary: fc.record(
            {
              from: uuidOrJunk([...people, ...entities, foreign]),
              to: uuidOrJunk([...entities, people[0] ?? '', foreign]),
              type: linkType,
              share,
              beneficiaryType,
              extra: anything,
            },
            { requiredKeys: [] },
          ),
        },
        { weight: 1, arbitrary: anything },
      )
      await fc.assert(
        fc.asyncProperty(body, async (sent) => {
          checkAnswer(await add(h, asJson(sent)), sent)
        }),
        { numRuns: 150 },
      )
      // Whatever was added holds to the rules; the other organization's household is untouched.
      expect(await links(elsewhere, other.key)).toEqual([])
      const added = await links(h)
      for (const entityId of entities) {
        const owners = added.filter(
          (l) => l.to === entityId && ['owner', 'generalPartner', 'limitedPartner'].includes(l.type),
        )
        expect(owners.reduce((sum, l) => sum + (l.share ?? 0), 0)).toBeLessThanOrEqual(100)
      }
    })

    it(
      'PATCH …/links/{linkId}: valid or 4xx with its field, never a 5xx',
      { timeout: PROPERTY_TEST_TIMEOUT_MS },
      async () => {
        const h = await household()
        const ann = await member(h, 'Ann')
        const bo = await member(h, 'Bo')
        const trust = await entity(h, 'Trust', 'dynastyTrust')
        const targets = [
          await link(h, { from: ann, to: trust, type: 'beneficiary', share: 50 }),
          await link(h, { from: bo, to: trust, type: 'beneficiary', share: 50 }),
          await link(h, { from: ann, to: trust, type: 'grantor' }),
        ]
        const body = fc.oneof(
          {
            weight: 8,
            arbitrary: fc.record(
              { share, beneficiaryType, type: linkType, from: fc.uuid(), extra: anything },
              { requiredKeys: [] },
            ),
          },
          { weight: 1, arbitrary: anything },
        )
        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...targets), body, async (target, sent) => {
            checkAnswer(await patch(h, target.id, asJson(sent), '*'), sent)
          }),
          { numRuns: 150 },
        )
        const after = await links(h)
        expect(after.map((l) => [l.id, l.from, l.to, l.type])).toEqual(targets.map((l) => [l.id, l.from, l.to, l.type]))
        const primary = after.filter((l) => l.type === 'beneficiary' && l.beneficiaryType === 'primary')
        expect(primary.reduce((sum, l) => sum + (l.share ?? 0), 0)).toBeLessThanOrEqual(100)
      },
    )
  })
})
