// PUT /api/v1/relationships/{id}/chart (and the legacy path): a chart payload (0.3.0, 0.2.0 or
// 0.1.x) replaces the household's members, kinships, entities and links in one transaction, matched
// by id or externalId; 0.2.0's facts are stored, 0.3.0's estate facts go to the household's settings
// (what it leaves out is kept), and a GET → PUT → GET round trip loses none; dispositions,
// assumptions and a non-client's estate facts are refused, not dropped; a refused payload writes
// nothing and names its first problem; fast-check payloads get 200 or a 4xx {error, code, field},
// never a 5xx.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENTITY_KINDS, LINK_TYPES, type Entity, type Payload } from '../../chart/payload.ts'
import { DECEASED_SPOUSE_ID } from '../../src/domain/chart-payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { listAudit } from '../../src/store/audit.ts'
import { effectiveEstateSide } from '../../src/domain/estate-vocabulary.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const REL = '/api/v1/relationships'
/** The household fields payload 0.3.0's estate facts are stored in. */
const ESTATE_SETTINGS = [
  'dsueReceived',
  'deceasedSpouseName',
  'dsueDateOfDeath',
  'portabilityElected',
  'primaryClientAsDonor',
  'coClientAsDonor',
  'primaryClientLifetimeGifts',
  'coClientLifetimeGifts',
  'primaryClientExemptionUsed',
  'coClientExemptionUsed',
  'primaryClientUsCitizen',
  'coClientUsCitizen',
] as const
const PROPERTY_TEST_TIMEOUT_MS = 180_000
const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload

type Answer = Awaited<ReturnType<typeof call>>

/** A payload's contents by name, so that two payloads with different ids compare. */
/** The payload's links in its order, each named by its ends' names. */
function linksInOrder(payload: Payload): string[] {
  const name = new Map([...payload.people, ...(payload.entities ?? [])].map((x) => [x.id, x.name]))
  return (payload.links ?? []).map((l) => `${name.get(l.from)} ${l.type} ${name.get(l.to)}`)
}

