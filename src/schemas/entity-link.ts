// Links: who holds what. A link goes from a member or an entity of a household to an entity of the
// same household, with a type (grantor, trustee, beneficiary, owner…), and for some types a share.
// One schema feeds request validation, the handlers' types and the OpenAPI document; the rules JSON
// Schema cannot say (same household, shares summing to at most 100, no ownership cycle, the type
// fitting the entity's kind) are the use case's (src/households/entity-links.ts).
import { Type, type Static } from 'typebox'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'
import { BENEFICIARY_TYPES, ESTATE_LIMITS, LINK_TYPES } from '../domain/estate-vocabulary.ts'

const LINK_TYPE_DESCRIPTION =
  'What `from` is to the entity. grantor, trustee and successorTrustee go to trusts and charities (a corporate trustee may be trustee or successorTrustee); beneficiary (with a share and a beneficiaryType) and owner (with a share) to any entity but a party; insured only to a lifeInsurance policy; generalPartner and limitedPartner (with a share) to an flp, llc or corporation. An entity of kind `other` takes any type.'

const linkFields = {
  from: Type.Unsafe<string>({
    ...Uuid,
    description:
      'The member or entity that holds the role: an id of a member or an entity of this household. An id of another household is link_target_other_household; an id of nothing in your organization is 404.',
  }),
  to: Type.Unsafe<string>({
    ...Uuid,
    description: 'The entity the link is to: an id of an entity of this household (never a member).',
  }),
  type: StringEnum(LINK_TYPES, { description: LINK_TYPE_DESCRIPTION }),
  share: Nullable(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 100,
      description:
        "A percentage in (0, 100], at most 4 decimals (50 means 50 %), only for beneficiary, owner, generalPartner and limitedPartner links. The owners' and partners' shares of one entity add up to at most 100, and so do its primary beneficiaries'.",
    }),
  ),
  beneficiaryType: Nullable(
    StringEnum(BENEFICIARY_TYPES, {
      description:
        'Only for beneficiary links: primary (the default), contingent, income or remainder. Only primary beneficiaries count towards the 100 % of an entity.',
    }),
  ),
}

export const Link = Type.Object(
  {
    id: Uuid,
    from: Uuid,
    fromType: StringEnum(['member', 'entity'] as const, { description: 'Whether `from` is a member or an entity.' }),
    to: Uuid,
    type: StringEnum(LINK_TYPES),
    share: Nullable(Type.Number({ description: 'The percentage, or null when none is set.' })),
    beneficiaryType: Nullable(
      StringEnum(BENEFICIARY_TYPES, { description: 'Set on beneficiary links (primary unless said), null on others.' }),
    ),
    createdAt: DateTime,
  },
  {
    title: 'Link',
    additionalProperties: false,
    description: 'Who holds what: `from` (a member or an entity) is `type` of the entity `to`.',
    examples: [
      {
        id: '6f1c2a9e-4b7d-4c1e-9a3f-2d5e8b7c1a40',
        from: '0b8e6a52-7c1d-4f3a-8e29-5a1b3c4d5e60',
        fromType: 'member',
        to: '9d3f1e27-2a6b-4c8d-b1e0-7f2a3b4c5d60',
        type: 'beneficiary',
        share: 50,
        beneficiaryType: 'primary',
        createdAt: '2025-03-01T12:00:00.000Z',
      },
    ],
  },
)
export type Link = Static<typeof Link>

export const CreateLinkBody = Type.Object(
  {
    from: linkFields.from,
    to: linkFields.to,
    type: linkFields.type,
    share: Type.Optional(linkFields.share),
    beneficiaryType: Type.Optional(linkFields.beneficiaryType),
  },
  {
    title: 'CreateLinkBody',
    additionalProperties: false,
    description: `from, to and type are required; share and beneficiaryType are optional (omitted and null are the same: not set). The same from, to and type once only. A household has at most ${ESTATE_LIMITS.links} links. Unknown fields are refused.`,
    examples: [
      {
        from: '0b8e6a52-7c1d-4f3a-8e29-5a1b3c4d5e60',
        to: '9d3f1e27-2a6b-4c8d-b1e0-7f2a3b4c5d60',
        type: 'beneficiary',
        share: 50,
        beneficiaryType: 'primary',
      },
      { from: '0b8e6a52-7c1d-4f3a-8e29-5a1b3c4d5e60', to: '9d3f1e27-2a6b-4c8d-b1e0-7f2a3b4c5d60', type: 'trustee' },
    ],
  },
)
export type CreateLinkBody = Static<typeof CreateLinkBody>

export const UpdateLinkBody = Type.Object(
  {
    share: Type.Optional(linkFields.share),
    beneficiaryType: Type.Optional(linkFields.beneficiaryType),
  },
  {
    title: 'UpdateLinkBody',
    additionalProperties: false,
    minProperties: 1,
    description:
      "A JSON merge patch (RFC 7396) of a link's share and beneficiaryType: the fields sent are set, null clears (a beneficiary's beneficiaryType goes back to primary), the other stays. from, to and type cannot change: delete the link and create another. The same rules as create, checked on the merged link.",
    examples: [{ share: 25 }, { beneficiaryType: 'contingent', share: null }],
  },
)
export type UpdateLinkBody = Static<typeof UpdateLinkBody>

export const LinkEnvelope = Type.Object({ link: Link }, { title: 'LinkEnvelope', additionalProperties: false })
export const LinkList = Type.Object(
  {
    links: Type.Array(Link, {
      description: 'The links of the household (or of one entity, with ?entityId=), oldest first.',
    }),
  },
  { title: 'LinkList', additionalProperties: false },
)

export const LinkParams = Type.Object({
  id: Type.String({ description: 'The household id (a UUID).' }),
  linkId: Type.String({ description: 'The link id (a UUID).' }),
})

export const LinkListQuery = Type.Object(
  {
    entityId: Type.Optional(
      Type.String({
        description:
          'Only the links to or from this entity of the household (a UUID); an id of no entity of the household is 404.',
      }),
    ),
  },
  { additionalProperties: false },
)
