// What the organization administration routes (organization-keys, -origins, -users, -usage, -limits) share:
// their OpenAPI docs and how a refusal by the CLI's rules reaches the caller.
import { OperatorError } from '../../operator/requests.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { ApiError } from '../errors.ts'
import { jsonPointer } from '../../domain/json-pointer.ts'

const NEEDS_ORG_ADMIN =
  `Needs ${ORG_ADMIN}, which only the admin role of a signed-in user (idp-session cookie) holds: API keys can never carry it, ` +
  "so a key is refused with 403 missing_permission, as are the advisor and viewer roles. Acts on the caller's organization only."
const SAME_ORIGIN_WRITE =
  "A write: it must come from the web app's own origin (Origin or Sec-Fetch-Site), else 403 cross_site_request."

/** Tag, security and the permission sentence of an organization administration operation. */
export function organizationOperationDocs(operationId: string, summary: string, description: string, write = false) {
  return {
    operationId,
    summary,
    description: [description, NEEDS_ORG_ADMIN, write ? SAME_ORIGIN_WRITE : ''].filter(Boolean).join(' '),
    tags: ['admin'],
    security: [{ SessionAuth: [] }],
  }
}

/** Runs an operation shared with the `hearth` CLI; a rule of the CLI it breaks is the caller's 400, naming the field. */
export async function underCliRules<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof OperatorError)
      throw new ApiError(
        'invalid_body',
        error.message,
        error.field === undefined ? {} : { field: jsonPointer(error.field) },
      )
    throw error
  }
}
