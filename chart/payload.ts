// Payload v1: the chart data a host page sends in the render message (DESIGN §4). This one TypeBox
// schema is published as payload.schema.json beside each pinned chart, compiled into the chart's
// validator at build time, and gives the browser code its types. Release 0.2.0 adds only optional
// fields (household currency and asOf; parentKind, since and until; shortName and valueAsOf; the
// records' kinds, parties and link types; beneficiaryType), so every 0.1.x payload stays valid. The
// kinds, link types, beneficiary types, parent kinds and estate defaults are the records API's
// (src/domain/estate-vocabulary.ts): one declaration for both. Release 0.3.0 adds, again only as
// optional fields, the facts the estate projection (the Flow view) reads: a person's citizenship and
// DSUE received, lifetime gifts, dispositions at each death and the projection's assumptions.
import { Type, type Static } from 'typebox'
import { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_0_1_LINK_TYPES } from './payload-0-1.ts'
import { PROJECTION_YEARS } from './src/flow/federal-estate-tax.ts'
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
  gifts: 1000,
  dispositions: 500,
  /** The years a projected death may fall in (chart/src/flow/federal-estate-tax.ts). */
  firstDeathYear: PROJECTION_YEARS.first,
  lastDeathYear: PROJECTION_YEARS.last,
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
const Amount = (description: string) =>
  Type.Number({ minimum: 0, maximum: PAYLOAD_LIMITS.value, description: `${description} In the household's currency.` })
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
    usCitizen: Type.Optional(
      Type.Boolean({
        description:
          'Whether the person is a US citizen. The estate projection needs it for a surviving spouse: what passes to a spouse who is not a citizen gets no marital deduction (a QDOT, which would defer the tax, is not modelled). Absent: assumed a citizen, and the Flow view says so.',
      }),
    ),
    dsueReceived: Type.Optional(
      Type.Object(
        {
          amount: Amount(
            'The deceased spousal unused exclusion (DSUE) the person received from a spouse who died before.',
          ),
          from: Type.Optional(
            Type.Unsafe<string>({ ...Id, description: 'The deceased spouse it came from, a person of the payload.' }),
          ),
          portabilityElected: Type.Optional(
            Type.Boolean({
              description:
                "Whether portability was elected on that spouse's estate: false means no DSUE passed and the amount is not counted. Absent: assumed elected, and the Flow view says so.",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            "0.3.0: a DSUE already received. It adds to the person's applicable exclusion until a later spouse dies (only the last deceased spouse's DSUE counts).",
        },
      ),
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

export const Gift = Type.Object(
  {
    donor: Type.Unsafe<string>({ ...Id, description: 'The person who made the gifts.' }),
    taxableGifts: Type.Optional(
      Amount(
        'Lifetime taxable gifts made after 1976 and not included in the gross estate (the adjusted taxable gifts added to the estate tax base). Absent: the person has made gifts whose amount is not known; counted as 0, and the Flow view says so.',
      ),
    ),
    exclusionUsed: Type.Optional(
      Amount(
        'How much of the basic exclusion those gifts used; gift tax was paid on the rest. Absent: all of taxableGifts up to the basic exclusion of the year of death (gift tax paid on any rest, and the Flow view says so). At most taxableGifts, and only with it.',
      ),
    ),
  },
  { additionalProperties: false },
)

export const DISPOSITION_FORMULAS = ['unusedExclusion'] as const

export const Disposition = Type.Object(
  {
    at: Type.Unsafe<string>({
      ...Id,
      description: 'The client (primaryClient or coClient) at whose death it takes effect.',
    }),
    from: Type.Optional(
      Type.Unsafe<string>({
        ...Id,
        description:
          "An entity whose part of the decedent's gross estate it disposes of (a revocable trust, an account). Absent: the rest of the estate (the residue).",
      }),
    ),
    to: Type.Unsafe<string>({
      ...Id,
      description:
        'Who receives it: a person, a trust (a qtip trust qualifies for the marital deduction) or a charity (foundation, daf, publicCharity: the charitable deduction).',
    }),
    share: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description: 'A percentage of what is left after the amounts and the formula: 50 means 50 %.',
      }),
    ),
    amount: Type.Optional(Amount('A fixed amount, paid before any formula or share.')),
    formula: Type.Optional(
      StringEnum(DISPOSITION_FORMULAS, {
        description:
          'unusedExclusion: as much as passes free of estate tax (the exclusion not used by gifts or other taxable dispositions): a credit-shelter gift. Paid after the amounts, before the shares.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "0.3.0: where part of a client's estate goes at their death. Exactly one of share, amount and formula. Without any for a death, the common default applies: everything to the surviving spouse at the first death, and at the second equally to the children (a child who died before them: that child's share to their children).",
  },
)

export const Assumptions = Type.Object(
  {
    firstDeath: Type.Optional(
      Type.Unsafe<string>({
        ...Id,
        description: 'The client who dies first (primaryClient or coClient). Absent: the primary client.',
      }),
    ),
    firstDeathYear: Type.Optional(
      Type.Integer({
        minimum: PAYLOAD_LIMITS.firstDeathYear,
        maximum: PAYLOAD_LIMITS.lastDeathYear,
        description: 'The year of the first death. Absent: the year of household.asOf, else this year.',
      }),
    ),
    secondDeathYear: Type.Optional(
      Type.Integer({
        minimum: PAYLOAD_LIMITS.firstDeathYear,
        maximum: PAYLOAD_LIMITS.lastDeathYear,
        description: 'The year of the second death, not before the first. Absent: the year of the first death.',
      }),
    ),
    basicExclusion: Type.Optional(
      Amount(
        'The basic exclusion amount to assume for a year after the last one the chart knows (2026: $15,000,000). Absent: the last known amount.',
      ),
    ),
    portabilityElected: Type.Optional(
      Type.Boolean({
        description:
          "Whether the first decedent's executor elects portability, passing the unused exclusion (DSUE) to the survivor. Absent: elected.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: "0.3.0: the estate projection's assumptions (the Flow view's controls start from them).",
  },
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
    gifts: Type.Optional(
      Type.Array(Gift, {
        maxItems: PAYLOAD_LIMITS.gifts,
        description: "0.3.0: each person's lifetime taxable gifts, at most one entry per donor.",
      }),
    ),
    dispositions: Type.Optional(Type.Array(Disposition, { maxItems: PAYLOAD_LIMITS.dispositions })),
    assumptions: Type.Optional(Assumptions),
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
export type Gift = Static<typeof Gift>
export type Disposition = Static<typeof Disposition>
export type Assumptions = Static<typeof Assumptions>
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
