// Payload v1: the chart data a host page sends in the render message (DESIGN §4). This one TypeBox
// schema is published as payload.schema.json beside each pinned chart, compiled into the chart's
// validator at build time, and gives the browser code its types.
import { Type, type Static } from 'typebox'

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
export const ENTITY_KINDS = [
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
] as const
export const LINK_TYPES = ['grantor', 'trustee', 'beneficiary', 'owner'] as const
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
  },
  { additionalProperties: false },
)

export const Entity = Type.Object(
  {
    id: Id,
    name: Name,
    kind: StringEnum(ENTITY_KINDS),
    value: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: PAYLOAD_LIMITS.value,
        description: 'Value in the household’s currency, shown rounded.',
      }),
    ),
    estate: Type.Optional(
      StringEnum(['in', 'out'] as const, {
        description:
          'Inside or outside the taxable estate. When absent: revocable trusts, LLCs, FLPs and other entities are in; the other trusts, foundations and DAFs are out.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const Link = Type.Object(
  {
    from: Type.Unsafe<string>({
      ...Id,
      description: 'The person or entity that is grantor, trustee, beneficiary or owner.',
    }),
    to: Type.Unsafe<string>({ ...Id, description: 'The entity.' }),
    type: StringEnum(LINK_TYPES),
    share: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description: 'Percentage, for beneficiaries and owners: 50 means 50 %.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const Payload = Type.Object(
  {
    household: Type.Object({ name: Name }, { additionalProperties: false }),
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

/** The published JSON Schema document (payload.schema.json). */
export function payloadJsonSchema(version: string): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(JSON.parse(JSON.stringify(Payload)) as Record<string, unknown>),
    title: `Hearth household chart payload, version 1 (chart ${version})`,
  }
}
