// What the Flow view's figures say when focused or hovered (chart/src/views/flow-explain.ts), and its
// assumptions line (flow-assumptions.ts), as exact strings on projections of small households. Every
// amount in them is worked out by hand in the comment beside it (DESIGN §5: T(x) above $1,000,000 is
// 345,800 + 40 % × (x − 1,000,000); basic exclusion 2026 $15,000,000, later years the last known).
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import { FEDERAL_ESTATE_TAX, type EstateTaxTable } from '../../chart/src/flow/federal-estate-tax.ts'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import type { EstateProjection, ProjectionDeath } from '../../chart/src/flow/projection-types.ts'
import { amountFormatter } from '../../chart/src/views/amount-format.ts'
import { assumptionsLine, portabilityWords } from '../../chart/src/views/flow-assumptions.ts'
import {
  explainApplicable,
  explainApplicableCredit,
  explainBasicExclusion,
  explainCharitable,
  explainDsue,
  explainDsuePassed,
  explainEstateTax,
  explainGiftTax,
  explainGifts,
  explainGross,
  explainGrossLine,
  explainMarital,
  explainOutsideLine,
  explainRecipient,
  explainTaxable,
  explainTentativeTax,
  explainToday,
  explainTransfer,
  transferWords,
} from '../../chart/src/views/flow-explain.ts'
import { flowColumns } from '../../chart/src/views/flow-statement.ts'

const M = 1_000_000
const usd = amountFormatter('USD')
const TODAY = new Date('2026-11-24T12:00:00Z')

const people: Payload['people'] = [
  { id: 'robert', name: 'Robert', role: 'primaryClient' },
  { id: 'linda', name: 'Linda', role: 'coClient', usCitizen: true },
  { id: 'chris', name: 'Chris', role: 'child' },
]
const relationships: Payload['relationships'] = [
  { from: 'robert', to: 'linda', type: 'spouse' },
  { from: 'robert', to: 'chris', type: 'parent' },
  { from: 'linda', to: 'chris', type: 'parent' },
]

/**
 * Robert holds a revocable trust (3,800,000) and 2 % of an FLP worth 20,000,000 whose other 98 % a
 * SLAT holds (outside the estate); the home (2,000,000) is joint. His unused exclusion funds a
 * bypass trust. Linda leaves 1,000,000 to the foundation and made 20,000,000 of taxable gifts, of
 * which 15,000,000 used her exclusion.
 */
const lookThrough: Payload = {
  household: { name: 'Case', currency: 'USD', asOf: '2026-11-01' },
  people,
  relationships,
  entities: [
    { id: 'rlt', name: 'Revocable trust', kind: 'revocableTrust', value: 3_800_000 },
    { id: 'flp', name: 'the FLP', kind: 'flp', value: 20 * M },
    { id: 'slat', name: 'SLAT', kind: 'slat' },
    { id: 'home', name: 'Home', kind: 'realEstate', value: 2 * M },
    { id: 'bypass', name: 'Bypass Trust', kind: 'creditShelterTrust' },
    { id: 'fdn', name: 'Case Foundation', kind: 'foundation' },
  ],
  links: [
    { from: 'robert', to: 'rlt', type: 'owner' },
    { from: 'robert', to: 'flp', type: 'owner', share: 2 },
    { from: 'slat', to: 'flp', type: 'owner', share: 98 },
    { from: 'robert', to: 'home', type: 'owner' },
    { from: 'linda', to: 'home', type: 'owner' },
  ],
  dispositions: [
    { at: 'robert', to: 'bypass', formula: 'unusedExclusion' },
    { at: 'linda', to: 'fdn', amount: 1 * M },
  ],
  gifts: [{ donor: 'linda', taxableGifts: 20 * M, exclusionUsed: 15 * M }],
}

/** Robert 20,000,000 and Linda 10,000,000 in accounts, all to the survivor, portability not elected. */
const taxed: Payload = {
  household: { name: 'Case', currency: 'USD', asOf: '2026-11-01' },
  people,
  relationships,
  entities: [
    { id: 'r-account', name: 'Robert account', kind: 'taxableAccount', value: 20 * M },
    { id: 'l-account', name: 'Linda account', kind: 'taxableAccount', value: 10 * M },
  ],
  links: [
    { from: 'robert', to: 'r-account', type: 'owner' },
    { from: 'linda', to: 'l-account', type: 'owner' },
  ],
  assumptions: { portabilityElected: false },
}

