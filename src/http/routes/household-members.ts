// The members of one relationship: list and add (…/{id}/members), read, change and remove one
// (…/{id}/members/{memberId}), on both path prefixes. Members are part of the household: every
// change goes through writeHousehold, so it moves the household's version (its ETag), and an
// If-Match of a household that changed since is 412. Unknown, malformed and other orgs' household
// or member ids are all 404.
import type { Kysely } from 'kysely'
import { Type, type Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { CreateMemberBody, MemberEnvelope, MemberList, MemberParams, UpdateMemberBody, type MemberRelationship, type MemberRole } from '../../schemas/member.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { checkMemberFields, checkRelationshipSet, createFieldsOf, mergeMemberPatch, type MemberFields } from '../../domain/member-input.ts'
import {
  deleteMember,
  insertMember,
  readMemberFields,
  readMemberJson,
  readMembersJson,
  replaceRelationships,
  roleTaken,
  updateMember,
  memberCount,
} from '../../store/members.ts'
import { writeHousehold, type WriteOutcome } from '../../store/household-writes.ts'
import { recordAudit } from '../../store/audit.ts'
import { ApiError } from '../errors.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { PAYLOAD_LIMITS } from '../../../chart/payload.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, householdOperationDocs, HOUSEHOLDS_PATH, RELATIONSHIPS_PATH } from './relationships.ts'
import { HouseholdIdParams, householdIdOf, householdNotFound, IfMatchHeaders, refusedWrite } from './relationship-record.ts'
import { isUuid } from '../../domain/ids.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

/** As many people as one chart can draw (chart payload v1), so …/chart always answers. */
const MEMBERS_MAX = PAYLOAD_LIMITS.people

function memberNotFound(): ApiError {
  return new ApiError('not_found', 'No member with this id in this household.')
}

/** A member id from the path; anything but a UUID names no member (404). */
function memberIdOf(params: { memberId: string }): string {
  if (!isUuid(params.memberId)) throw memberNotFound()
  return params.memberId.toLowerCase()
}

function roleTakenError(role: MemberRole): ApiError {
  return new ApiError('member_role_taken', `The household already has a ${role}; there can be one. Change that member's role first.`)
}

/** The relationship set of a body, or a 400 for a self-reference or one member named twice. */
function relationshipsOf(memberId: string | undefined, relationships: readonly MemberRelationship[] | null | undefined): MemberRelationship[] | undefined {
  if (relationships === undefined) return undefined
  const checked = checkRelationshipSet(memberId, relationships ?? [])
  if (!checked.ok) throw new ApiError(checked.code, checked.message)
  return checked.relationships
}

/** A unique_violation of members_one_primary_client or members_one_co_client (pg and PGlite both say so in the message). */
function violatesOneRoleIndex(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '23505' && typeof message === 'string' && message.includes('members_one_')
}

/**
 * Runs a member write; a second primaryClient or coClient that got past the check (a write that
 * does not hold the household lock, such as a bulk load) is still member_role_taken, not a 500.
 */
async function write<T>(run: () => Promise<WriteOutcome<T>>, role: MemberRole | undefined): Promise<Extract<WriteOutcome<T>, { ok: true }>> {
  let outcome: WriteOutcome<T>
  try {
    outcome = await run()
  } catch (error) {
    if (role !== undefined && violatesOneRoleIndex(error)) throw roleTakenError(role)
    throw error
  }
  if (!outcome.ok) refusedWrite(outcome)
  return outcome
}

const json = 'application/json; charset=utf-8'

