// GET /api/v1/relationships/{id}/chart (and the legacy path): a household as chart payload 0.3.0 that
// the chart accepts as is — valid against the JSON Schema and the payload rules — with every fact of
// its entities and links and its estate settings as 0.3.0's facts (citizenship, DSUE received,
// gifts); ?chartVersion=0.2.0 answers payload 0.2.0 exactly as before (none of those facts; valid
// against the schema 0.2.0 published), 0.1.0 or 0.1.1 payload 0.1.x exactly as before (valid against
// the schema those releases published), any other value is 400; the Hearth-Chart-Version header, the
// household's ETag and 304s, 404 across organizations, and 409 when there is no one to draw.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payloadJsonSchema, type Payload } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { DECEASED_SPOUSE_ID } from '../../src/domain/chart-payload.ts'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const REL = '/api/v1/relationships'
const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload
const validatePayload = new Ajv2020({ allErrors: true }).compile(payloadJsonSchema(CHART_VERSION))
/** The schema chart 0.1.1 published (dist/ is immutable), which a partner pinned to it validates against. */
const validatePayload01 = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL('../../dist/chart/v0.1.1/payload.schema.json', import.meta.url), 'utf8')) as object,
)
/** The schema chart 0.2.0 published, which a partner pinned to it validates against. */
const validatePayload02 = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL('../../dist/chart/v0.2.0/payload.schema.json', import.meta.url), 'utf8')) as object,
)

/** What the chart itself checks before drawing: the schema, then the rules. */
function expectChartAccepts(payload: unknown): asserts payload is Payload {
  expect(validatePayload(payload), JSON.stringify(validatePayload.errors)).toBe(true)
  expect(checkPayloadRules(payload as Payload)).toBeNull()
}

/** Member roles for the example's people: the payload's spouse and inLaw are not member roles. */
const MEMBER_ROLE: Record<string, string> = { spouse: 'other', inLaw: 'other' }

