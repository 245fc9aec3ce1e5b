// GET and POST /api/v1/relationships, and the same handlers on the legacy /api/v1/households.
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { CreateHouseholdBody, HouseholdEnvelope, HouseholdList, ListQuery } from '../../schemas/relationship.ts'
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'
import { toListing } from '../../domain/listing.ts'
import { checkCreateBody } from '../../domain/household-input.ts'
import { createHousehold, listHouseholdsJson } from '../../store/households.ts'
import { ApiError } from '../errors.ts'
import { listCost, LIST_COST_NOTE } from '../../rate-limit/costs.ts'
import { principalOf } from '../plugins/authenticate.ts'
import { etagOf } from '../etag.ts'
import type { App } from '../types.ts'

export const RELATIONSHIPS_PATH = '/api/v1/relationships'
export const HOUSEHOLDS_PATH = '/api/v1/households'

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Replays the first response for the same body within 24 hours; another body with the same key is 409.',
    }),
  ),
})

const security: Array<Record<string, string[]>> = [{ BearerAuth: [] }, { SessionAuth: [] }]
export const authErrors = { 401: ErrorBody, 403: ErrorBody, 429: RateLimitErrorBody }

/** What every household operation's document says about its prefix: tag, deprecation, security. */
export function householdOperationDocs(legacy: boolean) {
  return { tags: [legacy ? 'households (deprecated)' : 'relationships'], deprecated: legacy || undefined, security }
}

/** Canonical JSON (sorted keys), so that the same body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function registerRelationshipRoutes(app: App, db: Kysely<Database>, legacy: boolean): void {
  const base = legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH
  const docs = householdOperationDocs(legacy)

  app.get(
    base,
    {
      config: { permission: 'relationships:read', legacy, rateLimitCost: listCost },
      schema: {
        operationId: legacy ? 'listHouseholds' : 'listRelationships',
        summary: legacy ? 'List households' : 'List relationships',
        description: legacy
          ? 'Deprecated alias of GET /api/v1/relationships. Needs households:read or relationships:read (households:write or relationships:write imply read). ' + LIST_COST_NOTE
          : 'A page of the organization\'s relationships. Needs relationships:read or households:read (relationships:write or households:write imply read). ' + LIST_COST_NOTE,
        ...docs,
        querystring: ListQuery,
        response: { 200: HouseholdList, 400: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const result = toListing(request.query)
      if (!result.ok) throw new ApiError(result.code, result.message)
      // The database writes the HouseholdList body (see listHouseholdsJson) and Fastify sends a
      // string as is; the OpenAPI conformance tests check it against the schema.
      const body = await listHouseholdsJson(db, principalOf(request).orgId, result.listing)
      return reply.type('application/json; charset=utf-8').send(body as unknown as HouseholdList)
    },
  )

  app.post(
    base,
    {
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: legacy ? 'createHousehold' : 'createRelationship',
        summary: legacy ? 'Create household' : 'Create relationship',
        description: legacy
          ? 'Deprecated alias of POST /api/v1/relationships. Needs households:write or relationships:write.'
          : 'Creates a relationship. Needs relationships:write or households:write. Answers 201 with Location.',
        ...docs,
        headers: IdempotencyHeaders,
        body: CreateHouseholdBody,
        response: { 201: HouseholdEnvelope, 400: ErrorBody, ...authErrors, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      const checked = checkCreateBody(request.body)
      if (!checked.ok) throw new ApiError('invalid_body', checked.message)
      const key = request.headers['idempotency-key'] as string | undefined
      const principal = principalOf(request)
      const outcome = await createHousehold(db, {
        actor: principal,
        orgId: principal.orgId,
        fields: checked.fields,
        idempotency: key ? { key, requestHash: createHash('sha256').update(canonicalJson(request.body)).digest('hex') } : undefined,
        locationOf: (id) => `${base}/${id}`,
      })
      if (outcome.kind === 'conflict') {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different body; use a new key for a new household.')
      }
      // A replay may describe a household changed since: only a fresh one is known to be version 1.
      if (outcome.kind === 'replay') reply.header('Idempotent-Replayed', 'true')
      else reply.header('ETag', etagOf(1))
      reply.header('Location', outcome.location)
      return reply.status(201).send(outcome.body)
    },
  )
}
