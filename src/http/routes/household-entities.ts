// The entities of one relationship (trusts, business entities, charities, holdings, parties): list
// and add (…/{id}/entities), read, change and remove one (…/{id}/entities/{entityId}), and its
// valuation history (…/{id}/entities/{entityId}/valuations), on both path prefixes. Entities are
// part of the household: every change is a use case of src/households/entities.ts that moves the
// household's version (its ETag), and an If-Match of a household that changed since is 412.
// Unknown, malformed and other orgs' household or entity ids are all 404.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import {
  CreateEntityBody,
  EntityEnvelope,
  EntityList,
  EntityParams,
  UpdateEntityBody,
  ValuationList,
} from '../../schemas/entity.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readEntitiesJson, readEntityJson } from '../../store/entities.ts'
import { readValuationsJson } from '../../store/entity-valuations.ts'
import { createEntity, deleteEntity, ENTITIES_MAX, updateEntity } from '../../households/entities.ts'
import { entityNotFound, householdNotFound } from '../../households/rule-violation.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { HouseholdIdParams, householdIdOf, IfMatchHeaders } from './household-record.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

/** An entity id from the path; anything but a UUID names no entity (404). */
function entityIdOf(params: { entityId: string }): string {
  if (!isUuid(params.entityId)) throw entityNotFound()
  return params.entityId.toLowerCase()
}

const json = 'application/json; charset=utf-8'

export function registerHouseholdEntityRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const { base, docs, legacy } = surface
  const listPath = `${base}/:id/entities`
  const onePath = `${base}/:id/entities/:entityId`
  const valuationsPath = `${base}/:id/entities/:entityId/valuations`
  const alias = (operation: string, path: string) => surface.alias(operation, `/{id}/${path}`)
  const owner = legacy ? 'Household' : 'Relationship'
  const what = legacy ? 'household' : 'relationship'
  const etagNote = "The ETag is the household's: entities are part of it, so any change to them moves it."
  const readNote = `If-None-Match with the current ETag answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`
  const writeNote = 'Needs relationships:write or households:write.'
  const fieldRules =
    "invalid_body (a field's rule: the field's pointer), entity_party_value (a party with a value, valueAsOf or estate), entity_external_id_taken (/externalId)"

  app.get(
    listPath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: `list${owner}Entities`,
        summary: `List the entities of a ${what}`,
        description: `${alias('GET', 'entities')}Every trust, business entity, charity, holding and party of the household, in the order they were added, with the household's ETag. ${etagNote} ${readNote}`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: EntityList, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readEntitiesJson(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply.type(json).send(`{"entities":${found.body}}` as unknown as Static<typeof EntityList>)
    },
  )

  app.post(
    listPath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: `create${owner}Entity`,
        summary: `Add an entity to a ${what}`,
        description: `${alias('POST', 'entities')}Adds a trust, business entity, charity, holding or party; a value given is its first valuation. If-Match is optional: when sent, it must name the household's current ETag (412 otherwise). Answers 201 with the entity, its Location and the household's new ETag. Refusals: ${fieldRules}, household_entities_limit (at most ${ENTITIES_MAX} entities). ${writeNote}`,
        ...docs,
        params: HouseholdIdParams,
        headers: Type.Object({
          'if-match': Type.Optional(
            Type.String({
              description: "Optional: the household's ETag (or *); 412 when the household changed since.",
            }),
          ),
        }),
        body: CreateEntityBody,
        response: {
          201: EntityEnvelope,
          400: ErrorBody,
          404: ErrorBody,
          412: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const ifMatch = request.headers['if-match']
      const expected = ifMatch === undefined || ifMatch.trim() === '' ? '*' : expectedVersions(ifMatch)
      const created = await createEntity(db, principalOf(request), { householdId, expected, body: request.body })
      reply.header('ETag', etagOf(created.version))
      reply.header('Location', `${base}/${householdId}/entities/${created.entityId}`)
      return reply
        .status(201)
        .type(json)
        .send(`{"entity":${created.entity.body}}` as unknown as Static<typeof EntityEnvelope>)
    },
  )

  app.get(
    onePath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: `get${owner}Entity`,
        summary: `Get an entity of a ${what}`,
        description: `${alias('GET', 'entities/{entityId}')}One entity, and the household's ETag. ${etagNote} ${readNote}`,
        ...docs,
        params: EntityParams,
        headers: IfNoneMatchHeaders,
        response: { 200: EntityEnvelope, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const entityId = entityIdOf(request.params)
      const found = await readEntityJson(db, principalOf(request).orgId, householdId, entityId)
      if (!found) throw entityNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply.type(json).send(`{"entity":${found.body}}` as unknown as Static<typeof EntityEnvelope>)
    },
  )

  app.patch(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: `update${owner}Entity`,
        summary: `Update an entity of a ${what}`,
        description: `${alias('PATCH', 'entities/{entityId}')}A JSON merge patch (application/merge-patch+json or application/json) of the entity fields, under If-Match with the household's ETag (428 without it, 412 when stale). A change of value or valueAsOf adds a valuation. Answers the entity with the household's new ETag. Refusals: ${fieldRules}, link_party_owned (/kind: the kind becomes a party while the entity has owners, partners, beneficiaries or an insured). ${writeNote}`,
        ...docs,
        params: EntityParams,
        headers: IfMatchHeaders,
        body: UpdateEntityBody,
        response: { 200: EntityEnvelope, ...conditionalWriteErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const entityId = entityIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const updated = await updateEntity(db, principalOf(request), {
        householdId,
        entityId,
        expected,
        patch: request.body,
      })
      reply.header('ETag', etagOf(updated.version))
      return reply.type(json).send(`{"entity":${updated.value.body}}` as unknown as Static<typeof EntityEnvelope>)
    },
  )

  app.delete(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: `delete${owner}Entity`,
        summary: `Remove an entity from a ${what}`,
        description: `${alias('DELETE', 'entities/{entityId}')}Removes the entity with its links (to and from it) and its valuations, under If-Match with the household's ETag (428 without it, 412 when stale). Answers 204 with the household's new ETag. ${writeNote}`,
        ...docs,
        params: EntityParams,
        headers: IfMatchHeaders,
        // A DELETE needs no body; one that is sent is still read (400 when not JSON, 413, 415).
        response: { 204: Type.Null({ description: 'Removed.' }), ...conditionalWriteErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const entityId = entityIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const removed = await deleteEntity(db, principalOf(request), { householdId, entityId, expected })
      reply.header('ETag', etagOf(removed.version))
      return reply.status(204).send(null)
    },
  )

  app.get(
    valuationsPath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: `list${owner}EntityValuations`,
        summary: `List the valuations of an entity of a ${what}`,
        description: `${alias('GET', 'entities/{entityId}/valuations')}Every value the entity has had with the date it was valued at, newest first: one when it was created with a value, one per change of value or valueAsOf. ${etagNote} ${readNote}`,
        ...docs,
        params: EntityParams,
        headers: IfNoneMatchHeaders,
        response: { 200: ValuationList, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const entityId = entityIdOf(request.params)
      const found = await readValuationsJson(db, principalOf(request).orgId, householdId, entityId)
      if (!found) throw entityNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply.type(json).send(`{"valuations":${found.body}}` as unknown as Static<typeof ValuationList>)
    },
  )
}
