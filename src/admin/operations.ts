// The admin operations behind the `hearth` CLI. The CLI runs them directly on PostgreSQL or on
// an embedded database no server holds, and otherwise sends them to the running server over
// its control socket; either way they go through this one validated entry point.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'
import type { Database } from '../store/tables.ts'
import type { MigrationReport } from '../store/migrate.ts'
import { createOrg, findOrg, listOrgs } from '../store/orgs.ts'
import { listApiKeys, revokeApiKey } from '../store/api-keys.ts'
import { addFrameOrigin, listFrameOrigins, removeFrameOrigin } from '../store/origins.ts'
import { addSampleHouseholds } from '../store/samples.ts'
import { issueApiKey } from '../auth/issue-api-key.ts'
import { isPermission, PERMISSIONS } from '../domain/permissions.ts'
import { parseFrameOrigin } from '../domain/origins.ts'

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'
const Id = Type.String({ pattern: UUID_PATTERN })
const op = <T extends string>(name: T) => Type.Literal(name)

export const AdminRequest = Type.Union([
  Type.Object({ op: op('orgs.create'), name: Type.String() }),
  Type.Object({ op: op('orgs.list') }),
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
  Type.Object({ op: op('migrate') }),
])
export type AdminRequest = Static<typeof AdminRequest>

/** A refusal the caller can fix; the CLI exits with 2 and prints the message on one line. */
export class AdminError extends Error {}

export const KEY_NAME_MAX = 100
export const MAX_KEY_DAYS = 3650

export function isAdminRequest(value: unknown): value is AdminRequest {
  return Value.Check(AdminRequest, value)
}

async function requireOrg(db: Kysely<Database>, orgId: string) {
  const org = await findOrg(db, orgId)
  if (!org) throw new AdminError(`no organization has the id ${orgId}; "hearth orgs list" shows them`)
  return org
}

/** The checks that need no database; the CLI runs them before it opens anything. */
export function validateAdminRequest(request: AdminRequest): void {
  switch (request.op) {
    case 'orgs.create': {
      const name = request.name.trim()
      if (name.length === 0 || name.length > 200) throw new AdminError('--name must be 1 to 200 characters')
      return
    }
    case 'keys.create': {
      const unknown = request.permissions.filter((p) => !isPermission(p))
      if (unknown.length > 0 || request.permissions.length === 0) {
        const what = unknown.length > 0 ? `unknown permission ${unknown.join(', ')}` : 'no permissions given'
        throw new AdminError(`${what}; valid permissions are: ${PERMISSIONS.join(', ')}`)
      }
      const days = request.expiresInDays
      if (days !== undefined && (days < 1 || days > MAX_KEY_DAYS)) {
        throw new AdminError(`--expires-in-days must be a whole number from 1 to ${MAX_KEY_DAYS}`)
      }
      const name = (request.name ?? DEFAULT_KEY_NAME).trim()
      if (name.length === 0 || name.length > KEY_NAME_MAX) throw new AdminError(`--name must be 1 to ${KEY_NAME_MAX} characters`)
      return
    }
    case 'origins.add':
    case 'origins.remove': {
      const parsed = parseFrameOrigin(request.origin)
      if (!parsed.ok) throw new AdminError(`--origin ${parsed.reason}`)
      return
    }
    default:
      return
  }
}

const DEFAULT_KEY_NAME = 'API key'

export async function runAdmin(db: Kysely<Database>, request: AdminRequest, migrations: MigrationReport): Promise<unknown> {
  validateAdminRequest(request)
  switch (request.op) {
    case 'orgs.create':
      return createOrg(db, request.name.trim())
    case 'orgs.list':
      return { orgs: await listOrgs(db) }
    case 'keys.create': {
      const days = request.expiresInDays
      const name = (request.name ?? DEFAULT_KEY_NAME).trim()
      await requireOrg(db, request.orgId)
      const { record, key } = await issueApiKey(db, {
        orgId: request.orgId,
        name,
        permissions: [...new Set(request.permissions)],
        expiresAt: days === undefined ? null : new Date(Date.now() + days * 86_400_000),
      })
      return { id: record.id, key, permissions: record.permissions, name: record.name, prefix: record.prefix, expiresAt: record.expiresAt }
    }
    case 'keys.list':
      await requireOrg(db, request.orgId)
      return { keys: await listApiKeys(db, request.orgId) }
    case 'keys.revoke': {
      const key = await revokeApiKey(db, request.keyId)
      if (!key) throw new AdminError(`no API key has the id ${request.keyId}; "hearth keys list --org <id>" shows them`)
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
    case 'migrate':
      return migrations
  }
}
