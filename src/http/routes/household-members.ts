// The members of one relationship: list and add (…/{id}/members), read, change and remove one
// (…/{id}/members/{memberId}), on both path prefixes. Members are part of the household: every
// change is a use case of src/households/members.ts that moves the household's version (its ETag),
// and an If-Match of a household that changed since is 412. Unknown, malformed and other orgs' household
// or member ids are all 404.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { CreateMemberBody, MemberEnvelope, MemberList, MemberParams, UpdateMemberBody } from '../../schemas/member.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readMemberJson, readMembersJson } from '../../store/members.ts'
import { addMember, removeMember, updateMember } from '../../households/members.ts'
import { householdNotFound, memberNotFound } from '../../households/rule-violation.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { HouseholdIdParams, householdIdOf, IfMatchHeaders } from './household-record.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

/** A member id from the path; anything but a UUID names no member (404). */
function memberIdOf(params: { memberId: string }): string {
  if (!isUuid(params.memberId)) throw memberNotFound()
  return params.memberId.toLowerCase()
}

const json = 'application/json; charset=utf-8'

export function registerHouseholdMemberRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const { base, docs, legacy } = surface
  const listPath = `${base}/:id/members`
  const onePath = `${base}/:id/members/:memberId`
  const alias = (operation: string, path: string) => surface.alias(operation, `/{id}/${path}`)
  const name = (operation: string) =>
    legacy
      ? `${operation}HouseholdMember${operation === 'list' ? 's' : ''}`
      : `${operation}RelationshipMember${operation === 'list' ? 's' : ''}`
  const what = legacy ? 'household' : 'relationship'
  const etagNote = "The ETag is the household's: members are part of it, so any change to them moves it."
  const deceasedSpouseNote =
    'A deceased spouse is a member like anyone else: role spouse, a deathDate, a spouse relationship to the client (with since and until) and parent relationships to the children. The household field deceasedSpouseName keeps its meaning: when no member bears that name, the chart draws a person from the field (with dsueDateOfDeath as the death date); when a member bears it, that member is the deceased spouse and is drawn once.'

  app.get(
    listPath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('list'),
        summary: `List the members of a ${what}`,
        description: `${alias('GET', 'members')}Every member with their relationships, and the household's ETag. ${etagNote} If-None-Match with the current ETag answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: MemberList, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readMembersJson(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply.type(json).send(`{"members":${found.body}}` as unknown as Static<typeof MemberList>)
    },
  )

  app.post(
    listPath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('create'),
        summary: `Add a member to a ${what}`,
        description: `${alias('POST', 'members')}Adds a member (with its relationships to members already there: a parent's kind, a couple's since and until). If-Match is optional: when sent, it must name the household's current ETag (412 otherwise). Answers 201 with the member, its Location and the household's new ETag. ${deceasedSpouseNote} Refusals: member_role_taken, member_external_id_taken, relationship_member_unknown, relationship_conflict, invalid_body (with the field, e.g. /relationships/2/parentKind). Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: Type.Object({
          'if-match': Type.Optional(
            Type.String({
              description: "Optional: the household's ETag (or *); 412 when the household changed since.",
            }),
          ),
        }),
        body: CreateMemberBody,
        response: {
          201: MemberEnvelope,
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
      const added = await addMember(db, principalOf(request), { householdId, expected, body: request.body })
      reply.header('ETag', etagOf(added.version))
      reply.header('Location', `${base}/${householdId}/members/${added.memberId}`)
      return reply
        .status(201)
        .type(json)
        .send(`{"member":${added.member.body}}` as unknown as Static<typeof MemberEnvelope>)
    },
  )

  app.get(
    onePath,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('get'),
        summary: `Get a member of a ${what}`,
        description: `${alias('GET', 'members/{memberId}')}One member with their relationships, and the household's ETag. ${etagNote} If-None-Match with the current ETag answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
        ...docs,
        params: MemberParams,
        headers: IfNoneMatchHeaders,
        response: { 200: MemberEnvelope, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const memberId = memberIdOf(request.params)
      const found = await readMemberJson(db, principalOf(request).orgId, householdId, memberId)
      if (!found) throw memberNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return reply.type(json).send(`{"member":${found.body}}` as unknown as Static<typeof MemberEnvelope>)
    },
  )

  app.patch(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('update'),
        summary: `Update a member of a ${what}`,
        description: `${alias('PATCH', 'members/{memberId}')}A JSON merge patch (application/merge-patch+json or application/json) of the member fields, under If-Match with the household's ETag (428 without it, 412 when stale). relationships, when sent, replaces the member's whole set (a relationship as read is a valid one to send; a couple's since and until are the pair's, so either member may change them). Answers the member with the household's new ETag. ${deceasedSpouseNote} Refusals: member_role_taken, member_external_id_taken, relationship_member_unknown, relationship_self, relationship_conflict, relationship_cycle, invalid_body (with the field, e.g. /relationships/0/until). Needs relationships:write or households:write.`,
        ...docs,
        params: MemberParams,
        headers: IfMatchHeaders,
        body: UpdateMemberBody,
        response: {
          200: MemberEnvelope,
          ...conditionalWriteErrors,
        },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const memberId = memberIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const updated = await updateMember(db, principalOf(request), {
        householdId,
        memberId,
        expected,
        patch: request.body,
      })
      reply.header('ETag', etagOf(updated.version))
      return reply.type(json).send(`{"member":${updated.value.body}}` as unknown as Static<typeof MemberEnvelope>)
    },
  )

  app.delete(
    onePath,
    {
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('delete'),
        summary: `Remove a member from a ${what}`,
        description: `${alias('DELETE', 'members/{memberId}')}Removes the member and every relationship to them, under If-Match with the household's ETag (428 without it, 412 when stale). Answers 204 with the household's new ETag. Needs relationships:write or households:write.`,
        ...docs,
        params: MemberParams,
        headers: IfMatchHeaders,
        // A DELETE needs no body; one that is sent is still read (400 when not JSON, 413, 415).
        response: {
          204: Type.Null({ description: 'Removed.' }),
          ...conditionalWriteErrors,
        },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const memberId = memberIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const removed = await removeMember(db, principalOf(request), { householdId, memberId, expected })
      reply.header('ETag', etagOf(removed.version))
      return reply.status(204).send(null)
    },
  )
}
