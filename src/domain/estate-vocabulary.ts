// The words of the estate record, declared once: the kinds of entity a household holds, whether
// each kind sits inside or outside the taxable estate when the advisor has not said, which kinds
// are parties (they hold no value and are never counted in an estate), the link types that say who
// holds what, and the kinds of parent a kinship records. Plain lists without TypeBox: the schemas,
// the migration's CHECKs (compared by test/households/estate-vocabulary.test.ts), the chart payload
// (chart/payload.ts, and so payload.schema.json), the chart's estate arithmetic and the web app all
// read them.

/** Each kind with its group and, for kinds that can hold value, the estate default. */
const KINDS = {
  // Trusts.
  revocableTrust: { group: 'trust', label: 'Revocable trust', estate: 'in' },
  irrevocableTrust: { group: 'trust', label: 'Irrevocable trust', estate: 'out' },
  ilit: { group: 'trust', label: 'ILIT', estate: 'out' },
  slat: { group: 'trust', label: 'SLAT', estate: 'out' },
  grat: { group: 'trust', label: 'GRAT', estate: 'out' },
  crt: { group: 'trust', label: 'CRT', estate: 'out' },
  clt: { group: 'trust', label: 'CLT', estate: 'out' },
  qprt: { group: 'trust', label: 'QPRT', estate: 'out' },
  // A QTIP (marital) trust is taxed in the surviving spouse's estate (IRC §2044).
  qtip: { group: 'trust', label: 'QTIP / marital trust', estate: 'in' },
  creditShelterTrust: { group: 'trust', label: 'Credit-shelter trust', estate: 'out' },
  dynastyTrust: { group: 'trust', label: 'Dynasty / GST trust', estate: 'out' },
  specialNeedsTrust: { group: 'trust', label: 'Special-needs trust', estate: 'out' },
  // Business entities: owned, so in the estate of whoever owns them (by share).
  llc: { group: 'business', label: 'LLC', estate: 'in' },
  flp: { group: 'business', label: 'FLP / LP', estate: 'in' },
  corporation: { group: 'business', label: 'Corporation', estate: 'in' },
  // Charities.
  foundation: { group: 'charity', label: 'Private foundation', estate: 'out' },
  daf: { group: 'charity', label: 'Donor-advised fund', estate: 'out' },
  publicCharity: { group: 'charity', label: 'Public charity', estate: 'out' },
  // Holdings.
  taxableAccount: { group: 'holding', label: 'Taxable account', estate: 'in' },
  retirementAccount: { group: 'holding', label: 'Retirement account', estate: 'in' },
  lifeInsurance: { group: 'holding', label: 'Life insurance policy', estate: 'in' },
  realEstate: { group: 'holding', label: 'Real estate', estate: 'in' },
  businessInterest: { group: 'holding', label: 'Business interest', estate: 'in' },
  otherAsset: { group: 'holding', label: 'Other asset', estate: 'in' },
  // Parties: they act (a corporate trustee, an attorney's firm) but hold nothing of the estate.
  corporateTrustee: { group: 'party', label: 'Corporate trustee', estate: null },
  lawFirm: { group: 'party', label: "Attorney's firm", estate: null },
  otherParty: { group: 'party', label: 'Other party', estate: null },
  // Chart payload 0.1.0's catch-all kind, kept so every payload imports: in the estate, like 0.1.0 drew it.
  other: { group: 'other', label: 'Other', estate: 'in' },
} as const satisfies Record<string, { group: EntityGroup; label: string; estate: EstateSide | null }>

export type EntityGroup = 'trust' | 'business' | 'charity' | 'holding' | 'party' | 'other'
export type EstateSide = 'in' | 'out'
export const ESTATE_SIDES = ['in', 'out'] as const satisfies readonly EstateSide[]

export type EntityKind = keyof typeof KINDS
export const ENTITY_KINDS = Object.keys(KINDS) as EntityKind[]

export function entityGroupOf(kind: EntityKind): EntityGroup {
  return KINDS[kind].group
}

export function entityKindLabel(kind: EntityKind): string {
  return KINDS[kind].label
}

