// The organization's API keys, for its admins: list them (never the key nor its hash), create one
// (the key is shown once, in the response) and revoke one. Keys are created under the same rules
// as `hearth keys create`. Another organization's key id, an unknown one and a malformed one are
// the same 404.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { listApiKeys, revokeApiKey, type ApiKeyRecord } from '../../store/api-keys.ts'
import { createOrgApiKey } from '../../operator/operations.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { isUuid } from '../../domain/ids.ts'
import { ApiKey, ApiKeyList, ApiKeyParams, CreateApiKeyBody, CreatedApiKey } from '../../schemas/organization.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs, underCliRules } from './organization-common.ts'

const KEYS_PATH = '/api/v1/keys'

function toApiKey(record: ApiKeyRecord): ApiKey {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    permissions: record.permissions,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
  }
}

/**
 * `keysChanged` empties this process's key cache after a revocation commits, so that the next
 * request refuses the key at once (other processes hear of it from the database, key-changes.ts).
 */
export function registerOrganizationKeyRoutes(app: App, db: Kysely<Database>, keysChanged: () => void): void {
  app.get(
    KEYS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'listApiKeys',
          'List API keys',
          "The organization's API keys, newest first, revoked and expired ones included; never the keys themselves.",
        ),
        response: { 200: ApiKeyList, ...authErrors },
      },
    },
    async (request) => ({ keys: (await listApiKeys(db, principalOf(request).orgId, 'desc')).map(toApiKey) }),
  )

  app.post(
    KEYS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'createApiKey',
          'Create an API key',
          'Creates a key with the permissions given (the rules of hearth keys create). Answers 201 with the key, which is shown only in this response: only its hash is stored.',
          true,
        ),
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKey, 400: ErrorBody, ...authErrors, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      const { record, key } = await underCliRules(() => createOrgApiKey(db, principalOf(request).orgId, request.body))
      return reply.status(201).send({ key, apiKey: toApiKey(record) })
    },
  )

  app.delete(
    `${KEYS_PATH}/:keyId`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'revokeApiKey',
          'Revoke an API key',
          'Revokes the key: from the next request on it is 401 api_key_revoked (on another instance or worker process of a PostgreSQL deployment, within milliseconds, once it hears of the change). Revoking a revoked key is 204 too (the first revocation time stays).',
          true,
        ),
        params: ApiKeyParams,
        response: {
          204: Type.Null({ description: 'Revoked.' }),
          400: ErrorBody,
          404: ErrorBody,
          ...authErrors,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { keyId } = request.params
      const revoked = isUuid(keyId)
        ? await revokeApiKey(db, keyId.toLowerCase(), principalOf(request).orgId)
        : undefined
      if (!revoked) throw new ApiError('not_found', 'No API key with this id in your organization.')
      keysChanged()
      return reply.status(204).send(null)
    },
  )
}
