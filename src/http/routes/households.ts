// GET and POST /api/v1/relationships, and the same on the legacy /api/v1/households (see household-surface.ts).
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { CreateHouseholdBody, HouseholdEnvelope, HouseholdList, ListQuery } from '../../schemas/household.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { authErrors } from './auth-errors.ts'
import { toListing } from '../../domain/listing.ts'
import { listHouseholdsJson } from '../../store/households.ts'
import { createHousehold } from '../../households/households.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { ApiError } from '../errors.ts'
import { listCost, LIST_COST_NOTE } from '../../rate-limit/costs.ts'
import { principalOf } from '../plugins/authenticate.ts'
import { etagOf } from '../etag.ts'
import type { App } from '../types.ts'

const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Replays the first response for the same body within 24 hours; another body with the same key is 409.',
    }),
  ),
})

export function registerHouseholdCollectionRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const { base, docs, legacy } = surface

  app.get(
    base,
    {
      config: { ...surface.config('relationships:read'), rateLimitCost: listCost },
      schema: {
        operationId: legacy ? 'listHouseholds' : 'listRelationships',
        summary: legacy ? 'List households' : 'List relationships',
        description: legacy
          ? 'Deprecated alias of GET /api/v1/relationships. Needs households:read or relationships:read (households:write or relationships:write imply read). ' +
            LIST_COST_NOTE
          : "A page of the organization's relationships. Needs relationships:read or households:read (relationships:write or households:write imply read). " +
            LIST_COST_NOTE,
        ...docs,
        querystring: ListQuery,
        response: { 200: HouseholdList, 400: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const result = toListing(request.query)
      if (!result.ok) throw new ApiError(result.code, result.message, { field: result.field })
      // The database writes the HouseholdList body (see listHouseholdsJson) and Fastify sends a
      // string as is; the OpenAPI conformance tests check it against the schema.
      const body = await listHouseholdsJson(db, principalOf(request).orgId, result.listing)
      return reply.type('application/json; charset=utf-8').send(body as unknown as HouseholdList)
    },
  )

  app.post(
    base,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: legacy ? 'createHousehold' : 'createRelationship',
        summary: legacy ? 'Create household' : 'Create relationship',
        description: legacy
          ? 'Deprecated alias of POST /api/v1/relationships. Needs households:write or relationships:write.'
          : 'Creates a relationship. Needs relationships:write or households:write. Answers 201 with Location.',
        ...docs,
        headers: IdempotencyHeaders,
        body: CreateHouseholdBody,
        response: {
          201: HouseholdEnvelope,
          400: ErrorBody,
          ...authErrors,
          409: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const outcome = await createHousehold(db, principalOf(request), {
        body: request.body,
        idempotencyKey: request.headers['idempotency-key'],
        locationOf: (id) => `${base}/${id}`,
      })
      // A replay may describe a household changed since: only a fresh one is known to be version 1.
      if (outcome.kind === 'replay') reply.header('Idempotent-Replayed', 'true')
      else reply.header('ETag', etagOf(1))
      reply.header('Location', outcome.location)
      return reply.status(201).send(outcome.body)
    },
  )
}