describe.each(storeKinds())('the chart payload of a household on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let alice: { orgId: string; key: string; keyId: string }
  let bob: { orgId: string; key: string; keyId: string }

  async function createHousehold(key: string, body: Record<string, unknown>): Promise<string> {
    const created = await call(`${api.url}${REL}`, key, { body })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return (created.body.household as { id: string }).id
  }

  /** Members and relationships written straight to the tables (the members API has its own tests). */
  async function addPeople(
    householdId: string,
    payload: Payload,
    roles: Record<string, string> = MEMBER_ROLE,
  ): Promise<Map<string, string>> {
    const ids = new Map<string, string>()
    for (const [position, person] of payload.people.entries()) {
      const row = await store.db
        .insertInto('members')
        .values({
          household_id: householdId,
          name: person.name,
          role: roles[person.role] ?? person.role,
          birth_date: person.birthDate ?? null,
          death_date: person.deathDate ?? null,
          position,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      ids.set(person.id, row.id)
    }
    const relationships = payload.relationships ?? []
    if (relationships.length > 0) {
      await store.db
        .insertInto('member_relationships')
        .values(
          relationships.map((r) => ({
            household_id: householdId,
            from_member_id: ids.get(r.from) ?? '',
            to_member_id: ids.get(r.to) ?? '',
            type: r.type,
          })),
        )
        .execute()
    }
    return ids
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

  it('maps the example family to a payload the chart accepts, with the same people, names, dates and relationships', async () => {
    // Eleanor, Robert's late first wife, is both a member and the household's deceased spouse: she is drawn once.
    const id = await createHousehold(alice.key, {
      name: 'Chen Family',
      deceasedSpouseName: 'Eleanor Chen',
      dsueDateOfDeath: '1989-11-30',
    })
    const ids = await addPeople(id, example)
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    const payload: unknown = answer.body
    expectChartAccepts(payload)

    // The currency is the household's estate setting (USD unless set).
    expect(payload.household).toEqual({ name: 'Chen Family', currency: 'USD' })
    expect(payload.entities).toEqual([])
    expect(payload.links).toEqual([])
    expect(payload.options).toBeUndefined()
    // Every example person, under their member id, in member order; roles that are member roles kept.
    const back = new Map([...ids].map(([exampleId, memberId]) => [memberId, exampleId]))
    expect(payload.people.map((p) => back.get(p.id))).toEqual(example.people.map((p) => p.id))
    for (const [i, p] of payload.people.entries()) {
      const original = example.people[i]!
      expect(p).toEqual({
        id: ids.get(original.id),
        name: original.name,
        role: MEMBER_ROLE[original.role] ?? original.role,
        ...(original.birthDate ? { birthDate: original.birthDate } : {}),
        ...(original.deathDate ? { deathDate: original.deathDate } : {}),
      })
    }
    expect(payload.people.some((p) => p.id === DECEASED_SPOUSE_ID)).toBe(false)
    // The same relationships, with parent still meaning "from is a parent of to".
    const asExample = (payload.relationships ?? []).map((r) => `${back.get(r.from)} ${r.type} ${back.get(r.to)}`).sort()
    expect(asExample).toEqual((example.relationships ?? []).map((r) => `${r.from} ${r.type} ${r.to}`).sort())
  })

  it('draws a deceased spouse recorded on the household as a person, married to the primary client', async () => {
    const id = await createHousehold(alice.key, {
      name: 'Widow Family',
      deceasedSpouseName: '  Harold Widow ',
      dsueDateOfDeath: '2019-06-30',
    })
    const ids = await addPeople(id, {
      household: { name: 'x' },
      people: [
        { id: 'ruth', name: 'Ruth Widow', role: 'primaryClient', birthDate: '1950-01-02' },
        { id: 'kid', name: 'Kid Widow', role: 'child' },
      ],
      relationships: [{ from: 'ruth', to: 'kid', type: 'parent' }],
    })
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status).toBe(200)
    const payload: unknown = answer.body
    expectChartAccepts(payload)
    expect(payload.people).toEqual([
      { id: ids.get('ruth'), name: 'Ruth Widow', role: 'primaryClient', birthDate: '1950-01-02' },
      { id: ids.get('kid'), name: 'Kid Widow', role: 'child' },
      { id: DECEASED_SPOUSE_ID, name: 'Harold Widow', role: 'spouse', deathDate: '2019-06-30' },
    ])
    expect(payload.relationships).toEqual([
      { from: ids.get('ruth'), to: ids.get('kid'), type: 'parent' },
      { from: ids.get('ruth'), to: DECEASED_SPOUSE_ID, type: 'spouse' },
    ])

    // Without a primary client or a date of death: the person still, without the line or the date.
    const alone = await createHousehold(alice.key, { name: 'Estate Only', deceasedSpouseName: 'Walter Estate' })
    const only = await call(`${api.url}${REL}/${alone}/chart`, alice.key)
    expect(only.status).toBe(200)
    expectChartAccepts(only.body)
    expect(only.body).toEqual({
      household: { name: 'Estate Only', currency: 'USD' },
      people: [{ id: DECEASED_SPOUSE_ID, name: 'Walter Estate', role: 'spouse' }],
      relationships: [],
      entities: [],
      links: [],
    })
  })

  it("follows the members API: a member added moves the ETag, and a member's parent is `from` of a parent relationship", async () => {
    const id = await createHousehold(alice.key, { name: 'Api Family' })
    const before = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(before.status).toBe(409)
    const mom = await call(`${api.url}${REL}/${id}/members`, alice.key, {
      body: { name: 'Mona Api', role: 'primaryClient', birthDate: '1960-04-01' },
    })
    expect(mom.status, JSON.stringify(mom.body)).toBe(201)
    const momId = (mom.body.member as { id: string }).id
    const first = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(first.status).toBe(200)
    const kid = await call(`${api.url}${REL}/${id}/members`, alice.key, {
      body: { name: 'Kit Api', role: 'child', relationships: [{ memberId: momId, type: 'parent' }] },
    })
    expect(kid.status, JSON.stringify(kid.body)).toBe(201)
    const kidId = (kid.body.member as { id: string }).id
    const second = await call(`${api.url}${REL}/${id}/chart`, alice.key, {
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    })
    expect(second.status).toBe(200)
    expect(second.headers.get('etag')).toBe(kid.headers.get('etag'))
    expectChartAccepts(second.body)
    expect(second.body.people).toEqual([
      { id: momId, name: 'Mona Api', role: 'primaryClient', birthDate: '1960-04-01' },
      { id: kidId, name: 'Kit Api', role: 'child' },
    ])
    expect(second.body.relationships).toEqual([{ from: momId, to: kidId, type: 'parent' }])
  })

  it('leaves out a relationship the chart would refuse, so the payload always renders', async () => {
    const id = await createHousehold(alice.key, { name: 'Tangled Family' })
    const ids = await addPeople(id, {
      household: { name: 'x' },
      people: [
        { id: 'a', name: 'Ann Tangled', role: 'primaryClient' },
        { id: 'b', name: 'Bea Tangled', role: 'child' },
      ],
      relationships: [{ from: 'a', to: 'b', type: 'parent' }],
    })
    // A spouse line between a parent and her child, as old data might hold: the chart refuses it.
    await store.db
      .insertInto('member_relationships')
      .values({
        household_id: id,
        from_member_id: ids.get('b') ?? '',
        to_member_id: ids.get('a') ?? '',
        type: 'spouse',
      })
      .execute()
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status).toBe(200)
    expectChartAccepts(answer.body)
    expect(answer.body.relationships).toEqual([{ from: ids.get('a'), to: ids.get('b'), type: 'parent' }])
  })

  it("carries every fact of the household's entities, links and kinships, and names the chart release in Hearth-Chart-Version", async () => {
    const id = await createHousehold(alice.key, { name: 'Estate Family' })
    const people = await addPeople(id, {
      household: { name: 'x' },
      people: [
        { id: 'pat', name: 'Pat Estate', role: 'primaryClient' },
        { id: 'kim', name: 'Kim Estate', role: 'child' },
      ],
      relationships: [{ from: 'pat', to: 'kim', type: 'parent' }],
    })
    await store.db
      .updateTable('member_relationships')
      .set({ parent_kind: 'adopted' })
      .where('household_id', '=', id)
      .execute()
    const entity = async (name: string, kind: string, more: Record<string, unknown> = {}) => {
      const row = await store.db
        .insertInto('entities')
        .values({ household_id: id, name, kind, ...more } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
      return row.id
    }
    const rlt = await entity('Estate Revocable Trust', 'revocableTrust', {
      value: 1_500_000,
      value_as_of: '2024-12-31',
      short_name: 'RLT',
      position: 0,
    })
    const qtip = await entity('Estate QTIP Trust', 'qtip', { position: 1 })
    const lp = await entity('Estate Partners LP', 'flp', { value: 800_000.25, estate: 'out', position: 2 })
    const bank = await entity('Coastal Trust Company', 'corporateTrustee', { position: 3 })
    const policy = await entity('Term Policy', 'lifeInsurance', { position: 4 })
    const pat = people.get('pat') ?? ''
    const kim = people.get('kim') ?? ''
    const links: { from: string; to: string; type: string; share?: number; beneficiary_type?: string }[] = [
      { from: pat, to: rlt, type: 'grantor' },
      { from: bank, to: rlt, type: 'trustee' },
      { from: kim, to: rlt, type: 'successorTrustee' },
      { from: kim, to: rlt, type: 'beneficiary', share: 100, beneficiary_type: 'primary' },
      { from: pat, to: lp, type: 'generalPartner', share: 1 },
      { from: rlt, to: lp, type: 'limitedPartner', share: 99 },
      { from: pat, to: policy, type: 'insured' },
      { from: rlt, to: policy, type: 'owner', share: 100 },
    ]
    for (const link of links) {
      const fromEntity = link.from !== pat && link.from !== kim
      await store.db
        .insertInto('entity_links')
        .values({
          household_id: id,
          from_member_id: fromEntity ? null : link.from,
          from_entity_id: fromEntity ? link.from : null,
          to_entity_id: link.to,
          type: link.type as never,
          share: link.share ?? null,
          beneficiary_type: (link.beneficiary_type ?? null) as never,
        })
        .execute()
    }
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.headers.get('hearth-chart-version')).toBe(CHART_VERSION)
    const payload: unknown = answer.body
    expectChartAccepts(payload)
    expect(payload.relationships).toEqual([{ from: pat, to: kim, type: 'parent', parentKind: 'adopted' }])
    expect(payload.entities).toEqual([
      {
        id: rlt,
        name: 'Estate Revocable Trust',
        shortName: 'RLT',
        kind: 'revocableTrust',
        value: 1_500_000,
        valueAsOf: '2024-12-31',
      },
      { id: qtip, name: 'Estate QTIP Trust', kind: 'qtip' },
      { id: lp, name: 'Estate Partners LP', kind: 'flp', value: 800_000.25, estate: 'out' },
      { id: bank, name: 'Coastal Trust Company', kind: 'corporateTrustee' },
      { id: policy, name: 'Term Policy', kind: 'lifeInsurance' },
    ])
    expect(payload.links).toEqual([
      { from: pat, to: rlt, type: 'grantor' },
      { from: bank, to: rlt, type: 'trustee' },
      { from: kim, to: rlt, type: 'successorTrustee' },
      { from: kim, to: rlt, type: 'beneficiary', share: 100, beneficiaryType: 'primary' },
      { from: pat, to: lp, type: 'generalPartner', share: 1 },
      { from: rlt, to: lp, type: 'limitedPartner', share: 99 },
      { from: pat, to: policy, type: 'insured' },
      { from: rlt, to: policy, type: 'owner', share: 100 },
    ])

    // Pinned to 0.1.x: the payload those releases' GET gave, byte for byte the same facts.
    for (const version of ['0.1.0', '0.1.1']) {
      const pinned = await call(`${api.url}${REL}/${id}/chart?chartVersion=${version}`, alice.key)
      expect(pinned.status, JSON.stringify(pinned.body)).toBe(200)
      expect(pinned.headers.get('hearth-chart-version')).toBe(version)
      expect(pinned.headers.get('etag')).toBe(answer.headers.get('etag'))
      expectChartAccepts(pinned.body)
      expect(validatePayload01(pinned.body), JSON.stringify(validatePayload01.errors)).toBe(true)
      expect(pinned.body.household).toEqual({ name: 'Estate Family' })
      expect(pinned.body.relationships).toEqual([{ from: pat, to: kim, type: 'parent' }])
      expect(pinned.body.entities).toEqual([
        { id: rlt, name: 'Estate Revocable Trust', kind: 'revocableTrust', value: 1_500_000, estate: 'in' },
        // A QTIP is not a 0.1.x kind: `other`, still in the estate as its kind is.
        { id: qtip, name: 'Estate QTIP Trust', kind: 'other', estate: 'in' },
        { id: lp, name: 'Estate Partners LP', kind: 'flp', value: 800_000.25, estate: 'out' },
        // The corporate trustee (a party) is left out; the policy is `other`, in.
        { id: policy, name: 'Term Policy', kind: 'other', estate: 'in' },
      ])
      expect(pinned.body.links).toEqual([
        { from: pat, to: rlt, type: 'grantor' },
        { from: kim, to: rlt, type: 'beneficiary', share: 100 },
        { from: pat, to: lp, type: 'owner', share: 1 },
        { from: rlt, to: lp, type: 'owner', share: 99 },
        { from: rlt, to: policy, type: 'owner', share: 100 },
      ])
    }

    // The ETag still answers 304, with the header; an entity added moves it.
    const etag = answer.headers.get('etag') ?? ''
    const cached = await call(`${api.url}${REL}/${id}/chart`, alice.key, { headers: { 'if-none-match': etag } })
    expect(cached.status).toBe(304)
    expect(cached.headers.get('hearth-chart-version')).toBe(CHART_VERSION)
    const added = await call(`${api.url}${REL}/${id}/entities`, alice.key, {
      body: { name: 'Estate DAF', kind: 'daf' },
      headers: { 'if-match': etag },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const after = await call(`${api.url}${REL}/${id}/chart`, alice.key, { headers: { 'if-none-match': etag } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).toBe(added.headers.get('etag'))
    expectChartAccepts(after.body)
    // Its estate is not set: absent, the chart counts a DAF out, as the records do.
    expect(after.body.entities).toContainEqual({
      id: (added.body.entity as { id: string }).id,
      name: 'Estate DAF',
      kind: 'daf',
    })

    // Deleting the household takes its entities with it: the chart is gone.
    const gone = await call(`${api.url}${REL}/${id}`, alice.key, {
      method: 'DELETE',
      headers: { 'if-match': after.headers.get('etag') ?? '' },
    })
    expect(gone.status).toBe(204)
    expect((await call(`${api.url}${REL}/${id}/chart`, alice.key)).status).toBe(404)
  })

  it("carries the household's estate settings as 0.3.0's facts; chartVersion=0.2.0 answers 0.2.0's payload without them", async () => {
    // 0.3.1 reads 0.3.0's payload.
    expect(CHART_VERSION).toBe('0.3.1')
    const id = await createHousehold(alice.key, {
      name: 'Estate Facts Family',
      deceasedSpouseName: 'Harold Facts',
      dsueDateOfDeath: '2021-03-14',
      dsueReceived: 5_490_000,
      portabilityElected: 'yes',
      primaryClientUsCitizen: true,
      coClientUsCitizen: false,
      primaryClientAsDonor: true,
      primaryClientLifetimeGifts: 2_000_000,
      primaryClientExemptionUsed: 1_500_000.5,
      coClientAsDonor: true,
    })
    const ids = await addPeople(id, {
      household: { name: 'x' },
      people: [
        { id: 'ruth', name: 'Ruth Facts', role: 'primaryClient' },
        { id: 'otto', name: 'Otto Facts', role: 'coClient' },
        { id: 'kid', name: 'Kid Facts', role: 'child' },
      ],
      relationships: [{ from: 'ruth', to: 'otto', type: 'spouse' }],
    })
    const ruth = ids.get('ruth') ?? ''
    const otto = ids.get('otto') ?? ''
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.headers.get('hearth-chart-version')).toBe('0.3.1')
    const payload: unknown = answer.body
    expectChartAccepts(payload)
    expect(payload.people).toEqual([
      {
        id: ruth,
        name: 'Ruth Facts',
        role: 'primaryClient',
        usCitizen: true,
        dsueReceived: { amount: 5_490_000, from: DECEASED_SPOUSE_ID, portabilityElected: true },
      },
      { id: otto, name: 'Otto Facts', role: 'coClient', usCitizen: false },
      { id: ids.get('kid'), name: 'Kid Facts', role: 'child' },
      { id: DECEASED_SPOUSE_ID, name: 'Harold Facts', role: 'spouse', deathDate: '2021-03-14' },
    ])
    expect(payload.gifts).toEqual([
      { donor: ruth, taxableGifts: 2_000_000, exclusionUsed: 1_500_000.5 },
      { donor: otto },
    ])
    expect(payload.dispositions).toBeUndefined()
    expect(payload.assumptions).toBeUndefined()
    // Asked for explicitly, and on the legacy path: the same.
    const explicit = await call(`${api.url}${REL}/${id}/chart?chartVersion=0.3.0`, alice.key)
    expect(explicit.body).toEqual(answer.body)
    expect((await call(`${api.url}/api/v1/households/${id}/chart`, alice.key)).body).toEqual(answer.body)

    // Pinned to 0.2.0: today's 0.2.0 payload, valid against the schema 0.2.0 published, no 0.3.0 fact.
    const pinned = await call(`${api.url}${REL}/${id}/chart?chartVersion=0.2.0`, alice.key)
    expect(pinned.status, JSON.stringify(pinned.body)).toBe(200)
    expect(pinned.headers.get('hearth-chart-version')).toBe('0.2.0')
    expect(pinned.headers.get('etag')).toBe(answer.headers.get('etag'))
    expectChartAccepts(pinned.body)
    expect(validatePayload02(pinned.body), JSON.stringify(validatePayload02.errors)).toBe(true)
    expect(validatePayload02(answer.body)).toBe(false)
    expect(pinned.body).toEqual({
      household: { name: 'Estate Facts Family', currency: 'USD' },
      people: [
        { id: ruth, name: 'Ruth Facts', role: 'primaryClient' },
        { id: otto, name: 'Otto Facts', role: 'coClient' },
        { id: ids.get('kid'), name: 'Kid Facts', role: 'child' },
        { id: DECEASED_SPOUSE_ID, name: 'Harold Facts', role: 'spouse', deathDate: '2021-03-14' },
      ],
      relationships: [
        { from: ruth, to: otto, type: 'spouse' },
        { from: ruth, to: DECEASED_SPOUSE_ID, type: 'spouse' },
      ],
      entities: [],
      links: [],
    })
    // And 0.1.x, as before: none of them either.
    const pinned01 = await call(`${api.url}${REL}/${id}/chart?chartVersion=0.1.1`, alice.key)
    expect(validatePayload01(pinned01.body), JSON.stringify(validatePayload01.errors)).toBe(true)
    expect(JSON.stringify(pinned01.body)).not.toMatch(/usCitizen|dsueReceived|gifts/)

    // Portability not known, no DSUE for the co-client, no citizenship recorded, no donor: each left out.
    const patched = await call(`${api.url}${REL}/${id}`, alice.key, {
      method: 'PATCH',
      body: {
        portabilityElected: 'unknown',
        primaryClientUsCitizen: null,
        coClientUsCitizen: null,
        primaryClientAsDonor: false,
        primaryClientLifetimeGifts: null,
        primaryClientExemptionUsed: null,
        coClientAsDonor: null,
      },
      headers: { 'if-match': answer.headers.get('etag') ?? '' },
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    const after = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expectChartAccepts(after.body)
    expect(after.body.people[0]).toEqual({
      id: ruth,
      name: 'Ruth Facts',
      role: 'primaryClient',
      dsueReceived: { amount: 5_490_000, from: DECEASED_SPOUSE_ID },
    })
    expect(after.body.people[1]).toEqual({ id: otto, name: 'Otto Facts', role: 'coClient' })
    expect(after.body.gifts).toBeUndefined()
  })

  it('is 409 chart_needs_members for a household with no one to draw', async () => {
    const id = await createHousehold(alice.key, { name: 'Empty Family' })
    const answer = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    expect(answer.status).toBe(409)
    expect(answer.body.code).toBe('chart_needs_members')
    expect(answer.body.error).toMatch(/no members/)
  })

  it("carries the household's ETag: If-None-Match answers 304, and a change moves it", async () => {
    const id = await createHousehold(alice.key, { name: 'Cached Family' })
    await addPeople(id, { household: { name: 'x' }, people: [{ id: 'p', name: 'Pat Cached', role: 'primaryClient' }] })
    const first = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    const etag = first.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"\d+"$/)
    expect((await call(`${api.url}${REL}/${id}`, alice.key)).headers.get('etag')).toBe(etag)
    for (const header of [etag, `W/${etag}`, `"0", ${etag}`]) {
      const cached = await call(`${api.url}${REL}/${id}/chart`, alice.key, { headers: { 'if-none-match': header } })
      expect(cached.status, header).toBe(304)
      expect(cached.headers.get('etag')).toBe(etag)
    }
    // `*` is not a match on a read: it would make every poll a free 304 (issue 12).
    const star = await call(`${api.url}${REL}/${id}/chart`, alice.key, { headers: { 'if-none-match': '*' } })
    expect(star.status).toBe(200)
    expect(star.headers.get('etag')).toBe(etag)
    const renamed = await call(`${api.url}${REL}/${id}`, alice.key, {
      method: 'PATCH',
      body: { name: 'Renamed Family' },
      headers: { 'if-match': etag },
    })
    expect(renamed.status).toBe(200)
    const after = await call(`${api.url}${REL}/${id}/chart`, alice.key, { headers: { 'if-none-match': etag } })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).toBe(renamed.headers.get('etag'))
    expect(after.body.household).toEqual({ name: 'Renamed Family', currency: 'USD' })
  })

  it('is 400 invalid_query for a chartVersion it does not answer in, naming the ones it does', async () => {
    const id = await createHousehold(alice.key, { name: 'Versioned Family', deceasedSpouseName: 'Vera Versioned' })
    const latest = await call(`${api.url}${REL}/${id}/chart?chartVersion=${CHART_VERSION}`, alice.key)
    expect(latest.status).toBe(200)
    expect(latest.body).toEqual((await call(`${api.url}${REL}/${id}/chart`, alice.key)).body)
    for (const version of ['0.1.2', '0.3.2', '0.2', '0.4.0', 'latest', '', 'v0.1.0', 'constructor', '__proto__']) {
      const answer = await call(`${api.url}${REL}/${id}/chart?chartVersion=${encodeURIComponent(version)}`, alice.key)
      expect(answer.status, version).toBe(400)
      expect(answer.body.code).toBe('invalid_query')
      expect(answer.body.field).toBe('/chartVersion')
      expect(answer.body.error).toContain(`one of ${CHART_VERSION}, 0.3.0, 0.2.0, 0.1.1, 0.1.0;`)
    }
  })

  it("is 404 for another organization's household, an unknown id and a malformed one; needs relationships:read", async () => {
    const bobs = await createHousehold(bob.key, { name: 'Bob Family', deceasedSpouseName: 'Bob Secret Spouse' })
    for (const target of [bobs, crypto.randomUUID(), 'nope', `${bobs}x`]) {
      const answer = await call(`${api.url}${REL}/${target}/chart`, alice.key)
      expect(answer.status).toBe(404)
      expect(answer.body.code).toBe('not_found')
      expect(JSON.stringify(answer.body)).not.toContain('Secret')
    }
    expect((await call(`${api.url}${REL}/${bobs}/chart`, bob.key)).status).toBe(200)
    const embedOnly = await createKey(store.db, bob.orgId, ['embed:chart'])
    const legacyRead = await createKey(store.db, bob.orgId, ['households:read'])
    expect((await call(`${api.url}${REL}/${bobs}/chart`, embedOnly.key)).status).toBe(403)
    expect((await call(`${api.url}${REL}/${bobs}/chart`, legacyRead.key)).status).toBe(200)
    expect((await call(`${api.url}${REL}/${bobs}/chart`, undefined)).status).toBe(401)
  })

  it('answers the same on the legacy path, with deprecation headers; the OpenAPI document gives the payload schema', async () => {
    const id = await createHousehold(alice.key, { name: 'Legacy Chart', deceasedSpouseName: 'Lee Legacy' })
    const current = await call(`${api.url}${REL}/${id}/chart`, alice.key)
    const legacy = await call(`${api.url}/api/v1/households/${id}/chart`, alice.key)
    expect(legacy.status).toBe(200)
    expect(legacy.body).toEqual(current.body)
    expect(legacy.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(current.headers.get('deprecation')).toBeNull()

    const doc = (await call(`${api.url}/api/v1/openapi.json`, undefined)).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            deprecated?: boolean
            responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>
          }
        >
      >
    }
    const operation = doc.paths['/api/v1/relationships/{id}/chart']?.get
    const schema = operation?.responses['200']?.content?.['application/json']?.schema
    expect(schema?.title).toBe('Hearth household chart payload, version 1')
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
      '200',
      '304',
      '400',
      '401',
      '403',
      '404',
      '409',
      '429',
    ])
    const parameters = (operation as unknown as { parameters: { name: string; in: string; description?: string }[] })
      .parameters
    expect(parameters.find((p) => p.name === 'chartVersion')).toMatchObject({
      in: 'query',
      description: expect.stringContaining('0.2.0, 0.1.1, 0.1.0') as unknown,
    })
    const described = operation as unknown as { description: string; responses: Record<string, { headers?: object }> }
    expect(described.description).toContain(`chart ${CHART_VERSION}`)
    expect(described.description).toContain('chartVersion=0.2.0 answers payload 0.2.0')
    expect(described.responses['200']?.headers).toHaveProperty('Hearth-Chart-Version')
    const put = doc.paths['/api/v1/relationships/{id}/chart']?.put as unknown as { description: string } | undefined
    expect(put?.description).toContain(`chart ${CHART_VERSION}`)
    expect(doc.paths['/api/v1/households/{id}/chart']?.get?.deprecated).toBe(true)
    expect(doc.paths['/api/v1/relationships/{id}/assignments']?.put?.responses['400']).toBeDefined()
  })
})
