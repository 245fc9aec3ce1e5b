// The worked cases of the estate projection (issue 16), each with its figures computed by hand from
// the rules in DESIGN §5, the arithmetic written beside them:
//   T(x), the tentative tax of IRC §2001(c); above $1,000,000 it is 345,800 + 40 % × (x − 1,000,000);
//   estate tax = max(0, T(taxable estate + adjusted taxable gifts) − gift tax payable − T(basic exclusion + DSUE));
//   basic exclusion 2025 $13,990,000, 2026 $15,000,000, later years the last known unless assumed;
//   DSUE = min(basic exclusion of the year, applicable exclusion − (taxable estate + ATG)), if elected.
// Both test/chart/estate-projection.test.ts (in Node) and test/browser/sdk-project-estate.test.ts
// (the released sdk.js's projectEstate in Chromium) hold projectEstate to them.
import { readFileSync } from 'node:fs'
import type { Disposition, Entity, Link, Payload, Person, Relationship } from '../../chart/payload.ts'

export const M = 1_000_000
/** "This year" for every case that names none: 2026. */
export const TODAY_ISO = '2026-11-24T12:00:00Z'

export const person = (id: string, role: Person['role'], extra: Partial<Person> = {}): Person => ({
  id,
  name: id[0]!.toUpperCase() + id.slice(1),
  role,
  ...extra,
})
export const entity = (id: string, kind: Entity['kind'], value?: number, extra: Partial<Entity> = {}): Entity => ({
  id,
  name: id,
  kind,
  ...(value === undefined ? {} : { value }),
  ...extra,
})
export const owns = (from: string, to: string, share?: number): Link => ({
  from,
  to,
  type: 'owner',
  ...(share === undefined ? {} : { share }),
})
export const parent = (from: string, to: string): Relationship => ({ from, to, type: 'parent' })

/** Robert and Linda, married, with two children. */
export const COUPLE: Person[] = [
  person('robert', 'primaryClient'),
  person('linda', 'coClient', { usCitizen: true }),
  person('chris', 'child'),
  person('dana', 'child'),
]
export const COUPLE_RELATIONSHIPS: Relationship[] = [
  { from: 'robert', to: 'linda', type: 'spouse' },
  parent('robert', 'chris'),
  parent('linda', 'chris'),
  parent('robert', 'dana'),
  parent('linda', 'dana'),
]
/** Ana, single, with one child. */
const SINGLE: Person[] = [person('ana', 'primaryClient'), person('ben', 'child')]
const SINGLE_FAMILY = { people: SINGLE, relationships: [parent('ana', 'ben')] }

const household = (facts: Omit<Payload, 'household'>): Payload => ({
  household: { name: 'Worked case', currency: 'USD' },
  ...facts,
})
const single = (value: number, extra: Partial<Payload> = {}): Payload =>
  household({
    ...SINGLE_FAMILY,
    entities: [entity('account', 'taxableAccount', value)],
    links: [owns('ana', 'account')],
    ...extra,
  })

/** The couple's brokerage (Robert), IRA (Linda) and home (both): 10M, 4M and 2M. */
export const COUPLE_ESTATE: Payload = household({
  people: COUPLE,
  relationships: COUPLE_RELATIONSHIPS,
  entities: [
    entity('brokerage', 'taxableAccount', 10 * M),
    entity('ira', 'retirementAccount', 4 * M),
    entity('home', 'realEstate', 2 * M),
  ],
  links: [owns('robert', 'brokerage'), owns('linda', 'ira'), owns('robert', 'home'), owns('linda', 'home')],
})

/** The figures of one death a case states. */
export interface ExpectedDeath {
  decedentId: string
  grossEstate: number
  maritalDeduction: number
  charitableDeduction: number
  taxableEstate: number
  adjustedTaxableGifts: number
  tentativeTax: number
  giftTaxPayable: number
  applicableExclusion: number
  applicableCredit: number
  estateTax: number
  dsuePassed: number
}

export interface WorkedCase {
  name: string
  payload: Payload
  choices?: { firstDeath?: string; firstDeathYear?: number; secondDeathYear?: number }
  deaths: ExpectedDeath[]
  /** What each recipient ends with (by id; `tax` for the federal estate tax). */
  recipients: Record<string, number>
}

