import { Type } from 'typebox'
import { StringEnum } from './common.ts'

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong and how to fix it, in a sentence.' }),
    code: Type.String({ description: 'Stable snake_case code; see the error code table in the API description.' }),
    requestId: Type.Optional(Type.String({ description: 'Quote this when reporting a problem.' })),
    field: Type.Optional(
      Type.String({
        description:
          'The part of the request the error is about, as a JSON Pointer (RFC 6901): into the JSON body for body errors (for example "/members/0/firstName", or "/nickname" for a property the schema does not have), into the query string for query errors (for example "/pageSize"), into the headers by lower-case name for header errors (for example "/idempotency-key"); "" is the whole body. Absent when the error is not about one field.',
      }),
    ),
    existingId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'household_external_id_taken only: the id of the household that already has this externalId (read or change it there).',
      }),
    ),
  },
  { title: 'Error', additionalProperties: true },
)

export const RateLimitErrorBody = Type.Object(
  {
    error: Type.String(),
    code: StringEnum(['rate_limited', 'concurrency_limited'] as const, {
      description:
        'rate_limited: a budget ran out. concurrency_limited: your organization has too many requests in progress at once.',
    }),
    requestId: Type.Optional(Type.String()),
    resetAt: Type.String({
      format: 'date-time',
      description:
        'rate_limited: when the current window ends and the budget refills. concurrency_limited: when to retry (as Retry-After).',
    }),
  },
  { title: 'RateLimitError', additionalProperties: true },
)
