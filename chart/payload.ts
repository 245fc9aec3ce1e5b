// Payload v1: the chart data a host page sends in the render message (DESIGN §4). This one TypeBox
// schema is published as payload.schema.json beside each pinned chart, compiled into the chart's
// validator at build time, and gives the browser code its types. Release 0.2.0 adds only optional
// fields (household currency and asOf; parentKind, since and until; shortName and valueAsOf; the
// records' kinds, parties and link types; beneficiaryType), so every 0.1.x payload stays valid. The
// kinds, link types, beneficiary types, parent kinds and estate defaults are the records API's
// (src/domain/estate-vocabulary.ts): one declaration for both.
import { Type, type Static } from 'typebox'
import { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_0_1_LINK_TYPES } from './payload-0-1.ts'
import {
  BENEFICIARY_TYPES,
  defaultEstateSide,
  entityGroupOf,
  ENTITY_KINDS as RECORD_ENTITY_KINDS,
  ESTATE_SIDES,
  isParty,
  LINK_TYPES as RECORD_LINK_TYPES,
  PARENT_KINDS,
  type EntityGroup,
} from '../src/domain/estate-vocabulary.ts'

export const PAYLOAD_LIMITS = {
  people: 1000,
  entities: 200,
  relationships: 5000,
  links: 2000,
  nameLength: 200,
  value: 1e13,
} as const

function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

const Id = Type.String({
  pattern: '^[A-Za-z0-9_.:-]{1,64}$',
  description:
    'Your identifier for the person or entity: 1–64 letters, digits, and _ . : -. People and entities share one namespace.',
})
const Name = Type.String({
  minLength: 1,
  maxLength: PAYLOAD_LIMITS.nameLength,
  pattern: '\\S',
  description: 'Shown as plain text, never as markup.',
})
const CalendarDate = Type.String({
  pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$',
  description: 'YYYY-MM-DD',
})

const PERSON_ROLES = [
  'primaryClient',
  'coClient',
  'spouse',
  'child',
  'grandchild',
  'greatGrandchild',
  'parent',
  'sibling',
  'inLaw',
  'other',
] as const
const RELATIONSHIP_TYPES = ['spouse', 'partner', 'exSpouse', 'parent'] as const
/** The records' kinds and link types, declared once (src/domain/estate-vocabulary.ts). */
export const ENTITY_KINDS = RECORD_ENTITY_KINDS
export const LINK_TYPES = RECORD_LINK_TYPES
/**
 * Payload 0.1.x's kinds and link types, frozen: the records API still answers in that shape for
 * partners pinned to 0.1.x, and the rules that 0.2.0 adds leave a payload in this vocabulary as valid
 * as 0.1.x found it. Declared in payload-0-1.ts, which has no TypeBox: the chart's rules run in the
 * browser bundle and must not pull the schema builder into it.
 */
export { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_0_1_LINK_TYPES }
export const THEMES = ['light', 'dark', 'system'] as const

export const Person = Type.Object(
  {
    id: Id,
    name: Name,
    role: StringEnum(PERSON_ROLES, { description: 'How the person stands to the clients; shown under the name.' }),
    birthDate: Type.Optional(CalendarDate),
    deathDate: Type.Optional(
      Type.Unsafe<string>({
        ...CalendarDate,
        description: 'Set for a deceased person, who is drawn muted and marked †.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const Relationship = Type.Object(
  {
    from: Id,
    to: Id,
    type: StringEnum(RELATIONSHIP_TYPES, {
      description:
        'spouse, partner and exSpouse join two people side by side (either order); parent means `from` is a parent of `to`.',
    }),
    parentKind: Type.Optional(
      StringEnum(PARENT_KINDS, {
        description:
          'Only on a parent relationship: how `from` is a parent of `to`, drawn in the usual genogram line style (biological solid, adopted dashed, step and foster dotted). Absent means biological.',
      }),
    ),
    since: Type.Optional(
      Type.Unsafe<string>({
        ...CalendarDate,
        description:
          'Only on spouse, partner and exSpouse: the date the marriage or partnership began (YYYY-MM-DD); orders marriages and is shown as "m. 1990".',
      }),
    ),
    until: Type.Optional(
      Type.Unsafe<string>({
        ...CalendarDate,
        description:
          'Only on spouse, partner and exSpouse: the date it ended (YYYY-MM-DD), by divorce or separation (exSpouse, partner) or by a death (spouse); not before since.',
      }),
    ),
  },
  { additionalProperties: false },
)

const IN_ESTATE_BY_DEFAULT = ENTITY_KINDS.filter((kind) => defaultEstateSide(kind) === 'in')
const OUT_OF_ESTATE_BY_DEFAULT = ENTITY_KINDS.filter((kind) => defaultEstateSide(kind) === 'out')
const PARTY_KINDS = ENTITY_KINDS.filter(isParty)
const kindsOf = (group: EntityGroup) => ENTITY_KINDS.filter((kind) => entityGroupOf(kind) === group).join(', ')

export const Entity = Type.Object(
  {
    id: Id,
    name: Name,
    shortName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        pattern: '\\S',
        description:
          'What boxes, chips and lines are labelled with when the name is too long (e.g. "SLAT-C"); the full name stays in the summary and the text version. 1–40 characters.',
      }),
    ),
    kind: StringEnum(ENTITY_KINDS, {
      description: `Trusts (${kindsOf('trust')}), business entities (${kindsOf('business')}), charities (${kindsOf('charity')}), holdings (${kindsOf('holding')}), parties that act but hold nothing (${PARTY_KINDS.join(', ')}), and other (payload 0.1.x's catch-all).`,
    }),
    value: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: PAYLOAD_LIMITS.value,
        description: 'Value in the household’s currency, shown rounded. A party has none.',
      }),
    ),
    valueAsOf: Type.Optional(
      Type.Unsafe<string>({
        ...CalendarDate,
        description: 'The date value was valued at (YYYY-MM-DD), shown beside it. A party has none.',
      }),
    ),
    estate: Type.Optional(
      StringEnum(ESTATE_SIDES, {
        description: `Inside or outside the taxable estate. When absent, the kind's default: ${IN_ESTATE_BY_DEFAULT.join(', ')} are in; ${OUT_OF_ESTATE_BY_DEFAULT.join(', ')} are out. A party has none and is never counted.`,
      }),
    ),
  },
  { additionalProperties: false },
)