const death = (decedentId: string, figures: Partial<ExpectedDeath>): ExpectedDeath => ({
  decedentId,
  grossEstate: 0,
  maritalDeduction: 0,
  charitableDeduction: 0,
  taxableEstate: 0,
  adjustedTaxableGifts: 0,
  tentativeTax: 0,
  giftTaxPayable: 0,
  applicableExclusion: 15 * M,
  applicableCredit: 5_945_800, // T(15,000,000) = 345,800 + 40 % × 14,000,000
  estateTax: 0,
  dsuePassed: 0,
  ...figures,
})

/** The README's couple, line by line there (and in the Flow view's picture, docs/chart-flow-*.png). */
const README_COUPLE = JSON.parse(
  readFileSync(new URL('../../docs/flow-example.json', import.meta.url), 'utf8'),
) as Payload

export const WORKED_CASES: WorkedCase[] = [
  {
    // As the README writes it out: Robert's brokerage 20,000,000; the bypass trust takes the exclusion
    // not yet used, 15,000,000; Linda the rest, 5,000,000 (marital). Taxable 15,000,000; T = 5,945,800 −
    // credit 5,945,800 = 0; no DSUE (not elected). Linda: 10,000,000 + 5,000,000 = 15,000,000, tax 0;
    // Chris and Dana 7,500,000 each.
    name: "the README's couple",
    payload: README_COUPLE,
    deaths: [
      death('robert', { grossEstate: 20 * M, maritalDeduction: 5 * M, taxableEstate: 15 * M, tentativeTax: 5_945_800 }),
      death('linda', { grossEstate: 15 * M, taxableEstate: 15 * M, tentativeTax: 5_945_800 }),
    ],
    recipients: { bypass: 15 * M, chris: 7_500_000, dana: 7_500_000 },
  },
  {
    // Gross 5,000,000; taxable 5,000,000; T = 345,800 + 40 % × 4,000,000 = 1,945,800; credit 5,945,800
    // (2026); tax max(0, 1,945,800 − 5,945,800) = 0. Ben takes 5,000,000.
    name: 'a single person under the exclusion',
    payload: single(5 * M),
    deaths: [death('ana', { grossEstate: 5 * M, taxableEstate: 5 * M, tentativeTax: 1_945_800 })],
    recipients: { ben: 5 * M },
  },
  {
    // Robert first (2026): gross = brokerage 10,000,000 + half the home 1,000,000 = 11,000,000, all to
    // Linda (the half home by survivorship): marital 11,000,000, taxable 0, tax 0; DSUE = min(15,000,000,
    // 15,000,000 − 0) = 15,000,000. Linda: IRA 4,000,000 + her half 1,000,000 + 11,000,000 received =
    // 16,000,000; T = 345,800 + 40 % × 15,000,000 = 6,345,800; exclusion 15,000,000 + 15,000,000 DSUE =
    // 30,000,000, credit 345,800 + 40 % × 29,000,000 = 11,945,800; tax 0. Chris and Dana 8,000,000 each.
    name: 'a couple, everything to the survivor, portability elected',
    payload: COUPLE_ESTATE,
    deaths: [
      death('robert', { grossEstate: 11 * M, maritalDeduction: 11 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 16 * M,
        taxableEstate: 16 * M,
        tentativeTax: 6_345_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 8 * M, dana: 8 * M },
  },
  {
    // As above without the election: no DSUE; Linda's credit 5,945,800; tax 6,345,800 − 5,945,800 =
    // 400,000 (40 % of the 1,000,000 over); each child (16,000,000 − 400,000) / 2 = 7,800,000.
    name: 'the same couple without the portability election',
    payload: { ...COUPLE_ESTATE, assumptions: { portabilityElected: false } },
    deaths: [
      death('robert', { grossEstate: 11 * M, maritalDeduction: 11 * M }),
      death('linda', { grossEstate: 16 * M, taxableEstate: 16 * M, tentativeTax: 6_345_800, estateTax: 400_000 }),
    ],
    recipients: { chris: 7_800_000, dana: 7_800_000, tax: 400_000 },
  },
  {
    // Linda first: IRA 4,000,000 + half the home 1,000,000 = 5,000,000, all to Robert; DSUE 15,000,000.
    // Robert: 10,000,000 + 1,000,000 + 5,000,000 = 16,000,000; tax 0 with the DSUE (as above).
    name: 'the same couple, Linda dying first',
    payload: COUPLE_ESTATE,
    choices: { firstDeath: 'linda' },
    deaths: [
      death('linda', { grossEstate: 5 * M, maritalDeduction: 5 * M, dsuePassed: 15 * M }),
      death('robert', {
        grossEstate: 16 * M,
        taxableEstate: 16 * M,
        tentativeTax: 6_345_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 8 * M, dana: 8 * M },
  },
  {
    // Robert 20,000,000, Linda 10,000,000, no election. At Robert's death the formula funds the trust
    // with the exclusion not yet used: 15,000,000 − 0 gifts − 0 other taxable = 15,000,000; the rest,
    // 5,000,000, to Linda (marital). Taxable 15,000,000, T 5,945,800, credit 5,945,800, tax 0; no DSUE
    // (not elected). Linda: 10,000,000 + 5,000,000 = 15,000,000, tax 0. The trust keeps 15,000,000;
    // the children 7,500,000 each. (Everything to Linda instead: her 30,000,000 would owe 6,000,000.)
    name: 'a credit-shelter trust at the first death',
    payload: household({
      people: COUPLE,
      relationships: COUPLE_RELATIONSHIPS,
      entities: [
        entity('r-account', 'taxableAccount', 20 * M),
        entity('l-account', 'taxableAccount', 10 * M),
        entity('bypass', 'creditShelterTrust'),
      ],
      links: [owns('robert', 'r-account'), owns('linda', 'l-account')],
      dispositions: [{ at: 'robert', to: 'bypass', formula: 'unusedExclusion' } satisfies Disposition],
      assumptions: { portabilityElected: false },
    }),
    deaths: [
      death('robert', {
        grossEstate: 20 * M,
        maritalDeduction: 5 * M,
        taxableEstate: 15 * M,
        tentativeTax: 5_945_800,
      }),
      death('linda', { grossEstate: 15 * M, taxableEstate: 15 * M, tentativeTax: 5_945_800 }),
    ],
    recipients: { bypass: 15 * M, chris: 7_500_000, dana: 7_500_000 },
  },
  {
    // The policy (5,000,000) is owned by the ILIT, out of the estate: in no gross estate. Robert's gross
    // is his account, 3,000,000, all to Linda (DSUE 15,000,000); Linda's 3,000,000: T = 345,800 + 40 % ×
    // 2,000,000 = 1,145,800; tax 0. The children take 1,500,000 each; the policy stays outside.
    name: 'an ILIT outside both estates',
    payload: household({
      people: COUPLE,
      relationships: COUPLE_RELATIONSHIPS,
      entities: [
        entity('account', 'taxableAccount', 3 * M),
        entity('ilit', 'ilit'),
        entity('policy', 'lifeInsurance', 5 * M),
      ],
      links: [owns('robert', 'account'), { from: 'robert', to: 'ilit', type: 'grantor' }, owns('ilit', 'policy')],
    }),
    deaths: [
      death('robert', { grossEstate: 3 * M, maritalDeduction: 3 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 3 * M,
        taxableEstate: 3 * M,
        tentativeTax: 1_145_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 1_500_000, dana: 1_500_000 },
  },
  {
    // FLP 10,000,000: SLAT A 49 %, SLAT B 49 %, Ana 2 %. The SLATs are out of the estate: Ana's gross =
    // 2 % × 10,000,000 = 200,000 + her account 1,000,000 = 1,200,000; T = 345,800 + 40 % × 200,000 =
    // 425,800; tax 0; 9,800,000 stays outside.
    name: 'an FLP 98 % owned by SLATs',
    payload: household({
      ...SINGLE_FAMILY,
      entities: [
        entity('flp', 'flp', 10 * M, { name: 'Smith FLP' }),
        entity('slat-a', 'slat'),
        entity('slat-b', 'slat'),
        entity('account', 'taxableAccount', 1 * M),
      ],
      links: [owns('slat-a', 'flp', 49), owns('slat-b', 'flp', 49), owns('ana', 'flp', 2), owns('ana', 'account')],
    }),
    deaths: [death('ana', { grossEstate: 1_200_000, taxableEstate: 1_200_000, tentativeTax: 425_800 })],
    recipients: { ben: 1_200_000 },
  },
  {
    // Ana 20,000,000; 2,000,000 to her foundation. Charitable 2,000,000; taxable 18,000,000; T = 345,800 +
    // 40 % × 17,000,000 = 7,145,800; credit 5,945,800; tax 1,200,000, borne by Ben's residue:
    // 18,000,000 − 1,200,000 = 16,800,000. 2,000,000 + 1,200,000 + 16,800,000 = 20,000,000.
    name: 'a charitable bequest',
    payload: household({
      ...SINGLE_FAMILY,
      entities: [entity('account', 'taxableAccount', 20 * M), entity('foundation', 'foundation')],
      links: [owns('ana', 'account')],
      dispositions: [{ at: 'ana', to: 'foundation', amount: 2 * M }],
    }),
    deaths: [
      death('ana', {
        grossEstate: 20 * M,
        charitableDeduction: 2 * M,
        taxableEstate: 18 * M,
        tentativeTax: 7_145_800,
        estateTax: 1_200_000,
      }),
    ],
    recipients: { foundation: 2 * M, ben: 16_800_000, tax: 1_200_000 },
  },
  {
    // Ana 10,000,000, lifetime taxable gifts 8,000,000 within the exclusion. Base 18,000,000; T =
    // 7,145,800; gift tax payable T(8,000,000) − T(8,000,000) = 0; credit 5,945,800; tax 1,200,000
    // (without the gifts, 0). Ben 8,800,000.
    name: 'adjusted taxable gifts using the exclusion',
    payload: single(10 * M, { gifts: [{ donor: 'ana', taxableGifts: 8 * M }] }),
    deaths: [
      death('ana', {
        grossEstate: 10 * M,
        taxableEstate: 10 * M,
        adjustedTaxableGifts: 8 * M,
        tentativeTax: 7_145_800,
        estateTax: 1_200_000,
      }),
    ],
    recipients: { ben: 8_800_000, tax: 1_200_000 },
  },
  {
    // Ana 10,000,000; gifts 20,000,000, of which 15,000,000 used the exclusion. Gift tax payable =
    // T(20,000,000) − T(15,000,000) = 7,945,800 − 5,945,800 = 2,000,000. Base 30,000,000, T = 345,800 +
    // 40 % × 29,000,000 = 11,945,800; tax 11,945,800 − 2,000,000 − 5,945,800 = 4,000,000. Ben 6,000,000.
    name: 'gift tax already paid is credited',
    payload: single(10 * M, { gifts: [{ donor: 'ana', taxableGifts: 20 * M, exclusionUsed: 15 * M }] }),
    deaths: [
      death('ana', {
        grossEstate: 10 * M,
        taxableEstate: 10 * M,
        adjustedTaxableGifts: 20 * M,
        tentativeTax: 11_945_800,
        giftTaxPayable: 2 * M,
        estateTax: 4 * M,
      }),
    ],
    recipients: { ben: 6 * M, tax: 4 * M },
  },
  {
    // Ana, widowed (Tom died 2020), received a DSUE of 5,000,000; gross 18,000,000. Exclusion 15,000,000 +
    // 5,000,000 = 20,000,000, credit 345,800 + 40 % × 19,000,000 = 7,945,800; T(18,000,000) = 7,145,800;
    // tax 0.
    name: 'a DSUE already received',
    payload: household({
      people: [
        person('ana', 'primaryClient', { dsueReceived: { amount: 5 * M, from: 'tom', portabilityElected: true } }),
        person('tom', 'spouse', { deathDate: '2020-05-01' }),
        person('ben', 'child'),
      ],
      relationships: [{ from: 'ana', to: 'tom', type: 'spouse' }, parent('ana', 'ben')],
      entities: [entity('account', 'taxableAccount', 18 * M)],
      links: [owns('ana', 'account')],
    }),
    deaths: [
      death('ana', {
        grossEstate: 18 * M,
        taxableEstate: 18 * M,
        tentativeTax: 7_145_800,
        applicableExclusion: 20 * M,
        applicableCredit: 7_945_800,
      }),
    ],
    recipients: { ben: 18 * M },
  },
  {
    // Ana 16,000,000 dying in 2030, after the last known year: the 2026 amount, 15,000,000;
    // T(16,000,000) = 6,345,800; tax 6,345,800 − 5,945,800 = 400,000.
    name: 'a death after the last known table year',
    payload: single(16 * M, { assumptions: { firstDeathYear: 2030 } }),
    deaths: [death('ana', { grossEstate: 16 * M, taxableEstate: 16 * M, tentativeTax: 6_345_800, estateTax: 400_000 })],
    recipients: { ben: 15_600_000, tax: 400_000 },
  },
  {
    // The same in 2030 assuming an exclusion of 7,000,000: credit 345,800 + 40 % × 6,000,000 = 2,745,800;
    // tax 6,345,800 − 2,745,800 = 3,600,000.
    name: 'a death after the last known year with the exclusion assumed',
    payload: single(16 * M, { assumptions: { firstDeathYear: 2030, basicExclusion: 7 * M } }),
    deaths: [
      death('ana', {
        grossEstate: 16 * M,
        taxableEstate: 16 * M,
        tentativeTax: 6_345_800,
        applicableExclusion: 7 * M,
        applicableCredit: 2_745_800,
        estateTax: 3_600_000,
      }),
    ],
    recipients: { ben: 12_400_000, tax: 3_600_000 },
  },
  {
    // In 2025 the exclusion is 13,990,000, credit T = 345,800 + 40 % × 12,990,000 = 5,541,800;
    // tax 6,345,800 − 5,541,800 = 804,000.
    name: 'a death in 2025',
    payload: single(16 * M, { assumptions: { firstDeathYear: 2025 } }),
    deaths: [
      death('ana', {
        grossEstate: 16 * M,
        taxableEstate: 16 * M,
        tentativeTax: 6_345_800,
        applicableExclusion: 13_990_000,
        applicableCredit: 5_541_800,
        estateTax: 804_000,
      }),
    ],
    recipients: { ben: 15_196_000, tax: 804_000 },
  },
  {
    // Robert 20,000,000 all to Linda, who is not a citizen: no marital deduction; taxable 20,000,000;
    // T = 345,800 + 40 % × 19,000,000 = 7,945,800; credit 5,945,800; tax 2,000,000, borne by Linda's
    // share; DSUE 0 (the base, 20,000,000, uses all of the exclusion). Linda: 18,000,000, T = 7,145,800,
    // credit 5,945,800, tax 1,200,000; children (18,000,000 − 1,200,000) / 2 = 8,400,000 each.
    name: 'a non-citizen spouse',
    payload: household({
      people: COUPLE.map((p) => (p.id === 'linda' ? { ...p, usCitizen: false } : p)),
      relationships: COUPLE_RELATIONSHIPS,
      entities: [entity('account', 'taxableAccount', 20 * M)],
      links: [owns('robert', 'account')],
    }),
    deaths: [
      death('robert', { grossEstate: 20 * M, taxableEstate: 20 * M, tentativeTax: 7_945_800, estateTax: 2 * M }),
      death('linda', { grossEstate: 18 * M, taxableEstate: 18 * M, tentativeTax: 7_145_800, estateTax: 1_200_000 }),
    ],
    recipients: { chris: 8_400_000, dana: 8_400_000, tax: 3_200_000 },
  },
]

/** Robert's 20,000,000 and Linda's 10,000,000 accounts, and what else a case adds. */
const twoAccounts = (robert: number, linda: number, extra: Partial<Payload> = {}): Payload =>
  household({
    people: COUPLE,
    relationships: COUPLE_RELATIONSHIPS,
    entities: [entity('r-account', 'taxableAccount', robert), entity('l-account', 'taxableAccount', linda)],
    links: [owns('robert', 'r-account'), owns('linda', 'l-account')],
    ...extra,
  })

/** Cases the review of the first version found wrong (each was wrong before its fix). */
WORKED_CASES.push(
  {
    // Ana 1,000,000; gifts 20,000,000 with no exclusion used stated: assumed the year's exclusion,
    // 15,000,000, with gift tax on the rest: T(20,000,000) − T(15,000,000) = 7,945,800 − 5,945,800 =
    // 2,000,000. Base 21,000,000, T = 345,800 + 40 % × 20,000,000 = 8,345,800; tax 8,345,800 −
    // 2,000,000 − 5,945,800 = 400,000 (40 % of the estate); Ben 600,000.
    name: 'gifts above the exclusion, the exclusion used not stated',
    payload: single(1 * M, { gifts: [{ donor: 'ana', taxableGifts: 20 * M }] }),
    deaths: [
      death('ana', {
        grossEstate: 1 * M,
        taxableEstate: 1 * M,
        adjustedTaxableGifts: 20 * M,
        tentativeTax: 8_345_800,
        giftTaxPayable: 2 * M,
        estateTax: 400_000,
      }),
    ],
    recipients: { ben: 600_000, tax: 400_000 },
  },
  {
    // Robert 10,000,000 and Linda 1,000,000 die in 2030 with an exclusion assumed at 7,000,000; Robert
    // gave 13,990,000, all within the 2025 exclusion. Anti-clawback: his credit is on max(7,000,000,
    // 13,990,000) = 13,990,000, T = 5,541,800; base 0 + 13,990,000, T = 5,541,800; gift tax 0; tax 0.
    // DSUE = min(7,000,000, 13,990,000 − 13,990,000) = 0. Linda: 11,000,000, T = 345,800 + 40 % ×
    // 10,000,000 = 4,345,800; credit T(7,000,000) = 2,745,800; tax 1,600,000; children 4,700,000 each.
    name: 'anti-clawback: gifts that used a larger exclusion than the year of death has',
    payload: twoAccounts(10 * M, 1 * M, {
      gifts: [{ donor: 'robert', taxableGifts: 13_990_000, exclusionUsed: 13_990_000 }],
      assumptions: { firstDeathYear: 2030, basicExclusion: 7 * M },
    }),
    deaths: [
      death('robert', {
        grossEstate: 10 * M,
        maritalDeduction: 10 * M,
        adjustedTaxableGifts: 13_990_000,
        tentativeTax: 5_541_800,
        applicableExclusion: 13_990_000,
        applicableCredit: 5_541_800,
      }),
      death('linda', {
        grossEstate: 11 * M,
        taxableEstate: 11 * M,
        tentativeTax: 4_345_800,
        applicableExclusion: 7 * M,
        applicableCredit: 2_745_800,
        estateTax: 1_600_000,
      }),
    ],
    recipients: { chris: 4_700_000, dana: 4_700_000, tax: 1_600_000 },
  },
  {
    // Mirror wills, each all to the other. Robert first: 11,000,000 to Linda (marital), DSUE 15,000,000.
    // Linda's will names Robert, dead by then: it lapses, and the default sends her 16,000,000 to the
    // children, 8,000,000 each; tax 0 with the DSUE (as in the couple's case).
    name: 'mirror wills: a bequest to the spouse who died first lapses',
    payload: {
      ...COUPLE_ESTATE,
      dispositions: [
        { at: 'robert', to: 'linda', share: 100 },
        { at: 'linda', to: 'robert', share: 100 },
      ],
    },
    deaths: [
      death('robert', { grossEstate: 11 * M, maritalDeduction: 11 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 16 * M,
        taxableEstate: 16 * M,
        tentativeTax: 6_345_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 8 * M, dana: 8 * M },
  },
  {
    // Partners, not spouses: no marital deduction and no portability, and by default Robert's estate
    // goes to his descendants. Robert: 20,000,000, taxable 20,000,000, T = 7,945,800 − 5,945,800 =
    // 2,000,000; Chris and Dana 9,000,000 each. Linda: 10,000,000, T = 3,945,800, tax 0; 5,000,000 each.
    name: 'partners: no marital deduction, and the default goes to the descendants',
    payload: twoAccounts(20 * M, 10 * M, {
      relationships: [{ from: 'robert', to: 'linda', type: 'partner' }, ...COUPLE_RELATIONSHIPS.slice(1)],
    }),
    deaths: [
      death('robert', { grossEstate: 20 * M, taxableEstate: 20 * M, tentativeTax: 7_945_800, estateTax: 2 * M }),
      death('linda', { grossEstate: 10 * M, taxableEstate: 10 * M, tentativeTax: 3_945_800 }),
    ],
    recipients: { chris: 14 * M, dana: 14 * M, tax: 2 * M },
  },
  {
    // Ana's revocable trust (1,000,000) owns an LLC (9,000,000); all of the trust goes to her
    // foundation. The LLC is held within the trust, so the disposition takes both: 10,000,000 to
    // charity, charitable deduction 10,000,000, taxable 0.
    name: 'a disposition from a revocable trust takes what the trust holds',
    payload: household({
      ...SINGLE_FAMILY,
      entities: [entity('rlt', 'revocableTrust', 1 * M), entity('llc', 'llc', 9 * M), entity('fdn', 'foundation')],
      links: [{ from: 'ana', to: 'rlt', type: 'grantor' }, owns('rlt', 'llc')],
      dispositions: [{ at: 'ana', from: 'rlt', to: 'fdn', share: 100 }],
    }),
    deaths: [death('ana', { grossEstate: 10 * M, charitableDeduction: 10 * M })],
    recipients: { fdn: 10 * M },
  },
  {
    // Linda leaves the home to a foundation. Robert first: his half of the home passes to her by
    // survivorship, the brokerage by default; both keep their entity. Linda: IRA 4,000,000 + her half
    // 1,000,000 + the half received 1,000,000 + brokerage 10,000,000 = 16,000,000; the home, 2,000,000,
    // to the foundation (charitable); taxable 14,000,000, credit with DSUE 11,945,800, tax 0;
    // children 7,000,000 each.
    name: "the survivor's disposition from an entity reaches what they received of it",
    payload: {
      ...COUPLE_ESTATE,
      entities: [...(COUPLE_ESTATE.entities ?? []), entity('fdn', 'foundation')],
      dispositions: [{ at: 'linda', from: 'home', to: 'fdn', share: 100 }],
    },
    deaths: [
      death('robert', { grossEstate: 11 * M, maritalDeduction: 11 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 16 * M,
        charitableDeduction: 2 * M,
        taxableEstate: 14 * M,
        tentativeTax: 5_545_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { fdn: 2 * M, chris: 7 * M, dana: 7 * M },
  },
  {
    // A 10,000,000 house owned 90 % by Robert and 10 % by Linda is held in common, not jointly: Robert's
    // gross is his 9,000,000 share, passing by default to Linda. Linda: 1,000,000 + 9,000,000.
    name: 'unequal shares are each owner’s own, not joint',
    payload: household({
      people: COUPLE,
      relationships: COUPLE_RELATIONSHIPS,
      entities: [entity('house', 'realEstate', 10 * M)],
      links: [owns('robert', 'house', 90), owns('linda', 'house', 10)],
    }),
    deaths: [
      death('robert', { grossEstate: 9 * M, maritalDeduction: 9 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 10 * M,
        taxableEstate: 10 * M,
        tentativeTax: 3_945_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 5 * M, dana: 5 * M },
  },
  {
    // Robert leaves his 20,000,000 to Linda's revocable trust: hers, so the marital deduction applies
    // (tax 0, DSUE 15,000,000) and it is in her estate: 10,000,000 + 20,000,000 = 30,000,000; T =
    // 11,945,800, credit on 30,000,000 = 11,945,800; tax 0; children 15,000,000 each.
    name: "a bequest to the surviving spouse's revocable trust is the spouse's",
    payload: twoAccounts(20 * M, 10 * M, {
      entities: [
        entity('r-account', 'taxableAccount', 20 * M),
        entity('l-account', 'taxableAccount', 10 * M),
        entity('lrt', 'revocableTrust'),
      ],
      links: [owns('robert', 'r-account'), owns('linda', 'l-account'), { from: 'linda', to: 'lrt', type: 'grantor' }],
      dispositions: [{ at: 'robert', to: 'lrt', share: 100 }],
    }),
    deaths: [
      death('robert', { grossEstate: 20 * M, maritalDeduction: 20 * M, dsuePassed: 15 * M }),
      death('linda', {
        grossEstate: 30 * M,
        taxableEstate: 30 * M,
        tentativeTax: 11_945_800,
        applicableExclusion: 30 * M,
        applicableCredit: 11_945_800,
      }),
    ],
    recipients: { chris: 15 * M, dana: 15 * M },
  },
  {
    // Robert gave 20,000,000, of which 13,990,000 used the exclusion, and leaves 10,000,000 to Linda.
    // Gift tax payable T(20,000,000) − T(13,990,000) = 7,945,800 − 5,541,800 = 2,404,000; base 20,000,000,
    // T = 7,945,800; credit T(15,000,000) = 5,945,800; tax max(0, −404,000) = 0. For the DSUE the gifts
    // taxed are left out: min(15,000,000, 15,000,000 − (0 + 13,990,000)) = 1,010,000. Linda: 20,000,000;
    // exclusion 16,010,000, credit 345,800 + 40 % × 15,010,000 = 6,349,800; tax 7,945,800 − 6,349,800 =
    // 1,596,000; children (20,000,000 − 1,596,000) / 2 = 9,202,000 each.
    name: 'DSUE with gift tax paid leaves the taxed gifts out',
    payload: twoAccounts(10 * M, 10 * M, {
      gifts: [{ donor: 'robert', taxableGifts: 20 * M, exclusionUsed: 13_990_000 }],
    }),
    deaths: [
      death('robert', {
        grossEstate: 10 * M,
        maritalDeduction: 10 * M,
        adjustedTaxableGifts: 20 * M,
        tentativeTax: 7_945_800,
        giftTaxPayable: 2_404_000,
        dsuePassed: 1_010_000,
      }),
      death('linda', {
        grossEstate: 20 * M,
        taxableEstate: 20 * M,
        tentativeTax: 7_945_800,
        applicableExclusion: 16_010_000,
        applicableCredit: 6_349_800,
        estateTax: 1_596_000,
      }),
    ],
    recipients: { chris: 9_202_000, dana: 9_202_000, tax: 1_596_000 },
  },
  {
    // Robert 20,000,000: the formula to the bypass trust, then 50 % of the rest to Chris, the rest to
    // Linda by default. Formula F with F + 50 % × (20,000,000 − F) = 15,000,000: F = 10,000,000; Chris
    // 5,000,000; Linda 5,000,000 (marital). Taxable 15,000,000, tax 0. Linda: 5,000,000, tax 0; the
    // children 2,500,000 each, so Chris 7,500,000 in all.
    name: 'the credit-shelter formula leaves room for the taxable shares after it',
    payload: twoAccounts(20 * M, 0, {
      entities: [entity('r-account', 'taxableAccount', 20 * M), entity('bypass', 'creditShelterTrust')],
      links: [owns('robert', 'r-account')],
      dispositions: [
        { at: 'robert', to: 'bypass', formula: 'unusedExclusion' },
        { at: 'robert', to: 'chris', share: 50 },
      ],
    }),
    deaths: [
      death('robert', {
        grossEstate: 20 * M,
        maritalDeduction: 5 * M,
        taxableEstate: 15 * M,
        tentativeTax: 5_945_800,
      }),
      death('linda', { grossEstate: 5 * M, taxableEstate: 5 * M, tentativeTax: 1_945_800 }),
    ],
    recipients: { bypass: 10 * M, chris: 7_500_000, dana: 2_500_000 },
  },
)

/** The figures of a projection that a case states, in the case's shape. */
export function statedFigures(projection: {
  readonly deaths: readonly object[]
  readonly recipients: readonly { readonly id?: string; readonly kind: string; readonly amount: number }[]
}): { deaths: ExpectedDeath[]; recipients: Record<string, number> } {
  const keys = Object.keys(death('x', {})) as (keyof ExpectedDeath)[]
  return {
    deaths: projection.deaths.map((each) => {
      const figures = each as Record<string, unknown>
      const total = (value: unknown) =>
        typeof value === 'object' && value !== null ? (value as { total: number }).total : value
      return Object.fromEntries(keys.map((key) => [key, total(figures[key])])) as unknown as ExpectedDeath
    }),
    recipients: Object.fromEntries(
      projection.recipients.map((recipient) => [
        recipient.kind === 'tax' ? 'tax' : (recipient.id ?? 'heirs'),
        recipient.amount,
      ]),
    ),
  }
}