/** The payload with a couple's two people in id order and the relationships sorted: the store promises neither. */
function unordered(payload: Payload): Payload {
  const relationships = (payload.relationships ?? [])
    .map((r) => (r.type === 'parent' || r.from < r.to ? r : { ...r, from: r.to, to: r.from }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  return { ...payload, relationships }
}

function byName(payload: Payload) {
  const name = new Map([...payload.people, ...(payload.entities ?? [])].map((x) => [x.id, x.name]))
  return {
    people: payload.people.map((p) => `${p.name} ${p.role} ${p.birthDate ?? ''} ${p.deathDate ?? ''}`).sort(),
    relationships: (payload.relationships ?? [])
      .map((r) =>
        r.type === 'parent'
          ? `${name.get(r.from)} parent of ${name.get(r.to)}`
          : [name.get(r.from), name.get(r.to)].sort().join(` ${r.type} `),
      )
      .sort(),
    // The side the entity is counted on: 0.2.0 writes estate only as set, the kind's default otherwise.
    entities: (payload.entities ?? [])
      .map((e) => `${e.name} ${e.kind} ${e.value ?? ''} ${effectiveEstateSide(e.kind, e.estate ?? null) ?? ''}`)
      .sort(),
    links: (payload.links ?? []).map((l) => `${name.get(l.from)} ${l.type} ${name.get(l.to)} ${l.share ?? ''}`).sort(),
  }
}

describe.each(storeKinds())('importing a chart payload on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let alice: { orgId: string; key: string; keyId: string }
  let bob: { orgId: string; key: string; keyId: string }

  async function household(key = alice.key, name = 'Import Family'): Promise<{ id: string; etag: string }> {
    const created = await call(`${api.url}${REL}`, key, { body: { name } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return { id: (created.body.household as { id: string }).id, etag: created.headers.get('etag') ?? '' }
  }

  function put(id: string, payload: unknown, etag: string | undefined, key = alice.key, base = REL): Promise<Answer> {
    return call(`${api.url}${base}/${id}/chart`, key, {
      method: 'PUT',
      body: payload,
      headers: etag === undefined ? {} : { 'if-match': etag },
    })
  }

  async function chart(id: string): Promise<Answer> {
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    return answer
  }

  /** The household's estate settings (and deceased spouse), as GET …/{id} answers them. */
  async function estateSettings(id: string): Promise<Record<string, unknown>> {
    const answer = await call(`${api.url}${REL}/${id}`, alice.key)
    expect(answer.status).toBe(200)
    const household = answer.body.household as Record<string, unknown>
    return Object.fromEntries(ESTATE_SETTINGS.map((name) => [name, household[name]]))
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    alice = await createOrgWithKey(store.db)
    bob = await createOrgWithKey(store.db)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('stores the example: GET then gives the same people, kinships, entities and links, and a second PUT changes no ids', async () => {
    const h = await household()
    const first = await put(h.id, example, h.etag)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.headers.get('hearth-chart-version')).toBe(CHART_VERSION)
    const etag = first.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"\d+"$/)
    expect(etag).not.toBe(h.etag)
    const read = await chart(h.id)
    expect(read.headers.get('etag')).toBe(etag)
    expect(read.body).toEqual(first.body)
    const stored = read.body as Payload
    expect(checkPayloadRules(stored)).toBeNull()
    expect(byName(stored)).toEqual(byName(example))
    // And the links in the payload's order.
    expect(linksInOrder(stored)).toEqual(linksInOrder(example))

    // The members and entities carry the payload ids as externalIds.
    const members = await call(`${api.url}${REL}/${h.id}/members`, alice.key)
    expect((members.body.members as { externalId: string }[]).map((m) => m.externalId)).toEqual(
      example.people.map((p) => p.id),
    )
    const entities = await call(`${api.url}${REL}/${h.id}/entities`, alice.key)
    expect((entities.body.entities as { externalId: string }[]).map((e) => e.externalId)).toEqual(
      (example.entities ?? []).map((e) => e.id),
    )

    // The same payload again (matched by externalId), and GET's own payload (matched by id): no id changes.
    const again = await put(h.id, example, etag)
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect((again.body as Payload).people.map((p) => p.id)).toEqual(stored.people.map((p) => p.id))
    expect((again.body as Payload).entities?.map((e) => e.id)).toEqual(stored.entities?.map((e) => e.id))
    const back = await put(h.id, again.body, again.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body).toEqual(again.body)

    // Audited as chart.import, by part.
    const audit = await listAudit(store.db, alice.orgId, h.id, 10)
    const imports = audit.filter((a) => a.action === 'chart.import')
    expect(imports).toHaveLength(3)
    for (const entry of imports) expect(entry.changed).toEqual(['entities', 'links', 'members', 'relationships'])
  })

  it('matches by externalId and by id, deletes what the payload leaves out, and keeps what 0.1.x cannot say', async () => {
    const h = await household()
    const ann = await call(`${api.url}${REL}/${h.id}/members`, alice.key, {
      body: { name: 'Ann Match', role: 'primaryClient', externalId: 'crm-ann', email: 'ann@example.com' },
    })
    expect(ann.status, JSON.stringify(ann.body)).toBe(201)
    const annId = (ann.body.member as { id: string }).id
    const bo = await call(`${api.url}${REL}/${h.id}/members`, alice.key, { body: { name: 'Bo Match', role: 'child' } })
    const boId = (bo.body.member as { id: string }).id
    const cy = await call(`${api.url}${REL}/${h.id}/members`, alice.key, { body: { name: 'Cy Gone', role: 'child' } })
    const cyId = (cy.body.member as { id: string }).id
    const policy = await call(`${api.url}${REL}/${h.id}/entities`, alice.key, {
      body: { name: 'Policy', kind: 'lifeInsurance', shortName: 'POL', value: 1000, valueAsOf: '2024-01-01' },
    })
    expect(policy.status, JSON.stringify(policy.body)).toBe(201)
    const policyId = (policy.body.entity as { id: string }).id
    const bank = await call(`${api.url}${REL}/${h.id}/entities`, alice.key, {
      body: { name: 'Bank Trust Co', kind: 'corporateTrustee' },
    })
    const bankId = (bank.body.entity as { id: string }).id
    const insured = await call(`${api.url}${REL}/${h.id}/links`, alice.key, {
      body: { from: annId, to: policyId, type: 'insured' },
    })
    expect(insured.status, JSON.stringify(insured.body)).toBe(201)
    const etag = insured.headers.get('etag') ?? ''

    const payload: Payload = {
      household: { name: 'ignored' },
      people: [
        { id: 'crm-ann', name: 'Ann Matched', role: 'primaryClient' },
        { id: boId, name: 'Bo Matched', role: 'child' },
        { id: 'dee', name: 'Dee New', role: 'grandchild' },
      ],
      relationships: [{ from: boId, to: 'dee', type: 'parent' }],
      entities: [
        { id: policyId, name: 'Policy', kind: 'other', value: 1000, estate: 'in' },
        { id: 'ilit', name: 'New ILIT', kind: 'ilit' },
      ],
      links: [
        { from: 'ilit', to: policyId, type: 'owner', share: 100 },
        { from: 'crm-ann', to: 'ilit', type: 'grantor' },
        { from: boId, to: 'ilit', type: 'beneficiary', share: 100 },
      ],
    }
    const answer = await put(h.id, payload, etag)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    const members = (await call(`${api.url}${REL}/${h.id}/members`, alice.key)).body.members as {
      id: string
      name: string
      email: string | null
      externalId: string | null
    }[]
    expect(members.map((m) => [m.name, m.externalId])).toEqual([
      ['Ann Matched', 'crm-ann'],
      ['Bo Matched', null],
      ['Dee New', 'dee'],
    ])
    expect(members[0]).toMatchObject({ id: annId, email: 'ann@example.com' })
    expect(members[1]?.id).toBe(boId)
    expect(members.some((m) => m.id === cyId)).toBe(false)
    const entities = (await call(`${api.url}${REL}/${h.id}/entities`, alice.key)).body.entities as {
      id: string
      name: string
      kind: string
      shortName: string | null
      valueAsOf: string | null
      estateSet: boolean
    }[]
    // The policy keeps its kind, short name and value date; the party stays; the ILIT is new.
    expect(entities.find((e) => e.id === policyId)).toMatchObject({
      kind: 'lifeInsurance',
      shortName: 'POL',
      valueAsOf: '2024-01-01',
      estateSet: false,
    })
    expect(entities.find((e) => e.id === bankId)).toMatchObject({ kind: 'corporateTrustee' })
    expect(entities.find((e) => e.name === 'New ILIT')).toMatchObject({ kind: 'ilit' })
    const links = (await call(`${api.url}${REL}/${h.id}/links`, alice.key)).body.links as {
      from: string
      to: string
      type: string
      beneficiaryType: string | null
    }[]
    expect(links.map((l) => l.type).sort()).toEqual(['beneficiary', 'grantor', 'insured', 'owner'])
    expect(links.find((l) => l.type === 'beneficiary')?.beneficiaryType).toBe('primary')
    expect(links.find((l) => l.type === 'insured')).toMatchObject({ from: annId, to: policyId })
  })

  it('refuses a payload that breaks a rule with the JSON Pointer of its first problem, and writes nothing', async () => {
    const h = await household()
    const first = await put(h.id, example, h.etag)
    expect(first.status).toBe(200)
    const etag = first.headers.get('etag') ?? ''
    const before = await chart(h.id)
    const links = example.links ?? []
    const bad: [string, Payload, string, string][] = [
      [
        'owners past 100 %',
        { ...example, links: [...links, { from: 'david', to: 'llc', type: 'owner', share: 1 }] },
        'link_shares_exceed',
        `/links/${links.length}/share`,
      ],
      [
        'a share on a grantor link',
        { ...example, links: links.map((l, i) => (i === 3 ? { ...l, share: 5 } : l)) },
        'link_share_not_allowed',
        '/links/3/share',
      ],
      [
        'an ownership cycle',
        { ...example, links: [...links, { from: 'llc', to: 'slat', type: 'owner', share: 10 }] },
        'link_ownership_cycle',
        `/links/${links.length}/to`,
      ],
      [
        'a grantor of an LLC',
        { ...example, links: [...links, { from: 'david', to: 'llc', type: 'grantor' }] },
        'link_kind_mismatch',
        `/links/${links.length}/type`,
      ],
      [
        'a parent cycle',
        {
          ...example,
          relationships: [...(example.relationships ?? []), { from: 'lucas', to: 'robert', type: 'parent' }],
        },
        'relationship_cycle',
        `/relationships/${example.relationships?.length ?? 0}`,
      ],
      [
        'two primary clients',
        { ...example, people: example.people.map((p, i) => (i === 3 ? { ...p, role: 'primaryClient' } : p)) },
        'member_role_taken',
        '/people/3/role',
      ],
      [
        'an owner of a party',
        {
          ...example,
          entities: [...(example.entities ?? []), { id: 'bank', name: 'Bank Trust Co', kind: 'corporateTrustee' }],
          links: [...links, { from: 'david', to: 'bank', type: 'owner', share: 10 }],
        },
        'link_party_owned',
        `/links/${links.length}/to`,
      ],
      [
        'a parent kind on a marriage',
        {
          ...example,
          relationships: (example.relationships ?? []).map((r, i) => (i === 0 ? { ...r, parentKind: 'step' } : r)),
        },
        'invalid_body',
        '/relationships/0/parentKind',
      ],
      [
        'a marriage that ends before it begins',
        {
          ...example,
          relationships: (example.relationships ?? []).map((r, i) =>
            i === 1 ? { ...r, since: '1970-01-01', until: '1969-01-01' } : r,
          ),
        },
        'invalid_body',
        '/relationships/1/until',
      ],
      [
        'a link to no one',
        { ...example, links: [...links, { from: 'nobody', to: 'llc', type: 'owner', share: 1 }] },
        'invalid_body',
        `/links/${links.length}/from`,
      ],
    ]
    for (const [what, payload, code, field] of bad) {
      const answer = await put(h.id, payload, etag)
      expect(answer.status, what).toBe(400)
      expect(answer.body, what).toMatchObject({ code, field, error: expect.any(String) })
    }
    // Schema refusals name their field too.
    const schema = await put(
      h.id,
      { ...example, links: [{ from: 'robert', to: 'rlt', type: 'grantor', share: 0 }] },
      etag,
    )
    expect(schema.status).toBe(400)
    expect(schema.body).toMatchObject({ code: 'invalid_body', field: '/links/0/share' })
    const after = await chart(h.id)
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'))
    expect(after.body).toEqual(before.body)
  })

  it("stores 0.2.0's facts, and GET's 0.2.0 payload sent back changes nothing", async () => {
    const h = await household(alice.key, 'Full Import')
    const payload: Payload = {
      household: { name: 'ignored', currency: 'USD' },
      people: [
        { id: 'ann', name: 'Ann Full', role: 'primaryClient' },
        { id: 'sam', name: 'Sam Full', role: 'coClient' },
        { id: 'kid', name: 'Kid Full', role: 'child' },
        { id: 'lee', name: 'Lee Former', role: 'other' },
      ],
      relationships: [
        { from: 'ann', to: 'sam', type: 'spouse', since: '1995-06-01' },
        { from: 'ann', to: 'lee', type: 'exSpouse', since: '1985-01-01', until: '1990-01-01' },
        { from: 'ann', to: 'kid', type: 'parent', parentKind: 'adopted' },
        { from: 'sam', to: 'kid', type: 'parent', parentKind: 'step' },
      ],
      entities: [
        { id: 'slat', name: 'Ann Full SLAT', kind: 'slat', value: 500_000 },
        { id: 'bank', name: 'Coastal Trust Co', kind: 'corporateTrustee' },
        { id: 'policy', name: 'Survivorship Policy', kind: 'lifeInsurance', value: 2_000_000 },
        { id: 'flp', name: 'Full Family LP', kind: 'flp', value: 3_000_000, estate: 'out' },
      ],
      links: [
        { from: 'ann', to: 'slat', type: 'grantor' },
        { from: 'bank', to: 'slat', type: 'trustee' },
        { from: 'kid', to: 'slat', type: 'successorTrustee' },
        { from: 'sam', to: 'slat', type: 'beneficiary', share: 100, beneficiaryType: 'income' },
        { from: 'kid', to: 'slat', type: 'beneficiary', share: 100, beneficiaryType: 'remainder' },
        { from: 'ann', to: 'policy', type: 'insured' },
        { from: 'slat', to: 'policy', type: 'owner', share: 100 },
        { from: 'ann', to: 'flp', type: 'generalPartner', share: 2 },
        { from: 'slat', to: 'flp', type: 'limitedPartner', share: 98 },
      ],
    }
    const first = await put(h.id, payload, h.etag)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const stored = first.body as Payload
    expect(checkPayloadRules(stored)).toBeNull()
    const name = new Map([...stored.people, ...(stored.entities ?? [])].map((x) => [x.id, x.name]))
    const named = <T extends { from: string; to: string }>(x: T) => ({
      ...x,
      from: name.get(x.from),
      to: name.get(x.to),
    })
    const original = new Map([...payload.people, ...(payload.entities ?? [])].map((x) => [x.id, x.name]))
    const asNamed = <T extends { from: string; to: string }>(x: T) => ({
      ...x,
      from: original.get(x.from),
      to: original.get(x.to),
    })
    // Couples are stored with either member first: compare them as sets of two.
    const couple = (r: NonNullable<Payload['relationships']>[number]) =>
      r.type === 'parent' ? r : { ...r, from: [r.from, r.to].sort()[0], to: [r.from, r.to].sort()[1] }
    expect((stored.relationships ?? []).map(named).map(couple)).toEqual(
      expect.arrayContaining((payload.relationships ?? []).map(asNamed).map(couple)),
    )
    expect(stored.relationships).toHaveLength(payload.relationships?.length ?? 0)
    // The same entities, each under the id the household gave it.
    const withoutId = (e: Entity): Entity => ({ ...e, id: '' })
    expect((stored.entities ?? []).map(withoutId)).toEqual((payload.entities ?? []).map(withoutId))
    expect((stored.links ?? []).map(named)).toEqual((payload.links ?? []).map(asNamed))
    expect(stored.household).toEqual({ name: 'Full Import', currency: 'USD' })

    // A short name and a value date, set through the entities API, then the round trip.
    const slat = stored.entities?.find((e) => e.kind === 'slat')?.id ?? ''
    const patched = await call(`${api.url}${REL}/${h.id}/entities/${slat}`, alice.key, {
      method: 'PATCH',
      body: { shortName: 'SLAT-A', valueAsOf: '2024-12-31' },
      headers: { 'if-match': first.headers.get('etag') ?? '' },
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const read = await chart(h.id)
    expect((read.body as Payload).entities?.find((e) => e.id === slat)).toMatchObject({
      shortName: 'SLAT-A',
      valueAsOf: '2024-12-31',
    })
    const back = await put(h.id, read.body, read.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body).toEqual(read.body)
    const again = await chart(h.id)
    expect(again.body).toEqual(read.body)

    // A PUT that states a new short name and value date, on an entity it keeps and on one it adds,
    // stores them: the next GET reads them back, and the value's valuation carries its date.
    const restated = structuredClone(read.body) as Payload
    restated.entities = (restated.entities ?? []).map((e) =>
      e.id === slat ? { ...e, shortName: 'SLAT-B', value: 4_200_000, valueAsOf: '2025-06-30' } : e,
    )
    restated.entities.push({
      id: 'new-account',
      name: 'Brokerage account',
      shortName: 'Brokerage',
      kind: 'taxableAccount',
      value: 900_000,
      valueAsOf: '2025-07-01',
    })
    const stated = await put(h.id, restated, again.headers.get('etag') ?? '')
    expect(stated.status, JSON.stringify(stated.body)).toBe(200)
    const afterStated = (await chart(h.id)).body as Payload
    expect(afterStated.entities?.find((e) => e.id === slat)).toMatchObject({
      shortName: 'SLAT-B',
      value: 4_200_000,
      valueAsOf: '2025-06-30',
    })
    expect(afterStated.entities?.find((e) => e.name === 'Brokerage account')).toMatchObject({
      shortName: 'Brokerage',
      value: 900_000,
      valueAsOf: '2025-07-01',
    })
    const valuations = await call(`${api.url}${REL}/${h.id}/entities/${slat}/valuations`, alice.key)
    expect(valuations.status).toBe(200)
    expect(JSON.stringify(valuations.body)).toContain('2025-06-30')
  })

  it('takes back a 0.2.0 payload with an owner and a partner on one pair, and stores partner links as stated', async () => {
    const h = await household(alice.key, 'Partner Import')
    const payload = (links: NonNullable<Payload['links']>, currency?: string): Payload => ({
      household: { name: 'ignored', ...(currency === undefined ? {} : { currency }) },
      people: [{ id: 'ann', name: 'Ann Partner', role: 'primaryClient' }],
      entities: [{ id: 'flp', name: 'Partner FLP', kind: 'flp' }],
      links,
    })
    const linksOf = (body: unknown) => linksInOrder(body as Payload)
    // An owner with a share and a general partner without one, from Ann to the FLP.
    const first = await put(
      h.id,
      payload([
        { from: 'ann', to: 'flp', type: 'owner', share: 50 },
        { from: 'ann', to: 'flp', type: 'generalPartner' },
      ]),
      h.etag,
    )
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const read = await chart(h.id)
    expect(linksOf(read.body)).toEqual(['Ann Partner owner Partner FLP', 'Ann Partner generalPartner Partner FLP'])
    // Sent back unchanged: the owner is not unfolded into owner + partner beside the stated partner (link_duplicate).
    const back = await put(h.id, read.body, read.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body).toEqual(read.body)

    // The partner alone, then an owner added beside it: the owner is stored as an owner.
    const [ann, flp] = [(read.body as Payload).people[0]?.id ?? '', (read.body as Payload).entities?.[0]?.id ?? '']
    const partnerOnly = await put(
      h.id,
      payload([{ from: 'ann', to: 'flp', type: 'generalPartner', share: 50 }]),
      back.headers.get('etag') ?? '',
    )
    expect(partnerOnly.status, JSON.stringify(partnerOnly.body)).toBe(200)
    const withOwner = await put(
      h.id,
      {
        ...(partnerOnly.body as Payload),
        links: [
          { from: ann, to: flp, type: 'generalPartner', share: 50 },
          { from: ann, to: flp, type: 'owner', share: 20 },
        ],
      },
      partnerOnly.headers.get('etag') ?? '',
    )
    expect(withOwner.status, JSON.stringify(withOwner.body)).toBe(200)
    expect((withOwner.body as Payload).links).toEqual([
      { from: ann, to: flp, type: 'generalPartner', share: 50 },
      { from: ann, to: flp, type: 'owner', share: 20 },
    ])
    // A payload that speaks 0.2.0 (here by its currency) and says owner means owner: the partner goes.
    const toOwner = await put(
      h.id,
      payload([{ from: 'ann', to: 'flp', type: 'owner', share: 50 }], 'USD'),
      withOwner.headers.get('etag') ?? '',
    )
    expect(toOwner.status, JSON.stringify(toOwner.body)).toBe(200)
    expect(linksOf((await chart(h.id)).body)).toEqual(['Ann Partner owner Partner FLP'])
  })

  it("takes back GET's payload of a household with a deceased spouse: she becomes a member, drawn once", async () => {
    const created = await call(`${api.url}${REL}`, alice.key, {
      body: { name: 'Widow Import', deceasedSpouseName: 'Harold Widow', dsueDateOfDeath: '2019-06-30' },
    })
    const id = (created.body.household as { id: string }).id
    const ruth = await call(`${api.url}${REL}/${id}/members`, alice.key, {
      body: { name: 'Ruth Widow', role: 'primaryClient' },
    })
    expect(ruth.status).toBe(201)
    const drawn = await chart(id)
    const back = await put(id, drawn.body, drawn.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(byName(back.body as Payload)).toEqual(byName(drawn.body as Payload))
    const members = (await call(`${api.url}${REL}/${id}/members`, alice.key)).body.members as {
      name: string
      role: string
      deathDate: string | null
      externalId: string | null
    }[]
    expect(members.map((m) => [m.name, m.role, m.deathDate, m.externalId])).toEqual([
      ['Ruth Widow', 'primaryClient', null, null],
      ['Harold Widow', 'spouse', '2019-06-30', 'deceased-spouse'],
    ])
  })

  it("takes back GET's 0.3.0 payload with every estate fact: the settings stay as they were, and GET gives the same again", async () => {
    const created = await call(`${api.url}${REL}`, alice.key, {
      body: {
        name: 'Estate Round Trip',
        deceasedSpouseName: 'Harold Trip',
        dsueDateOfDeath: '2021-03-14',
        dsueReceived: 5_490_000,
        portabilityElected: 'no',
        primaryClientUsCitizen: true,
        coClientUsCitizen: false,
        primaryClientAsDonor: true,
        primaryClientLifetimeGifts: 2_000_000,
        primaryClientExemptionUsed: 1_500_000.5,
        coClientAsDonor: true,
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body.household as { id: string }).id
    for (const body of [
      { name: 'Ruth Trip', role: 'primaryClient' },
      { name: 'Otto Trip', role: 'coClient' },
      { name: 'Kid Trip', role: 'child' },
    ]) {
      const member = await call(`${api.url}${REL}/${id}/members`, alice.key, { body })
      expect(member.status, JSON.stringify(member.body)).toBe(201)
    }
    const settings = await estateSettings(id)
    const read = await chart(id)
    const drawn = read.body as Payload
    expect(drawn.people[0]?.dsueReceived).toEqual({
      amount: 5_490_000,
      from: DECEASED_SPOUSE_ID,
      portabilityElected: false,
    })
    expect(drawn.gifts).toHaveLength(2)

    const back = await put(id, drawn, read.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(await estateSettings(id)).toEqual(settings)
    const again = await chart(id)
    expect(again.body).toEqual(back.body)
    // The drawn deceased spouse became a member (as before 0.3.0): the same payload but for that id.
    const harold = (again.body as Payload).people.find((p) => p.name === 'Harold Trip')?.id ?? ''
    expect(harold).not.toBe(DECEASED_SPOUSE_ID)
    const renamed = JSON.parse(JSON.stringify(drawn).replaceAll(`"${DECEASED_SPOUSE_ID}"`, `"${harold}"`)) as Payload
    expect(unordered(again.body as Payload)).toEqual(unordered(renamed))

    // Sent back once more, nothing moves at all.
    const third = await put(id, again.body, again.headers.get('etag') ?? '')
    expect(third.status, JSON.stringify(third.body)).toBe(200)
    expect(third.body).toEqual(again.body)
    expect(await estateSettings(id)).toEqual(settings)

    // And as 0.2.0 (or 0.1.x) sent back: no estate fact stated, every setting kept.
    const pinned = await call(`${api.url}${REL}/${id}/chart?chartVersion=0.2.0`, alice.key)
    const older = await put(id, pinned.body, third.headers.get('etag') ?? '')
    expect(older.status, JSON.stringify(older.body)).toBe(200)
    expect(older.body).toEqual(again.body)
    expect(await estateSettings(id)).toEqual(settings)
  })

  it("takes back GET's gifts derived from an exemption used alone (or clamped) without inventing a lifetime-gifts amount; another amount is stored", async () => {
    const created = await call(`${api.url}${REL}`, alice.key, {
      body: {
        name: 'Derived Gifts',
        primaryClientExemptionUsed: 500_000,
        coClientLifetimeGifts: 1_000_000,
        coClientExemptionUsed: 1_200_000,
      },
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = (created.body.household as { id: string }).id
    for (const body of [
      { name: 'Ruth Derived', role: 'primaryClient' },
      { name: 'Otto Derived', role: 'coClient' },
    ]) {
      const member = await call(`${api.url}${REL}/${id}/members`, alice.key, { body })
      expect(member.status, JSON.stringify(member.body)).toBe(201)
    }
    const settings = await estateSettings(id)
    const read = await chart(id)
    const drawn = read.body as Payload
    const [ruth, otto] = drawn.people.map((p) => p.id)
    expect(drawn.gifts).toEqual([
      { donor: ruth, taxableGifts: 500_000, exclusionUsed: 500_000 },
      { donor: otto, taxableGifts: 1_000_000, exclusionUsed: 1_000_000 },
    ])

    // Sent back, under its ETag and under If-Match *: the settings as they were (no lifetime gifts,
    // no donor mark, the larger exemption used), and the same payload again; no gift setting audited.
    const back = await put(id, drawn, read.headers.get('etag') ?? '')
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body).toEqual(drawn)
    expect(await estateSettings(id)).toEqual(settings)
    const starred = await put(id, drawn, '*')
    expect(starred.status, JSON.stringify(starred.body)).toBe(200)
    expect(starred.body).toEqual(drawn)
    expect(await estateSettings(id)).toEqual(settings)
    const audit = await listAudit(store.db, alice.orgId, id, 5)
    const imports = audit.filter((a) => a.action === 'chart.import')
    expect(imports).toHaveLength(2)
    for (const entry of imports) expect(entry.changed.join(' ')).not.toMatch(/AsDonor|LifetimeGifts|ExemptionUsed/)

    // An ETag that is not the household's is still 412, the entry GET's own or not.
    const stale = await put(id, drawn, read.headers.get('etag') ?? '')
    expect(stale.status, JSON.stringify(stale.body)).toBe(412)

    // Any other entry is the partner's statement, stored as stated.
    const stated = { ...drawn, gifts: [{ donor: ruth ?? '', taxableGifts: 600_000, exclusionUsed: 500_000 }] }
    const changed = await put(id, stated, starred.headers.get('etag') ?? '')
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(await estateSettings(id)).toEqual({
      ...settings,
      primaryClientAsDonor: true,
      primaryClientLifetimeGifts: 600_000,
    })
    expect((changed.body as Payload).gifts).toEqual([
      { donor: ruth, taxableGifts: 600_000, exclusionUsed: 500_000 },
      { donor: otto, taxableGifts: 1_000_000, exclusionUsed: 1_000_000 },
    ])
  })

  it("stores the estate facts a partner's 0.3.0 payload states, keeps those it leaves out, and audits which", async () => {
    const created = await call(`${api.url}${REL}`, alice.key, {
      body: {
        name: 'Partner Facts',
        portabilityElected: 'unknown',
        coClientLifetimeGifts: 100_000,
        coClientUsCitizen: true,
      },
    })
    const id = (created.body.household as { id: string }).id
    const payload: Payload = {
      household: { name: 'ignored', currency: 'USD' },
      people: [
        {
          id: 'crm-ann',
          name: 'Ann Facts',
          role: 'primaryClient',
          usCitizen: false,
          dsueReceived: { amount: 3_000_000.25, from: 'crm-lee', portabilityElected: true },
        },
        { id: 'crm-bo', name: 'Bo Facts', role: 'coClient' },
        { id: 'crm-lee', name: 'Lee Facts', role: 'spouse', deathDate: '2018-02-01' },
      ],
      relationships: [
        { from: 'crm-ann', to: 'crm-bo', type: 'spouse' },
        { from: 'crm-ann', to: 'crm-lee', type: 'spouse', until: '2018-02-01' },
      ],
      gifts: [{ donor: 'crm-ann', taxableGifts: 1_200_000, exclusionUsed: 1_000_000 }],
      dispositions: [],
      assumptions: {},
    }
    const answer = await put(id, payload, created.headers.get('etag') ?? '')
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(await estateSettings(id)).toEqual({
      dsueReceived: 3_000_000.25,
      deceasedSpouseName: 'Lee Facts',
      dsueDateOfDeath: '2018-02-01',
      portabilityElected: 'yes',
      primaryClientAsDonor: true,
      coClientAsDonor: null,
      primaryClientLifetimeGifts: 1_200_000,
      // Not stated: kept.
      coClientLifetimeGifts: 100_000,
      primaryClientExemptionUsed: 1_000_000,
      coClientExemptionUsed: null,
      primaryClientUsCitizen: false,
      coClientUsCitizen: true,
    })
    const stored = answer.body as Payload
    const id0 = (name: string) => stored.people.find((p) => p.name === name)?.id ?? ''
    expect(stored.people.find((p) => p.name === 'Ann Facts')).toMatchObject({
      usCitizen: false,
      dsueReceived: { amount: 3_000_000.25, from: id0('Lee Facts'), portabilityElected: true },
    })
    expect(stored.people.find((p) => p.name === 'Bo Facts')).toMatchObject({ usCitizen: true })
    expect(stored.gifts).toEqual([
      { donor: id0('Ann Facts'), taxableGifts: 1_200_000, exclusionUsed: 1_000_000 },
      { donor: id0('Bo Facts'), taxableGifts: 100_000 },
    ])
    expect(await chart(id).then((a) => a.body)).toEqual(stored)
    const audit = await listAudit(store.db, alice.orgId, id, 5)
    expect(audit.find((a) => a.action === 'chart.import')?.changed).toEqual([
      'deceasedSpouseName',
      'dsueDateOfDeath',
      'dsueReceived',
      'members',
      'portabilityElected',
      'primaryClientAsDonor',
      'primaryClientExemptionUsed',
      'primaryClientLifetimeGifts',
      'primaryClientUsCitizen',
      'relationships',
    ])
  })

  it('refuses dispositions, assumptions, a non-client’s estate facts and amounts the settings cannot hold, and writes nothing', async () => {
    const created = await call(`${api.url}${REL}`, alice.key, { body: { name: 'Refused Facts', dsueReceived: 1_000 } })
    const id = (created.body.household as { id: string }).id
    const first = await put(id, example, created.headers.get('etag') ?? '')
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const etag = first.headers.get('etag') ?? ''
    const before = await chart(id)
    const settings = await estateSettings(id)
    const primary = example.people.findIndex((p) => p.role === 'primaryClient')
    const child = example.people.findIndex((p) => p.role === 'child')
    const withPerson = (i: number, facts: Partial<Payload['people'][number]>): Payload => ({
      ...example,
      people: example.people.map((p, j) => (j === i ? { ...p, ...facts } : p)),
    })
    const donor = example.people[primary]?.id ?? ''
    const bad: [string, Payload, string, RegExp][] = [
      [
        'dispositions',
        { ...example, dispositions: [{ at: donor, to: 'ilit', share: 50 }] },
        '/dispositions',
        /not stored by the records API.*remove dispositions/,
      ],
      [
        'assumptions',
        { ...example, assumptions: { portabilityElected: false } },
        '/assumptions',
        /not stored by the records API.*remove assumptions/,
      ],
      ["a child's citizenship", withPerson(child, { usCitizen: true }), `/people/${child}/usCitizen`, /not a client/],
      [
        "a child's DSUE",
        withPerson(child, { dsueReceived: { amount: 10 } }),
        `/people/${child}/dsueReceived`,
        /primaryClient only/,
      ],
      [
        "a child's gifts",
        { ...example, gifts: [{ donor: example.people[child]?.id ?? '', taxableGifts: 19_000 }] },
        '/gifts/0/donor',
        /not a client/,
      ],
      [
        'a DSUE above what the settings hold',
        withPerson(primary, { dsueReceived: { amount: 2e12 } }),
        `/people/${primary}/dsueReceived/amount`,
        /dsueReceived must be <= 1000000000000/,
      ],
      [
        'gifts with fractions of a cent',
        { ...example, gifts: [{ donor, taxableGifts: 1.234 }] },
        '/gifts/0/taxableGifts',
        /at most 2 decimals/,
      ],
      [
        // The chart's own rule comes first, in the chart's words.
        'an exclusion used above the gifts',
        { ...example, gifts: [{ donor, taxableGifts: 10, exclusionUsed: 20 }] },
        '/gifts/0/exclusionUsed',
        /more than taxableGifts/,
      ],
    ]
    for (const [what, payload, field, message] of bad) {
      const answer = await put(id, payload, etag)
      expect(answer.status, what).toBe(400)
      expect(answer.body, what).toMatchObject({ code: 'invalid_body', field })
      expect(answer.body.error, what).toMatch(message)
    }
    // A stale ETag is 412 first, as for any import.
    expect((await put(id, bad[0]![1], '"999"')).status).toBe(412)
    const after = await chart(id)
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'))
    expect(after.body).toEqual(before.body)
    expect(await estateSettings(id)).toEqual(settings)
  })

  it("needs If-Match (428) with the current ETag (412); another organization's household is 404; needs relationships:write", async () => {
    const h = await household()
    const missing = await put(h.id, example, undefined)
    expect(missing.status).toBe(428)
    const stale = await put(h.id, example, '"999"')
    expect(stale.status).toBe(412)
    // Two imports under one ETag: one wins, the other is 412.
    const both = await Promise.all([put(h.id, example, h.etag), put(h.id, example, h.etag)])
    expect(both.map((a) => a.status).sort()).toEqual([200, 412])
    const bobs = await household(bob.key, 'Bob Family')
    for (const target of [bobs.id, crypto.randomUUID(), 'nope']) {
      const answer = await put(target, example, '*')
      expect(answer.status, target).toBe(404)
      expect(answer.body.code).toBe('not_found')
    }
    expect((await call(`${api.url}${REL}/${bobs.id}/members`, bob.key)).body.members).toEqual([])
    const reader = await createKey(store.db, alice.orgId, ['relationships:read'])
    expect((await put(h.id, example, '*', reader.key)).status).toBe(403)
    const anonymous = await call(`${api.url}${REL}/${h.id}/chart`, undefined, { method: 'PUT', body: example })
    expect(anonymous.status).toBe(401)
    const legacyWriter = await createKey(store.db, alice.orgId, ['households:write'])
    const legacy = await put(h.id, example, '*', legacyWriter.key, '/api/v1/households')
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200)
    expect(legacy.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(legacy.headers.get('hearth-chart-version')).toBe(CHART_VERSION)
    expect(byName(legacy.body as Payload)).toEqual(byName(example))
  })

  it(
    'answers fast-check payloads with 200 or a 4xx {error, code, field}, never a 5xx',
    { timeout: PROPERTY_TEST_TIMEOUT_MS },
    async () => {
      const h = await household()
      const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
      const id = fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...ids) },
        { weight: 1, arbitrary: fc.string({ maxLength: 70 }) },
      )
      const share = fc.oneof(
        fc.constantFrom(undefined, 0, 50, 100, 100.5, 33.3333, 12.34567),
        fc.double({ noNaN: true }),
      )
      const date = fc.constantFrom(undefined, '1950-01-01', '2000-02-30', '2999-01-01', '1700-01-01', 'x')
      const role = fc.constantFrom('primaryClient', 'coClient', 'child', 'spouse', 'inLaw', 'other', 'boss')
      const payload = fc.record(
        {
          household: fc.constant({ name: 'Fuzz' }),
          people: fc.array(
            fc.record(
              {
                id,
                name: fc.oneof(fc.constant('Pat'), fc.string({ maxLength: 20 })),
                role,
                birthDate: date,
                deathDate: date,
                usCitizen: fc.constantFrom(undefined, true, false),
                dsueReceived: fc.constantFrom(
                  undefined,
                  { amount: 1_000 },
                  { amount: 2e12, from: 'a' },
                  {
                    amount: 5.5,
                    from: 'b',
                    portabilityElected: false,
                  },
                ),
              },
              { requiredKeys: ['id', 'name', 'role'] },
            ),
            { minLength: 0, maxLength: 6 },
          ),
          relationships: fc.array(
            fc.record({ from: id, to: id, type: fc.constantFrom('spouse', 'partner', 'exSpouse', 'parent', 'x') }),
            { maxLength: 6 },
          ),
          entities: fc.array(
            fc.record(
              {
                id,
                name: fc.constantFrom('Trust', ' ', 'LLC'),
                kind: fc.constantFrom(...ENTITY_KINDS, 'qtip'),
                value: fc.oneof(fc.constantFrom(undefined, 0, 1.5, 1e12, 1.234), fc.double({ noNaN: true })),
                estate: fc.constantFrom(undefined, 'in', 'out', 'maybe'),
              },
              { requiredKeys: ['id', 'name', 'kind'] },
            ),
            { maxLength: 5 },
          ),
          links: fc.array(
            fc.record(
              { from: id, to: id, type: fc.constantFrom(...LINK_TYPES, 'insured'), share },
              { requiredKeys: ['from', 'to', 'type'] },
            ),
            {
              maxLength: 8,
            },
          ),
          gifts: fc.array(
            fc.record(
              {
                donor: id,
                taxableGifts: fc.constantFrom(undefined, 0, 19_000, 1.005, 2e12),
                exclusionUsed: fc.constantFrom(undefined, 0, 19_000, 5e5),
              },
              { requiredKeys: ['donor'] },
            ),
            { maxLength: 3 },
          ),
          dispositions: fc.constantFrom(undefined, [], [{ at: 'a', to: 'b', share: 10 }]),
          options: fc.constantFrom(undefined, { theme: 'dark' }),
        },
        { requiredKeys: ['household', 'people'] },
      )
      await fc.assert(
        fc.asyncProperty(payload, async (sent) => {
          const answer = await put(h.id, sent, '*')
          const said = JSON.stringify({ sent, answer: answer.body })
          expect(answer.status, said).toBeLessThan(500)
          if (answer.status === 200) {
            expect(checkPayloadRules(answer.body as Payload), said).toBeNull()
            return
          }
          expect(answer.status, said).toBe(400)
          expect(answer.body, said).toMatchObject({ error: expect.any(String), code: expect.any(String) })
          expect(typeof answer.body.field, said).toBe('string')
        }),
        { numRuns: 100 },
      )
    },
  )
})
