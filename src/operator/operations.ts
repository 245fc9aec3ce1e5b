// The operator operations behind the `hearth` CLI. The CLI runs them directly on PostgreSQL or on
// an embedded database no server holds, and otherwise sends them to the running server over
// its control socket; either way they go through this one validated entry point.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { MigrationReport } from '../store/migrate.ts'
import { createOrg, findOrg, listOrgs } from '../store/orgs.ts'
import { listApiKeys, revokeApiKey } from '../store/api-keys.ts'
import { addFrameOrigin, listFrameOrigins, removeFrameOrigin } from '../store/origins.ts'
import { addSampleHouseholds } from '../store/samples.ts'
import { chartUsage } from '../store/chart-mints.ts'
import { listAudit } from '../store/audit.ts'
import { rebuildListItems } from '../store/list-items.ts'
import { createUser, listUsers } from '../store/users.ts'
import { DEFAULT_USER_ROLE, isUserRole } from '../domain/user-roles.ts'
import { issueApiKey } from '../auth/issue-api-key.ts'
import { findOrgRateLimits, setOperatorRateLimits } from '../store/org-limits.ts'
import { limitsView, type DefaultLimits } from '../rate-limit/org-limits.ts'
import { loadConfig } from '../config.ts'
import { runWebhookOperation } from './webhook-operations.ts'
import {
  OperatorError,
  AUDIT_LIMIT,
  DEFAULT_KEY_NAME,
  defaultUserName,
  validateOperatorRequest,
  type OperatorRequest,
} from './requests.ts'

export interface NewKeyInput {
  name?: string
  permissions: string[]
  expiresInDays?: number
}

/**
 * Issues an API key under the rules of `hearth keys create`, for the CLI and POST /api/v1/keys
 * alike: the checks of validateOperatorRequest (OperatorError when one fails), the name trimmed
 * (DEFAULT_KEY_NAME when not given), each permission once, the expiry in days from now.
 */
export async function createOrgApiKey(db: Kysely<Database>, orgId: string, input: NewKeyInput) {
  const { name, permissions, expiresInDays: days } = input
  validateOperatorRequest({ op: 'keys.create', orgId, name, permissions, expiresInDays: days })
  return issueApiKey(db, {
    orgId,
    name: (name ?? DEFAULT_KEY_NAME).trim(),
    permissions: [...new Set(permissions)],
    expiresAt: days === undefined ? null : new Date(Date.now() + days * 86_400_000),
  })
}

/**
 * Adds (invites) a user under the rules of `hearth users add`, for the CLI and POST /api/v1/users
 * alike: the checks of validateOperatorRequest (OperatorError when one fails), email and name trimmed.
 * Answers undefined when the organization already has a user with this email, in any case.
 */
export async function inviteUser(
  db: Kysely<Database>,
  orgId: string,
  input: { email: string; name?: string | undefined; role?: string },
) {
  validateOperatorRequest({ op: 'users.add', orgId, ...input })
  const role = input.role ?? DEFAULT_USER_ROLE
  // validateOperatorRequest refused any other role: this only tells the compiler.
  if (!isUserRole(role)) throw new OperatorError(`unknown role ${role}`)
  return createUser(db, {
    orgId,
    email: input.email.trim(),
    name: (input.name ?? defaultUserName(input.email)).trim(),
    role,
  })
}

async function requireOrg(db: Kysely<Database>, orgId: string) {
  const org = await findOrg(db, orgId)
  if (!org) throw new OperatorError(`no organization has the id ${orgId}; "hearth orgs list" shows them`)
  return org
}

