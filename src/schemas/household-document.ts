// A household whole, keyed by the partner's own ids (issue 17): the body of PUT
// /api/v1/relationships/by-external-id/{externalId} and each line of an import share this one
// schema. It is the household's create fields, and its members, entities and links, each member
// and entity named by its externalId, and relationships and links naming them by it too, so a
// sync job sends what it holds without knowing any Hearth id. The rules beyond the schema are the
// records' own (src/domain/household-document.ts applies them).
import { Type, type Static } from 'typebox'
import { HOUSEHOLD_FIELDS } from '../households/household-fields.ts'
import { ENTITY_FIELDS } from '../households/entity-fields.ts'
import { createProperties, type CreateProperties } from '../households/field-declaration.ts'
import { EXTERNAL_ID_PATTERN } from '../domain/external-id.ts'
import { ESTATE_LIMITS } from '../domain/estate-vocabulary.ts'
import { PAYLOAD_LIMITS } from '../../chart/payload.ts'
import { CreateLinkBody } from './entity-link.ts'
import { CreateMemberBody, Kinship, Member } from './member.ts'
import { Entity } from './entity.ts'
import { Link } from './entity-link.ts'
import { Household } from './household.ts'

/** More than any real household needs; keeps one member's work bounded (as the members API's). */
const KINSHIPS_MAX = 100

const ExternalId = (description: string) => Type.String({ pattern: EXTERNAL_ID_PATTERN, description })

const DocumentKinship = Type.Object(
  {
    externalId: ExternalId('The other member, by its externalId in this document.'),
    type: Kinship.properties.type,
    parentKind: Kinship.properties.parentKind,
    since: Kinship.properties.since,
    until: Kinship.properties.until,
  },
  {
    title: 'DocumentRelationship',
    additionalProperties: false,
    description:
      'As a member\'s relationships in the members API, naming the other member by externalId: {externalId: X, type: "parent"} means X is a parent of this member.',
  },
)

const member = CreateMemberBody.properties
const DocumentMember = Type.Object(
  {
    externalId: ExternalId(
      'Your id for the member, unique in the document: the member that has it now is updated (its Hearth id kept), else one is created; members of the household the document does not name are deleted.',
    ),
    name: member.name,
    role: member.role,
    birthDate: member.birthDate,
    deathDate: member.deathDate,
    email: member.email,
    relationships: Type.Optional(Type.Array(DocumentKinship, { maxItems: KINSHIPS_MAX })),
  },
  { title: 'DocumentMember', additionalProperties: false },
)

/** An entity's create fields but externalId, which a document requires. */
const entityFields = Object.fromEntries(
  Object.entries(createProperties(ENTITY_FIELDS)).filter(([name]) => name !== 'externalId'),
) as Omit<CreateProperties<typeof ENTITY_FIELDS>, 'externalId'>
const DocumentEntity = Type.Object(
  {
    externalId: ExternalId(
      'Your id for the entity, unique in the document and not the externalId of a member of it: matched as members are.',
    ),
    ...entityFields,
  },
  { title: 'DocumentEntity', additionalProperties: false },
)

const DocumentLink = Type.Object(
  {
    from: ExternalId('The member or entity that holds the role, by its externalId in this document.'),
    to: ExternalId('The entity, by its externalId in this document.'),
    type: CreateLinkBody.properties.type,
    share: CreateLinkBody.properties.share,
    beneficiaryType: CreateLinkBody.properties.beneficiaryType,
  },
  { title: 'DocumentLink', additionalProperties: false },
)

export const HouseholdDocument = Type.Object(
  {
    ...createProperties(HOUSEHOLD_FIELDS),
    members: Type.Optional(Type.Array(DocumentMember, { maxItems: PAYLOAD_LIMITS.people })),
    entities: Type.Optional(Type.Array(DocumentEntity, { maxItems: ESTATE_LIMITS.entities })),
    links: Type.Optional(Type.Array(DocumentLink, { maxItems: ESTATE_LIMITS.links })),
  },
  {
    title: 'HouseholdDocument',
    additionalProperties: false,
    description:
      "A household whole: its create fields (name required; an optional field left out or null is not set), and its members, entities and links (each list left out is empty). externalId is the household's: in PUT …/by-external-id/{externalId} the path's (a different one here is 400), required on each import line. Every rule of the records applies, with the same codes, and the refusal's field points into the document.",
    examples: [
      {
        externalId: 'crm-1042',
        name: 'Rivera Family',
        members: [
          { externalId: 'crm-pat', name: 'Pat Rivera', role: 'primaryClient', birthDate: '1961-04-02' },
          {
            externalId: 'crm-sam',
            name: 'Sam Rivera',
            role: 'coClient',
            relationships: [{ externalId: 'crm-pat', type: 'spouse' }],
          },
          {
            externalId: 'crm-ava',
            name: 'Ava Rivera',
            role: 'child',
            relationships: [
              { externalId: 'crm-pat', type: 'parent' },
              { externalId: 'crm-sam', type: 'parent' },
            ],
          },
        ],
        entities: [{ externalId: 'rlt', name: 'Rivera Revocable Trust', kind: 'revocableTrust', value: 2500000 }],
        links: [
          { from: 'crm-pat', to: 'rlt', type: 'grantor' },
          { from: 'crm-ava', to: 'rlt', type: 'beneficiary', share: 100 },
        ],
      },
    ],
  },
)
export type HouseholdDocument = Static<typeof HouseholdDocument>

/** A household whole as the API answers it: as GET of the household, its members, entities and links answer them. */
export const HouseholdWhole = Type.Object(
  {
    household: Household,
    members: Type.Array(Member),
    entities: Type.Array(Entity),
    links: Type.Array(Link),
  },
  {
    title: 'HouseholdWhole',
    additionalProperties: false,
    description: 'The data of the household.replaced event the write emitted.',
  },
)
