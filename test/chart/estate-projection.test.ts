// The estate projection (chart/src/flow/project-estate.ts): each worked case of issue 16 with every
// figure computed by hand in the comment beside it, from the rules in DESIGN §5:
//   tentative tax T(x) by IRC §2001(c); above $1,000,000 it is 345,800 + 40 % × (x − 1,000,000);
//   estate tax = max(0, T(taxable estate + adjusted taxable gifts) − gift tax payable − T(basic exclusion + DSUE));
//   basic exclusion 2025 $13,990,000, 2026 $15,000,000, later years the last known unless assumed;
//   DSUE = min(basic exclusion of the year, applicable exclusion − (taxable estate + ATG)), if elected.
// Then properties on random households: every death conserves its value to the cent (gross estate =
// marital + charitable deductions + tax + what passes on without a deduction), and nothing is
// counted twice (what the deaths hand on, tax included, is exactly the clients' estates today).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Disposition, Entity, Link, Payload, Person, Relationship } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import { tentativeTax, FEDERAL_ESTATE_TAX } from '../../chart/src/flow/federal-estate-tax.ts'
import type { EstateProjection, ProjectionDeath } from '../../chart/src/flow/projection-types.ts'

const M = 1_000_000
const TODAY = new Date('2026-11-24T12:00:00Z')

const person = (id: string, role: Person['role'], extra: Partial<Person> = {}): Person => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  role,
  ...extra,
})
const entity = (id: string, kind: Entity['kind'], value?: number, extra: Partial<Entity> = {}): Entity => ({
  id,
  name: id,
  kind,
  ...(value === undefined ? {} : { value }),
  ...extra,
})
const owns = (from: string, to: string, share?: number): Link => ({
  from,
  to,
  type: 'owner',
  ...(share === undefined ? {} : { share }),
})
const parent = (from: string, to: string): Relationship => ({ from, to, type: 'parent' })
const spouses: Relationship = { from: 'robert', to: 'linda', type: 'spouse' }

/** Robert and Linda, married, with two children. */
const COUPLE: Person[] = [
  person('robert', 'primaryClient'),
  person('linda', 'coClient', { usCitizen: true }),
  person('chris', 'child'),
  person('dana', 'child'),
]
const COUPLE_RELATIONSHIPS: Relationship[] = [
  spouses,
  parent('robert', 'chris'),
  parent('linda', 'chris'),
  parent('robert', 'dana'),
  parent('linda', 'dana'),
]
/** Ana, single, with one child. */
const SINGLE: Person[] = [person('ana', 'primaryClient'), person('ben', 'child')]

function project(payload: Omit<Payload, 'household'> & { household?: Payload['household'] }): EstateProjection {
  const full: Payload = { household: { name: 'Case', currency: 'USD' }, ...payload }
  expect(checkPayloadRules(full)).toBeNull()
  return projectEstate(full, { today: TODAY })
}

const received = (projection: EstateProjection, id: string) =>
  projection.recipients.find((recipient) => recipient.id === id)?.amount ?? 0
const taxPaid = (projection: EstateProjection) =>
  projection.recipients.find((recipient) => recipient.kind === 'tax')?.amount ?? 0

describe('the tax tables', () => {
  it('tentative tax follows §2001(c) at bracket edges and in the top bracket', () => {
    const T = (dollars: number) => tentativeTax(FEDERAL_ESTATE_TAX, dollars * 100) / 100
    expect(T(10_000)).toBe(1_800) // 18 % × 10,000
    expect(T(15_000)).toBe(2_800) // 1,800 + 20 % × 5,000
    expect(T(1_000_000)).toBe(345_800) // 248,300 + 39 % × 250,000
    expect(T(15 * M)).toBe(5_945_800) // 345,800 + 40 % × 14,000,000
    expect(T(13_990_000)).toBe(5_541_800) // 345,800 + 40 % × 12,990,000
    expect(T(0)).toBe(0)
  })
})