export async function runOperation(
  db: Kysely<Database>,
  request: OperatorRequest,
  migrations: MigrationReport,
): Promise<unknown> {
  validateOperatorRequest(request)
  switch (request.op) {
    case 'orgs.create':
      return createOrg(db, request.name.trim())
    case 'orgs.list':
      return { orgs: await listOrgs(db) }
    case 'orgs.limits': {
      await requireOrg(db, request.orgId)
      const change = request.reset
        ? { requests: null, keyRequests: null }
        : { requests: request.requests, keyRequests: request.keyRequests }
      const overrides =
        (await setOperatorRateLimits(db, request.orgId, change)) ?? (await findOrgRateLimits(db, request.orgId))
      if (!overrides)
        throw new OperatorError(`no organization has the id ${request.orgId}; "hearth orgs list" shows them`)
      return { orgId: request.orgId, ...limitsView(overrides, instanceDefaults()) }
    }
    case 'keys.create': {
      await requireOrg(db, request.orgId)
      const { record, key } = await createOrgApiKey(db, request.orgId, {
        name: request.name,
        permissions: request.permissions,
        expiresInDays: request.expiresInDays,
      })
      return {
        id: record.id,
        key,
        permissions: record.permissions,
        name: record.name,
        prefix: record.prefix,
        expiresAt: record.expiresAt,
      }
    }
    case 'keys.list':
      await requireOrg(db, request.orgId)
      return { keys: await listApiKeys(db, request.orgId) }
    case 'keys.revoke': {
      const key = await revokeApiKey(db, request.keyId)
      if (!key)
        throw new OperatorError(`no API key has the id ${request.keyId}; "hearth keys list --org <id>" shows them`)
      return { id: key.id, revokedAt: key.revokedAt }
    }
    case 'origins.add':
      await requireOrg(db, request.orgId)
      return { origin: request.origin, added: await addFrameOrigin(db, request.orgId, request.origin) }
    case 'origins.remove':
      await requireOrg(db, request.orgId)
      return { origin: request.origin, removed: await removeFrameOrigin(db, request.orgId, request.origin) }
    case 'origins.list':
      await requireOrg(db, request.orgId)
      return { origins: await listFrameOrigins(db, request.orgId) }
    case 'samples.add':
      await requireOrg(db, request.orgId)
      return addSampleHouseholds(db, request.orgId)
    case 'usage':
      await requireOrg(db, request.orgId)
      return { since: request.since, days: await chartUsage(db, request.orgId, request.since) }
    case 'audit':
      await requireOrg(db, request.orgId)
      return {
        entries: await listAudit(
          db,
          request.orgId,
          request.householdId?.toLowerCase(),
          request.limit ?? AUDIT_LIMIT.default,
        ),
      }
    case 'users.add': {
      await requireOrg(db, request.orgId)
      const user = await inviteUser(db, request.orgId, { email: request.email, name: request.name, role: request.role })
      if (!user)
        throw new OperatorError(
          `the organization already has a user with the email ${request.email.trim()}; "hearth users list --org <id>" shows them`,
        )
      return user
    }
    case 'users.list':
      await requireOrg(db, request.orgId)
      return { users: await listUsers(db, request.orgId) }
    case 'migrate':
      return migrations
    case 'doctor.rebuildListItems':
      return rebuildListItems(db)
    case 'webhooks.add':
      await requireOrg(db, request.orgId)
      return runWebhookOperation(db, request)
    case 'webhooks.list':
      await requireOrg(db, request.orgId)
      return runWebhookOperation(db, request)
    case 'webhooks.remove':
    case 'webhooks.enable':
    case 'webhooks.rotate':
    case 'webhooks.test':
    case 'webhooks.deliveries':
    case 'webhooks.retry':
      return runWebhookOperation(db, request)
  }
}

/**
 * The instance's default budgets, from the environment of the process that runs the operation:
 * the server's when the CLI goes through its control socket, the CLI's own otherwise (run it with
 * the server's HEARTH_*RATE_LIMIT* settings to see the same numbers).
 */
function instanceDefaults(): DefaultLimits {
  const config = loadConfig()
  return {
    orgRequests: config.orgRateLimitMax,
    keyRequests: config.rateLimitMax,
    windowSeconds: config.rateLimitWindowSeconds,
  }
}
