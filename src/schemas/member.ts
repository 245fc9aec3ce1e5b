// The members of a household (people, with their relationships to each other): one schema feeds
// request validation, the TypeScript types of the handlers and the OpenAPI document.
import { Type, type Static } from 'typebox'
import { Nullable, StringEnum, Uuid } from './common.ts'
import { MEMBER_ROLES } from '../domain/household-roles.ts'

export type MemberRole = (typeof MEMBER_ROLES)[number]

export const RELATIONSHIP_TYPES = ['spouse', 'partner', 'exSpouse', 'parent'] as const
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number]

export const EMAIL_MAX = 254
/** More than any real household needs; keeps one request's work bounded. */
export const RELATIONSHIPS_MAX = 100

export const MemberRelationship = Type.Object(
  {
    memberId: Uuid,
    type: StringEnum(RELATIONSHIP_TYPES, {
      description:
        'spouse, partner and exSpouse are mutual: they show on both members. parent is read from this member: {memberId: X, type: "parent"} means X is a parent of this member, and shows on this member (the child) only.',
    }),
  },
  { title: 'MemberRelationship', additionalProperties: false },
)
export type MemberRelationship = Static<typeof MemberRelationship>

const RELATIONSHIPS_DESCRIPTION =
  'This member\'s relationships to other members of the same household: the spouses, partners and ex-spouses, and the member\'s parents (not its children, who list this member as their parent). Two members have at most one relationship, nobody can be their own ancestor, and every memberId must be a member of this household.'

const memberFields = {
  name: Type.String({ minLength: 1, maxLength: 1000, description: 'Trimmed; 1 to 200 characters after trimming.' }),
  role: StringEnum(MEMBER_ROLES, { description: 'A household has at most one primaryClient and one coClient.' }),
  birthDate: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date from 1800 to today.' })),
  deathDate: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date from 1800 to today, not before birthDate.' })),
  email: Nullable(Type.String({ maxLength: 1000, description: `Trimmed; a plausible address (name@domain) of at most ${EMAIL_MAX} characters.` })),
  relationships: Type.Array(MemberRelationship, { maxItems: RELATIONSHIPS_MAX, description: RELATIONSHIPS_DESCRIPTION }),
}

export const Member = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    role: memberFields.role,
    birthDate: memberFields.birthDate,
    deathDate: memberFields.deathDate,
    email: memberFields.email,
    relationships: memberFields.relationships,
  },
  { title: 'Member', additionalProperties: false, description: 'A person of the household; optional fields are null when not set.' },
)
export type Member = Static<typeof Member>

export const CreateMemberBody = Type.Object(
  {
    name: memberFields.name,
    role: memberFields.role,
    birthDate: Type.Optional(memberFields.birthDate),
    deathDate: Type.Optional(memberFields.deathDate),
    email: Type.Optional(memberFields.email),
    relationships: Type.Optional(memberFields.relationships),
  },
  {
    title: 'CreateMemberBody',
    additionalProperties: false,
    description: 'name and role are required. Omitted optional fields and null are the same: not set. Unknown fields are refused.',
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
    relationships: Type.Optional(
      Nullable(Type.Array(MemberRelationship, { maxItems: RELATIONSHIPS_MAX, description: `${RELATIONSHIPS_DESCRIPTION} Sent, it replaces the whole set; null clears it.` })),
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
  { members: Type.Array(Member, { description: 'Every member of the household, in the order of the household\'s members list.' }) },
  { title: 'MemberList', additionalProperties: false },
)

export const MemberParams = Type.Object({
  id: Type.String({ description: 'The household id (a UUID).' }),
  memberId: Type.String({ description: 'The member id (a UUID).' }),
})
