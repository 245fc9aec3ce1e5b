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
import type { Disposition, Entity, Link, Payload } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import { tentativeTax, FEDERAL_ESTATE_TAX } from '../../chart/src/flow/federal-estate-tax.ts'
import type { EstateProjection } from '../../chart/src/flow/projection-types.ts'
import {
  COUPLE,
  COUPLE_ESTATE,
  COUPLE_RELATIONSHIPS,
  entity,
  M,
  owns,
  parent,
  person,
  statedFigures,
  TODAY_ISO,
  WORKED_CASES,
  type WorkedCase,
} from './estate-worked-cases.ts'

const TODAY = new Date(TODAY_ISO)

function project(payload: Payload, choices: WorkedCase['choices'] = {}): EstateProjection {
  expect(checkPayloadRules(payload)).toBeNull()
  return projectEstate(payload, { ...choices, today: TODAY })
}
const caseNamed = (name: string) => WORKED_CASES.find((each) => each.name === name)!
const projectCase = (name: string) => project(caseNamed(name).payload, caseNamed(name).choices)
const received = (projection: EstateProjection, id: string) =>
  projection.recipients.find((recipient) => recipient.id === id)?.amount ?? 0

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
  it.each(WORKED_CASES)('$name: every figure as worked by hand', ({ payload, choices, deaths, recipients }) => {
    expect(statedFigures(project(payload, choices))).toEqual({ deaths, recipients })
  })

  it('says the year, the table year and the source of each exclusion', () => {
    expect(projectCase('a single person under the exclusion').deaths[0]!.basicExclusion).toEqual({
      year: 2026,
      amount: 15 * M,
      basis: 'table',
      sourceYear: 2026,
      source: 'P.L. 119-21 (IRC §2010(c)(3)), Rev. Proc. 2025-32',
    })
    expect(projectCase('a death after the last known table year').deaths[0]!.basicExclusion).toMatchObject({
      year: 2030,
      basis: 'lastKnown',
      sourceYear: 2026,
    })
    expect(
      projectCase('a death after the last known year with the exclusion assumed').deaths[0]!.basicExclusion,
    ).toMatchObject({ year: 2030, basis: 'assumed', amount: 7 * M })
  })

  it('traces each gross-estate line to its entity: the joint half, a share of an FLP', () => {
    const [first] = projectCase('a couple, everything to the survivor, portability elected').deaths
    expect(first!.grossEstate.lines).toEqual([
      expect.objectContaining({ label: 'brokerage', amount: 10 * M, entityId: 'brokerage', fraction: 1 }),
      expect.objectContaining({ label: 'Half of home (joint)', amount: 1 * M, entityId: 'home', joint: true }),
    ])
    expect(first!.transfers.map((t) => [t.toId, t.toKind, t.how, t.amount, t.deduction, t.inSurvivorsEstate])).toEqual([
      ['linda', 'spouse', 'survivorship', 1 * M, 'marital', true],
      ['linda', 'spouse', 'default', 10 * M, 'marital', true],
    ])
    const [shelter] = projectCase('a credit-shelter trust at the first death').deaths
    expect(shelter!.transfers.map((t) => [t.toId, t.toKind, t.how, t.dispositionIndex, t.inSurvivorsEstate])).toEqual([
      ['bypass', 'trust', 'disposition', 0, false],
      ['linda', 'spouse', 'default', undefined, true],
    ])
    const [flp] = projectCase('an FLP 98 % owned by SLATs').deaths
    expect(flp!.grossEstate.lines[0]).toEqual(
      expect.objectContaining({ label: '2 % of Smith FLP', amount: 200_000, fraction: 0.02 }),
    )
    expect(projectCase('an FLP 98 % owned by SLATs').today.outside).toBe(9_800_000)
    expect(projectCase('an ILIT outside both estates').outsideEstate).toEqual([
      expect.objectContaining({ entityId: 'policy', amount: 5 * M }),
    ])
  })

  it('the survivor receives the DSUE from the first death, and whose it is', () => {
    const projection = projectCase('a couple, everything to the survivor, portability elected')
    expect(projection.deaths[1]!.dsue).toEqual({ amount: 15 * M, fromId: 'robert', fromName: 'Robert' })
    expect(projection.assumptions).toMatchObject({ order: ['robert', 'linda'], years: [2026, 2026], married: true })
  })

  it('only the last deceased spouse’s DSUE counts: Robert’s replaces the one Linda received before', () => {
    // Linda received 5,000,000 from an earlier husband; Robert's DSUE, 15,000,000, replaces it:
    // her exclusion is 15,000,000 + 15,000,000, not + 20,000,000.
    const projection = project({
      ...COUPLE_ESTATE,
      people: COUPLE.map((p) => (p.id === 'linda' ? { ...p, dsueReceived: { amount: 5 * M } } : p)),
    })
    expect(projection.deaths[1]!.dsue.amount).toBe(15 * M)
    expect(projection.deaths[1]!.applicableExclusion).toBe(30 * M)
    expect(projection.warnings.map((w) => w.code)).toContain('priorDsueReplaced')
  })

  it('a DSUE received without the election is not counted, and the view is told', () => {
    // As "a DSUE already received" but not elected: credit 5,945,800; tax 7,145,800 − 5,945,800 = 1,200,000.
    const widowed = caseNamed('a DSUE already received').payload
    const projection = project({
      ...widowed,
      people: widowed.people.map((p) =>
        p.id === 'ana' ? { ...p, dsueReceived: { amount: 5 * M, from: 'tom', portabilityElected: false } } : p,
      ),
    })
    expect(projection.deaths[0]!.estateTax).toBe(1_200_000)
    expect(projection.warnings.map((w) => w.code)).toContain('dsueNotElected')
  })

  it('warns of a non-citizen spouse, an assumed citizenship and an assumed portability', () => {
    expect(projectCase('a non-citizen spouse').warnings.map((w) => w.code)).toContain('nonCitizenSpouse')
    const assumed = project({ ...COUPLE_ESTATE, people: COUPLE.map((p) => ({ id: p.id, name: p.name, role: p.role })) })
    expect(assumed.warnings.map((w) => w.code)).toContain('citizenshipAssumed')
    expect(assumed.assumptions.portabilityStated).toBe(false)
  })

  it('the share of a child who died before goes to that child’s children', () => {
    // Ana 9,000,000 to her children by branch: Ben, and Cleo's two children (Cleo died): Ben 4,500,000,
    // Dot and Eve 2,250,000 each.
    const projection = project({
      household: { name: 'Branches' },
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

  it('a year in the payload wins over "this year", and a choice over the payload', () => {
    const payload = { ...COUPLE_ESTATE, assumptions: { firstDeathYear: 2028 } }
    expect(project(payload).assumptions.years).toEqual([2028, 2028])
    expect(project(payload, { firstDeathYear: 2030, secondDeathYear: 2035 }).assumptions.years).toEqual([2030, 2035])
    expect(project({ ...COUPLE_ESTATE, household: { name: 'x', asOf: '2027-03-01' } }).assumptions.years).toEqual([
      2027, 2027,
    ])
  })
})

describe('properties', () => {
  const amount = fc.integer({ min: 0, max: 5_000_000_00 }).map((c) => c / 100)
  const recipient = fc.constantFrom('linda', 'robert', 'chris', 'dana', 'eve', 'bypass', 'charity', 'qtip', 'lrt')
  const decedent = fc.constantFrom('robert', 'linda')
  const disposition = fc.oneof(
    fc.record({ at: decedent, to: recipient, amount }),
    fc.record({ at: decedent, to: recipient, share: fc.integer({ min: 1, max: 40 }) }),
    fc.record({ at: decedent, to: recipient, formula: fc.constant('unusedExclusion' as const) }),
    fc.record({
      at: decedent,
      from: fc.constantFrom('rlt', 'asset-0', 'llc'),
      to: recipient,
      share: fc.integer({ min: 1, max: 40 }),
    }),
  )
  const household = fc
    .record({
      values: fc.array(amount, { minLength: 1, maxLength: 6 }),
      owners: fc.array(fc.constantFrom('robert', 'linda', 'both', 'uneven', 'slat', 'rlt', 'none'), {
        minLength: 6,
        maxLength: 6,
      }),
      trustAndLlc: fc.tuple(amount, amount),
      dispositions: fc.array(disposition, { maxLength: 5 }),
      elected: fc.boolean(),
      gifts: fc.option(
        fc.tuple(
          fc.integer({ min: 0, max: 30_000_000 }),
          fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        ),
        { nil: undefined },
      ),
      lindaFirst: fc.boolean(),
      couple: fc.constantFrom('spouse', 'partner'),
      years: fc.tuple(fc.integer({ min: 2025, max: 2040 }), fc.integer({ min: 0, max: 20 })),
      citizen: fc.boolean(),
    })
    .map((drawn): Payload => {
      const entities: Entity[] = [
        entity('slat', 'slat'),
        entity('charity', 'publicCharity'),
        entity('bypass', 'creditShelterTrust'),
        entity('qtip', 'qtip'),
        entity('lrt', 'revocableTrust'),
        entity('rlt', 'revocableTrust', drawn.trustAndLlc[0]),
        entity('llc', 'llc', drawn.trustAndLlc[1]),
      ]
      // Robert's revocable trust owns the LLC; Linda is grantor of her own (empty) one.
      const links: Link[] = [
        { from: 'robert', to: 'rlt', type: 'grantor' },
        { from: 'linda', to: 'lrt', type: 'grantor' },
        owns('rlt', 'llc'),
      ]
      drawn.values.forEach((value, i) => {
        entities.push(entity(`asset-${i}`, 'taxableAccount', value))
        const who = drawn.owners[i]!
        if (who === 'both') links.push(owns('robert', `asset-${i}`), owns('linda', `asset-${i}`))
        else if (who === 'uneven') links.push(owns('robert', `asset-${i}`, 70), owns('linda', `asset-${i}`, 30))
        else if (who !== 'none') links.push(owns(who, `asset-${i}`))
      })
      // Shares of one decedent's one source stay within 100 (the payload rules' limit): 5 × 40 may not.
      const shareSums = new Map<string, number>()
      const dispositions = drawn.dispositions.filter((d) => {
        // A disposition never goes to its own decedent (the sources, rlt, llc and asset-0, are no recipients).
        if (d.to === d.at) return false
        if (!('share' in d)) return true
        const key = `${d.at} ${'from' in d ? d.from : ''}`
        const sum = (shareSums.get(key) ?? 0) + d.share
        shareSums.set(key, sum)
        return sum <= 100
      })
      const [taxableGifts, usedPercent] = drawn.gifts ?? [0, undefined]
      return {
        household: { name: 'Random' },
        people: [
          ...COUPLE.map((p) => (p.id === 'linda' ? { ...p, usCitizen: drawn.citizen } : p)),
          // Eve, a child who died, leaving no one: her share goes to the others.
          person('eve', 'child', { deathDate: '2020-01-01' }),
        ],
        relationships: [
          { from: 'robert', to: 'linda', type: drawn.couple },
          ...COUPLE_RELATIONSHIPS.slice(1),
          parent('robert', 'eve'),
        ],
        entities,
        links,
        dispositions,
        ...(drawn.gifts === undefined
          ? {}
          : {
              gifts: [
                {
                  donor: 'robert',
                  taxableGifts,
                  ...(usedPercent === undefined
                    ? {}
                    : { exclusionUsed: Math.floor((taxableGifts * usedPercent) / 100) }),
                },
              ],
            }),
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
          // The tax is at most 40 % of what passes without a deduction (settle-death.ts), so it never
          // takes from the marital or charitable shares.
          const undeducted = sumCents(death.transfers.filter((t) => t.deduction === null).map((t) => t.amount))
          expect(inCents(death.estateTax)).toBeLessThanOrEqual(Math.ceil(undeducted * 0.4) + 1)
          expect(death.transfers.filter((t) => t.deduction !== null).every((t) => t.taxBorne === 0)).toBe(true)
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

describe('what it cannot place', () => {
  it('names in the household’s currency what is in the estate but owned by no client, and leaves it out', () => {
    // The LLC (1,000,000) is in the estate by kind but has no owner or grantor: in neither gross estate.
    const projection = project({
      ...COUPLE_ESTATE,
      entities: [...(COUPLE_ESTATE.entities ?? []), entity('llc', 'llc', 1 * M)],
    })
    expect(projection.today.unassigned).toBe(1 * M)
    expect(projection.warnings).toContainEqual({
      code: 'unassignedValue',
      message:
        '$1,000,000 is in the estate but owned by no client (no owner or grantor link): left out of both deaths.',
    })
    expect(projection.deaths.map((death) => death.grossEstate.total)).toEqual([11 * M, 16 * M])
  })
})

describe('what it says of the payload', () => {
  const codes = (projection: EstateProjection) => projection.warnings.map((warning) => warning.code)

  it('says when no client is living, and when a deceased client still holds something', () => {
    const projection = project({
      household: { name: 'Estate' },
      people: [person('ana', 'primaryClient', { deathDate: '2024-01-01' }), person('ben', 'child')],
      entities: [entity('account', 'taxableAccount', 1 * M)],
      links: [owns('ana', 'account')],
    })
    expect(projection.deaths).toEqual([])
    expect(codes(projection)).toEqual(['deceasedClientHolds', 'noLivingClient'])
  })

  it('says when the clients are not married, and when the first death names no living client', () => {
    const partners = caseNamed('partners: no marital deduction, and the default goes to the descendants')
    expect(codes(project(partners.payload))).toContain('notMarried')
    const projection = project({ ...COUPLE_ESTATE, assumptions: { firstDeath: 'linda' } }, { firstDeath: 'chris' })
    expect(codes(projection)).toContain('firstDeathNotLiving')
    expect(projection.assumptions.order).toEqual(['robert', 'linda'])
  })

  it('says what it assumed: portability of a DSUE received, gifts of unknown amount, the exclusion gifts used', () => {
    const widowed = caseNamed('a DSUE already received').payload
    const assumedElected = project({
      ...widowed,
      people: widowed.people.map((p) => (p.id === 'ana' ? { ...p, dsueReceived: { amount: 5 * M, from: 'tom' } } : p)),
    })
    expect(codes(assumedElected)).toContain('portabilityAssumed')
    expect(assumedElected.deaths[0]!.dsue.amount).toBe(5 * M)
    const unknown = project({ ...caseNamed('a single person under the exclusion').payload, gifts: [{ donor: 'ana' }] })
    expect(codes(unknown)).toContain('giftsAmountUnknown')
    expect(unknown.deaths[0]!.adjustedTaxableGifts).toBe(0)
    expect(codes(projectCase('gifts above the exclusion, the exclusion used not stated'))).toContain(
      'giftExclusionAssumed',
    )
  })

  it('says when a disposition gets nothing, lapses, or a year or an exclusion assumed is not used', () => {
    const nothingLeft = project({
      ...caseNamed('a charitable bequest').payload,
      dispositions: [
        { at: 'ana', to: 'ben', amount: 30 * M },
        { at: 'ana', to: 'foundation', amount: 1 * M },
      ],
    })
    expect(nothingLeft.warnings).toContainEqual({
      code: 'dispositionNotApplied',
      message:
        "Disposition 2 receives nothing at Ana's death: nothing was left for it (or its entity is not in the estate).",
    })
    expect(codes(projectCase('mirror wills: a bequest to the spouse who died first lapses'))).toContain('bequestLapsed')
    const oldAsOf = project({ ...COUPLE_ESTATE, household: { name: 'x', asOf: '2019-06-30' } })
    expect(oldAsOf.assumptions.years).toEqual([2025, 2025])
    expect(codes(oldAsOf)).toContain('yearAdjusted')
    expect(project(COUPLE_ESTATE, { firstDeathYear: Number.NaN }).assumptions.years).toEqual([2026, 2026])
    expect(codes(project({ ...COUPLE_ESTATE, assumptions: { basicExclusion: 7 * M } }))).toContain(
      'basicExclusionNotUsed',
    )
  })

  it('says when the values are too large to be exact to the cent', () => {
    const huge = project({
      ...caseNamed('a single person under the exclusion').payload,
      entities: Array.from({ length: 10 }, (_, i) => entity(`a${i}`, 'taxableAccount', 1e13)),
      links: Array.from({ length: 10 }, (_, i) => owns('ana', `a${i}`)),
    })
    expect(codes(huge)).toContain('amountsTooLarge')
  })

  it('step and foster children take nothing by default; a QTIP trust is deducted and taxed at the second death', () => {
    // Ana's 4,000,000 to her children by default: Ben (biological) only, not her stepson or foster child.
    const projection = project({
      household: { name: 'Kinds' },
      people: [person('ana', 'primaryClient'), person('ben', 'child'), person('sam', 'child'), person('fay', 'child')],
      relationships: [
        parent('ana', 'ben'),
        { from: 'ana', to: 'sam', type: 'parent', parentKind: 'step' },
        { from: 'ana', to: 'fay', type: 'parent', parentKind: 'foster' },
      ],
      entities: [entity('account', 'taxableAccount', 4 * M)],
      links: [owns('ana', 'account')],
    })
    expect(projection.recipients.map((r) => [r.id, r.amount])).toEqual([['ben', 4 * M]])
    // Robert's 20,000,000 to a QTIP trust: marital 20,000,000; at Linda's death the trust's 20,000,000
    // is in her estate with her own 10,000,000: 30,000,000, credit with Robert's DSUE on 30,000,000, tax 0.
    const qtip = project(twoAccountsWith([entity('qtip', 'qtip')], [{ at: 'robert', to: 'qtip', share: 100 }]))
    expect(qtip.deaths[0]!.maritalDeduction.total).toBe(20 * M)
    expect(qtip.deaths[1]!.grossEstate.total).toBe(30 * M)
    expect(qtip.deaths[1]!.grossEstate.lines.at(-1)!.label).toBe("qtip (QTIP, funded at Robert's death)")
    expect(qtip.deaths[1]!.estateTax).toBe(0)
    // What went to Linda's own revocable trust is hers, and says so (not "QTIP").
    const ownTrust = projectCase("a bequest to the surviving spouse's revocable trust is the spouse's")
    expect(ownTrust.deaths[1]!.grossEstate.lines.at(-1)!.label).toBe("lrt (Linda's, funded at Robert's death)")
  })
})

function twoAccountsWith(entities: Entity[], dispositions: Disposition[]): Payload {
  return {
    household: { name: 'Two accounts' },
    people: COUPLE,
    relationships: COUPLE_RELATIONSHIPS,
    entities: [
      entity('r-account', 'taxableAccount', 20 * M),
      entity('l-account', 'taxableAccount', 10 * M),
      ...entities,
    ],
    links: [owns('robert', 'r-account'), owns('linda', 'l-account')],
    dispositions,
  }
}
