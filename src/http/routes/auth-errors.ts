// The answers every authenticated operation documents: no or bad credentials, a missing permission, a budget spent.
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'

export const authErrors = { 401: ErrorBody, 403: ErrorBody, 429: RateLimitErrorBody }

/**
 * The answers of a write to an existing record under If-Match: a refused body (400), no such record
 * (404), a stale version (412), too big (413), not JSON (415), no If-Match (428), and the auth answers.
 */
export const conditionalWriteErrors = {
  400: ErrorBody,
  404: ErrorBody,
  412: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  428: ErrorBody,
  ...authErrors,
}