const project = (payload: Payload, choices = {}) => projectEstate(payload, { today: TODAY, ...choices })
const deathsOf = (projection: EstateProjection) => projection.deaths as [ProjectionDeath, ProjectionDeath]

describe('what a death’s figures say', () => {
  // Robert (2026): gross = 3,800,000 + 2 % × 20,000,000 (400,000) + half the home 1,000,000 = 5,200,000.
  // The home's half passes to Linda by survivorship (marital 1,000,000); the bypass trust takes the
  // rest, 4,200,000 (the exclusion left, 15,000,000, is more). Taxable 4,200,000; T = 345,800 + 40 %
  // × 3,200,000 = 1,625,800; credit T(15,000,000) = 5,945,800; tax 0; DSUE = min(15,000,000,
  // 15,000,000 − 4,200,000) = 10,800,000.
  const projection = project(lookThrough)
  const [robert, linda] = deathsOf(projection)

  it('gross estate: each line, the FLP as its share of the FLP’s value', () => {
    expect(explainGross(robert, usd)).toBe(
      'Gross estate $5,200,000: Revocable trust $3,800,000 + 2 % of the FLP $400,000 + Half of Home (joint) $1,000,000',
    )
    const [trust, flp, home] = robert.grossEstate.lines
    expect(explainGrossLine(trust!, robert, usd)).toBe('Revocable trust $3,800,000: held by Robert')
    expect(explainGrossLine(flp!, robert, usd)).toBe(
      '2 % of the FLP $400,000: 2 % of its value $20,000,000, by look-through',
    )
    expect(explainGrossLine(home!, robert, usd)).toBe(
      "Half of Home (joint) $1,000,000: half of what both clients hold jointly, in Robert's estate",
    )
    // Linda (2026): her half of the home 1,000,000 + Robert's half received 1,000,000 = 2,000,000.
    expect(explainGross(linda, usd)).toBe(
      'Gross estate $2,000,000: Half of Home (joint) $1,000,000 + From Robert by survivorship: Home $1,000,000',
    )
    expect(explainGrossLine(linda.grossEstate.lines[1]!, linda, usd)).toBe(
      'From Robert by survivorship: Home $1,000,000: received at the first death, counted again in this estate',
    )
  })

  it('deductions: what qualifies, or why nothing does', () => {
    expect(explainMarital(robert, usd)).toBe('Marital deduction $1,000,000: Linda, by survivorship $1,000,000')
    expect(explainCharitable(robert, usd)).toBe('No charitable deduction: nothing passes to charity')
    expect(explainMarital(linda, usd)).toBe('No marital deduction: no spouse survives')
    expect(explainCharitable(linda, usd)).toBe(
      'Charitable deduction $1,000,000: Case Foundation, to charity $1,000,000',
    )
    // Taxable = 5,200,000 − 1,000,000 − 0; Linda: 2,000,000 − 0 − 1,000,000.
    expect(explainTaxable(robert, usd)).toBe(
      'Taxable estate $4,200,000: gross estate $5,200,000 − marital deduction $1,000,000 − charitable deduction $0',
    )
    expect(explainTaxable(linda, usd)).toBe(
      'Taxable estate $1,000,000: gross estate $2,000,000 − marital deduction $0 − charitable deduction $1,000,000',
    )
  })

  it('gifts, exclusion, DSUE and the tax', () => {
    expect(explainGifts(robert, usd)).toBe('No adjusted taxable gifts: the chart records none by Robert')
    // Linda's base = 1,000,000 + 20,000,000 = 21,000,000.
    expect(explainGifts(linda, usd)).toBe(
      "Adjusted taxable gifts $20,000,000: Linda's lifetime taxable gifts, added to the taxable estate (the tax is on $21,000,000)",
    )
    expect(explainBasicExclusion(robert, usd)).toBe(
      'Basic exclusion $15,000,000 for 2026: the amount of that year (P.L. 119-21 (IRC §2010(c)(3)), Rev. Proc. 2025-32)',
    )
    expect(explainDsue(robert, projection, usd)).toBe('No DSUE: Robert received none from a late spouse')
    expect(explainDsue(linda, projection, usd)).toBe(
      'DSUE $10,800,000: the exclusion Robert did not use, passed by the portability election',
    )
    expect(explainApplicable(linda, usd)).toBe(
      'Applicable exclusion $25,800,000: basic exclusion $15,000,000 + DSUE $10,800,000',
    )
    expect(explainEstateTax(robert, usd)).toBe(
      'No estate tax: the tax base $4,200,000 is within the applicable exclusion $15,000,000 (tentative tax $1,625,800 on $4,200,000 − credit $5,945,800)',
    )
    // Linda: T(21,000,000) = 8,345,800; gift tax paid T(20,000,000) − T(15,000,000) = 2,000,000; credit
    // T(25,800,000) = 10,265,800; 8,345,800 − 2,000,000 − 10,265,800 < 0: no tax.
    expect(explainEstateTax(linda, usd)).toBe(
      'No estate tax: the tax base $21,000,000 is within the applicable exclusion $25,800,000 (tentative tax $8,345,800 on $21,000,000 − gift tax paid $2,000,000 − credit $10,265,800)',
    )
    expect(explainDsuePassed(robert, projection, usd)).toBe(
      "DSUE passed to Linda $10,800,000: the exclusion Robert's estate did not use (applicable exclusion $15,000,000 − tax base $4,200,000), at most the basic exclusion $15,000,000",
    )
  })

  it('the tax worked out: tentative tax, gift tax payable, applicable credit', () => {
    // Robert: T(4,200,000) = 345,800 + 40 % × 3,200,000 = 1,625,800; credit T(15,000,000) = 345,800 +
    // 40 % × 14,000,000 = 5,945,800.
    expect(explainTentativeTax(robert, usd)).toBe(
      'Tentative tax $1,625,800: the tax on the tax base $4,200,000 (taxable estate $4,200,000 + adjusted taxable gifts $0) by IRC §2001(c), $345,800 + 40 % of the $3,200,000 over $1,000,000',
    )
    expect(explainApplicableCredit(robert, usd)).toBe(
      'Applicable credit $5,945,800: the tax on the applicable exclusion $15,000,000 by IRC §2001(c), $345,800 + 40 % of the $14,000,000 over $1,000,000; it comes off the tentative tax',
    )
    // Linda: T(21,000,000) = 345,800 + 40 % × 20,000,000 = 8,345,800; gift tax 2,000,000 (see above);
    // credit T(25,800,000) = 345,800 + 40 % × 24,800,000 = 10,265,800.
    expect(explainTentativeTax(linda, usd)).toBe(
      'Tentative tax $8,345,800: the tax on the tax base $21,000,000 (taxable estate $1,000,000 + adjusted taxable gifts $20,000,000) by IRC §2001(c), $345,800 + 40 % of the $20,000,000 over $1,000,000',
    )
    expect(explainGiftTax(linda, usd)).toBe(
      "Gift tax payable $2,000,000: the gift tax on Linda's lifetime gifts beyond what the exclusion covered, subtracted so the gifts in the tax base are not taxed twice",
    )
    expect(explainApplicableCredit(linda, usd)).toBe(
      'Applicable credit $10,265,800: the tax on the applicable exclusion $25,800,000 by IRC §2001(c), $345,800 + 40 % of the $24,800,000 over $1,000,000; it comes off the tentative tax',
    )
  })

  it('each death’s statement reads the tax down the column: tentative − gift tax (when paid) − credit = tax', () => {
    const columns = flowColumns(projection, { primaryClient: 'Robert', coClient: 'Linda' }, usd)
    const tail = (column: number) => {
      const rows = columns[column]!.rows
      const from = rows.findIndex((row) => row.key === 'applicableExclusion')
      return rows
        .slice(from, rows.findIndex((row) => row.key === 'estateTax') + 1)
        .map((row) => [row.key, row.label, row.sign ?? '', row.amount])
    }
    expect(tail(1)).toEqual([
      ['applicableExclusion', 'Applicable exclusion', '', 15 * M],
      ['tentativeTax', 'Tentative tax', '', 1_625_800],
      ['applicableCredit', 'Applicable credit', '−', 5_945_800],
      ['estateTax', 'Estate tax', '=', 0],
    ])
    expect(tail(2)).toEqual([
      ['applicableExclusion', 'Applicable exclusion', '', 25_800_000],
      ['tentativeTax', 'Tentative tax', '', 8_345_800],
      ['giftTax', 'Gift tax payable', '−', 2 * M],
      ['applicableCredit', 'Applicable credit', '−', 10_265_800],
      ['estateTax', 'Estate tax', '=', 0],
    ])
    const row = (column: number, key: string) => columns[column]!.rows.find((each) => each.key === key)!
    expect(row(2, 'tentativeTax')).toMatchObject({
      note: 'on $21,000,000',
      explanation: explainTentativeTax(linda, usd),
    })
    expect(row(2, 'giftTax').explanation).toBe(explainGiftTax(linda, usd))
    expect(row(2, 'applicableCredit')).toMatchObject({
      note: 'the tax on $25,800,000',
      explanation: explainApplicableCredit(linda, usd),
    })
    expect(row(2, 'estateTax').note).toBe('never below zero')
  })

  it('transfers, recipients, Today and what is outside', () => {
    const [home, bypass] = robert.transfers
    expect(transferWords(home!)).toBe('Linda, by survivorship')
    expect(explainTransfer(home!, 'Linda', usd)).toBe(
      "Linda, by survivorship $1,000,000: by joint ownership; marital deduction; counted again in Linda's estate",
    )
    expect(explainTransfer(bypass!, 'Linda', usd)).toBe('Bypass Trust, in trust $4,200,000: by disposition 1')
    expect(explainTransfer(linda.transfers[1]!, undefined, usd)).toBe(
      'Chris, outright $1,000,000: by the default (no disposition says otherwise)',
    )
    const trust = projection.recipients.find((recipient) => recipient.id === 'bypass')!
    expect(explainRecipient(trust, usd)).toBe("Bypass Trust $4,200,000: at Robert's death $4,200,000")
    expect(explainToday('today-primaryClient', "Robert's estate", projection, usd, 'Robert')).toBe(
      "Robert's estate $4,200,000: what Robert holds alone today, by look-through (half of what is joint comes on top at death)",
    )
    expect(explainToday('today-joint', 'Joint', projection, usd)).toBe(
      'Joint $2,000,000: held by both clients; half is in each estate',
    )
    // The SLAT's 98 % of the FLP: 19,600,000.
    expect(explainToday('today-outside', 'Outside the estate', projection, usd)).toBe(
      'Outside the estate $19,600,000: 98 % of the FLP $19,600,000',
    )
    expect(explainOutsideLine(projection.outsideEstate[0]!, usd)).toBe(
      '98 % of the FLP $19,600,000: outside both estates, it passes under its own terms',
    )
  })

  it('every row of the columns carries its explanation', () => {
    const columns = flowColumns(projection, { primaryClient: 'Robert', coClient: 'Linda' }, usd)
    const explained = (key: string, column: number) =>
      [...columns[column]!.rows, ...(columns[column]!.more?.rows ?? [])].find((row) => row.key === key)?.explanation
    expect(explained('gross', 1)).toBe(explainGross(robert, usd))
    expect(explained('estateTax', 2)).toBe(explainEstateTax(linda, usd))
    expect(explained('transfer', 1)).toBe(explainTransfer(home(robert), 'Linda', usd))
    for (const column of columns)
      for (const row of [...column.rows, ...(column.more?.rows ?? [])]) expect(row.explanation).not.toBe('')
  })
})

