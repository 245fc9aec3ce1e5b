// The test households of the chart 0.2.0 issue are written in the payload 0.2.0 shape (a superset of
// chart/payload.ts's 0.1.x: currency and asOf on the household, parent kinds and marriage dates on
// relationships, the records API's entity kinds and link types, shortName and valueAsOf on entities).
// HouseholdPayload is that shape as a structural type of the bench's own: every 0.1.x payload already
// satisfies it. downgrade() turns one into a 0.1.x payload so today's chart can draw it, by the very
// mapping the records API uses to serve 0.1.x (toChartPayload01 in src/domain/chart-payload.ts): kinds
// 0.1.x does not know become `other` with their estate side written out, parties are left out with
// their links, successorTrustee and insured are left out, partners become owners, extra fields go.
import type { Person, Theme, Payload } from '../../../chart/payload.ts'
import { toChartPayload01, type ParentKind } from '../../../src/domain/chart-payload.ts'
import type { BeneficiaryType, EntityKind, EstateSide, LinkType } from '../../../src/domain/estate-vocabulary.ts'

export interface HouseholdRelationship {
  from: string
  to: string
  type: 'spouse' | 'partner' | 'exSpouse' | 'parent'
  /** Only on parent relationships. */
  parentKind?: ParentKind
  /** Only on spouse, partner and exSpouse relationships: married (or partners) since, and until. */
  since?: string
  until?: string
}

export interface HouseholdEntity {
  id: string
  name: string
  shortName?: string
  kind: EntityKind
  value?: number
  valueAsOf?: string
  estate?: EstateSide
}

export interface HouseholdLink {
  from: string
  to: string
  type: LinkType
  share?: number
  beneficiaryType?: BeneficiaryType
}

export interface HouseholdPayload {
  household: { name: string; currency?: string; asOf?: string }
  people: Person[]
  relationships?: HouseholdRelationship[]
  entities?: HouseholdEntity[]
  links?: HouseholdLink[]
  options?: { theme?: Theme }
}

/** The household as chart payload 0.1.x; throws for a household without people (no payload can say it). */
export function downgrade(household: HouseholdPayload): Payload {
  const payload = toChartPayload01({
    name: household.household.name,
    deceasedSpouseName: null,
    dsueDateOfDeath: null,
    settings: null,
    members: household.people.map((p) => ({
      id: p.id,
      name: p.name,
      role: p.role,
      birthDate: p.birthDate ?? null,
      deathDate: p.deathDate ?? null,
      externalId: null,
    })),
    relationships: (household.relationships ?? []).map((r) => ({
      from: r.from,
      to: r.to,
      type: r.type,
      parentKind: r.parentKind ?? null,
      since: r.since ?? null,
      until: r.until ?? null,
    })),
    entities: (household.entities ?? []).map((e) => ({
      id: e.id,
      name: e.name,
      shortName: e.shortName ?? null,
      kind: e.kind,
      value: e.value ?? null,
      valueAsOf: e.valueAsOf ?? null,
      estate: e.estate ?? null,
      externalId: null,
    })),
    links: (household.links ?? []).map((l) => ({
      from: l.from,
      to: l.to,
      type: l.type,
      share: l.share ?? null,
      beneficiaryType: l.beneficiaryType ?? (l.type === 'beneficiary' ? 'primary' : null),
    })),
  })
  if (payload === undefined) throw new Error(`${household.household.name}: a household without people has no payload`)
  return household.options === undefined ? payload : { ...payload, options: household.options }
}
