// The entity kinds of chart payload 0.2.0, each with its group and the estate side an entity of that
// kind is on when the payload does not say. The same table as the records API's
// src/domain/estate-vocabulary.ts (which browser code cannot import: another tsconfig and runtime);
// test/chart/estate-entity-kinds.test.ts holds the two equal.

export type EntityGroup = 'trust' | 'business' | 'charity' | 'holding' | 'party' | 'other'
export type EstateSide = 'in' | 'out'

export interface EntityKindRule {
  readonly group: EntityGroup
  /** The estate side when the payload gives none; null for parties, which hold nothing. */
  readonly estate: EstateSide | null
}

export const ENTITY_KIND_RULES = {
  revocableTrust: { group: 'trust', estate: 'in' },
  irrevocableTrust: { group: 'trust', estate: 'out' },
  ilit: { group: 'trust', estate: 'out' },
  slat: { group: 'trust', estate: 'out' },
  grat: { group: 'trust', estate: 'out' },
  crt: { group: 'trust', estate: 'out' },
  clt: { group: 'trust', estate: 'out' },
  qprt: { group: 'trust', estate: 'out' },
  // A QTIP (marital) trust is taxed in the surviving spouse's estate (IRC §2044).
  qtip: { group: 'trust', estate: 'in' },
  creditShelterTrust: { group: 'trust', estate: 'out' },
  dynastyTrust: { group: 'trust', estate: 'out' },
  specialNeedsTrust: { group: 'trust', estate: 'out' },
  llc: { group: 'business', estate: 'in' },
  flp: { group: 'business', estate: 'in' },
  corporation: { group: 'business', estate: 'in' },
  foundation: { group: 'charity', estate: 'out' },
  daf: { group: 'charity', estate: 'out' },
  publicCharity: { group: 'charity', estate: 'out' },
  taxableAccount: { group: 'holding', estate: 'in' },
  retirementAccount: { group: 'holding', estate: 'in' },
  lifeInsurance: { group: 'holding', estate: 'in' },
  realEstate: { group: 'holding', estate: 'in' },
  businessInterest: { group: 'holding', estate: 'in' },
  otherAsset: { group: 'holding', estate: 'in' },
  corporateTrustee: { group: 'party', estate: null },
  lawFirm: { group: 'party', estate: null },
  otherParty: { group: 'party', estate: null },
  // Payload 0.1.x's catch-all kind: in the estate, as chart 0.1.x draws it.
  other: { group: 'other', estate: 'in' },
} as const satisfies Record<string, EntityKindRule>

/** The rule of a kind this chart knows; undefined for one it does not (a newer payload's). */
export function entityKindRule(kind: string): EntityKindRule | undefined {
  return Object.hasOwn(ENTITY_KIND_RULES, kind) ? ENTITY_KIND_RULES[kind as keyof typeof ENTITY_KIND_RULES] : undefined
}

/** A party (corporate trustee, attorney's firm, other party) acts but holds nothing and is never counted. */
export function isPartyKind(kind: string): boolean {
  return entityKindRule(kind)?.group === 'party'
}
