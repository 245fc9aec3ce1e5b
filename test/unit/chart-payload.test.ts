// The household record as chart payload 0.3.0, and as the frozen payloads 0.2.0 and 0.1.x
// (src/domain/chart-payload.ts): how every entity kind and link type maps, how each estate setting
// becomes a 0.3.0 fact (and when it is left out), worked examples, and — on generated records — that
// each payload always passes what the chart itself checks (the JSON Schema, then checkPayloadRules),
// the 0.2.0 and 0.1.x ones the schema chart 0.2.0 and 0.1.0 published too, and that 0.3.0 is 0.2.0
// with the estate facts added.
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PAYLOAD_0_1_ENTITY_KINDS, Person, payloadJsonSchema, type Payload } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import {
  DECEASED_SPOUSE_ID,
  PAYLOAD_OF_RELEASE,
  payloadEntityKind,
  toChartPayload,
  toChartPayload01,
  toChartPayload02,
  type ChartEntity,
  type ChartEstateSettings,
  type ChartLink,
  type ChartMember,
  type ChartRecord,
} from '../../src/domain/chart-payload.ts'
import {
  BENEFICIARY_TYPES,
  defaultEstateSide,
  ENTITY_KINDS,
  isParty,
  LINK_TYPES,
  PARENT_KINDS,
  type EntityKind,
  type LinkType,
} from '../../src/domain/estate-vocabulary.ts'
import { MEMBER_ROLES } from '../../src/domain/household-roles.ts'
import { EXTERNAL_ID_PATTERN } from '../../src/domain/external-id.ts'

const validatePayload = new Ajv2020({ allErrors: true }).compile(payloadJsonSchema(CHART_VERSION))
// The schema chart 0.1.0 published, as released (dist/ is immutable): a pinned partner validates against it.
const validatePayload01 = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL('../../dist/chart/v0.1.0/payload.schema.json', import.meta.url), 'utf8')) as object,
)

function expectChartAccepts(payload: Payload | undefined): asserts payload is Payload {
  expect(validatePayload(payload), JSON.stringify(validatePayload.errors)).toBe(true)
  expect(checkPayloadRules(payload!)).toBeNull()
}

// The schema chart 0.2.0 published, as released: a partner pinned to 0.2.0 validates against it.
const validatePayload02 = new Ajv2020({ allErrors: true }).compile(
  JSON.parse(readFileSync(new URL('../../dist/chart/v0.2.0/payload.schema.json', import.meta.url), 'utf8')) as object,
)

function expectChart02Accepts(payload: Payload | undefined): asserts payload is Payload {
  expectChartAccepts(payload)
  expect(validatePayload02(payload), JSON.stringify(validatePayload02.errors)).toBe(true)
}

/** The payload without 0.3.0's estate facts: what payload 0.2.0 says. */
function without030(payload: Payload): Payload {
  const copy = structuredClone(payload)
  delete copy.gifts
  delete copy.dispositions
  delete copy.assumptions
  for (const p of copy.people) {
    delete p.usCitizen
    delete p.dsueReceived
  }
  return copy
}

function expectChart01Accepts(payload: Payload | undefined): asserts payload is Payload {
  expectChartAccepts(payload)
  expect(validatePayload01(payload), JSON.stringify(validatePayload01.errors)).toBe(true)
}

function member(id: string, name: string, role: string): ChartMember {
  return { id, name, role, birthDate: null, deathDate: null, externalId: null }
}

function entity(id: string, kind: EntityKind, more: Partial<ChartEntity> = {}): ChartEntity {
  return {
    id,
    name: `Entity ${id}`,
    shortName: null,
    kind,
    value: null,
    valueAsOf: null,
    estate: null,
    externalId: null,
    ...more,
  }
}

function link(from: string, to: string, type: LinkType, share: number | null = null): ChartLink {
  return { from, to, type, share, beneficiaryType: type === 'beneficiary' ? 'primary' : null }
}

function record(more: Partial<ChartRecord>): ChartRecord {
  return {
    name: 'Test Family',
    deceasedSpouseName: null,
    dsueDateOfDeath: null,
    settings: null,
    members: [member('m1', 'Ann Test', 'primaryClient')],
    relationships: [],
    entities: [],
    links: [],
    ...more,
  }
}

function settings(currency: string, more: Partial<ChartEstateSettings> = {}): ChartEstateSettings {
  return {
    currency,
    dsueReceived: null,
    portabilityElected: null,
    primaryClientAsDonor: null,
    coClientAsDonor: null,
    primaryClientLifetimeGifts: null,
    coClientLifetimeGifts: null,
    primaryClientExemptionUsed: null,
    coClientExemptionUsed: null,
    primaryClientUsCitizen: null,
    coClientUsCitizen: null,
    ...more,
  }
}

