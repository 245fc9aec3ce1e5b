// The operator requests the `hearth` CLI can make, as one validated type, and the checks that need
// no database (the CLI runs them before it opens anything; the server runs them again).
import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'
import { isPermission, PERMISSIONS } from '../domain/permissions.ts'
import { parseFrameOrigin } from '../domain/origins.ts'
import { DEFAULT_USER_ROLE, isUserRole, USER_ROLES } from '../domain/user-roles.ts'
import { AUDIT_LIMIT, MAX_KEY_DAYS } from './request-bounds.ts'

export { AUDIT_LIMIT, MAX_KEY_DAYS }

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
const Id = Type.String({ pattern: UUID_PATTERN })
const op = <T extends string>(name: T) => Type.Literal(name)

export const OperatorRequest = Type.Union([
  Type.Object({ op: op('orgs.create'), name: Type.String() }),
  Type.Object({ op: op('orgs.list') }),
  Type.Object({
    op: op('orgs.limits'),
    orgId: Id,
    requests: Type.Optional(Type.Integer()),
    keyRequests: Type.Optional(Type.Integer()),
    reset: Type.Optional(Type.Boolean()),
  }),
  Type.Object({
    op: op('keys.create'),
    orgId: Id,
    permissions: Type.Array(Type.String()),
    name: Type.Optional(Type.String()),
    expiresInDays: Type.Optional(Type.Integer()),
  }),
  Type.Object({ op: op('keys.list'), orgId: Id }),
  Type.Object({ op: op('keys.revoke'), keyId: Id }),
  Type.Object({ op: op('origins.add'), orgId: Id, origin: Type.String() }),
  Type.Object({ op: op('origins.remove'), orgId: Id, origin: Type.String() }),
  Type.Object({ op: op('origins.list'), orgId: Id }),
  Type.Object({ op: op('samples.add'), orgId: Id }),
  Type.Object({ op: op('usage'), orgId: Id, since: Type.String() }),
  Type.Object({ op: op('audit'), orgId: Id, householdId: Type.Optional(Id), limit: Type.Optional(Type.Integer()) }),
  Type.Object({
    op: op('users.add'),
    orgId: Id,
    email: Type.String(),
    name: Type.Optional(Type.String()),
    role: Type.Optional(Type.String()),
  }),
  Type.Object({ op: op('users.list'), orgId: Id }),
  Type.Object({
    op: op('webhooks.add'),
    orgId: Id,
    url: Type.String(),
    eventTypes: Type.Optional(Type.Array(Type.String())),
    description: Type.Optional(Type.String()),
  }),
  Type.Object({ op: op('webhooks.list'), orgId: Id }),
  Type.Object({ op: op('webhooks.remove'), endpointId: Id }),
  Type.Object({ op: op('webhooks.enable'), endpointId: Id, enabled: Type.Boolean() }),
  Type.Object({ op: op('webhooks.rotate'), endpointId: Id, overlapSeconds: Type.Optional(Type.Integer()) }),
  Type.Object({ op: op('webhooks.test'), endpointId: Id }),
  Type.Object({ op: op('webhooks.deliveries'), endpointId: Id, limit: Type.Optional(Type.Integer()) }),
  Type.Object({ op: op('webhooks.retry'), endpointId: Id, deliveryId: Id }),
  Type.Object({ op: op('migrate') }),
  Type.Object({ op: op('doctor.rebuildListItems') }),
])
export type OperatorRequest = Static<typeof OperatorRequest>

/** A refusal the caller can fix; the CLI exits with 2 and prints the message on one line. */
export class OperatorError extends Error {
  constructor(
    message: string,
    /** The property of the request at fault (its --flag in the CLI), which the HTTP routes report as `field`. */
    readonly field?: string,
  ) {
    super(message)
  }
}

export const KEY_NAME_MAX = 100

export function isOperatorRequest(value: unknown): value is OperatorRequest {
  return Value.Check(OperatorRequest, value)
}

export const DEFAULT_KEY_NAME = 'API key'