const home = (death: ProjectionDeath) => death.transfers[0]!

describe('the tax, DSUE and exclusion in other cases', () => {
  it('a tax at the top rate says 40 % of what passes the exclusion, with the arithmetic', () => {
    // Robert (2026): 20,000,000 all to Linda, marital, tax 0; portability not elected: no DSUE.
    // Linda: 10,000,000 + 20,000,000 = 30,000,000; T = 345,800 + 40 % × 29,000,000 = 11,945,800;
    // credit 5,945,800; tax 6,000,000 = 40 % of the 15,000,000 over the exclusion.
    const projection = project(taxed)
    const [robert, linda] = deathsOf(projection)
    expect(explainEstateTax(linda, usd)).toBe(
      'Estate tax $6,000,000: 40 % of the $15,000,000 by which the tax base passes the applicable exclusion (tentative tax $11,945,800 on $30,000,000 − credit $5,945,800)',
    )
    expect(explainDsuePassed(robert, projection, usd)).toBe('No DSUE passed to Linda: portability is not elected')
    expect(explainDsue(linda, projection, usd)).toBe("No DSUE: portability is not elected at Robert's death")
    expect(portabilityWords(projection)).toBe('not elected')
    // The tax on a taxed estate: T(30,000,000) − credit = tax, with no note that it stops at zero.
    const columns = flowColumns(projection, { primaryClient: 'Robert', coClient: 'Linda' }, usd)
    expect(columns[2]!.rows.find((row) => row.key === 'estateTax')).toMatchObject({ amount: 6 * M, sign: '=' })
    expect(columns[2]!.rows.find((row) => row.key === 'estateTax')!.note).toBeUndefined()
  })

  it('names the rate and the threshold the tax table says, not words of its own', () => {
    const [, linda] = deathsOf(project(taxed))
    const top = FEDERAL_ESTATE_TAX.brackets.at(-1)!
    expect([top.rate, top.over]).toEqual([0.4, 100_000_000]) // 40 % over $1,000,000, in cents
    // Another schedule whose top bracket is 45 % over $500,000 (the lower brackets as they are).
    const other: EstateTaxTable = {
      ...FEDERAL_ESTATE_TAX,
      bracketsSource: 'a test schedule',
      brackets: [
        ...FEDERAL_ESTATE_TAX.brackets.filter((each) => each.over < 50_000_000),
        { ...top, over: 50_000_000, rate: 0.45 },
      ],
    }
    expect(explainEstateTax(linda, usd, other)).toMatch(
      /^Estate tax \$6,000,000: 45 % of the \$15,000,000 by which the tax base passes the applicable exclusion /,
    )
    expect(explainTentativeTax(linda, usd, other)).toMatch(
      /by a test schedule, \$345,800 \+ 45 % of the \$29,500,000 over \$500,000$/,
    )
    // A schedule whose top rate starts above the applicable exclusion: no single rate says the tax.
    const higher: EstateTaxTable = {
      ...FEDERAL_ESTATE_TAX,
      brackets: [...FEDERAL_ESTATE_TAX.brackets, { over: 2_000_000_000, base: 0, rate: 0.5 }],
    }
    expect(explainEstateTax(linda, usd, higher)).toBe(
      'Estate tax $6,000,000: tentative tax $11,945,800 on $30,000,000 − credit $5,945,800',
    )
  })

  it('a later year uses the last known exclusion, or the one assumed', () => {
    const [later] = deathsOf(project(taxed, { firstDeathYear: 2030 }))
    expect(explainBasicExclusion(later, usd)).toBe(
      "Basic exclusion $15,000,000 for 2030: no amount is known for 2030, so the last known one, 2026's (P.L. 119-21 (IRC §2010(c)(3)), Rev. Proc. 2025-32), is used",
    )
    const assumed = project({ ...taxed, assumptions: { basicExclusion: 18 * M, firstDeathYear: 2030 } })
    expect(explainBasicExclusion(deathsOf(assumed)[0], usd)).toBe(
      "Basic exclusion $18,000,000 for 2030: an assumed amount, from the chart's assumptions",
    )
  })
})

