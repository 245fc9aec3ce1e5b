// The relationship (wire name: household) resource: one schema feeds request validation,
// the TypeScript types of the handlers and the OpenAPI document.
import { Type, type Static } from 'typebox'
import { ASSIGNMENT_ROLES, MEMBER_ROLES } from '../domain/household-roles.ts'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'

export const SORT_KEYS = ['name', 'members', 'createdAt'] as const
export const SORT_ORDERS = ['asc', 'desc'] as const

export const MemberSummary = Type.Object(
  { id: Uuid, name: Type.String(), role: StringEnum(MEMBER_ROLES) },
  { title: 'MemberSummary', additionalProperties: false },
)

export const AssignmentSummary = Type.Object(
  { userId: Uuid, name: Type.String(), role: StringEnum(ASSIGNMENT_ROLES) },
  { title: 'AssignmentSummary', additionalProperties: false },
)
export type AssignmentSummary = Static<typeof AssignmentSummary>

const listItemProperties = {
  id: Uuid,
  name: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime,
  isSample: Type.Boolean({ description: 'Sample households come with a new organization; filter with isSample/excludeSample.' }),
  members: Type.Array(MemberSummary, { description: 'People of the household, primary client first.' }),
  assignments: Type.Array(AssignmentSummary, { description: 'Advisors assigned to the household.' }),
  counts: Type.Object(
    { members: Type.Integer({ minimum: 0 }), assignments: Type.Integer({ minimum: 0 }) },
    { additionalProperties: false },
  ),
}

export const HouseholdListItem = Type.Object(listItemProperties, {
  title: 'HouseholdListItem',
  additionalProperties: false,
})
export type HouseholdListItem = Static<typeof HouseholdListItem>

const DSUE_MAX = 1e12
const NAME_MAX = 200

// Rules that JSON Schema cannot say (trimmed length, cents, a real past date, metadata size and
// depth) are enforced in domain/household-input.ts and documented here.
const createFields = {
  name: Type.String({ minLength: 1, maxLength: 1000, description: `Trimmed; 1 to ${NAME_MAX} characters after trimming.` }),
  dsueReceived: Nullable(
    Type.Number({ minimum: 0, maximum: DSUE_MAX, description: 'Deceased spousal unused exclusion received, in dollars, at most 2 decimals.' }),
  ),
  deceasedSpouseName: Nullable(Type.String({ maxLength: 1000, description: `Trimmed; at most ${NAME_MAX} characters.` })),
  dsueDateOfDeath: Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date, not in the future.' })),
  metadata: Nullable(
    Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      additionalProperties: true,
      description: 'Free-form JSON object: at most 16 KB serialized and 8 levels deep.',
    }),
  ),
  primaryClientAsDonor: Nullable(Type.Boolean()),
  coClientAsDonor: Nullable(Type.Boolean()),
}

export const CreateHouseholdBody = Type.Object(
  {
    name: createFields.name,
    dsueReceived: Type.Optional(createFields.dsueReceived),
    deceasedSpouseName: Type.Optional(createFields.deceasedSpouseName),
    dsueDateOfDeath: Type.Optional(createFields.dsueDateOfDeath),
    metadata: Type.Optional(createFields.metadata),
    primaryClientAsDonor: Type.Optional(createFields.primaryClientAsDonor),
    coClientAsDonor: Type.Optional(createFields.coClientAsDonor),
  },
  {
    title: 'CreateHouseholdBody',
    additionalProperties: false,
    description: 'Only name is required. Omitted optional fields and null are the same: not set. Unknown fields are refused.',
  },
)
export type CreateHouseholdBody = Static<typeof CreateHouseholdBody>

export const UpdateHouseholdBody = Type.Object(
  {
    name: Type.Optional(createFields.name),
    dsueReceived: Type.Optional(createFields.dsueReceived),
    deceasedSpouseName: Type.Optional(createFields.deceasedSpouseName),
    dsueDateOfDeath: Type.Optional(createFields.dsueDateOfDeath),
    metadata: Type.Optional(createFields.metadata),
    primaryClientAsDonor: Type.Optional(createFields.primaryClientAsDonor),
    coClientAsDonor: Type.Optional(createFields.coClientAsDonor),
  },
  {
    title: 'UpdateHouseholdBody',
    additionalProperties: false,
    minProperties: 1,
    description:
      'A JSON merge patch (RFC 7396) of the create fields: the fields sent are set, null clears an optional field, the others stay. name cannot be cleared. The same rules as create.',
  },
)
export type UpdateHouseholdBody = Static<typeof UpdateHouseholdBody>

export const Household = Type.Object(
  {
    ...listItemProperties,
    dsueReceived: createFields.dsueReceived,
    deceasedSpouseName: createFields.deceasedSpouseName,
    dsueDateOfDeath: createFields.dsueDateOfDeath,
    metadata: createFields.metadata,
    primaryClientAsDonor: createFields.primaryClientAsDonor,
    coClientAsDonor: createFields.coClientAsDonor,
  },
  { title: 'Household', additionalProperties: false, description: 'A list item plus every create field (null when not set).' },
)
export type Household = Static<typeof Household>

export const ListQuery = Type.Object(
  {
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive substring of the household name, its members\' names or the deceased spouse\'s name. %, _ and \\ are literal. Empty means no filter.',
      }),
    ),
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 10_000_000,
        default: 1,
        description: 'Jump to this page. Its cost grows with its offset; to walk a long list page by page, follow nextCursor instead.',
      }),
    ),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    sortBy: Type.Optional(StringEnum(SORT_KEYS, { default: 'createdAt', description: 'Ties are broken by id, so pages never overlap.' })),
    sortOrder: Type.Optional(StringEnum(SORT_ORDERS, { default: 'desc' })),
    excludeSample: Type.Optional(Type.Boolean({ description: 'true: leave sample households out. Cannot be combined with isSample=true.' })),
    isSample: Type.Optional(Type.Boolean({ description: 'true: only sample households; false: only the others.' })),
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
          'nextCursor of the previous page: returns the page after it, as fast as page 1 however deep it is. Send it with the same sortBy, sortOrder, search, isSample, excludeSample, ids and pageSize as that request, and without page; otherwise 400 invalid_cursor (or invalid_query with page).',
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
          'Pass as cursor (with the same query, without page) to get the next page; null on the last page. The next page starts right after this page\'s last household: households created or deleted meanwhile do not shift it.',
      }),
    ),
  },
  { title: 'HouseholdList', additionalProperties: false },
)
export type HouseholdList = Static<typeof HouseholdList>

export const HouseholdEnvelope = Type.Object({ household: Household }, { title: 'HouseholdEnvelope', additionalProperties: false })

export const LIMITS = { NAME_MAX, DSUE_MAX, METADATA_MAX_BYTES: 16 * 1024, METADATA_MAX_DEPTH: 8 } as const
