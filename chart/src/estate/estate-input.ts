// What the estate look-through reads from a household payload: people, entities and links, typed
// structurally so that a chart payload 0.1.x (chart/payload.ts) already fits and a 0.2.0 payload, whose
// new fields are all optional, fits too. Kinds, roles and link types are plain strings here: 0.2.0 adds
// kinds and link types that 0.1.x's enums do not have, and a kind this chart does not know is still
// counted (see entity-kinds.ts).

export interface EstatePerson {
  readonly id: string
  readonly name: string
  /** primaryClient and coClient are the clients whose estate is totalled; any other role is outside it. */
  readonly role: string
  readonly deathDate?: string
}

export interface EstateEntity {
  readonly id: string
  readonly name: string
  readonly kind: string
  /** What the entity holds directly, not counting the entities it owns (look-through rule 1). */
  readonly value?: number
  /** Inside or outside the taxable estate; when absent, the kind's default (entity-kinds.ts). */
  readonly estate?: 'in' | 'out'
  /** 0.2.0: a short name for cards and chips. */
  readonly shortName?: string
}

export interface EstateLink {
  /** The person or entity that is grantor, trustee, owner, partner, beneficiary… */
  readonly from: string
  /** The entity. */
  readonly to: string
  readonly type: string
  /** A percentage in (0, 100], for owners, partners and beneficiaries. */
  readonly share?: number
  /** 0.2.0: primary, contingent, income or remainder, for beneficiaries. */
  readonly beneficiaryType?: string
}

export interface EstateInput {
  readonly people: readonly EstatePerson[]
  readonly entities?: readonly EstateEntity[]
  readonly links?: readonly EstateLink[]
}