describe('worked cases', () => {
  it('a single person under the exclusion pays nothing; the child takes all', () => {
    // Gross 5,000,000 (the account Ana owns). Taxable 5,000,000; T(5,000,000) = 345,800 + 40 % × 4,000,000
    // = 1,945,800; credit T(15,000,000) = 5,945,800 (2026); tax max(0, 1,945,800 − 5,945,800) = 0.
    const projection = project({
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 5 * M)],
      links: [owns('ana', 'account')],
    })
    const [death] = projection.deaths as [ProjectionDeath]
    expect(projection.deaths).toHaveLength(1)
    expect(death.year).toBe(2026)
    expect(death.grossEstate.total).toBe(5 * M)
    expect(death.taxableEstate).toBe(5 * M)
    expect(death.tentativeTax).toBe(1_945_800)
    expect(death.basicExclusion).toMatchObject({ year: 2026, amount: 15 * M, basis: 'table' })
    expect(death.applicableCredit).toBe(5_945_800)
    expect(death.estateTax).toBe(0)
    expect(death.dsuePassed).toBe(0)
    expect(received(projection, 'ben')).toBe(5 * M)
  })

  const coupleEstate = {
    people: COUPLE,
    relationships: COUPLE_RELATIONSHIPS,
    entities: [
      entity('brokerage', 'taxableAccount', 10 * M),
      entity('ira', 'retirementAccount', 4 * M),
      entity('home', 'realEstate', 2 * M),
    ],
    links: [owns('robert', 'brokerage'), owns('linda', 'ira'), owns('robert', 'home'), owns('linda', 'home')],
  }

  it('a couple, everything to the survivor, portability elected: no tax at either death', () => {
    // Robert dies first (2026). Gross = brokerage 10,000,000 + half of the home 1,000,000 = 11,000,000.
    // All passes to Linda (the home's half by survivorship), so the marital deduction is 11,000,000,
    // taxable 0, tax 0; DSUE = min(15,000,000, 15,000,000 − 0) = 15,000,000.
    // Linda (2026): gross = IRA 4,000,000 + her half of the home 1,000,000 + 1,000,000 + 10,000,000
    // received = 16,000,000; taxable 16,000,000; T = 345,800 + 40 % × 15,000,000 = 6,345,800;
    // exclusion 15,000,000 + DSUE 15,000,000 = 30,000,000, credit 345,800 + 40 % × 29,000,000
    // = 11,945,800; tax 0. Chris and Dana take 8,000,000 each.
    const projection = project(coupleEstate)
    const [first, second] = projection.deaths as [ProjectionDeath, ProjectionDeath]
    expect(first.decedentId).toBe('robert')
    expect(first.grossEstate.total).toBe(11 * M)
    expect(first.grossEstate.lines).toEqual([
      expect.objectContaining({ label: 'brokerage', amount: 10 * M, entityId: 'brokerage' }),
      expect.objectContaining({ label: 'Half of home (joint)', amount: 1 * M, joint: true }),
    ])
    expect(first.maritalDeduction.total).toBe(11 * M)
    expect(first.taxableEstate).toBe(0)
    expect(first.estateTax).toBe(0)
    expect(first.dsuePassed).toBe(15 * M)
    expect(first.transfers.map((t) => [t.toId, t.how, t.amount])).toEqual([
      ['linda', 'survivorship', 1 * M],
      ['linda', 'default', 10 * M],
    ])
    expect(second.grossEstate.total).toBe(16 * M)
    expect(second.tentativeTax).toBe(6_345_800)
    expect(second.dsue).toEqual({ amount: 15 * M, fromId: 'robert', fromName: 'Robert' })
    expect(second.applicableExclusion).toBe(30 * M)
    expect(second.applicableCredit).toBe(11_945_800)
    expect(second.estateTax).toBe(0)
    expect(received(projection, 'chris')).toBe(8 * M)
    expect(received(projection, 'dana')).toBe(8 * M)
  })

  it('the same couple without the portability election: tax on the second estate over one exclusion', () => {
    // As above, but no DSUE passes: Linda's exclusion is 15,000,000, credit 5,945,800;
    // tax = 6,345,800 − 5,945,800 = 400,000 (40 % of the 1,000,000 over). Each child (16,000,000 −
    // 400,000) / 2 = 7,800,000.
    const projection = project({ ...coupleEstate, assumptions: { portabilityElected: false } })
    const [first, second] = projection.deaths as [ProjectionDeath, ProjectionDeath]
    expect(first.dsuePassed).toBe(0)
    expect(second.dsue.amount).toBe(0)
    expect(second.applicableCredit).toBe(5_945_800)
    expect(second.estateTax).toBe(400_000)
    expect(received(projection, 'chris')).toBe(7_800_000)
    expect(taxPaid(projection)).toBe(400_000)
  })

  it('who dies first is a choice: Linda first moves the home and the IRA through Robert', () => {
    // Linda first: gross = IRA 4,000,000 + half the home 1,000,000 = 5,000,000, all to Robert, tax 0,
    // DSUE 15,000,000. Robert: 10,000,000 + 1,000,000 + 5,000,000 = 16,000,000, tax 0 with the DSUE.
    const projection = projectEstate(
      { household: { name: 'Case' }, ...coupleEstate },
      { firstDeath: 'linda', today: TODAY },
    )
    expect(projection.assumptions.order).toEqual(['linda', 'robert'])
    expect(projection.deaths[0]!.grossEstate.total).toBe(5 * M)
    expect(projection.deaths[1]!.grossEstate.total).toBe(16 * M)
  })

  it('a credit-shelter trust at the first death uses the first exclusion without portability', () => {
    // Robert 20,000,000, Linda 10,000,000, no election. At Robert's death (2026) the formula funds the
    // trust with the exclusion not yet used: 15,000,000 − 0 gifts − 0 other taxable = 15,000,000; the
    // rest, 5,000,000, goes to Linda (marital). Taxable 15,000,000, T = 5,945,800, credit 5,945,800,
    // tax 0. Linda: 10,000,000 + 5,000,000 = 15,000,000, taxable 15,000,000, tax 0. The trust keeps
    // 15,000,000 outside Linda's estate; the children take 7,500,000 each.
    const dispositions: Disposition[] = [{ at: 'robert', to: 'bypass', formula: 'unusedExclusion' }]
    const projection = project({
      people: COUPLE,
      relationships: COUPLE_RELATIONSHIPS,
      entities: [
        entity('r-account', 'taxableAccount', 20 * M),
        entity('l-account', 'taxableAccount', 10 * M),
        entity('bypass', 'creditShelterTrust'),
      ],
      links: [owns('robert', 'r-account'), owns('linda', 'l-account')],
      dispositions,
      assumptions: { portabilityElected: false },
    })
    const [first, second] = projection.deaths as [ProjectionDeath, ProjectionDeath]
    expect(first.transfers.map((t) => [t.toId, t.amount, t.deduction])).toEqual([
      ['bypass', 15 * M, null],
      ['linda', 5 * M, 'marital'],
    ])
    expect(first.taxableEstate).toBe(15 * M)
    expect(first.estateTax).toBe(0)
    expect(second.grossEstate.total).toBe(15 * M)
    expect(second.estateTax).toBe(0)
    expect(received(projection, 'bypass')).toBe(15 * M)
    expect(received(projection, 'chris')).toBe(7_500_000)
    expect(taxPaid(projection)).toBe(0)
  })

  it('an ILIT is outside both estates', () => {
    // The policy (5,000,000) is owned by the ILIT, which is out of the estate: in no gross estate.
    // Robert's gross is his account alone, 3,000,000; the policy is listed outside.
    const projection = project({
      people: COUPLE,
      relationships: COUPLE_RELATIONSHIPS,
      entities: [
        entity('account', 'taxableAccount', 3 * M),
        entity('ilit', 'ilit'),
        entity('policy', 'lifeInsurance', 5 * M),
      ],
      links: [owns('robert', 'account'), { from: 'robert', to: 'ilit', type: 'grantor' }, owns('ilit', 'policy')],
    })
    expect(projection.deaths[0]!.grossEstate.total).toBe(3 * M)
    expect(projection.deaths[1]!.grossEstate.total).toBe(3 * M)
    expect(projection.outsideEstate).toEqual([expect.objectContaining({ entityId: 'policy', amount: 5 * M })])
  })

  it('an FLP 98 % owned by SLATs puts 2 % in the estate', () => {
    // FLP 10,000,000: SLAT A 49 %, SLAT B 49 %, Ana 2 %. The SLATs are out of the estate, so Ana's gross
    // = 2 % × 10,000,000 = 200,000 + her account 1,000,000 = 1,200,000; tax 0; 9,800,000 is outside.
    const projection = project({
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [
        entity('flp', 'flp', 10 * M, { name: 'Smith FLP' }),
        entity('slat-a', 'slat'),
        entity('slat-b', 'slat'),
        entity('account', 'taxableAccount', 1 * M),
      ],
      links: [owns('slat-a', 'flp', 49), owns('slat-b', 'flp', 49), owns('ana', 'flp', 2), owns('ana', 'account')],
    })
    const [death] = projection.deaths as [ProjectionDeath]
    expect(death.grossEstate.lines).toEqual([
      expect.objectContaining({ label: '2 % of Smith FLP', amount: 200_000, fraction: 0.02 }),
      expect.objectContaining({ label: 'account', amount: 1 * M }),
    ])
    expect(death.grossEstate.total).toBe(1_200_000)
    expect(projection.today.outside).toBe(9_800_000)
  })

  it('a charitable bequest is deducted; the tax comes out of the children’s share', () => {
    // Ana 20,000,000 (2026); 2,000,000 to her foundation. Charitable deduction 2,000,000; taxable
    // 18,000,000; T = 345,800 + 40 % × 17,000,000 = 7,145,800; credit 5,945,800; tax 1,200,000, borne
    // by Ben's residue: 18,000,000 − 1,200,000 = 16,800,000. 2,000,000 + 1,200,000 + 16,800,000 = 20,000,000.
    const projection = project({
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 20 * M), entity('foundation', 'foundation')],
      links: [owns('ana', 'account')],
      dispositions: [{ at: 'ana', to: 'foundation', amount: 2 * M }],
    })
    const [death] = projection.deaths as [ProjectionDeath]
    expect(death.charitableDeduction.total).toBe(2 * M)
    expect(death.taxableEstate).toBe(18 * M)
    expect(death.tentativeTax).toBe(7_145_800)
    expect(death.estateTax).toBe(1_200_000)
    expect(received(projection, 'ben')).toBe(16_800_000)
    expect(received(projection, 'foundation')).toBe(2 * M)
  })

  it('adjusted taxable gifts use the exclusion', () => {
    // Ana 10,000,000 (2026), lifetime taxable gifts 8,000,000 within the exclusion (no gift tax).
    // Base = 10,000,000 + 8,000,000 = 18,000,000; T = 7,145,800; gift tax payable T(8,000,000) −
    // T(8,000,000) = 0; credit 5,945,800; tax 1,200,000 (without the gifts it would be 0). Ben 8,800,000.
    const projection = project({
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 10 * M)],
      links: [owns('ana', 'account')],
      gifts: [{ donor: 'ana', taxableGifts: 8 * M }],
    })
    const [death] = projection.deaths as [ProjectionDeath]
    expect(death.adjustedTaxableGifts).toBe(8 * M)
    expect(death.taxBase).toBe(18 * M)
    expect(death.giftTaxPayable).toBe(0)
    expect(death.estateTax).toBe(1_200_000)
    expect(received(projection, 'ben')).toBe(8_800_000)
  })

  it('gift tax already paid is credited', () => {
    // Ana 10,000,000 (2026); gifts 20,000,000 of which 15,000,000 used the exclusion. Gift tax payable
    // = T(20,000,000) − T(15,000,000) = 7,945,800 − 5,945,800 = 2,000,000. Base 30,000,000, T =
    // 345,800 + 40 % × 29,000,000 = 11,945,800; tax = 11,945,800 − 2,000,000 − 5,945,800 = 4,000,000
    // (40 % of the estate, the exclusion being used up).
    const projection = project({
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 10 * M)],
      links: [owns('ana', 'account')],
      gifts: [{ donor: 'ana', taxableGifts: 20 * M, exclusionUsed: 15 * M }],
    })
    const [death] = projection.deaths as [ProjectionDeath]
    expect(death.giftTaxPayable).toBe(2 * M)
    expect(death.tentativeTax).toBe(11_945_800)
    expect(death.estateTax).toBe(4 * M)
  })

  it('a DSUE already received adds to the exclusion; not elected, it does not', () => {
    // Ana, widowed (Tom died 2020), received a DSUE of 5,000,000; gross 18,000,000 (2026).
    // Exclusion 15,000,000 + 5,000,000 = 20,000,000, credit 345,800 + 40 % × 19,000,000 = 7,945,800;
    // T(18,000,000) = 7,145,800; tax 0. Without the election: credit 5,945,800, tax 1,200,000.
    const widowed = (portabilityElected: boolean) =>
      project({
        people: [
          person('ana', 'primaryClient', { dsueReceived: { amount: 5 * M, from: 'tom', portabilityElected } }),
          person('tom', 'spouse', { deathDate: '2020-05-01' }),
          person('ben', 'child'),
        ],
        relationships: [{ from: 'ana', to: 'tom', type: 'spouse' }, parent('ana', 'ben')],
        entities: [entity('account', 'taxableAccount', 18 * M)],
        links: [owns('ana', 'account')],
      })
    const elected = widowed(true).deaths[0]!
    expect(elected.dsue).toEqual({ amount: 5 * M, fromId: 'tom', fromName: 'Tom' })
    expect(elected.applicableExclusion).toBe(20 * M)
    expect(elected.applicableCredit).toBe(7_945_800)
    expect(elected.estateTax).toBe(0)
    const notElected = widowed(false)
    expect(notElected.deaths[0]!.estateTax).toBe(1_200_000)
    expect(notElected.warnings.map((w) => w.code)).toContain('dsueNotElected')
  })

  it('only the last deceased spouse’s DSUE counts: Robert’s replaces the one Linda received before', () => {
    // Linda received 5,000,000 from an earlier husband. Robert dies first leaving everything to her,
    // taxable 0, so his DSUE is 15,000,000: Linda's exclusion is 15,000,000 + 15,000,000, not + 20,000,000.
    const projection = project({
      ...coupleEstate,
      people: COUPLE.map((p) => (p.id === 'linda' ? { ...p, dsueReceived: { amount: 5 * M } } : p)),
    })
    expect(projection.deaths[1]!.dsue.amount).toBe(15 * M)
    expect(projection.deaths[1]!.applicableExclusion).toBe(30 * M)
  })

  it('a death after the last known year uses the last known exclusion, or the one assumed', () => {
    // Ana 16,000,000, dying in 2030: the 2026 amount, 15,000,000: tax 40 % × 1,000,000 = 400,000.
    // Assuming 7,000,000: credit 345,800 + 40 % × 6,000,000 = 2,745,800; T(16,000,000) = 6,345,800;
    // tax 3,600,000.
    const base = {
      people: SINGLE,
      relationships: [parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 16 * M)],
      links: [owns('ana', 'account')],
    }
    const lastKnown = project({ ...base, assumptions: { firstDeathYear: 2030 } }).deaths[0]!
    expect(lastKnown.basicExclusion).toMatchObject({ year: 2030, amount: 15 * M, basis: 'lastKnown', sourceYear: 2026 })
    expect(lastKnown.estateTax).toBe(400_000)
    const assumed = project({ ...base, assumptions: { firstDeathYear: 2030, basicExclusion: 7 * M } }).deaths[0]!
    expect(assumed.basicExclusion).toMatchObject({ amount: 7 * M, basis: 'assumed' })
    expect(assumed.estateTax).toBe(3_600_000)
    // 2025 is in the table: 13,990,000; tax = T(16,000,000) − T(13,990,000) = 6,345,800 − 5,541,800 = 804,000.
    const in2025 = project({ ...base, assumptions: { firstDeathYear: 2025 } }).deaths[0]!
    expect(in2025.estateTax).toBe(804_000)
  })

  it('a non-citizen spouse gets no marital deduction, and the view is told', () => {
    // Robert 20,000,000 all to Linda, who is not a citizen: no marital deduction; taxable 20,000,000;
    // T = 345,800 + 40 % × 19,000,000 = 7,945,800; credit 5,945,800; tax 2,000,000, borne by Linda's share.
    const projection = project({
      people: COUPLE.map((p) => (p.id === 'linda' ? { ...p, usCitizen: false } : p)),
      relationships: COUPLE_RELATIONSHIPS,
      entities: [entity('account', 'taxableAccount', 20 * M)],
      links: [owns('robert', 'account')],
    })
    const first = projection.deaths[0]!
    expect(first.maritalDeduction.total).toBe(0)
    expect(first.estateTax).toBe(2 * M)
    expect(projection.warnings.map((w) => w.code)).toContain('nonCitizenSpouse')
  })

  it('the share of a child who died before goes to that child’s children', () => {
    // Ana 9,000,000 to her children by branch: Ben, and Cleo's two children (Cleo died): Ben 4,500,000,
    // Dot and Eve 2,250,000 each.
    const projection = project({
      people: [
        person('ana', 'primaryClient'),
        person('ben', 'child'),
        person('cleo', 'child', { deathDate: '2019-01-01' }),
        person('dot', 'grandchild'),
        person('eve', 'grandchild'),
      ],
      relationships: [parent('ana', 'ben'), parent('ana', 'cleo'), parent('cleo', 'dot'), parent('cleo', 'eve')],
      entities: [entity('account', 'taxableAccount', 9 * M)],
      links: [owns('ana', 'account')],
    })
    expect(received(projection, 'ben')).toBe(4_500_000)
    expect(received(projection, 'dot')).toBe(2_250_000)
    expect(received(projection, 'eve')).toBe(2_250_000)
  })
})

