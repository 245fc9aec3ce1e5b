// The members of a household (people, with their relationships to each other): one schema feeds
// request validation, the TypeScript types of the handlers and the OpenAPI document.
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum, Uuid } from './common.ts'
import { MEMBER_ROLES } from '../domain/household-roles.ts'
import { EXTERNAL_ID_PATTERN } from '../domain/external-id.ts'
import { PARENT_KINDS } from '../domain/estate-vocabulary.ts'

export type MemberRole = (typeof MEMBER_ROLES)[number]

export const KINSHIP_TYPES = ['spouse', 'partner', 'exSpouse', 'parent'] as const
export type KinshipType = (typeof KINSHIP_TYPES)[number]
export type { ParentKind } from '../domain/estate-vocabulary.ts'

export const EMAIL_MAX = 254
/** More than any real household needs; keeps one request's work bounded. */
const KINSHIPS_MAX = 100

const kinshipFields = {
  memberId: Uuid,
  type: StringEnum(KINSHIP_TYPES, {
    description:
      'spouse, partner and exSpouse are mutual: they show on both members. parent is read from this member: {memberId: X, type: "parent"} means X is a parent of this member, and shows on this member (the child) only.',
  }),
  parentKind: Nullable(
    StringEnum(PARENT_KINDS, {
      description: 'Only for type parent: biological, adopted, step or foster; null when not stated.',
    }),
  ),
  since: Nullable(
    Type.String({
      format: 'date',
      description:
        'Only for spouse, partner and exSpouse: when they married or became partners (YYYY-MM-DD, from 1800 to today). Set on either member, it shows on both.',
    }),
  ),
  until: Nullable(
    Type.String({
      format: 'date',
      description:
        'Only for spouse, partner and exSpouse: when the marriage or partnership ended (YYYY-MM-DD, from 1800 to today, not before since).',
    }),
  ),
}

export const Kinship = Type.Object(
  {
    memberId: kinshipFields.memberId,
    type: kinshipFields.type,
    parentKind: Type.Optional(kinshipFields.parentKind),
    since: Type.Optional(kinshipFields.since),
    until: Type.Optional(kinshipFields.until),
  },
  {
    title: 'MemberRelationshipInput',
    additionalProperties: false,
    description: 'parentKind, since and until are optional; omitted and null are the same: not stated.',
  },
)
export type Kinship = Static<typeof Kinship>

/** A kinship as responses carry it: every field, null when not stated. */
const KinshipRead = Type.Object(kinshipFields, { title: 'MemberRelationship', additionalProperties: false })

const KINSHIPS_DESCRIPTION =
  "This member's relationships to other members of the same household: the spouses, partners and ex-spouses, and the member's parents (not its children, who list this member as their parent). Two members have at most one relationship, nobody can be their own ancestor, and every memberId must be a member of this household."

const memberFields = {
  name: Type.String({ minLength: 1, maxLength: 1000, description: 'Trimmed; 1 to 200 characters after trimming.' }),
  role: StringEnum(MEMBER_ROLES, {
    description:
      "How the person stands to the clients (the chart's roles). A household has at most one primaryClient and one coClient. spouse is a client's spouse who is not a client, typically one who died: a member with role spouse and a deathDate, joined to the client by a spouse relationship, can be the parent of the children. When that member's name is the household's deceasedSpouseName, the member is that person (the chart draws it once).",
  }),
  birthDate: Nullable(
    Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date from 1800 to today.' }),
  ),
  deathDate: Nullable(
    Type.String({
      format: 'date',
      description: 'YYYY-MM-DD, a real calendar date from 1800 to today, not before birthDate.',
    }),
  ),
  email: Nullable(
    Type.String({
      maxLength: 1000,
      description: `Trimmed; a plausible address (name@domain) of at most ${EMAIL_MAX} characters.`,
    }),
  ),
  externalId: Nullable(
    Type.String({
      pattern: EXTERNAL_ID_PATTERN,
      description:
        "Your own identifier for the member (1–64 letters, digits and _ . : -, the chart payload's id rule); at most one member of a household has it (member_external_id_taken).",
    }),
  ),
  relationships: Type.Array(Kinship, {
    maxItems: KINSHIPS_MAX,
    description: KINSHIPS_DESCRIPTION,
  }),
}

export const Member = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    role: memberFields.role,
    birthDate: memberFields.birthDate,
    deathDate: memberFields.deathDate,
    email: memberFields.email,
    externalId: memberFields.externalId,
    relationships: Type.Array(KinshipRead, { description: KINSHIPS_DESCRIPTION }),
  },
  {
    title: 'Member',
    additionalProperties: false,
    description: 'A person of the household; optional fields are null when not set.',
  },
)
export type Member = Static<typeof Member>

export const CreateMemberBody = Type.Object(
  {
    name: memberFields.name,
    role: memberFields.role,
    birthDate: Type.Optional(memberFields.birthDate),
    deathDate: Type.Optional(memberFields.deathDate),
    email: Type.Optional(memberFields.email),
    externalId: Type.Optional(memberFields.externalId),
    relationships: Type.Optional(memberFields.relationships),
  },
  {
    title: 'CreateMemberBody',
    additionalProperties: false,
    description:
      'name and role are required. Omitted optional fields and null are the same: not set. Unknown fields are refused.',
  },
)
export type CreateMemberBody = Static<typeof CreateMemberBody>

export const UpdateMemberBody = Type.Object(
  {
    name: Type.Optional(memberFields.name),
    role: Type.Optional(memberFields.role),
    birthDate: Type.Optional(memberFields.birthDate),
    deathDate: Type.Optional(memberFields.deathDate),
    email: Type.Optional(memberFields.email),
    externalId: Type.Optional(memberFields.externalId),
    relationships: Type.Optional(
      Nullable(
        Type.Array(Kinship, {
          maxItems: KINSHIPS_MAX,
          description: `${KINSHIPS_DESCRIPTION} Sent, it replaces the whole set; null clears it.`,
        }),
      ),
    ),
  },
  {
    title: 'UpdateMemberBody',
    additionalProperties: false,
    minProperties: 1,
    description:
      'A JSON merge patch (RFC 7396) of the member fields: the fields sent are set, null clears an optional field, the others stay. name and role cannot be cleared. relationships, when sent, is the whole new set. The same rules as create, checked on the merged member.',
  },
)
export type UpdateMemberBody = Static<typeof UpdateMemberBody>

export const MemberEnvelope = Type.Object({ member: Member }, { title: 'MemberEnvelope', additionalProperties: false })
export const MemberList = Type.Object(
  {
    members: Type.Array(Member, {
      description: "Every member of the household, in the order of the household's members list.",
    }),
  },
  { title: 'MemberList', additionalProperties: false },
)

export const MemberParams = Type.Object({
  id: Type.String({ description: 'The household id (a UUID).' }),
  memberId: Type.String({ description: 'The member id (a UUID).' }),
})