export const Link = Type.Object(
  {
    from: Type.Unsafe<string>({
      ...Id,
      description: 'The person or entity that holds the role (grantor, trustee, beneficiary, owner, …) in the entity.',
    }),
    to: Type.Unsafe<string>({ ...Id, description: 'The entity.' }),
    type: StringEnum(LINK_TYPES, {
      description:
        'What `from` is of the entity: grantor, trustee or successorTrustee (of a trust or a charity), beneficiary, owner, insured (the person a life-insurance policy insures), generalPartner or limitedPartner (of an flp, llc or corporation). A party (corporateTrustee, lawFirm, otherParty) can only be a grantor, trustee or successorTrustee, and no one can own, benefit from or be insured by a party.',
    }),
    share: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description:
          'Percentage, for beneficiaries, owners and partners (generalPartner, limitedPartner): 50 means 50 %.',
      }),
    ),
    beneficiaryType: Type.Optional(
      StringEnum(BENEFICIARY_TYPES, {
        description:
          'Only on a beneficiary link: primary (absent means primary), contingent (takes if the primary beneficiaries do not), income (receives the income only) or remainder (receives what is left at the end).',
      }),
    ),
  },
  { additionalProperties: false },
)

export const Payload = Type.Object(
  {
    household: Type.Object(
      {
        name: Name,
        currency: Type.Optional(
          Type.String({
            pattern: '^[A-Z]{3}$',
            description:
              'The ISO 4217 code of the currency every value is in ("USD"); values are shown without a symbol when absent.',
          }),
        ),
        asOf: Type.Optional(
          Type.Unsafe<string>({
            ...CalendarDate,
            description: 'The date the household’s figures are as of (YYYY-MM-DD), printed in the title block.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    people: Type.Array(Person, { minItems: 1, maxItems: PAYLOAD_LIMITS.people }),
    relationships: Type.Optional(Type.Array(Relationship, { maxItems: PAYLOAD_LIMITS.relationships })),
    entities: Type.Optional(Type.Array(Entity, { maxItems: PAYLOAD_LIMITS.entities })),
    links: Type.Optional(Type.Array(Link, { maxItems: PAYLOAD_LIMITS.links })),
    options: Type.Optional(Type.Object({ theme: Type.Optional(StringEnum(THEMES)) }, { additionalProperties: false })),
  },
  {
    additionalProperties: false,
    title: 'Hearth household chart payload, version 1',
    description:
      'The `payload` of the render message (protocol v1). Ids must be unique across people and entities, every relationship and link must name known ids, and no one may be their own ancestor; the chart answers payload_invalid with the JSON Pointer of the first problem.',
  },
)

export type Payload = Static<typeof Payload>
export type Person = Static<typeof Person>
export type Relationship = Static<typeof Relationship>
export type Entity = Static<typeof Entity>
export type Link = Static<typeof Link>
export type Theme = (typeof THEMES)[number]
export type EntityKind = (typeof ENTITY_KINDS)[number]
export type LinkType = (typeof LINK_TYPES)[number]
export type EntityKind01 = (typeof PAYLOAD_0_1_ENTITY_KINDS)[number]
export type LinkType01 = (typeof PAYLOAD_0_1_LINK_TYPES)[number]

/** The published JSON Schema document (payload.schema.json). */
export function payloadJsonSchema(version: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(JSON.parse(JSON.stringify(Payload)) as Record<string, unknown>),
    title: `Hearth household chart payload, version 1 (chart ${version})`,
  }
}
