// What the Structure view reads from a household payload, typed structurally: a chart payload 0.1.x
// (chart/payload.ts) already fits, and so does 0.2.0, whose new fields (currency, shortName, the
// records API's kinds and link types, beneficiary types) are optional here. It is both the estate
// look-through's input (estate-input.ts) and the summaries' (summary-input.ts), so the cards can say
// what those modules say.
import type { BeneficiaryType, EntityKind, LinkType } from '../../../src/domain/estate-vocabulary.ts'

export interface StructurePerson {
  readonly id: string
  readonly name: string
  readonly role: string
  readonly deathDate?: string
}

export interface StructureEntity {
  readonly id: string
  readonly name: string
  /** Payload 0.2.0: the name cards use when given ("Hartwell FLP"). */
  readonly shortName?: string
  readonly kind: EntityKind
  /** What the entity holds directly, not counting the entities it owns. */
  readonly value?: number
  readonly estate?: 'in' | 'out'
}

export interface StructureLink {
  readonly from: string
  readonly to: string
  readonly type: LinkType
  readonly share?: number
  readonly beneficiaryType?: BeneficiaryType
}

export interface StructureInput {
  /** Payload 0.2.0: `currency` is an ISO 4217 code ("USD"); values are shown without a symbol when absent. */
  readonly household?: { readonly currency?: string }
  readonly people: readonly StructurePerson[]
  readonly entities?: readonly StructureEntity[]
  readonly links?: readonly StructureLink[]
}
