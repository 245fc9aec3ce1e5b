// The entity kinds of chart payload 0.2.0, each with its group and the estate side an entity of that
// kind is on when the payload does not say. Read from the records API's one declaration
// (src/domain/estate-vocabulary.ts, which chart code imports), so the chart's totals and the
// records can never disagree on a kind's default; this module adds the lookup of a kind by any
// string, as a payload of a newer release may name a kind this chart does not know.
import {
  defaultEstateSide,
  entityGroupOf,
  ENTITY_KINDS,
  type EntityGroup,
  type EntityKind,
  type EstateSide,
} from '../../../src/domain/estate-vocabulary.ts'

export type { EntityGroup, EstateSide }

export interface EntityKindRule {
  readonly group: EntityGroup
  /** The estate side when the payload gives none; null for parties, which hold nothing. */
  readonly estate: EstateSide | null
}

export const ENTITY_KIND_RULES: Readonly<Record<EntityKind, EntityKindRule>> = Object.fromEntries(
  ENTITY_KINDS.map((kind) => [kind, { group: entityGroupOf(kind), estate: defaultEstateSide(kind) }]),
) as Record<EntityKind, EntityKindRule>

/** The rule of a kind this chart knows; undefined for one it does not (a newer payload's). */
export function entityKindRule(kind: string): EntityKindRule | undefined {
  return Object.hasOwn(ENTITY_KIND_RULES, kind) ? ENTITY_KIND_RULES[kind as EntityKind] : undefined
}

/** A party (corporate trustee, attorney's firm, other party) acts but holds nothing and is never counted. */
export function isPartyKind(kind: string): boolean {
  return entityKindRule(kind)?.group === 'party'
}
