// One relationship: GET (ETag, If-None-Match → 304 that costs 0.1 unit of rate-limit budget), PATCH (a JSON
// merge patch under If-Match) and DELETE (under If-Match), on both path prefixes; the writes are
// the use cases of src/households. Another org's
// id, an unknown one and a malformed one are the same 404: nothing says the household exists.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { HouseholdEnvelope, UpdateHouseholdBody } from '../../schemas/household.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readHouseholdJson } from '../../store/household-record.ts'
import { deleteHousehold, updateHousehold } from '../../households/households.ts'
import { householdNotFound } from '../../households/rule-violation.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

export const HouseholdIdParams = Type.Object({ id: Type.String({ description: 'The household id (a UUID).' }) })
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      description: 'The ETag from GET (or *). Required: 428 without it, 412 when the household changed since.',
    }),
  ),
})

/** A household id from the path; anything but a UUID names no household (404, never 400). */
export function householdIdOf(params: { id: string }): string {
  if (!isUuid(params.id)) throw householdNotFound()
  return params.id.toLowerCase()
}

export function registerHouseholdRecordRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const path = `${surface.base}/:id`
  const { docs, legacy } = surface
  const alias = (operation: string) => surface.alias(operation, '/{id}')
  const name = surface.pick

  app.get(
    path,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('getRelationship', 'getHousehold'),
        summary: legacy ? 'Get a household' : 'Get a relationship',
        description: `${alias('GET')}The household in full, with its ETag. If-None-Match with the current ETag answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: HouseholdEnvelope, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readHouseholdJson(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"household":${found.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )

  app.patch(
    path,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('updateRelationship', 'updateHousehold'),
        summary: legacy ? 'Update a household' : 'Update a relationship',
        description: `${alias('PATCH')}A JSON merge patch (application/merge-patch+json or application/json) of the create fields, under If-Match. Answers the household in full with its new ETag. An externalId another household of the organization has is 409 household_external_id_taken, naming it in existingId. Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        body: UpdateHouseholdBody,
        response: {
          200: HouseholdEnvelope,
          ...conditionalWriteErrors,
          // household_external_id_taken, with existingId.
          409: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const household = await updateHousehold(db, principalOf(request), { id, expected, patch: request.body })
      reply.header('ETag', etagOf(household.version))
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"household":${household.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )

  app.delete(
    path,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('deleteRelationship', 'deleteHousehold'),
        summary: legacy ? 'Delete a household' : 'Delete a relationship',
        description: `${alias('DELETE')}Deletes the household with its members and assignments, under If-Match; it leaves lists, totals and search at once. Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        // A DELETE may carry a body (it is ignored), but it is still parsed: bad JSON is 400, another type 415, too big 413.
        response: {
          204: Type.Null({ description: 'Deleted.' }),
          ...conditionalWriteErrors,
        },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      await deleteHousehold(db, principalOf(request), { id, expected })
      return reply.status(204).send(null)
    },
  )
}