/** The README's walk-through household: a couple married in 1990, their adopted child, three entities. */
function readmeRecord(): ChartRecord {
  return record({
    settings: settings('USD'),
    members: [
      member('pat', 'Pat Rivera', 'primaryClient'),
      member('sam', 'Sam Rivera', 'coClient'),
      member('ava', 'Ava Rivera', 'child'),
    ],
    relationships: [
      { from: 'pat', to: 'sam', type: 'spouse', parentKind: null, since: '1990-06-01', until: null },
      { from: 'pat', to: 'ava', type: 'parent', parentKind: 'adopted', since: null, until: null },
    ],
    entities: [
      entity('rlt', 'revocableTrust', { name: 'Rivera Revocable Trust', value: 2_500_000, shortName: 'RLT' }),
      entity('ilit', 'ilit', { name: 'Rivera ILIT', valueAsOf: '2025-01-01' }),
      entity('llc', 'llc', { name: 'Rivera Holdings LLC', value: 1_200_000.5, estate: 'out' }),
    ],
    links: [
      link('pat', 'rlt', 'grantor'),
      link('sam', 'rlt', 'trustee'),
      link('ava', 'ilit', 'beneficiary', 100),
      link('rlt', 'llc', 'owner', 100),
    ],
  })
}

/** Records of every shape the store could hand over, including ones the API would refuse. */
const date = fc.oneof(
  fc.constant(null),
  fc
    .date({ min: new Date('1800-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.string({ maxLength: 12 }),
)
const name = fc.oneof(fc.string({ maxLength: 260 }), fc.constantFrom('  ', '', 'Ann', '\u{1F600}'.repeat(201)))
const amount = fc.option(
  fc.oneof(fc.constantFrom(0, 0.01, 2_500_000, 1e12), fc.double({ min: -1, max: 2e13, noNaN: true })),
  { nil: null },
)
const flag = fc.constantFrom(true, false, null)
/** Estate settings of every shape the store could hand over, including amounts the API would refuse. */
const generatedSettings: fc.Arbitrary<ChartEstateSettings> = fc.record({
  currency: fc.constantFrom('USD', 'EUR', 'usd', ''),
  dsueReceived: amount,
  portabilityElected: fc.constantFrom('yes' as const, 'no' as const, 'unknown' as const, null),
  primaryClientAsDonor: flag,
  coClientAsDonor: flag,
  primaryClientLifetimeGifts: amount,
  coClientLifetimeGifts: amount,
  primaryClientExemptionUsed: amount,
  coClientExemptionUsed: amount,
  primaryClientUsCitizen: flag,
  coClientUsCitizen: flag,
})
const generatedRecord: fc.Arbitrary<ChartRecord> = fc
  .record({
    memberCount: fc.integer({ min: 0, max: 8 }),
    entityCount: fc.integer({ min: 0, max: 8 }),
    name,
    deceasedSpouseName: fc.option(name, { nil: null }),
    dsueDateOfDeath: date,
    settings: fc.option(generatedSettings, { nil: null }),
  })
  .chain(({ memberCount, entityCount, ...household }) => {
    const memberIds = Array.from({ length: memberCount }, () => randomUUID())
    const entityIds = Array.from({ length: entityCount }, () => randomUUID())
    const anyId = fc.constantFrom(...memberIds, ...entityIds, 'deceased-spouse', 'stray')
    const entityId = entityIds.length > 0 ? fc.constantFrom(...entityIds, 'stray') : fc.constant('stray')
    return fc.record({
      household: fc.constant(household),
      members: fc.tuple(
        ...memberIds.map((id) =>
          fc.record({
            id: fc.constant(id),
            name,
            role: fc.constantFrom(...MEMBER_ROLES, 'unknownRole'),
            birthDate: date,
            deathDate: date,
            externalId: fc.constant(null),
          }),
        ),
      ),
      relationships: fc.array(
        fc.record({
          from: anyId,
          to: anyId,
          type: fc.constantFrom('spouse', 'partner', 'exSpouse', 'parent', 'cousin'),
          parentKind: fc.constantFrom(...PARENT_KINDS, null),
          since: date,
          until: date,
        }),
        { maxLength: 20 },
      ),
      entities: fc.tuple(
        ...entityIds.map((id) =>
          fc.record({
            id: fc.constant(id),
            name,
            shortName: fc.option(name, { nil: null }),
            kind: fc.constantFrom(...ENTITY_KINDS),
            value: fc.option(fc.double({ min: -1, max: 2e13, noNaN: true }), { nil: null }),
            valueAsOf: date,
            estate: fc.constantFrom('in' as const, 'out' as const, null),
            externalId: fc.constant(null),
          }),
        ),
      ),
      links: fc.array(
        fc.record({
          from: anyId,
          to: entityId,
          type: fc.constantFrom(...LINK_TYPES),
          share: fc.option(fc.double({ min: -5, max: 150, noNaN: true }), { nil: null }),
          beneficiaryType: fc.constantFrom(...BENEFICIARY_TYPES, null),
        }),
        { maxLength: 30 },
      ),
    })
  })
  .map((g): ChartRecord => ({
    ...g.household,
    members: g.members,
    relationships: g.relationships,
    entities: g.entities,
    links: g.links,
  }))

describe('chart payload 0.3.0 of a household: 0.2.0 with the estate settings as facts', () => {
  /** A couple (Pat and Sam), their child, Pat's late first husband recorded on the household. */
  function estateRecord(more: Partial<ChartEstateSettings>, household: Partial<ChartRecord> = {}): ChartRecord {
    return record({
      deceasedSpouseName: 'Lee Rivera',
      dsueDateOfDeath: '2019-06-30',
      settings: settings('USD', more),
      members: [
        member('pat', 'Pat Rivera', 'primaryClient'),
        member('sam', 'Sam Rivera', 'coClient'),
        member('ava', 'Ava Rivera', 'child'),
      ],
      ...household,
    })
  }
  const facts = (payload: Payload | undefined) => ({
    people: payload?.people.map(({ id, usCitizen, dsueReceived }) => ({ id, usCitizen, dsueReceived })),
    gifts: payload?.gifts,
  })

  it('answers the newest release by default: CHART_VERSION is the first release of PAYLOAD_OF_RELEASE, mapped by toChartPayload', () => {
    expect([...PAYLOAD_OF_RELEASE.keys()]).toEqual([CHART_VERSION, '0.3.0', '0.2.0', '0.1.1', '0.1.0'])
    expect(PAYLOAD_OF_RELEASE.get(CHART_VERSION)).toBe(toChartPayload)
    expect(PAYLOAD_OF_RELEASE.get('0.3.0')).toBe(toChartPayload)
    expect(PAYLOAD_OF_RELEASE.get('0.2.0')).toBe(toChartPayload02)
    expect(PAYLOAD_OF_RELEASE.get('0.1.1')).toBe(toChartPayload01)
    expect(PAYLOAD_OF_RELEASE.get('0.1.0')).toBe(toChartPayload01)
    expect(PAYLOAD_OF_RELEASE.get('constructor')).toBeUndefined()
  })

  it('is the README walk-through with every estate fact, and without them exactly 0.2.0', () => {
    const full = estateRecord({
      dsueReceived: 5_490_000,
      portabilityElected: 'yes',
      primaryClientUsCitizen: true,
      coClientUsCitizen: false,
      primaryClientAsDonor: true,
      primaryClientLifetimeGifts: 2_000_000,
      primaryClientExemptionUsed: 1_500_000.5,
      coClientAsDonor: true,
    })
    const payload = toChartPayload(full)
    expectChartAccepts(payload)
    expect(payload).toEqual({
      household: { name: 'Test Family', currency: 'USD' },
      people: [
        {
          id: 'pat',
          name: 'Pat Rivera',
          role: 'primaryClient',
          usCitizen: true,
          dsueReceived: { amount: 5_490_000, from: DECEASED_SPOUSE_ID, portabilityElected: true },
        },
        { id: 'sam', name: 'Sam Rivera', role: 'coClient', usCitizen: false },
        { id: 'ava', name: 'Ava Rivera', role: 'child' },
        { id: DECEASED_SPOUSE_ID, name: 'Lee Rivera', role: 'spouse', deathDate: '2019-06-30' },
      ],
      relationships: [{ from: 'pat', to: DECEASED_SPOUSE_ID, type: 'spouse' }],
      entities: [],
      links: [],
      gifts: [
        { donor: 'pat', taxableGifts: 2_000_000, exclusionUsed: 1_500_000.5 },
        // Marked as a donor with no amount recorded: gifts whose amount is not known.
        { donor: 'sam' },
      ],
    })
    expect(without030(payload)).toEqual(toChartPayload02(full))
    // With no estate fact recorded, 0.3.0 is 0.2.0 exactly: no gifts key, no fact on anyone.
    expect(toChartPayload(estateRecord({}))).toEqual(toChartPayload02(estateRecord({})))
    expect(toChartPayload(readmeRecord())).toEqual(toChartPayload02(readmeRecord()))
    expect(toChartPayload(record({ settings: null }))).toEqual(toChartPayload02(record({ settings: null })))
  })

  it("gives each client their own citizenship when recorded, and no one else's", () => {
    expect(facts(toChartPayload(estateRecord({ primaryClientUsCitizen: false, coClientUsCitizen: true })))).toEqual({
      people: [
        { id: 'pat', usCitizen: false },
        { id: 'sam', usCitizen: true },
        { id: 'ava' },
        { id: DECEASED_SPOUSE_ID },
      ],
      gifts: undefined,
    })
    const onlyPat = toChartPayload(estateRecord({ primaryClientUsCitizen: true }))
    expect(onlyPat?.people.map((p) => p.usCitizen)).toEqual([true, undefined, undefined, undefined])
    // The first member with the role (members in member order), whatever the others are.
    const reordered = toChartPayload(
      estateRecord(
        { primaryClientUsCitizen: true, coClientUsCitizen: false },
        {
          members: [
            member('ava', 'Ava', 'child'),
            member('sam', 'Sam', 'coClient'),
            member('pat', 'Pat', 'primaryClient'),
          ],
        },
      ),
    )
    expect(reordered?.people.map((p) => [p.id, p.usCitizen])).toEqual([
      ['ava', undefined],
      ['sam', false],
      ['pat', true],
      [DECEASED_SPOUSE_ID, undefined],
    ])
    // No clients: no one carries a citizenship.
    const noClients = toChartPayload(
      estateRecord(
        { primaryClientUsCitizen: true, coClientUsCitizen: true },
        { members: [member('ava', 'Ava', 'child')] },
      ),
    )
    expectChartAccepts(noClients)
    expect(noClients.people.every((p) => p.usCitizen === undefined)).toBe(true)
  })

  it('puts the DSUE received on the primary client, from the deceased spouse, with portability as recorded', () => {
    const dsueOf = (more: Partial<ChartEstateSettings>, household: Partial<ChartRecord> = {}) => {
      const payload = toChartPayload(estateRecord(more, household))
      expectChartAccepts(payload)
      expect(payload.people.filter((p) => p.role !== 'primaryClient').every((p) => p.dsueReceived === undefined)).toBe(
        true,
      )
      return payload.people.find((p) => p.role === 'primaryClient')?.dsueReceived
    }
    expect(dsueOf({ dsueReceived: 1_000_000, portabilityElected: 'yes' })).toEqual({
      amount: 1_000_000,
      from: DECEASED_SPOUSE_ID,
      portabilityElected: true,
    })
    expect(dsueOf({ dsueReceived: 1_000_000, portabilityElected: 'no' })).toEqual({
      amount: 1_000_000,
      from: DECEASED_SPOUSE_ID,
      portabilityElected: false,
    })
    // Not known whether portability was elected: left out (the chart assumes it and says so).
    expect(dsueOf({ dsueReceived: 1_000_000, portabilityElected: 'unknown' })).toEqual({
      amount: 1_000_000,
      from: DECEASED_SPOUSE_ID,
    })
    expect(dsueOf({ dsueReceived: 2_125_000.5, portabilityElected: null })).toEqual({
      amount: 2_125_000.5,
      from: DECEASED_SPOUSE_ID,
    })
    // No DSUE (none, 0): nothing, whatever portability says.
    expect(dsueOf({ dsueReceived: null, portabilityElected: 'yes' })).toBeUndefined()
    expect(dsueOf({ dsueReceived: 0, portabilityElected: 'yes' })).toBeUndefined()
    // The member bearing deceasedSpouseName is the deceased spouse: from names the member.
    const members = [
      member('pat', 'Pat Rivera', 'primaryClient'),
      { ...member('lee', 'lee rivera ', 'spouse'), deathDate: '2019-06-30' },
    ]
    expect(dsueOf({ dsueReceived: 1_000_000 }, { members })).toEqual({ amount: 1_000_000, from: 'lee' })
    // No deceased spouse recorded: no from.
    expect(dsueOf({ dsueReceived: 1_000_000 }, { deceasedSpouseName: null })).toEqual({ amount: 1_000_000 })
    // The primary client bearing that name cannot be their own deceased spouse: no from.
    expect(dsueOf({ dsueReceived: 1_000_000 }, { deceasedSpouseName: 'Pat Rivera', members: [members[0]!] })).toEqual({
      amount: 1_000_000,
    })
    // No primary client: no one to carry it.
    const noPrimary = toChartPayload(
      estateRecord({ dsueReceived: 1_000_000 }, { members: [member('sam', 'Sam Rivera', 'coClient')] }),
    )
    expectChartAccepts(noPrimary)
    expect(noPrimary.people.every((p) => p.dsueReceived === undefined)).toBe(true)
  })

  it("writes each client's gifts as recorded, {donor} for a donor with no amount, none for the others", () => {
    const giftsOf = (more: Partial<ChartEstateSettings>) => {
      const payload = toChartPayload(estateRecord(more))
      expectChartAccepts(payload)
      return payload.gifts
    }
    expect(
      giftsOf({
        primaryClientLifetimeGifts: 3_000_000,
        primaryClientExemptionUsed: 3_000_000,
        coClientLifetimeGifts: 250_000.25,
      }),
    ).toEqual([
      { donor: 'pat', taxableGifts: 3_000_000, exclusionUsed: 3_000_000 },
      { donor: 'sam', taxableGifts: 250_000.25 },
    ])
    // An amount recorded makes an entry whatever AsDonor says; AsDonor true alone makes {donor}.
    expect(giftsOf({ primaryClientAsDonor: false, primaryClientLifetimeGifts: 0 })).toEqual([
      { donor: 'pat', taxableGifts: 0 },
    ])
    expect(giftsOf({ coClientAsDonor: true })).toEqual([{ donor: 'sam' }])
    // AsDonor false or not recorded, and no amount: no entry, and no gifts at all.
    expect(giftsOf({ primaryClientAsDonor: false, coClientAsDonor: null })).toBeUndefined()
    // The exemption used is at most the gifts in the payload: clamped only when above them.
    expect(giftsOf({ primaryClientLifetimeGifts: 1_000_000, primaryClientExemptionUsed: 1_200_000 })).toEqual([
      { donor: 'pat', taxableGifts: 1_000_000, exclusionUsed: 1_000_000 },
    ])
    expect(giftsOf({ primaryClientLifetimeGifts: 1_000_000, primaryClientExemptionUsed: 400_000 })).toEqual([
      { donor: 'pat', taxableGifts: 1_000_000, exclusionUsed: 400_000 },
    ])
    // Without a gifts amount, an exemption used of 0 implies no amount (and exclusionUsed is a part of
    // taxableGifts): {donor} alone.
    expect(giftsOf({ coClientExemptionUsed: 0 })).toEqual([{ donor: 'sam' }])
    // No client: no donor.
    const noClients = toChartPayload(
      estateRecord({ primaryClientAsDonor: true, coClientLifetimeGifts: 5 }, { members: [member('a', 'A', 'child')] }),
    )
    expectChartAccepts(noClients)
    expect(noClients.gifts).toBeUndefined()
  })

  it('sends an exemption used recorded without lifetime gifts as taxableGifts too: gifts of at least that amount were made', () => {
    const giftsOf = (more: Partial<ChartEstateSettings>) => {
      const payload = toChartPayload(estateRecord(more))
      expectChartAccepts(payload)
      return payload.gifts
    }
    // Not {donor} alone (0 gifts of an amount not known): the exemption used is what taxable gifts used.
    expect(giftsOf({ primaryClientExemptionUsed: 500_000 })).toEqual([
      { donor: 'pat', taxableGifts: 500_000, exclusionUsed: 500_000 },
    ])
    // Whatever AsDonor says, with cents, for either client.
    expect(
      giftsOf({
        primaryClientAsDonor: false,
        primaryClientExemptionUsed: 0.01,
        coClientAsDonor: true,
        coClientExemptionUsed: 13_990_000.5,
      }),
    ).toEqual([
      { donor: 'pat', taxableGifts: 0.01, exclusionUsed: 0.01 },
      { donor: 'sam', taxableGifts: 13_990_000.5, exclusionUsed: 13_990_000.5 },
    ])
    // A lifetime-gifts amount recorded is still the amount sent, and an amount the payload cannot
    // carry is not recorded: the exemption used stands alone then too.
    expect(giftsOf({ primaryClientLifetimeGifts: 2_000_000, primaryClientExemptionUsed: 500_000 })).toEqual([
      { donor: 'pat', taxableGifts: 2_000_000, exclusionUsed: 500_000 },
    ])
    expect(giftsOf({ primaryClientLifetimeGifts: -1, primaryClientExemptionUsed: 500_000 })).toEqual([
      { donor: 'pat', taxableGifts: 500_000, exclusionUsed: 500_000 },
    ])
  })

  it('leaves out an amount the payload cannot carry (negative, above its limit, not a number)', () => {
    const payload = toChartPayload(
      estateRecord({
        dsueReceived: 2e13,
        primaryClientLifetimeGifts: -1,
        primaryClientExemptionUsed: Number.NaN,
        coClientLifetimeGifts: Number.POSITIVE_INFINITY,
        coClientAsDonor: true,
      }),
    )
    expectChartAccepts(payload)
    expect(facts(payload)).toEqual({
      people: [{ id: 'pat' }, { id: 'sam' }, { id: 'ava' }, { id: DECEASED_SPOUSE_ID }],
      gifts: [{ donor: 'sam' }],
    })
  })

  it("always passes the chart's schema and rules, and is 0.2.0's payload with the estate facts added, whatever the record holds", () => {
    fc.assert(
      fc.property(generatedRecord, (g) => {
        const payload = toChartPayload(g)
        if (g.members.length === 0 && !g.deceasedSpouseName?.trim()) {
          expect(payload).toBeUndefined()
          return
        }
        expectChartAccepts(payload)
        expect(without030(payload)).toEqual(toChartPayload02(g))
        // Facts only on the clients, gifts only from them.
        const clients = new Set(
          payload.people.filter((p) => ['primaryClient', 'coClient'].includes(p.role)).map((p) => p.id),
        )
        for (const p of payload.people)
          if (p.usCitizen !== undefined || p.dsueReceived !== undefined) expect(clients.has(p.id)).toBe(true)
        for (const gift of payload.gifts ?? []) expect(clients.has(gift.donor)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})

describe('chart payload 0.2.0 of a household (frozen, for partners pinned to 0.2.0)', () => {
  it('takes an externalId the API accepts as a payload id unchanged: the two patterns are one rule', () => {
    expect((Person.properties.id as { pattern?: string }).pattern).toBe(EXTERNAL_ID_PATTERN)
  })

  it('keeps each entity kind as itself, parties included with no value, date or estate; estate only as set', () => {
    const entities = ENTITY_KINDS.map((kind, i) =>
      entity(`e${i}`, kind, isParty(kind) ? {} : { value: 1000 + i, valueAsOf: '2025-03-31' }),
    )
    const payload = toChartPayload02(record({ entities }))
    expectChart02Accepts(payload)
    expect(payload.entities).toEqual(
      ENTITY_KINDS.map((kind, i) =>
        isParty(kind)
          ? { id: `e${i}`, name: `Entity e${i}`, kind }
          : { id: `e${i}`, name: `Entity e${i}`, kind, value: 1000 + i, valueAsOf: '2025-03-31' },
      ),
    )
    // A party never carries what it cannot hold, even when the record has it.
    const party = toChartPayload02(
      record({ entities: [entity('bank', 'corporateTrustee', { value: 5, valueAsOf: '2025-01-01', estate: 'in' })] }),
    )
    expect(party?.entities).toEqual([{ id: 'bank', name: 'Entity bank', kind: 'corporateTrustee' }])
    // Set on the entity, estate is written, even when it equals the kind's default.
    const set = toChartPayload02(
      record({ entities: [entity('t', 'slat', { estate: 'out' }), entity('f', 'flp', { estate: 'out' })] }),
    )
    expect(set?.entities?.map((e) => e.estate)).toEqual(['out', 'out'])
  })

  it('keeps a short name trimmed and at most 40 characters, and leaves out a blank one', () => {
    const payload = toChartPayload02(
      record({
        entities: [
          entity('a', 'slat', { shortName: '  SLAT-C  ' }),
          entity('b', 'slat', { shortName: '   ' }),
          entity('c', 'slat', { shortName: 'x'.repeat(45) }),
        ],
      }),
    )
    expectChart02Accepts(payload)
    expect(payload.entities?.map((e) => e.shortName)).toEqual(['SLAT-C', undefined, 'x'.repeat(40)])
  })

  it('keeps every link type, share where the type has one and beneficiaryType on beneficiaries', () => {
    const entities = [
      entity('trust', 'revocableTrust'),
      entity('llc', 'llc'),
      entity('policy', 'lifeInsurance'),
      entity('bank', 'corporateTrustee'),
    ]
    const members = [member('ann', 'Ann Test', 'primaryClient'), member('kid', 'Kid Test', 'child')]
    const links: ChartLink[] = [
      link('ann', 'trust', 'grantor'),
      link('ann', 'trust', 'trustee'),
      link('kid', 'trust', 'successorTrustee'),
      { ...link('kid', 'trust', 'beneficiary', 60), beneficiaryType: 'contingent' },
      link('ann', 'llc', 'generalPartner', 2),
      link('kid', 'llc', 'limitedPartner', 48),
      link('trust', 'llc', 'owner', 50),
      link('ann', 'policy', 'insured'),
      link('trust', 'policy', 'owner', 100),
      link('bank', 'trust', 'trustee'),
    ]
    const payload = toChartPayload02(record({ members, entities, links }))
    expectChart02Accepts(payload)
    expect(payload.entities?.map((e) => e.id)).toEqual(['trust', 'llc', 'policy', 'bank'])
    expect(payload.links).toEqual([
      { from: 'ann', to: 'trust', type: 'grantor' },
      { from: 'ann', to: 'trust', type: 'trustee' },
      { from: 'kid', to: 'trust', type: 'successorTrustee' },
      { from: 'kid', to: 'trust', type: 'beneficiary', share: 60, beneficiaryType: 'contingent' },
      { from: 'ann', to: 'llc', type: 'generalPartner', share: 2 },
      { from: 'kid', to: 'llc', type: 'limitedPartner', share: 48 },
      { from: 'trust', to: 'llc', type: 'owner', share: 50 },
      { from: 'ann', to: 'policy', type: 'insured' },
      { from: 'trust', to: 'policy', type: 'owner', share: 100 },
      { from: 'bank', to: 'trust', type: 'trustee' },
    ])
  })

  it('is the README walk-through: parent kinds, a marriage date, short names, value dates and the currency', () => {
    const payload = toChartPayload02(readmeRecord())
    expectChart02Accepts(payload)
    expect(payload).toEqual({
      household: { name: 'Test Family', currency: 'USD' },
      people: [
        { id: 'pat', name: 'Pat Rivera', role: 'primaryClient' },
        { id: 'sam', name: 'Sam Rivera', role: 'coClient' },
        { id: 'ava', name: 'Ava Rivera', role: 'child' },
      ],
      relationships: [
        { from: 'pat', to: 'sam', type: 'spouse', since: '1990-06-01' },
        { from: 'pat', to: 'ava', type: 'parent', parentKind: 'adopted' },
      ],
      entities: [
        { id: 'rlt', name: 'Rivera Revocable Trust', shortName: 'RLT', kind: 'revocableTrust', value: 2_500_000 },
        { id: 'ilit', name: 'Rivera ILIT', kind: 'ilit', valueAsOf: '2025-01-01' },
        { id: 'llc', name: 'Rivera Holdings LLC', kind: 'llc', value: 1_200_000.5, estate: 'out' },
      ],
      links: [
        { from: 'pat', to: 'rlt', type: 'grantor' },
        { from: 'sam', to: 'rlt', type: 'trustee' },
        { from: 'ava', to: 'ilit', type: 'beneficiary', share: 100, beneficiaryType: 'primary' },
        { from: 'rlt', to: 'llc', type: 'owner', share: 100 },
      ],
    })
  })

  it('leaves out a parent kind on a couple and dates on a parent, and a reversed couple whole', () => {
    const members = [member('a', 'A', 'primaryClient'), member('b', 'B', 'coClient'), member('c', 'C', 'child')]
    const payload = toChartPayload02(
      record({
        members,
        relationships: [
          { from: 'a', to: 'b', type: 'exSpouse', parentKind: 'step', since: '1990-01-01', until: '1980-01-01' },
          { from: 'a', to: 'c', type: 'parent', parentKind: 'foster', since: '2000-01-01', until: null },
        ],
      }),
    )
    expectChart02Accepts(payload)
    expect(payload.relationships).toEqual([{ from: 'a', to: 'c', type: 'parent', parentKind: 'foster' }])
  })

  it("always passes the chart's schema and rules, whatever the record holds", () => {
    fc.assert(
      fc.property(generatedRecord, (g) => {
        const payload = toChartPayload02(g)
        if (g.members.length === 0 && !g.deceasedSpouseName?.trim()) {
          expect(payload).toBeUndefined()
          return
        }
        expectChart02Accepts(payload)
        // None of 0.3.0's facts, whatever the settings hold.
        expect(payload).toEqual(without030(payload))
      }),
      { numRuns: 300 },
    )
  })
})

describe('chart payload 0.1.x of a household (frozen, for partners pinned to 0.1.x)', () => {
  it('maps each entity kind: 0.1.x kinds as themselves, the others as other, parties left out; estate always written as counted', () => {
    const entities = ENTITY_KINDS.map((kind, i) => entity(`e${i}`, kind, { value: 1000 + i }))
    const payload = toChartPayload01(record({ entities }))
    expectChart01Accepts(payload)
    const drawn = new Map((payload.entities ?? []).map((e) => [e.id, e]))
    for (const [i, kind] of ENTITY_KINDS.entries()) {
      const got = drawn.get(`e${i}`)
      if (isParty(kind)) {
        expect(got, kind).toBeUndefined()
        continue
      }
      expect(got, kind).toEqual({
        id: `e${i}`,
        name: `Entity e${i}`,
        kind: (PAYLOAD_0_1_ENTITY_KINDS as readonly string[]).includes(kind) ? kind : 'other',
        value: 1000 + i,
        estate: defaultEstateSide(kind),
      })
    }
    expect(payloadEntityKind('qtip')).toBe('other')
    expect(payloadEntityKind('slat')).toBe('slat')
    // A QTIP is in the estate by default: drawn as `other`, still in.
    expect(drawn.get(`e${ENTITY_KINDS.indexOf('qtip')}`)?.estate).toBe('in')
    // An estate the advisor set wins over the kind's default.
    const set = toChartPayload01(record({ entities: [entity('t', 'irrevocableTrust', { estate: 'in' })] }))
    expect(set?.entities).toEqual([{ id: 't', name: 'Entity t', kind: 'irrevocableTrust', estate: 'in' }])
  })

  it('maps each link type: partners as owner with their share, successorTrustee and insured left out, beneficiary shares kept', () => {
    const entities = [
      entity('trust', 'revocableTrust'),
      entity('llc', 'llc'),
      entity('policy', 'lifeInsurance'),
      entity('bank', 'corporateTrustee'),
    ]
    const members = [member('ann', 'Ann Test', 'primaryClient'), member('kid', 'Kid Test', 'child')]
    const links: ChartLink[] = [
      link('ann', 'trust', 'grantor'),
      link('ann', 'trust', 'trustee'),
      link('kid', 'trust', 'successorTrustee'),
      { ...link('kid', 'trust', 'beneficiary', 60), beneficiaryType: 'contingent' },
      link('ann', 'llc', 'generalPartner', 2),
      link('kid', 'llc', 'limitedPartner', 48),
      link('trust', 'llc', 'owner', 50),
      link('ann', 'policy', 'insured'),
      link('trust', 'policy', 'owner', 100),
      link('bank', 'trust', 'trustee'),
    ]
    const payload = toChartPayload01(record({ members, entities, links }))
    expectChart01Accepts(payload)
    expect(payload.entities?.map((e) => e.id)).toEqual(['trust', 'llc', 'policy'])
    expect(payload.links).toEqual([
      { from: 'ann', to: 'trust', type: 'grantor' },
      { from: 'ann', to: 'trust', type: 'trustee' },
      { from: 'kid', to: 'trust', type: 'beneficiary', share: 60 },
      { from: 'ann', to: 'llc', type: 'owner', share: 2 },
      { from: 'kid', to: 'llc', type: 'owner', share: 48 },
      { from: 'trust', to: 'llc', type: 'owner', share: 50 },
      { from: 'trust', to: 'policy', type: 'owner', share: 100 },
    ])
    const mapped = new Set(LINK_TYPES.filter((t) => !['successorTrustee', 'insured'].includes(t)))
    expect([...mapped].sort()).toEqual([
      'beneficiary',
      'generalPartner',
      'grantor',
      'limitedPartner',
      'owner',
      'trustee',
    ])
  })

  it('draws a partner who is also an owner of the same entity as one owner, the shares added', () => {
    const payload = toChartPayload01(
      record({
        entities: [entity('flp', 'flp')],
        links: [link('m1', 'flp', 'generalPartner', 1), link('m1', 'flp', 'owner', 33.3333)],
      }),
    )
    expectChart01Accepts(payload)
    expect(payload.links).toEqual([{ from: 'm1', to: 'flp', type: 'owner', share: 34.3333 }])
  })

  it('is the README walk-through: a revocable trust, an ILIT and an LLC', () => {
    const payload = toChartPayload01(readmeRecord())
    expectChart01Accepts(payload)
    expect(payload).toEqual({
      household: { name: 'Test Family' },
      people: [
        { id: 'pat', name: 'Pat Rivera', role: 'primaryClient' },
        { id: 'sam', name: 'Sam Rivera', role: 'coClient' },
        { id: 'ava', name: 'Ava Rivera', role: 'child' },
      ],
      relationships: [
        { from: 'pat', to: 'sam', type: 'spouse' },
        { from: 'pat', to: 'ava', type: 'parent' },
      ],
      entities: [
        { id: 'rlt', name: 'Rivera Revocable Trust', kind: 'revocableTrust', value: 2_500_000, estate: 'in' },
        { id: 'ilit', name: 'Rivera ILIT', kind: 'ilit', estate: 'out' },
        { id: 'llc', name: 'Rivera Holdings LLC', kind: 'llc', value: 1_200_000.5, estate: 'out' },
      ],
      links: [
        { from: 'pat', to: 'rlt', type: 'grantor' },
        { from: 'sam', to: 'rlt', type: 'trustee' },
        { from: 'ava', to: 'ilit', type: 'beneficiary', share: 100 },
        { from: 'rlt', to: 'llc', type: 'owner', share: 100 },
      ],
    })
  })

  it("always passes the chart's schema and rules, whatever the record holds", () => {
    fc.assert(
      fc.property(generatedRecord, (g) => {
        const payload = toChartPayload01(g)
        if (g.members.length === 0 && !g.deceasedSpouseName?.trim()) {
          expect(payload).toBeUndefined()
          return
        }
        expectChart01Accepts(payload)
        for (const e of payload.entities ?? []) expect(e.estate).toBeDefined()
      }),
      { numRuns: 300 },
    )
  })
})
