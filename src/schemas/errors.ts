import { Type } from 'typebox'

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong and how to fix it, in a sentence.' }),
    code: Type.String({ description: 'Stable snake_case code; see the error code table in the API description.' }),
    requestId: Type.Optional(Type.String({ description: 'Quote this when reporting a problem.' })),
  },
  { title: 'Error', additionalProperties: true },
)

export const RateLimitErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.Literal('rate_limited'),
    requestId: Type.Optional(Type.String()),
    resetAt: Type.String({ format: 'date-time', description: 'When the current window ends and the budget refills.' }),
  },
  { title: 'RateLimitError', additionalProperties: true },
)