/** A party holds no value, cannot be owned and is never counted in an estate. */
export function isParty(kind: EntityKind): boolean {
  return KINDS[kind].group === 'party'
}

/** Where an entity of this kind sits when the advisor has not said; null for parties. */
export function defaultEstateSide(kind: EntityKind): EstateSide | null {
  return KINDS[kind].estate
}

/** The estate side an entity is counted on: as set, else the kind's default; parties none. */
export function effectiveEstateSide(kind: EntityKind, estate: EstateSide | null): EstateSide | null {
  if (isParty(kind)) return null
  return estate ?? defaultEstateSide(kind)
}

/** Link types, from a member or an entity to an entity. */
export const LINK_TYPES = [
  'grantor',
  'trustee',
  'successorTrustee',
  'beneficiary',
  'owner',
  'insured',
  'generalPartner',
  'limitedPartner',
] as const
export type LinkType = (typeof LINK_TYPES)[number]

/** What kind of parent a parent kinship is (migration 0011's CHECK repeats them). */
export const PARENT_KINDS = ['biological', 'adopted', 'step', 'foster'] as const
export type ParentKind = (typeof PARENT_KINDS)[number]

export const BENEFICIARY_TYPES = ['primary', 'contingent', 'income', 'remainder'] as const
export type BeneficiaryType = (typeof BENEFICIARY_TYPES)[number]

/** The link types that carry a share (a percentage in (0, 100]); the others never do. */
export const SHARED_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>([
  'beneficiary',
  'owner',
  'generalPartner',
  'limitedPartner',
])

/** Link types that make the `from` side hold part of the entity (ownership chains, cycle check, look-through). */
export const OWNING_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>(['owner', 'generalPartner', 'limitedPartner'])

/** Link types that make their `to` hold something, so never go to a party (link_party_owned); a party may be a trustee. */
export const PARTY_REFUSED_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>([
  'owner',
  'generalPartner',
  'limitedPartner',
  'beneficiary',
  'insured',
])

/**
 * Link types whose `from` holds part of the entity or benefits from it, so a party (which holds
 * nothing) is never their `from` (link_party_owned); a party may be a trustee or successorTrustee.
 */
export const PARTY_REFUSED_FROM_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>([
  'owner',
  'generalPartner',
  'limitedPartner',
  'beneficiary',
])

const FIDUCIARY_TARGETS = {
  fits: (kind: EntityKind) => KINDS[kind].group === 'trust' || KINDS[kind].group === 'charity',
  named: 'a trust or a charity',
}
const PARTNERSHIP_TARGETS = {
  fits: (kind: EntityKind) => kind === 'flp' || kind === 'llc' || kind === 'corporation',
  named: 'an flp, llc or corporation',
}
/** The link types that go to some kinds only, with those kinds in words (for refusals); the others go to any kind. */
const LINK_TARGET_KINDS: Partial<Record<LinkType, { fits: (kind: EntityKind) => boolean; named: string }>> = {
  grantor: FIDUCIARY_TARGETS,
  trustee: FIDUCIARY_TARGETS,
  successorTrustee: FIDUCIARY_TARGETS,
  insured: { fits: (kind) => kind === 'lifeInsurance', named: 'a life-insurance policy (kind lifeInsurance)' },
  generalPartner: PARTNERSHIP_TARGETS,
  limitedPartner: PARTNERSHIP_TARGETS,
}

/**
 * The kinds a link of this type may go to, in words, when an entity of `kind` is not one of them
 * (link_kind_mismatch); undefined when it fits. The party rule (PARTY_REFUSED_LINK_TYPES) is apart.
 * Kind `other` (chart 0.1.x's catch-all, its real kind unknown) takes any type.
 */
export function linkTargetMismatch(type: LinkType, kind: EntityKind): string | undefined {
  if (kind === 'other') return undefined
  const targets = LINK_TARGET_KINDS[type]
  return targets === undefined || targets.fits(kind) ? undefined : targets.named
}

/** Per-household limits, as the chart draws them (chart/payload.ts PAYLOAD_LIMITS). */
export const ESTATE_LIMITS = { entities: 200, links: 2000 } as const
