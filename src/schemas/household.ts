// The relationship (wire name: household) resource: one schema feeds request validation,
// the TypeScript types of the handlers and the OpenAPI document.
import { Type, type Static, type TOptional } from 'typebox'
import { ASSIGNMENT_ROLES, MEMBER_ROLES } from '../domain/household-roles.ts'
import { HOUSEHOLD_FIELD_NAMES, HOUSEHOLD_FIELDS } from '../households/household-fields.ts'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'
import { EXTERNAL_ID_PATTERN } from '../domain/external-id.ts'

const SORT_KEYS = ['name', 'members', 'createdAt'] as const
const SORT_ORDERS = ['asc', 'desc'] as const

const MemberSummary = Type.Object(
  { id: Uuid, name: Type.String(), role: StringEnum(MEMBER_ROLES) },
  { title: 'MemberSummary', additionalProperties: false },
)

export const AssignmentSummary = Type.Object(
  { userId: Uuid, name: Type.String(), role: StringEnum(ASSIGNMENT_ROLES) },
  { title: 'AssignmentSummary', additionalProperties: false },
)
export type AssignmentSummary = Static<typeof AssignmentSummary>

type Fields = typeof HOUSEHOLD_FIELDS
type FieldName = keyof Fields
/** The fields' schemas as responses carry them, of the list item (inList true) or the rest. */
type ReadFields<InList extends boolean> = {
  [K in FieldName as Fields[K]['inListItems'] extends InList ? K : never]: Fields[K]['schema']
}
function readFields<InList extends boolean>(inList: InList): ReadFields<InList> {
  const names = HOUSEHOLD_FIELD_NAMES.filter((name) => HOUSEHOLD_FIELDS[name].inListItems === inList)
  return Object.fromEntries(
    names.map((name) => {
      const declaration: { schema: unknown; readSchema?: unknown } = HOUSEHOLD_FIELDS[name]
      return [name, declaration.readSchema ?? declaration.schema]
    }),
  ) as ReadFields<InList>
}

const listItemProperties = {
  id: Uuid,
  ...readFields(true),
  createdAt: DateTime,
  updatedAt: DateTime,
  isSample: Type.Boolean({
    description: 'Sample households come with a new organization; filter with isSample/excludeSample.',
  }),
  members: Type.Array(MemberSummary, { description: 'People of the household, primary client first.' }),
  assignments: Type.Array(AssignmentSummary, { description: 'Advisors assigned to the household.' }),
  counts: Type.Object(
    {
      members: Type.Integer({ minimum: 0 }),
      assignments: Type.Integer({ minimum: 0 }),
      entities: Type.Integer({
        minimum: 0,
        description: 'Trusts, business entities, charities, holdings and parties.',
      }),
    },
    { additionalProperties: false },
  ),
}

export const HouseholdListItem = Type.Object(listItemProperties, {
  title: 'HouseholdListItem',
  additionalProperties: false,
})
export type HouseholdListItem = Static<typeof HouseholdListItem>

// Rules that JSON Schema cannot say (trimmed length, cents, a real past date, metadata size and
// depth) are declared with each field in households/household-fields.ts and documented here.
type CreateProperties = {
  [K in FieldName]: Fields[K]['required'] extends true ? Fields[K]['schema'] : TOptional<Fields[K]['schema']>
}
type PatchProperties = { [K in FieldName]: TOptional<Fields[K]['schema']> }

const createProperties = Object.fromEntries(
  HOUSEHOLD_FIELD_NAMES.map((name) => {
    const { schema, required } = HOUSEHOLD_FIELDS[name]
    return [name, required ? schema : Type.Optional(schema)]
  }),
) as CreateProperties
const patchProperties = Object.fromEntries(
  HOUSEHOLD_FIELD_NAMES.map((name) => [name, Type.Optional(HOUSEHOLD_FIELDS[name].schema)]),
) as PatchProperties

export const CreateHouseholdBody = Type.Object(createProperties, {
  title: 'CreateHouseholdBody',
  additionalProperties: false,
  description:
    'Only name is required. Omitted optional fields and null are the same: not set. Unknown fields are refused.',
})
export type CreateHouseholdBody = Static<typeof CreateHouseholdBody>

export const UpdateHouseholdBody = Type.Object(patchProperties, {
  title: 'UpdateHouseholdBody',
  additionalProperties: false,
  minProperties: 1,
  description:
    'A JSON merge patch (RFC 7396) of the create fields: the fields sent are set, null clears an optional field, the others stay. name cannot be cleared. The same rules as create.',
})
export type UpdateHouseholdBody = Static<typeof UpdateHouseholdBody>

export const Household = Type.Object(
  {
    ...listItemProperties,
    ...readFields(false),
  },
  {
    title: 'Household',
    additionalProperties: false,
    description: 'A list item plus every create field (null when not set).',
  },
)
export type Household = Static<typeof Household>

export const ListQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "Case-insensitive substring of the household name, its members' names, the deceased spouse's name or its entities' names. %, _ and \\ are literal. Empty means no filter.",
      }),
    ),
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000_000,
        default: 1,
        description:
          'Jump to this page. Its cost grows with its offset; to walk a long list page by page, follow nextCursor instead.',
      }),
    ),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    sortBy: Type.Optional(
      StringEnum(SORT_KEYS, { default: 'createdAt', description: 'Ties are broken by id, so pages never overlap.' }),
    ),
    sortOrder: Type.Optional(StringEnum(SORT_ORDERS, { default: 'desc' })),
    excludeSample: Type.Optional(
      Type.Boolean({ description: 'true: leave sample households out. Cannot be combined with isSample=true.' }),
    ),
    isSample: Type.Optional(Type.Boolean({ description: 'true: only sample households; false: only the others.' })),
    externalId: Type.Optional(
      Type.String({
        pattern: EXTERNAL_ID_PATTERN,
        description:
          'Only the household with this externalId (your own id for it): a list of one household, or of none.',
      }),
    ),
    ids: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Household UUIDs; repeat the key and/or separate with commas. At most 1000 distinct ids.',
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description:
          'nextCursor of the previous page: returns the page after it, as fast as page 1 however deep it is. Send it with the same sortBy, sortOrder, search, isSample, excludeSample, externalId, ids and pageSize as that request, and without page; otherwise 400 invalid_cursor (or invalid_query with page).',
      }),
    ),
  },
  { additionalProperties: true, description: 'Unknown query parameters are ignored.' },
)
export type ListQuery = Static<typeof ListQuery>

export const HouseholdList = Type.Object(
  {
    households: Type.Array(HouseholdListItem, { maxItems: 1000 }),
    total: Type.Integer({ minimum: 0, description: 'Exact number of households matching the filters.' }),
    page: Type.Integer({ minimum: 1 }),
    pageSize: Type.Integer({ minimum: 1, maximum: 1000 }),
    nextCursor: Nullable(
      Type.String({
        description:
          "Pass as cursor (with the same query, without page) to get the next page; null on the last page. The next page starts right after this page's last household: households created or deleted meanwhile do not shift it.",
      }),
    ),
  },
  { title: 'HouseholdList', additionalProperties: false },
)
export type HouseholdList = Static<typeof HouseholdList>

export const HouseholdEnvelope = Type.Object(
  { household: Household },
  { title: 'HouseholdEnvelope', additionalProperties: false },
)
