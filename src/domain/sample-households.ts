// The sample households every new (demo) organization starts with: realistic estate-planning
// clients — couples, a widow with DSUE, blended families, three generations — so that lists,
// search, sorting by members and the sample filter all have something to show, and so that their
// charts read like a real estate diagram: every couple joined, every child linked to its parents
// in the household, and four households with trusts, an LLC and holdings, and who holds what.
import { NO_OPTIONAL_FIELDS, type HouseholdFields } from '../households/household-fields.ts'
import type { NewMember } from '../store/households.ts'
import type { BeneficiaryType, EntityKind, EstateSide, LinkType } from './estate-vocabulary.ts'

export interface SampleAdvisor {
  key: string
  name: string
  email: string
}

/** Two members by name; for parent, `from` is the parent and `to` the child. */
export interface SampleKinship {
  from: string
  to: string
  type: 'spouse' | 'partner' | 'exSpouse' | 'parent'
  /** Only for parent; not stated when absent. */
  parentKind?: 'biological' | 'adopted' | 'step' | 'foster'
  /** Only for spouse, partner and exSpouse. */
  since?: string
  until?: string
}

export interface SampleEntity {
  name: string
  shortName?: string
  kind: EntityKind
  value?: number
  valueAsOf?: string
  /** Set only where the advisor overrides the kind's default. */
  estate?: EstateSide
}

/** `from` names a member or an entity of the household, `to` an entity (names are unique in a household). */
export interface SampleLink {
  from: string
  to: string
  type: LinkType
  share?: number
  beneficiaryType?: BeneficiaryType
}

export interface SampleHousehold {
  fields: HouseholdFields
  members: NewMember[]
  kinships: SampleKinship[]
  entities: SampleEntity[]
  links: SampleLink[]
  assignments: { advisor: string; role: 'leadAdvisor' | 'advisor' | 'paraplanner' | 'serviceAssociate' }[]
}

const married = (a: string, b: string, since?: string, until?: string): SampleKinship => ({
  from: a,
  to: b,
  type: 'spouse',
  ...(since === undefined ? {} : { since }),
  ...(until === undefined ? {} : { until }),
})

/** Each child linked to each of its parents in the household. */
const children = (parents: string[], kids: string[], parentKind?: SampleKinship['parentKind']): SampleKinship[] =>
  kids.flatMap((child) =>
    parents.map((parent): SampleKinship => ({
      from: parent,
      to: child,
      type: 'parent',
      ...(parentKind ? { parentKind } : {}),
    })),
  )

/** One link of `type` from each of `from` to `to`. */
const each = (from: string[], type: LinkType, to: string): SampleLink[] =>
  from.map((name) => ({ from: name, to, type }))

/** Beneficiaries of one type, each with its share. */
const beneficiaries = (
  to: string,
  beneficiaryType: BeneficiaryType,
  shares: Record<string, number | undefined>,
): SampleLink[] =>
  Object.entries(shares).map(([from, share]) => ({
    from,
    to,
    type: 'beneficiary',
    beneficiaryType,
    ...(share === undefined ? {} : { share }),
  }))

/** The corporate trustee the samples' irrevocable trusts name. */
const NORTHERN_FIDUCIARY: SampleEntity = {
  name: 'Northern Fiduciary Trust Co.',
  shortName: 'NFTC',
  kind: 'corporateTrustee',
}

export const SAMPLE_ADVISORS: SampleAdvisor[] = [
  { key: 'avery', name: 'Jordan Avery', email: 'jordan.avery@example.com' },
  { key: 'raman', name: 'Priya Raman', email: 'priya.raman@example.com' },
  { key: 'ortiz', name: 'Sam Ortiz', email: 'sam.ortiz@example.com' },
]

const none = NO_OPTIONAL_FIELDS

