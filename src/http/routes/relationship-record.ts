// One relationship: GET (ETag, If-None-Match → 304 that costs 0.1 unit of rate-limit budget), PATCH (a JSON
// merge patch under If-Match) and DELETE (under If-Match), on both path prefixes. Another org's
// id, an unknown one and a malformed one are the same 404: nothing says the household exists.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { HouseholdEnvelope, UpdateHouseholdBody } from '../../schemas/relationship.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { checkPatchBody } from '../../domain/household-input.ts'
import { readHouseholdJson, deleteHouseholdRow } from '../../store/household-record.ts'
import { writeHousehold, type WriteOutcome } from '../../store/household-writes.ts'
import { recordAudit } from '../../store/audit.ts'
import { ApiError } from '../errors.ts'
import { etagOf, expectedVersions, staleVersion } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, householdOperationDocs, HOUSEHOLDS_PATH, RELATIONSHIPS_PATH } from './relationships.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'


export const HouseholdIdParams = Type.Object({ id: Type.String({ description: 'The household id (a UUID).' }) })
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'The ETag from GET (or *). Required: 428 without it, 412 when the household changed since.' })),
})

export function householdNotFound(): ApiError {
  return new ApiError('not_found', 'No household with this id in your organization.')
}

/** A household id from the path; anything but a UUID names no household (404, never 400). */
export function householdIdOf(params: { id: string }): string {
  if (!isUuid(params.id)) throw householdNotFound()
  return params.id.toLowerCase()
}

/** What a refused write answers. */
export function refusedWrite(outcome: Extract<WriteOutcome<unknown>, { ok: false }>): never {
  throw outcome.reason === 'stale' ? staleVersion() : householdNotFound()
}

export function registerRelationshipRecordRoutes(app: App, db: Kysely<Database>, legacy: boolean): void {
  const path = `${legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH}/:id`
  const docs = householdOperationDocs(legacy)
  const alias = (operation: string) => (legacy ? `Deprecated alias of ${operation} /api/v1/relationships/{id}. ` : '')
  const name = (current: string, old: string) => (legacy ? old : current)

  app.get(
    path,
    {
      config: { permission: 'relationships:read', legacy },
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
      return reply.type('application/json; charset=utf-8').send(`{"household":${found.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )

  app.patch(
    path,
    {
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('updateRelationship', 'updateHousehold'),
        summary: legacy ? 'Update a household' : 'Update a relationship',
        description: `${alias('PATCH')}A JSON merge patch (application/merge-patch+json or application/json) of the create fields, under If-Match. Answers the household in full with its new ETag. Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        body: UpdateHouseholdBody,
        response: { 200: HouseholdEnvelope, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, 428: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const checked = checkPatchBody(request.body)
      if (!checked.ok) throw new ApiError('invalid_body', checked.message)
      const principal = principalOf(request)
      const outcome = await writeHousehold(db, { orgId: principal.orgId, id, expected, changes: checked.fields }, async (trx) => {
        await recordAudit(trx, { actor: principal, action: 'household.update', householdId: id, changed: Object.keys(checked.fields) })
        return readHouseholdJson(trx, principal.orgId, id)
      })
      if (!outcome.ok) refusedWrite(outcome)
      if (!outcome.value) throw householdNotFound()
      reply.header('ETag', etagOf(outcome.value.version))
      return reply.type('application/json; charset=utf-8').send(`{"household":${outcome.value.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )

  app.delete(
    path,
    {
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('deleteRelationship', 'deleteHousehold'),
        summary: legacy ? 'Delete a household' : 'Delete a relationship',
        description: `${alias('DELETE')}Deletes the household with its members and assignments, under If-Match; it leaves lists, totals and search at once. Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        // A DELETE may carry a body (it is ignored), but it is still parsed: bad JSON is 400, another type 415, too big 413.
        response: { 204: Type.Null({ description: 'Deleted.' }), 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, 428: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const principal = principalOf(request)
      const outcome = await writeHousehold(db, { orgId: principal.orgId, id, expected }, async (trx) => {
        await deleteHouseholdRow(trx, id)
        await recordAudit(trx, { actor: principal, action: 'household.delete', householdId: id, changed: [] })
      })
      if (!outcome.ok) refusedWrite(outcome)
      return reply.status(204).send(null)
    },
  )
}