describe('the assumptions line', () => {
  it('names the order, the years, each exclusion with its basis, and portability', () => {
    expect(assumptionsLine(project(taxed, { firstDeathYear: 2026, secondDeathYear: 2031 }), usd)).toBe(
      "Robert dies first, in 2026, then Linda, in 2031. Basic exclusion: $15,000,000 in 2026 (2026's amount); $15,000,000 in 2031 (the last known amount, 2026's). Portability: not elected.",
    )
    expect(assumptionsLine(project(lookThrough, { firstDeath: 'linda' }), usd)).toBe(
      "Linda dies first, in 2026, then Robert, in 2026. Basic exclusion: $15,000,000 in 2026 (2026's amount); $15,000,000 in 2026 (2026's amount). Portability: assumed elected (the chart does not say).",
    )
    const elected = project(
      { ...taxed, assumptions: { portabilityElected: true, basicExclusion: 18 * M } },
      {
        firstDeathYear: 2027,
      },
    )
    expect(assumptionsLine(elected, usd)).toBe(
      "Robert dies first, in 2027, then Linda, in 2027. Basic exclusion: $18,000,000 in 2027 (an assumed amount, from the chart's assumptions); $18,000,000 in 2027 (an assumed amount, from the chart's assumptions). Portability: elected.",
    )
  })

  it('for one client, and for none', () => {
    const single = project({
      household: { name: 'Solo', currency: 'USD', asOf: '2026-01-01' },
      people: [{ id: 'ana', name: 'Ana', role: 'primaryClient' }],
    })
    expect(assumptionsLine(single, usd)).toBe("Ana dies in 2026. Basic exclusion: $15,000,000 in 2026 (2026's amount).")
    const none = project({ household: { name: 'None' }, people: [{ id: 'x', name: 'X', role: 'child' }] })
    expect(assumptionsLine(none, usd)).toBe('No living client: no death is projected.')
  })
})