/** A budget of an organization, in units per window (a plain request is 1). */
const RATE_LIMIT_RANGE = { min: 1, max: 1_000_000_000 } as const
/** Something@something.something, no spaces: a sanity check, not a proof that mail arrives. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The checks that need no database; the CLI runs them before it opens anything. */
export function validateOperatorRequest(request: OperatorRequest): void {
  switch (request.op) {
    case 'orgs.create': {
      const name = request.name.trim()
      if (name.length === 0 || name.length > 200) throw new OperatorError('--name must be 1 to 200 characters', 'name')
      return
    }
    case 'keys.create': {
      const unknown = request.permissions.filter((p) => !isPermission(p))
      if (unknown.length > 0 || request.permissions.length === 0) {
        const what = unknown.length > 0 ? `unknown permission ${unknown.join(', ')}` : 'no permissions given'
        throw new OperatorError(`${what}; valid permissions are: ${PERMISSIONS.join(', ')}`, 'permissions')
      }
      const days = request.expiresInDays
      if (days !== undefined && (days < 1 || days > MAX_KEY_DAYS)) {
        throw new OperatorError(`--expires-in-days must be a whole number from 1 to ${MAX_KEY_DAYS}`, 'expiresInDays')
      }
      const name = (request.name ?? DEFAULT_KEY_NAME).trim()
      if (name.length === 0 || name.length > KEY_NAME_MAX)
        throw new OperatorError(`--name must be 1 to ${KEY_NAME_MAX} characters`, 'name')
      return
    }
    case 'origins.add':
    case 'origins.remove': {
      const parsed = parseFrameOrigin(request.origin)
      if (!parsed.ok) throw new OperatorError(`--origin ${parsed.reason}`, 'origin')
      return
    }
    case 'orgs.limits': {
      for (const [flag, field, value] of [
        ['--requests', 'requests', request.requests],
        ['--key-requests', 'keyRequests', request.keyRequests],
      ] as const) {
        if (value !== undefined && (value < RATE_LIMIT_RANGE.min || value > RATE_LIMIT_RANGE.max)) {
          throw new OperatorError(
            `${flag} must be a whole number from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max} (units per window)`,
            field,
          )
        }
      }
      if (request.reset && (request.requests !== undefined || request.keyRequests !== undefined)) {
        throw new OperatorError(
          '--reset goes back to the instance defaults: give it alone, then set new limits if you want them',
        )
      }
      return
    }
    case 'audit': {
      const limit = request.limit
      if (limit !== undefined && (limit < 1 || limit > AUDIT_LIMIT.max))
        throw new OperatorError(`--limit must be a whole number from 1 to ${AUDIT_LIMIT.max}`, 'limit')
      return
    }
    case 'users.add': {
      const email = request.email.trim()
      if (email.length > 254 || !EMAIL.test(email))
        throw new OperatorError(`--email must be an email address, got "${request.email}"`, 'email')
      const name = (request.name ?? defaultUserName(email)).trim()
      if (name.length === 0 || name.length > 200) throw new OperatorError('--name must be 1 to 200 characters', 'name')
      const role = request.role ?? DEFAULT_USER_ROLE
      if (!isUserRole(role))
        throw new OperatorError(`--role must be one of ${USER_ROLES.join(', ')}, got "${role}"`, 'role')
      return
    }
    case 'usage':
      if (!isCalendarDate(request.since) || request.since < USAGE_EARLIEST_DAY) {
        throw new OperatorError(
          `--since must be a date YYYY-MM-DD (UTC) from ${USAGE_EARLIEST_DAY} on, got "${request.since}"`,
          'since',
        )
      }
      return
    default:
      return
  }
}

/** Usage reports start no earlier (Hearth kept no usage before; and a year-0 day would be a long report of nothing). */
export const USAGE_EARLIEST_DAY = '2000-01-01'

/** A real day written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const day = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
}

/** An invited user's name until someone gives one: the part of the address before the @. */
export function defaultUserName(email: string): string {
  return email.trim().split('@')[0] ?? email
}