export function registerHouseholdMemberRoutes(app: App, db: Kysely<Database>, legacy: boolean): void {
  const base = legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH
  const listPath = `${base}/:id/members`
  const onePath = `${base}/:id/members/:memberId`
  const docs = householdOperationDocs(legacy)
  const alias = (operation: string, path: string) => (legacy ? `Deprecated alias of ${operation} /api/v1/relationships/{id}/${path}. ` : '')
  const name = (operation: string) => (legacy ? `${operation}HouseholdMember${operation === 'list' ? 's' : ''}` : `${operation}RelationshipMember${operation === 'list' ? 's' : ''}`)
  const what = legacy ? 'household' : 'relationship'
  const etagNote = 'The ETag is the household\'s: members are part of it, so any change to them moves it.'

  app.get(
    listPath,
    {
      config: { permission: 'relationships:read', legacy },
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
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('create'),
        summary: `Add a member to a ${what}`,
        description: `${alias('POST', 'members')}Adds a member (with its relationships to members already there). If-Match is optional: when sent, it must name the household's current ETag (412 otherwise). Answers 201 with the member, its Location and the household's new ETag. Refusals: member_role_taken, relationship_member_unknown, relationship_conflict, invalid_body. Needs relationships:write or households:write.`,
        ...docs,
        params: HouseholdIdParams,
        headers: Type.Object({
          'if-match': Type.Optional(Type.String({ description: 'Optional: the household\'s ETag (or *); 412 when the household changed since.' })),
        }),
        body: CreateMemberBody,
        response: { 201: MemberEnvelope, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const ifMatch = request.headers['if-match']
      const expected = ifMatch === undefined || ifMatch.trim() === '' ? '*' : expectedVersions(ifMatch)
      const checked = checkMemberFields(createFieldsOf(request.body))
      if (!checked.ok) throw new ApiError(checked.code, checked.message)
      const fields = checked.fields
      const relationships = relationshipsOf(undefined, request.body.relationships) ?? []
      const principal = principalOf(request)
      const outcome = await write(
        () =>
          writeHousehold(db, { orgId: principal.orgId, id: householdId, expected }, async (trx) => {
            if (await roleTaken(trx, householdId, fields.role)) throw roleTakenError(fields.role)
            if ((await memberCount(trx, householdId)) >= MEMBERS_MAX) {
              throw new ApiError('household_members_limit', `A household has at most ${MEMBERS_MAX} members.`)
            }
            const memberId = await insertMember(trx, householdId, fields)
            const replaced = await replaceRelationships(trx, householdId, memberId, relationships)
            if (!replaced.ok) throw new ApiError(replaced.code, replaced.message)
            const changed: string[] = (Object.keys(fields) as Array<keyof MemberFields>).filter((key) => fields[key] !== null)
            if (relationships.length > 0) changed.push('relationships')
            await recordAudit(trx, { actor: principal, action: 'member.create', householdId, memberId, changed })
            return { memberId, member: await readMemberJson(trx, principal.orgId, householdId, memberId) }
          }),
        fields.role,
      )
      if (!outcome.value.member) throw householdNotFound()
      reply.header('ETag', etagOf(outcome.version))
      reply.header('Location', `${base}/${householdId}/members/${outcome.value.memberId}`)
      return reply.status(201).type(json).send(`{"member":${outcome.value.member.body}}` as unknown as Static<typeof MemberEnvelope>)
    },
  )

  app.get(
    onePath,
    {
      config: { permission: 'relationships:read', legacy },
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
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('update'),
        summary: `Update a member of a ${what}`,
        description: `${alias('PATCH', 'members/{memberId}')}A JSON merge patch (application/merge-patch+json or application/json) of the member fields, under If-Match with the household's ETag (428 without it, 412 when stale). relationships, when sent, replaces the member's whole set. Answers the member with the household's new ETag. Refusals: member_role_taken, relationship_member_unknown, relationship_self, relationship_conflict, relationship_cycle, invalid_body. Needs relationships:write or households:write.`,
        ...docs,
        params: MemberParams,
        headers: IfMatchHeaders,
        body: UpdateMemberBody,
        response: { 200: MemberEnvelope, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, 428: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const memberId = memberIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const patch = request.body
      // The rules of each sent field, before taking the household's lock; the merged member again inside.
      const alone = checkMemberFields(mergeMemberPatch({ name: 'unchanged', role: 'other', birthDate: null, deathDate: null, email: null }, patch))
      if (!alone.ok) throw new ApiError(alone.code, alone.message)
      const relationships = relationshipsOf(memberId, patch.relationships)
      const principal = principalOf(request)
      const outcome = await write(
        () =>
          writeHousehold(db, { orgId: principal.orgId, id: householdId, expected }, async (trx) => {
            const current = await readMemberFields(trx, householdId, memberId)
            if (!current) throw memberNotFound()
            const merged = checkMemberFields(mergeMemberPatch(current, patch))
            if (!merged.ok) throw new ApiError(merged.code, merged.message)
            if (merged.fields.role !== current.role && (await roleTaken(trx, householdId, merged.fields.role, memberId))) throw roleTakenError(merged.fields.role)
            await updateMember(trx, memberId, merged.fields)
            if (relationships !== undefined) {
              const replaced = await replaceRelationships(trx, householdId, memberId, relationships)
              if (!replaced.ok) throw new ApiError(replaced.code, replaced.message)
            }
            await recordAudit(trx, { actor: principal, action: 'member.update', householdId, memberId, changed: Object.keys(patch) })
            return readMemberJson(trx, principal.orgId, householdId, memberId)
          }),
        patch.role,
      )
      if (!outcome.value) throw memberNotFound()
      reply.header('ETag', etagOf(outcome.version))
      return reply.type(json).send(`{"member":${outcome.value.body}}` as unknown as Static<typeof MemberEnvelope>)
    },
  )

  app.delete(
    onePath,
    {
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('delete'),
        summary: `Remove a member from a ${what}`,
        description: `${alias('DELETE', 'members/{memberId}')}Removes the member and every relationship to them, under If-Match with the household's ETag (428 without it, 412 when stale). Answers 204 with the household's new ETag. Needs relationships:write or households:write.`,
        ...docs,
        params: MemberParams,
        headers: IfMatchHeaders,
        // A DELETE needs no body; one that is sent is still read (400 when not JSON, 413, 415).
        response: { 204: Type.Null({ description: 'Removed.' }), 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, 428: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const householdId = householdIdOf(request.params)
      const memberId = memberIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const principal = principalOf(request)
      const outcome = await write(
        () =>
          writeHousehold(db, { orgId: principal.orgId, id: householdId, expected }, async (trx) => {
            if (!(await deleteMember(trx, householdId, memberId))) throw memberNotFound()
            await recordAudit(trx, { actor: principal, action: 'member.delete', householdId, memberId, changed: [] })
          }),
        undefined,
      )
      reply.header('ETag', etagOf(outcome.version))
      return reply.status(204).send(null)
    },
  )
}
