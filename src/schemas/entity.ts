// The entities of a household (trusts, business entities, charities, holdings, parties) and their
// valuations: the field schemas come from ENTITY_FIELDS (households/entity-fields.ts), which also
// declares the rules the schemas cannot say; one schema feeds request validation, the handlers'
// types and the OpenAPI document.
import { Type, type Static } from 'typebox'
import { ENTITY_FIELDS } from '../households/entity-fields.ts'
import { createProperties, patchProperties, readProperties } from '../households/field-declaration.ts'
import { ESTATE_LIMITS } from '../domain/estate-vocabulary.ts'
import { DateTime, Nullable, Uuid } from './common.ts'

const EXAMPLE_ID = '9d3f1e27-2a6b-4c8d-b1e0-7f2a3b4c5d60'

export const Entity = Type.Object(
  {
    id: Uuid,
    ...readProperties(ENTITY_FIELDS),
    estateSet: Type.Boolean({
      description: "true when estate was set by the advisor, false when it is the kind's default (or a party's none).",
    }),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  {
    title: 'Entity',
    additionalProperties: false,
    description:
      'A trust, business entity, charity, holding or party of the household; optional fields are null when not set.',
    examples: [
      {
        id: EXAMPLE_ID,
        name: 'Spousal Lifetime Access Trust',
        shortName: 'SLAT-C',
        kind: 'slat',
        value: 2500000,
        valueAsOf: '2025-01-31',
        estate: 'out',
        estateSet: false,
        notes: null,
        externalId: 'slat-c',
        createdAt: '2025-03-01T12:00:00.000Z',
        updatedAt: '2025-03-01T12:00:00.000Z',
      },
    ],
  },
)
export type Entity = Static<typeof Entity>

export const CreateEntityBody = Type.Object(createProperties(ENTITY_FIELDS), {
  title: 'CreateEntityBody',
  additionalProperties: false,
  description: `name and kind are required. Omitted optional fields and null are the same: not set. A party (corporateTrustee, lawFirm, otherParty) takes no value, valueAsOf or estate. externalId names one entity of the household. A household has at most ${ESTATE_LIMITS.entities} entities. Unknown fields are refused.`,
  examples: [
    {
      name: 'Spousal Lifetime Access Trust',
      shortName: 'SLAT-C',
      kind: 'slat',
      value: 2500000,
      valueAsOf: '2025-01-31',
    },
    { name: 'First Fiduciary Trust Co.', kind: 'corporateTrustee' },
  ],
})
export type CreateEntityBody = Static<typeof CreateEntityBody>

export const UpdateEntityBody = Type.Object(patchProperties(ENTITY_FIELDS), {
  title: 'UpdateEntityBody',
  additionalProperties: false,
  minProperties: 1,
  description:
    "A JSON merge patch (RFC 7396) of the entity fields: the fields sent are set, null clears an optional field (estate null: back to the kind's default), the others stay. name and kind cannot be cleared. The same rules as create, checked on the merged entity; a kind cannot become a party while the entity has owners, partners, beneficiaries or an insured. A change of value or valueAsOf adds a valuation.",
  examples: [{ value: 2750000, valueAsOf: '2025-06-30' }, { estate: 'in' }, { shortName: null }],
})
export type UpdateEntityBody = Static<typeof UpdateEntityBody>

export const EntityEnvelope = Type.Object({ entity: Entity }, { title: 'EntityEnvelope', additionalProperties: false })
export const EntityList = Type.Object(
  {
    entities: Type.Array(Entity, {
      maxItems: ESTATE_LIMITS.entities,
      description: 'Every entity of the household, in the order they were added.',
    }),
  },
  { title: 'EntityList', additionalProperties: false },
)

export const Valuation = Type.Object(
  {
    value: Nullable(
      Type.Number({ description: 'The value from then on; null when it was cleared (or only valueAsOf was set).' }),
    ),
    valueAsOf: Nullable(Type.String({ format: 'date', description: 'The date it was valued at, when given.' })),
    recordedAt: DateTime,
  },
  { title: 'Valuation', additionalProperties: false },
)
export type Valuation = Static<typeof Valuation>

export const ValuationList = Type.Object(
  {
    valuations: Type.Array(Valuation, {
      description:
        'Every value the entity has had, newest first: one when it was created with a value, one per change of value or valueAsOf. They go with the entity when it is deleted.',
    }),
  },
  {
    title: 'ValuationList',
    additionalProperties: false,
    examples: [
      {
        valuations: [
          { value: 2750000, valueAsOf: '2025-06-30', recordedAt: '2025-07-02T09:30:00.000Z' },
          { value: 2500000, valueAsOf: '2025-01-31', recordedAt: '2025-03-01T12:00:00.000Z' },
        ],
      },
    ],
  },
)

export const EntityParams = Type.Object({
  id: Type.String({ description: 'The household id (a UUID).' }),
  entityId: Type.String({ description: 'The entity id (a UUID).' }),
})
