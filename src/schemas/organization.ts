// The organization administration API (the web app's organization pages): API keys, embed origins, users and
// usage. The limits come from the rules `hearth` applies (operator/requests.ts), which the routes
// also run, so the CLI and the API accept the same keys and users.
import { Type, type Static } from 'typebox'
import { PERMISSIONS } from '../domain/permissions.ts'
import { KEY_NAME_MAX, MAX_KEY_DAYS, USAGE_EARLIEST_DAY } from '../operator/requests.ts'
import { USER_ROLES } from '../domain/user-roles.ts'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'
import { EMAIL_MAX } from './member.ts'

/** Not only spaces: names are trimmed, and must keep at least one character. */
const NOT_BLANK = '\\S'

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({
      description:
        'The first 12 characters of the key (idx_ and 8 more), to tell keys apart; the rest is never shown again.',
    }),
    permissions: Type.Array(Type.String(), { description: `Some of ${PERMISSIONS.join(', ')}.` }),
    createdAt: DateTime,
    expiresAt: Nullable(DateTime),
    lastUsedAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'Written in batches every few seconds, so it may lag a few seconds behind.',
      }),
    ),
    revokedAt: Nullable(DateTime),
  },
  {
    title: 'ApiKey',
    additionalProperties: false,
    description: 'An API key, without the key itself (only its hash is stored).',
  },
)
export type ApiKey = Static<typeof ApiKey>

export const ApiKeyList = Type.Object(
  {
    keys: Type.Array(ApiKey, {
      description: 'Every key of the organization, revoked and expired ones too, newest first.',
    }),
  },
  { title: 'ApiKeyList', additionalProperties: false },
)
export type ApiKeyList = Static<typeof ApiKeyList>

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: KEY_NAME_MAX,
      pattern: NOT_BLANK,
      description: `A label for people, trimmed; 1 to ${KEY_NAME_MAX} characters.`,
    }),
    permissions: Type.Array(StringEnum(PERMISSIONS), {
      minItems: 1,
      uniqueItems: true,
      description: `What the key may do: one or more of ${PERMISSIONS.join(', ')}, each once. No key can carry org:admin.`,
    }),
    expiresInDays: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_KEY_DAYS,
        description: `The key stops working this many days from now (1 to ${MAX_KEY_DAYS}); without it, it never expires.`,
      }),
    ),
  },
  { title: 'CreateApiKeyBody', additionalProperties: false },
)

export const CreatedApiKey = Type.Object(
  {
    key: Type.String({
      description: 'The key (idx_…), for Authorization: Bearer. Shown only in this response: store it now.',
    }),
    apiKey: ApiKey,
  },
  { title: 'CreatedApiKey', additionalProperties: false },
)
export type CreatedApiKey = Static<typeof CreatedApiKey>

export const ApiKeyParams = Type.Object({ keyId: Type.String({ description: 'The key id (a UUID).' }) })

export const FrameOrigin = Type.Object(
  {
    origin: Type.String({
      description: 'A bare origin (scheme://host[:port]) allowed to frame the chart and named in chart tokens.',
    }),
    createdAt: DateTime,
  },
  { title: 'FrameOrigin', additionalProperties: false },
)
export type FrameOrigin = Static<typeof FrameOrigin>

export const FrameOriginList = Type.Object(
  { origins: Type.Array(FrameOrigin, { description: 'In alphabetical order.' }) },
  { title: 'FrameOriginList', additionalProperties: false },
)
export type FrameOriginList = Static<typeof FrameOriginList>

export const AddFrameOriginBody = Type.Object(
  {
    origin: Type.String({
      maxLength: 300,
      description:
        'e.g. https://app.example.com or https://app.example.com:8443: scheme, host and port only (no path, no trailing slash, no wildcard); http only for localhost and 127.0.0.1.',
    }),
  },
  { title: 'AddFrameOriginBody', additionalProperties: false },
)

export const FrameOriginParams = Type.Object({
  origin: Type.String({ description: 'The registered origin, URL-encoded (https%3A%2F%2Fapp.example.com).' }),
})

const UserRoleSchema = StringEnum(USER_ROLES, {
  description:
    'admin: everything, including this admin API; advisor: reads and writes households and mints chart tokens; viewer: reads.',
})

export const User = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.String(),
    role: UserRoleSchema,
    createdAt: DateTime,
    lastSignInAt: Nullable(DateTime),
    status: StringEnum(['invited', 'active'] as const, {
      description:
        'invited: has not signed in yet (they sign in at the identity provider with this email); active: has signed in.',
    }),
  },
  { title: 'User', additionalProperties: false },
)
export type User = Static<typeof User>

export const UserList = Type.Object(
  { users: Type.Array(User, { description: 'Every user of the organization, oldest first.' }) },
  { title: 'UserList', additionalProperties: false },
)
export type UserList = Static<typeof UserList>

export const CreateUserBody = Type.Object(
  {
    email: Type.String({
      format: 'email',
      maxLength: EMAIL_MAX,
      description:
        'Unique in the organization, in any case. The invitation is for this address at the identity provider.',
    }),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: NOT_BLANK,
        description: 'Trimmed; 1 to 200 characters. Default: the part of the email before @.',
      }),
    ),
    role: UserRoleSchema,
  },
  { title: 'CreateUserBody', additionalProperties: false },
)

export const UpdateUserBody = Type.Object(
  { role: UserRoleSchema },
  {
    title: 'UpdateUserBody',
    additionalProperties: false,
    description: "The new role; it applies from the user's next request.",
  },
)

export const UserParams = Type.Object({ userId: Type.String({ description: 'The user id (a UUID).' }) })

export const USAGE_DEFAULT_DAYS = 30
/** PostgreSQL has no year 0, and nothing was metered before Hearth existed. */

export const UsageQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({
        maxLength: 100,
        description: `The first UTC day to report, YYYY-MM-DD, from ${USAGE_EARLIEST_DAY} on. Default: ${USAGE_DEFAULT_DAYS} days ago.`,
      }),
    ),
  },
  { additionalProperties: true, description: 'Unknown query parameters are ignored.' },
)

const Day = Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD.' })
const count = (description: string) => Type.Integer({ minimum: 0, description })

export const Usage = Type.Object(
  {
    since: Day,
    chart: Type.Array(
      Type.Object(
        {
          day: Day,
          frameOrigin: Type.String(),
          mints: count('Chart tokens minted for this frame origin that day.'),
          renders: count('Tokens that reached a chart (counted once per token) that day.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Per day and frame origin, in that order; days without mints or renders are left out.' },
    ),
    apiCalls: Type.Array(
      Type.Object(
        {
          day: Day,
          keyId: Uuid,
          keyName: Type.String(),
          keyPrefix: Type.String(),
          calls: count('Every call authenticated with the key that day.'),
          legacyCalls: count('Those of them on the deprecated /api/v1/households paths.'),
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Per day and API key (by name, then id), revoked keys included; days without calls are left out. Counts are written every few seconds, so the last seconds may be missing.',
      },
    ),
  },
  { title: 'Usage', additionalProperties: false },
)
export type Usage = Static<typeof Usage>
export type ChartUsageRow = Usage['chart'][number]
export type ApiCallsRow = Usage['apiCalls'][number]
