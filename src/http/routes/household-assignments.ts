// A household's assignments: GET reads them (with the household's ETag; If-None-Match → 304), PUT
// replaces the whole set under If-Match, on both path prefixes. Only users of the caller's own
// organization can be assigned; any other id — another org's user included — is the same
// assignment_user_unknown, so nothing says which users other organizations have.
import type { Kysely } from 'kysely'
import type { Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { HouseholdEnvelope } from '../../schemas/relationship.ts'
import { AssignmentList, SetAssignmentsBody, type AssignmentRole } from '../../schemas/assignment.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readHouseholdJson } from '../../store/household-record.ts'
import { writeHousehold } from '../../store/household-writes.ts'
import { readAssignments, replaceAssignments, usersNotInOrg, type AssignmentWrite } from '../../store/assignments.ts'
import { recordAudit } from '../../store/audit.ts'
import { ApiError } from '../errors.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, householdOperationDocs, HOUSEHOLDS_PATH, RELATIONSHIPS_PATH } from './relationships.ts'
import { HouseholdIdParams, householdIdOf, householdNotFound, IfMatchHeaders, refusedWrite } from './relationship-record.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

/** The set as the store writes it (user ids lower-cased), or a 400 naming the first broken rule. */
export function checkAssignments(body: SetAssignmentsBody): AssignmentWrite[] {
  const seen = new Set<string>()
  let lead: number | undefined
  const wanted = body.assignments.map((a, i): AssignmentWrite => {
    const userId = a.userId.toLowerCase()
    if (seen.has(userId)) throw new ApiError('assignment_user_repeated', `assignments.${i}.userId names a user already in the set; give each user one role.`)
    seen.add(userId)
    if (a.role === 'leadAdvisor') {
      if (lead !== undefined) throw new ApiError('assignment_lead_advisor_repeated', `assignments.${i} is a second leadAdvisor (the first is assignments.${lead}); a household has at most one.`)
      lead = i
    }
    return { userId, role: a.role as AssignmentRole }
  })
  return wanted
}

export function registerHouseholdAssignmentRoutes(app: App, db: Kysely<Database>, legacy: boolean): void {
  const path = `${legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH}/:id/assignments`
  const docs = householdOperationDocs(legacy)
  const alias = (method: string) => (legacy ? `Deprecated alias of ${method} /api/v1/relationships/{id}/assignments. ` : '')
  const name = (current: string, old: string) => (legacy ? old : current)

  app.get(
    path,
    {
      config: { permission: 'relationships:read', legacy },
      schema: {
        operationId: name('listRelationshipAssignments', 'listHouseholdAssignments'),
        summary: legacy ? 'List a household\'s assignments' : 'List a relationship\'s assignments',
        description: `${alias('GET')}The users assigned to the household with their roles, and the household's ETag (the same as GET of the household); If-None-Match with it answers 304, which costs ${NOT_MODIFIED_COST} unit of rate-limit budget instead of 1 (If-None-Match: * is not a match on a GET). Needs relationships:read or households:read (relationships:write or households:write imply read).`,
        ...docs,
        params: HouseholdIdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: AssignmentList, 304: NotModified, 404: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const found = await readAssignments(db, principalOf(request).orgId, id)
      if (!found) throw householdNotFound()
      if (await answeredNotModified(request, reply, found.version)) return reply
      return found.list
    },
  )

  app.put(
    path,
    {
      config: { permission: 'relationships:write', legacy },
      schema: {
        operationId: name('setRelationshipAssignments', 'setHouseholdAssignments'),
        summary: legacy ? 'Set a household\'s assignments' : 'Set a relationship\'s assignments',
        description:
          `${alias('PUT')}Replaces the set of users assigned to the household, under If-Match (the household's ETag). ` +
          'Each user is a user of your organization (else 400 assignment_user_unknown), appears once (assignment_user_repeated), ' +
          'and at most one is leadAdvisor (assignment_lead_advisor_repeated). Users who stay keep their place in the list. ' +
          'Answers the household in full, whose assignments and counts show the new set, with its new ETag. Needs relationships:write or households:write.',
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        body: SetAssignmentsBody,
        response: { 200: HouseholdEnvelope, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 413: ErrorBody, 415: ErrorBody, 428: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const wanted = checkAssignments(request.body)
      const principal = principalOf(request)
      const outcome = await writeHousehold(db, { orgId: principal.orgId, id, expected }, async (trx) => {
        const unknown = await usersNotInOrg(trx, principal.orgId, wanted.map((a) => a.userId))
        if (unknown.length > 0) {
          const index = wanted.findIndex((a) => a.userId === unknown[0])
          throw new ApiError('assignment_user_unknown', `assignments.${index}.userId is not a user of your organization.`)
        }
        await replaceAssignments(trx, id, wanted)
        await recordAudit(trx, { actor: principal, action: 'assignments.set', householdId: id, changed: ['assignments'] })
        return readHouseholdJson(trx, principal.orgId, id)
      })
      if (!outcome.ok) refusedWrite(outcome)
      if (!outcome.value) throw householdNotFound()
      reply.header('ETag', etagOf(outcome.value.version))
      return reply.type('application/json; charset=utf-8').send(`{"household":${outcome.value.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )
}