describe('properties', () => {
  const amount = fc.integer({ min: 0, max: 5_000_000_00 }).map((c) => c / 100)
  const household = fc
    .record({
      values: fc.array(amount, { minLength: 1, maxLength: 6 }),
      owners: fc.array(fc.constantFrom('robert', 'linda', 'both', 'slat', 'none'), { minLength: 6, maxLength: 6 }),
      charityGift: fc.option(amount, { nil: undefined }),
      shelter: fc.boolean(),
      elected: fc.boolean(),
      gifts: fc.option(amount, { nil: undefined }),
      lindaFirst: fc.boolean(),
      years: fc.tuple(fc.integer({ min: 2025, max: 2040 }), fc.integer({ min: 0, max: 20 })),
      citizen: fc.boolean(),
    })
    .map((drawn): Payload => {
      const entities: Entity[] = [
        entity('slat', 'slat'),
        entity('charity', 'publicCharity'),
        entity('bypass', 'creditShelterTrust'),
      ]
      const links: Link[] = []
      drawn.values.forEach((value, i) => {
        entities.push(entity(`asset-${i}`, 'taxableAccount', value))
        const who = drawn.owners[i]!
        if (who === 'both') links.push(owns('robert', `asset-${i}`), owns('linda', `asset-${i}`))
        else if (who !== 'none') links.push(owns(who, `asset-${i}`))
      })
      const dispositions: Disposition[] = []
      if (drawn.shelter)
        dispositions.push({ at: drawn.lindaFirst ? 'linda' : 'robert', to: 'bypass', formula: 'unusedExclusion' })
      if (drawn.charityGift !== undefined) dispositions.push({ at: 'linda', to: 'charity', amount: drawn.charityGift })
      return {
        household: { name: 'Random' },
        people: COUPLE.map((p) => (p.id === 'linda' ? { ...p, usCitizen: drawn.citizen } : p)),
        relationships: COUPLE_RELATIONSHIPS,
        entities,
        links,
        dispositions,
        ...(drawn.gifts === undefined ? {} : { gifts: [{ donor: 'robert', taxableGifts: drawn.gifts }] }),
        assumptions: {
          firstDeath: drawn.lindaFirst ? 'linda' : 'robert',
          firstDeathYear: drawn.years[0],
          secondDeathYear: drawn.years[0] + drawn.years[1],
          portabilityElected: drawn.elected,
        },
      }
    })
  const inCents = (amount: number) => Math.round(amount * 100)
  const sumCents = (amounts: readonly number[]) => amounts.reduce((total, each) => total + inCents(each), 0)

  it('each death conserves its value to the cent: gross = deductions + tax + what passes without a deduction', () => {
    fc.assert(
      fc.property(household, (payload) => {
        expect(checkPayloadRules(payload)).toBeNull()
        for (const death of projectEstate(payload, { today: TODAY }).deaths) {
          const gross = inCents(death.grossEstate.total)
          expect(sumCents(death.grossEstate.lines.map((line) => line.amount))).toBe(gross)
          const passingUndeducted = sumCents(death.transfers.filter((t) => t.deduction === null).map((t) => t.net))
          expect(
            inCents(death.maritalDeduction.total) +
              inCents(death.charitableDeduction.total) +
              inCents(death.estateTax) +
              passingUndeducted,
          ).toBe(gross)
          expect(sumCents(death.transfers.map((t) => t.amount))).toBe(gross)
          expect(inCents(death.taxableEstate)).toBe(
            gross - inCents(death.maritalDeduction.total) - inCents(death.charitableDeduction.total),
          )
          expect(death.estateTax).toBeGreaterThanOrEqual(0)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('nothing is counted twice: what the deaths hand on, tax included, is the clients’ estates today', () => {
    fc.assert(
      fc.property(household, (payload) => {
        const projection = projectEstate(payload, { today: TODAY })
        const today = projection.today
        const estates = inCents(today.primaryClient) + inCents(today.coClient) + inCents(today.joint)
        expect(sumCents(projection.recipients.map((recipient) => recipient.amount))).toBe(estates)
        // The first gross estate and the survivor's own part never overlap: both are at most today's whole.
        const [first] = projection.deaths
        if (first !== undefined) expect(inCents(first.grossEstate.total)).toBeLessThanOrEqual(estates)
      }),
      { numRuns: 300 },
    )
  })
})
