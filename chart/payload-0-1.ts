// The entity kinds and link types of chart payload 0.1.x (releases 0.1.0 and 0.1.1), frozen: the
// 0.1.x mapping of GET …/chart writes only these, and payload 0.2.0's new rules never refuse a link
// written in them. No TypeBox here: the chart's browser bundle imports this module.
import type { EntityKind, LinkType } from '../src/domain/estate-vocabulary.ts'

export const PAYLOAD_0_1_ENTITY_KINDS = [
  'revocableTrust',
  'irrevocableTrust',
  'ilit',
  'slat',
  'grat',
  'crt',
  'llc',
  'flp',
  'foundation',
  'daf',
  'other',
] as const satisfies readonly EntityKind[]
export const PAYLOAD_0_1_LINK_TYPES = [
  'grantor',
  'trustee',
  'beneficiary',
  'owner',
] as const satisfies readonly LinkType[]
