// The household as the summaries, chips and focus lines read it: only the fields they use, typed
// structurally so that a chart payload 0.1.x (chart/payload.ts) already fits, and with payload
// 0.2.0's optional fields (shortName, beneficiaryType, the records API's kinds and link types)
// admitted. Kinds and link types come from the records API's vocabulary, so 0.1.x's are a subset.
import type { BeneficiaryType, EntityKind, LinkType } from '../../../src/domain/estate-vocabulary.ts'

export interface SummaryPerson {
  readonly id: string
  readonly name: string
}

export interface SummaryEntity {
  readonly id: string
  readonly name: string
  /** Payload 0.2.0: the label cards and sentences use when given ("the residence"). */
  readonly shortName?: string
  readonly kind: EntityKind
  readonly value?: number
  readonly estate?: 'in' | 'out'
}

export interface SummaryLink {
  readonly from: string
  readonly to: string
  readonly type: LinkType
  readonly share?: number
  /** Payload 0.2.0, beneficiary links only; absent means primary (as the records API defaults it). */
  readonly beneficiaryType?: BeneficiaryType
}

export interface SummaryHousehold {
  /** Payload 0.2.0: `currency` (ISO 4217) gives the symbol a value is written with. */
  readonly household?: { readonly currency?: string }
  readonly people: readonly SummaryPerson[]
  readonly entities?: readonly SummaryEntity[]
  readonly links?: readonly SummaryLink[]
}