export const SAMPLE_HOUSEHOLDS: SampleHousehold[] = [
  {
    fields: {
      ...none,
      name: 'Whitfield Family',
      primaryClientAsDonor: true,
      coClientAsDonor: true,
      metadata: { crmId: 'SF-00412', segment: 'multi-generational' },
    },
    members: [
      { name: 'Margaret Whitfield', role: 'primaryClient', birthDate: '1958-04-12' },
      { name: 'Thomas Whitfield', role: 'coClient', birthDate: '1956-09-30' },
      { name: 'Emily Whitfield-Hart', role: 'child', birthDate: '1984-02-17' },
      { name: 'James Whitfield', role: 'child', birthDate: '1987-11-03' },
      { name: 'Olivia Hart', role: 'grandchild', birthDate: '2012-06-21' },
      { name: 'Noah Hart', role: 'grandchild', birthDate: '2015-01-09' },
    ],
    kinships: [
      married('Margaret Whitfield', 'Thomas Whitfield'),
      ...children(['Margaret Whitfield', 'Thomas Whitfield'], ['Emily Whitfield-Hart', 'James Whitfield']),
      ...children(['Emily Whitfield-Hart'], ['Olivia Hart', 'Noah Hart']),
    ],
    entities: [
      {
        name: 'Whitfield Family Revocable Trust',
        shortName: 'RLT',
        kind: 'revocableTrust',
        value: 6_850_000,
        valueAsOf: '2025-12-31',
      },
      {
        name: 'Whitfield Irrevocable Life Insurance Trust',
        shortName: 'ILIT',
        kind: 'ilit',
        value: 42_000,
        valueAsOf: '2025-12-31',
      },
      {
        name: 'Whitfield Dynasty Trust',
        shortName: 'Dynasty',
        kind: 'dynastyTrust',
        value: 3_200_000,
        valueAsOf: '2025-12-31',
      },
      { name: 'Whitfield Properties LLC', shortName: 'WP LLC', kind: 'llc', value: 4_100_000, valueAsOf: '2025-06-30' },
      {
        name: 'Brokerage account (Schwab)',
        shortName: 'Brokerage',
        kind: 'taxableAccount',
        value: 2_750_000,
        valueAsOf: '2025-12-31',
      },
      {
        name: "Margaret's IRA",
        shortName: 'IRA (M)',
        kind: 'retirementAccount',
        value: 1_180_000,
        valueAsOf: '2025-12-31',
      },
      {
        name: 'Survivorship policy (Pacific Life)',
        shortName: 'SUL policy',
        kind: 'lifeInsurance',
        value: 8_000_000,
        valueAsOf: '2025-01-15',
        // Owned by the ILIT, so outside the estate (a policy is in by default).
        estate: 'out',
      },
      NORTHERN_FIDUCIARY,
    ],
    links: [
      ...each(['Margaret Whitfield', 'Thomas Whitfield'], 'grantor', 'Whitfield Family Revocable Trust'),
      ...each(['Margaret Whitfield', 'Thomas Whitfield'], 'trustee', 'Whitfield Family Revocable Trust'),
      { from: 'Northern Fiduciary Trust Co.', to: 'Whitfield Family Revocable Trust', type: 'successorTrustee' },
      ...beneficiaries('Whitfield Family Revocable Trust', 'primary', {
        'Emily Whitfield-Hart': 50,
        'James Whitfield': 50,
      }),
      ...each(['Margaret Whitfield', 'Thomas Whitfield'], 'grantor', 'Whitfield Irrevocable Life Insurance Trust'),
      { from: 'Northern Fiduciary Trust Co.', to: 'Whitfield Irrevocable Life Insurance Trust', type: 'trustee' },
      ...beneficiaries('Whitfield Irrevocable Life Insurance Trust', 'primary', {
        'Emily Whitfield-Hart': 50,
        'James Whitfield': 50,
      }),
      {
        from: 'Whitfield Irrevocable Life Insurance Trust',
        to: 'Survivorship policy (Pacific Life)',
        type: 'owner',
        share: 100,
      },
      ...each(['Margaret Whitfield', 'Thomas Whitfield'], 'insured', 'Survivorship policy (Pacific Life)'),
      { from: 'Thomas Whitfield', to: 'Whitfield Dynasty Trust', type: 'grantor' },
      { from: 'Northern Fiduciary Trust Co.', to: 'Whitfield Dynasty Trust', type: 'trustee' },
      { from: 'James Whitfield', to: 'Whitfield Dynasty Trust', type: 'successorTrustee' },
      ...beneficiaries('Whitfield Dynasty Trust', 'primary', {
        'Emily Whitfield-Hart': 25,
        'James Whitfield': 25,
        'Olivia Hart': 25,
        'Noah Hart': 25,
      }),
      { from: 'Whitfield Family Revocable Trust', to: 'Whitfield Properties LLC', type: 'owner', share: 80 },
      { from: 'Whitfield Dynasty Trust', to: 'Whitfield Properties LLC', type: 'owner', share: 20 },
      { from: 'Whitfield Family Revocable Trust', to: 'Brokerage account (Schwab)', type: 'owner', share: 100 },
      { from: 'Margaret Whitfield', to: "Margaret's IRA", type: 'owner', share: 100 },
      ...beneficiaries("Margaret's IRA", 'primary', { 'Thomas Whitfield': 100 }),
      ...beneficiaries("Margaret's IRA", 'contingent', { 'Emily Whitfield-Hart': 50, 'James Whitfield': 50 }),
    ],
    assignments: [
      { advisor: 'avery', role: 'leadAdvisor' },
      { advisor: 'ortiz', role: 'paraplanner' },
    ],
  },
  {
    fields: {
      ...none,
      name: 'Lindqvist Household',
      deceasedSpouseName: 'Harold Lindqvist',
      dsueReceived: 5_490_000,
      dsueDateOfDeath: '2021-03-14',
      primaryClientAsDonor: true,
    },
    members: [
      { name: 'Ingrid Lindqvist', role: 'primaryClient', birthDate: '1949-08-02' },
      { name: 'Erik Lindqvist', role: 'child', birthDate: '1976-05-19' },
      { name: 'Astrid Lindqvist Moreau', role: 'child', birthDate: '1979-12-01' },
      { name: 'Elsa Moreau', role: 'grandchild', birthDate: '2008-03-27' },
      // The household's deceased spouse (deceasedSpouseName) as a member too, so the chart draws him as the children's father.
      { name: 'Harold Lindqvist', role: 'spouse', birthDate: '1946-11-09', deathDate: '2021-03-14' },
    ],
    kinships: [
      married('Ingrid Lindqvist', 'Harold Lindqvist', '1972-06-17', '2021-03-14'),
      ...children(['Ingrid Lindqvist', 'Harold Lindqvist'], ['Erik Lindqvist', 'Astrid Lindqvist Moreau']),
      ...children(['Astrid Lindqvist Moreau'], ['Elsa Moreau']),
    ],
    entities: [
      {
        name: 'Ingrid Lindqvist Revocable Trust',
        shortName: 'RLT',
        kind: 'revocableTrust',
        value: 3_400_000,
        valueAsOf: '2025-09-30',
      },
      {
        name: 'Harold Lindqvist Credit Shelter Trust',
        shortName: 'Bypass',
        kind: 'creditShelterTrust',
        value: 2_900_000,
        valueAsOf: '2025-09-30',
      },
      {
        name: 'Lindqvist Lake House',
        shortName: 'Lake house',
        kind: 'realEstate',
        value: 1_250_000,
        valueAsOf: '2024-05-01',
      },
      {
        name: 'Lindqvist Family Foundation',
        shortName: 'Foundation',
        kind: 'foundation',
        value: 800_000,
        valueAsOf: '2025-06-30',
      },
    ],
    links: [
      { from: 'Ingrid Lindqvist', to: 'Ingrid Lindqvist Revocable Trust', type: 'grantor' },
      { from: 'Ingrid Lindqvist', to: 'Ingrid Lindqvist Revocable Trust', type: 'trustee' },
      { from: 'Erik Lindqvist', to: 'Ingrid Lindqvist Revocable Trust', type: 'successorTrustee' },
      ...beneficiaries('Ingrid Lindqvist Revocable Trust', 'primary', {
        'Erik Lindqvist': 50,
        'Astrid Lindqvist Moreau': 50,
      }),
      { from: 'Harold Lindqvist', to: 'Harold Lindqvist Credit Shelter Trust', type: 'grantor' },
      { from: 'Ingrid Lindqvist', to: 'Harold Lindqvist Credit Shelter Trust', type: 'trustee' },
      ...beneficiaries('Harold Lindqvist Credit Shelter Trust', 'income', { 'Ingrid Lindqvist': undefined }),
      ...beneficiaries('Harold Lindqvist Credit Shelter Trust', 'remainder', {
        'Erik Lindqvist': 50,
        'Astrid Lindqvist Moreau': 50,
      }),
      { from: 'Ingrid Lindqvist Revocable Trust', to: 'Lindqvist Lake House', type: 'owner', share: 100 },
      { from: 'Ingrid Lindqvist', to: 'Lindqvist Family Foundation', type: 'grantor' },
      ...each(['Erik Lindqvist', 'Astrid Lindqvist Moreau'], 'trustee', 'Lindqvist Family Foundation'),
    ],
    assignments: [{ advisor: 'raman', role: 'leadAdvisor' }],
  },
  {
    fields: { ...none, name: 'Okafor Family', primaryClientAsDonor: true, coClientAsDonor: false },
    members: [
      { name: 'Chidi Okafor', role: 'primaryClient', birthDate: '1971-01-23', email: 'chidi.okafor@example.com' },
      { name: 'Grace Okafor', role: 'coClient', birthDate: '1973-07-08' },
      { name: 'Adaeze Okafor', role: 'child', birthDate: '2001-10-14' },
      { name: 'Emeka Okafor', role: 'child', birthDate: '2004-04-04' },
      { name: 'Ngozi Okafor', role: 'parent', birthDate: '1945-02-11' },
    ],
    kinships: [
      married('Chidi Okafor', 'Grace Okafor'),
      ...children(['Chidi Okafor', 'Grace Okafor'], ['Adaeze Okafor', 'Emeka Okafor']),
      ...children(['Ngozi Okafor'], ['Chidi Okafor']),
    ],
    entities: [
      {
        name: 'Okafor Joint Revocable Trust',
        shortName: 'RLT',
        kind: 'revocableTrust',
        value: 2_300_000,
        valueAsOf: '2025-12-31',
      },
      { name: 'Chidi Okafor SLAT', shortName: 'SLAT-C', kind: 'slat', value: 1_500_000, valueAsOf: '2025-12-31' },
      {
        name: 'Okafor Medical Partners LLC',
        shortName: 'OMP LLC',
        kind: 'llc',
        value: 3_600_000,
        valueAsOf: '2025-06-30',
      },
      { name: 'Okafor Giving Fund', shortName: 'DAF', kind: 'daf', value: 250_000, valueAsOf: '2025-12-31' },
      {
        name: 'Term policy on Chidi',
        shortName: 'Term policy',
        kind: 'lifeInsurance',
        value: 5_000_000,
        valueAsOf: '2024-02-01',
      },
      { name: 'Harlow & Reyes LLP', kind: 'lawFirm' },
    ],
    links: [
      ...each(['Chidi Okafor', 'Grace Okafor'], 'grantor', 'Okafor Joint Revocable Trust'),
      ...each(['Chidi Okafor', 'Grace Okafor'], 'trustee', 'Okafor Joint Revocable Trust'),
      ...beneficiaries('Okafor Joint Revocable Trust', 'primary', { 'Adaeze Okafor': 50, 'Emeka Okafor': 50 }),
      { from: 'Chidi Okafor', to: 'Chidi Okafor SLAT', type: 'grantor' },
      { from: 'Grace Okafor', to: 'Chidi Okafor SLAT', type: 'trustee' },
      { from: 'Harlow & Reyes LLP', to: 'Chidi Okafor SLAT', type: 'successorTrustee' },
      ...beneficiaries('Chidi Okafor SLAT', 'primary', { 'Grace Okafor': 100 }),
      ...beneficiaries('Chidi Okafor SLAT', 'remainder', { 'Adaeze Okafor': 50, 'Emeka Okafor': 50 }),
      { from: 'Okafor Joint Revocable Trust', to: 'Okafor Medical Partners LLC', type: 'owner', share: 60 },
      { from: 'Chidi Okafor SLAT', to: 'Okafor Medical Partners LLC', type: 'owner', share: 40 },
      { from: 'Chidi Okafor', to: 'Okafor Giving Fund', type: 'grantor' },
      { from: 'Grace Okafor', to: 'Term policy on Chidi', type: 'owner', share: 100 },
      { from: 'Chidi Okafor', to: 'Term policy on Chidi', type: 'insured' },
    ],
    assignments: [
      { advisor: 'avery', role: 'leadAdvisor' },
      { advisor: 'raman', role: 'advisor' },
    ],
  },
  {
    fields: { ...none, name: 'Ramirez–Chen Household', metadata: { source: 'referral', referredBy: 'CPA partner' } },
    members: [
      { name: 'Sofia Ramirez', role: 'primaryClient', birthDate: '1982-06-30' },
      { name: 'David Chen', role: 'coClient', birthDate: '1980-03-15' },
      { name: 'Mateo Chen-Ramirez', role: 'child', birthDate: '2014-09-09' },
      { name: 'Lucía Ramirez', role: 'child', birthDate: '2006-12-24' },
    ],
    // A blended family: Lucía is Sofia's daughter from her first marriage, David's stepdaughter.
    kinships: [
      married('Sofia Ramirez', 'David Chen', '2012-04-21'),
      ...children(['Sofia Ramirez', 'David Chen'], ['Mateo Chen-Ramirez'], 'biological'),
      ...children(['Sofia Ramirez'], ['Lucía Ramirez'], 'biological'),
      ...children(['David Chen'], ['Lucía Ramirez'], 'step'),
    ],
    entities: [],
    links: [],
    assignments: [
      { advisor: 'raman', role: 'leadAdvisor' },
      { advisor: 'ortiz', role: 'serviceAssociate' },
    ],
  },
  {
    fields: { ...none, name: 'Smith Family', primaryClientAsDonor: true, coClientAsDonor: true },
    members: [
      { name: 'Robert Smith', role: 'primaryClient', birthDate: '1953-10-05' },
      { name: 'Linda Smith', role: 'coClient', birthDate: '1955-01-28' },
      { name: 'Michael Smith', role: 'child', birthDate: '1980-08-16' },
      { name: 'Sarah Smith-Patel', role: 'child', birthDate: '1983-04-22' },
      { name: 'Aria Patel', role: 'grandchild', birthDate: '2016-11-30' },
      { name: 'Dev Patel', role: 'grandchild', birthDate: '2019-02-14' },
      { name: 'Evelyn Smith', role: 'parent', birthDate: '1931-07-19', deathDate: '2024-01-05' },
    ],
    kinships: [
      married('Robert Smith', 'Linda Smith'),
      ...children(['Robert Smith', 'Linda Smith'], ['Michael Smith', 'Sarah Smith-Patel']),
      ...children(['Sarah Smith-Patel'], ['Aria Patel', 'Dev Patel']),
      ...children(['Evelyn Smith'], ['Robert Smith']),
    ],
    entities: [
      {
        name: 'Smith Living Trust',
        shortName: 'RLT',
        kind: 'revocableTrust',
        value: 4_900_000,
        valueAsOf: '2025-12-31',
      },
      { name: 'Robert Smith SLAT', shortName: 'SLAT-R', kind: 'slat', value: 2_100_000, valueAsOf: '2025-12-31' },
      { name: 'Smith Family ILIT', shortName: 'ILIT', kind: 'ilit', value: 15_000, valueAsOf: '2025-12-31' },
      {
        name: 'Smith Family Holdings LLC',
        shortName: 'SFH LLC',
        kind: 'llc',
        value: 3_000_000,
        valueAsOf: '2025-06-30',
      },
      { name: 'Cape Cod cottage', shortName: 'Cottage', kind: 'realEstate', value: 1_900_000, valueAsOf: '2025-04-15' },
      {
        name: 'Second-to-die policy',
        shortName: 'SUL policy',
        kind: 'lifeInsurance',
        value: 6_000_000,
        valueAsOf: '2023-11-01',
        // Owned by the ILIT, so outside the estate (a policy is in by default).
        estate: 'out',
      },
      {
        name: "Robert's 401(k)",
        shortName: '401(k)',
        kind: 'retirementAccount',
        value: 1_650_000,
        valueAsOf: '2025-12-31',
      },
      NORTHERN_FIDUCIARY,
    ],
    links: [
      ...each(['Robert Smith', 'Linda Smith'], 'grantor', 'Smith Living Trust'),
      ...each(['Robert Smith', 'Linda Smith'], 'trustee', 'Smith Living Trust'),
      { from: 'Michael Smith', to: 'Smith Living Trust', type: 'successorTrustee' },
      ...beneficiaries('Smith Living Trust', 'primary', { 'Michael Smith': 50, 'Sarah Smith-Patel': 50 }),
      { from: 'Robert Smith', to: 'Robert Smith SLAT', type: 'grantor' },
      { from: 'Northern Fiduciary Trust Co.', to: 'Robert Smith SLAT', type: 'trustee' },
      ...beneficiaries('Robert Smith SLAT', 'primary', { 'Linda Smith': 100 }),
      ...beneficiaries('Robert Smith SLAT', 'contingent', { 'Michael Smith': 50, 'Sarah Smith-Patel': 50 }),
      ...each(['Robert Smith', 'Linda Smith'], 'grantor', 'Smith Family ILIT'),
      { from: 'Northern Fiduciary Trust Co.', to: 'Smith Family ILIT', type: 'trustee' },
      ...beneficiaries('Smith Family ILIT', 'primary', { 'Michael Smith': 50, 'Sarah Smith-Patel': 50 }),
      { from: 'Smith Family ILIT', to: 'Second-to-die policy', type: 'owner', share: 100 },
      ...each(['Robert Smith', 'Linda Smith'], 'insured', 'Second-to-die policy'),
      { from: 'Smith Living Trust', to: 'Smith Family Holdings LLC', type: 'owner', share: 55 },
      { from: 'Robert Smith SLAT', to: 'Smith Family Holdings LLC', type: 'owner', share: 45 },
      { from: 'Smith Family Holdings LLC', to: 'Cape Cod cottage', type: 'owner', share: 100 },
      { from: 'Robert Smith', to: "Robert's 401(k)", type: 'owner', share: 100 },
      ...beneficiaries("Robert's 401(k)", 'primary', { 'Linda Smith': 100 }),
    ],
    assignments: [{ advisor: 'avery', role: 'leadAdvisor' }],
  },
  {
    fields: { ...none, name: 'Nakamura Household', coClientAsDonor: true },
    members: [
      { name: 'Kenji Nakamura', role: 'primaryClient', birthDate: '1966-02-02' },
      { name: 'Aiko Nakamura', role: 'coClient', birthDate: '1968-09-18' },
      { name: 'Hiroshi Nakamura', role: 'parent', birthDate: '1938-12-07' },
    ],
    kinships: [married('Kenji Nakamura', 'Aiko Nakamura'), ...children(['Hiroshi Nakamura'], ['Kenji Nakamura'])],
    entities: [],
    links: [],
    assignments: [{ advisor: 'ortiz', role: 'advisor' }],
  },
  {
    fields: { ...none, name: 'Goldsmith Household' },
    members: [
      {
        name: 'Rebecca Goldsmith',
        role: 'primaryClient',
        birthDate: '1975-05-05',
        email: 'rebecca.goldsmith@example.com',
      },
      { name: 'Aaron Goldsmith', role: 'sibling', birthDate: '1972-03-03' },
    ],
    // A single client and her brother: no couple, and no kinship type for siblings.
    kinships: [],
    entities: [
      {
        name: 'Goldsmith Design Studio LLC',
        shortName: 'Studio LLC',
        kind: 'llc',
        value: 900_000,
        valueAsOf: '2025-12-31',
      },
      {
        name: 'Rebecca Goldsmith SEP IRA',
        shortName: 'SEP IRA',
        kind: 'retirementAccount',
        value: 610_000,
        valueAsOf: '2025-12-31',
      },
    ],
    links: [
      { from: 'Rebecca Goldsmith', to: 'Goldsmith Design Studio LLC', type: 'owner', share: 100 },
      { from: 'Rebecca Goldsmith', to: 'Rebecca Goldsmith SEP IRA', type: 'owner', share: 100 },
      ...beneficiaries('Rebecca Goldsmith SEP IRA', 'primary', { 'Aaron Goldsmith': 100 }),
    ],
    assignments: [],
  },
  {
    fields: {
      ...none,
      name: "Fitzgerald–O'Brien Household",
      deceasedSpouseName: 'Siobhan Fitzgerald',
      dsueReceived: 2_125_000.5,
      dsueDateOfDeath: '2019-10-28',
    },
    members: [
      { name: 'Patrick Fitzgerald', role: 'primaryClient', birthDate: '1950-03-17' },
      { name: "Maeve O'Brien", role: 'coClient', birthDate: '1957-06-06' },
      { name: 'Liam Fitzgerald', role: 'child', birthDate: '1982-01-31' },
      { name: "Clodagh O'Brien", role: 'child', birthDate: '1990-08-12' },
      // The household's deceased spouse (deceasedSpouseName), Liam's mother.
      { name: 'Siobhan Fitzgerald', role: 'spouse', birthDate: '1953-02-01', deathDate: '2019-10-28' },
    ],
    // A second marriage: Liam is Patrick's son with the late Siobhan, Clodagh is Maeve's daughter and Patrick's stepdaughter.
    kinships: [
      married('Patrick Fitzgerald', 'Siobhan Fitzgerald', '1979-05-12', '2019-10-28'),
      married('Patrick Fitzgerald', "Maeve O'Brien", '2021-09-04'),
      ...children(['Patrick Fitzgerald', 'Siobhan Fitzgerald'], ['Liam Fitzgerald'], 'biological'),
      ...children(["Maeve O'Brien"], ["Clodagh O'Brien"], 'biological'),
      ...children(['Patrick Fitzgerald'], ["Clodagh O'Brien"], 'step'),
    ],
    entities: [
      // Funded at Siobhan's death for Patrick; taxed in his estate (the kind's default).
      {
        name: 'Siobhan Fitzgerald QTIP Trust',
        shortName: 'QTIP',
        kind: 'qtip',
        value: 1_750_000,
        valueAsOf: '2025-12-31',
      },
      { name: 'Fitzgerald Family LP', shortName: 'FLP', kind: 'flp', value: 2_400_000, valueAsOf: '2025-06-30' },
    ],
    links: [
      { from: 'Siobhan Fitzgerald', to: 'Siobhan Fitzgerald QTIP Trust', type: 'grantor' },
      { from: 'Liam Fitzgerald', to: 'Siobhan Fitzgerald QTIP Trust', type: 'trustee' },
      ...beneficiaries('Siobhan Fitzgerald QTIP Trust', 'income', { 'Patrick Fitzgerald': undefined }),
      ...beneficiaries('Siobhan Fitzgerald QTIP Trust', 'remainder', { 'Liam Fitzgerald': 100 }),
      { from: 'Patrick Fitzgerald', to: 'Fitzgerald Family LP', type: 'generalPartner', share: 2 },
      { from: 'Liam Fitzgerald', to: 'Fitzgerald Family LP', type: 'limitedPartner', share: 49 },
      { from: "Clodagh O'Brien", to: 'Fitzgerald Family LP', type: 'limitedPartner', share: 49 },
    ],
    assignments: [
      { advisor: 'avery', role: 'leadAdvisor' },
      { advisor: 'raman', role: 'advisor' },
      { advisor: 'ortiz', role: 'paraplanner' },
    ],
  },
]
