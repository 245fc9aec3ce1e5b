// A household's assignments: GET reads them (with the household's ETag; If-None-Match → 304), PUT
// replaces the whole set under If-Match (src/households/assignments.ts), on both path prefixes. Only users of the caller's own
// organization can be assigned; any other id — another org's user included — is the same
// assignment_user_unknown, so nothing says which users other organizations have.
import type { Kysely } from 'kysely'
import type { Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { HouseholdEnvelope } from '../../schemas/household.ts'
import { AssignmentList, SetAssignmentsBody } from '../../schemas/assignment.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { readAssignments } from '../../store/assignments.ts'
import { setAssignments } from '../../households/assignments.ts'
import { etagOf, expectedVersions } from '../etag.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { answeredNotModified, IfNoneMatchHeaders, NotModified } from '../conditional-get.ts'
import { authErrors, conditionalWriteErrors } from './auth-errors.ts'
import type { HouseholdSurface } from './household-surface.ts'
import { HouseholdIdParams, householdIdOf, IfMatchHeaders } from './household-record.ts'
import { householdNotFound } from '../../households/rule-violation.ts'
import { NOT_MODIFIED_COST } from '../../rate-limit/costs.ts'

export function registerHouseholdAssignmentRoutes(app: App, db: Kysely<Database>, surface: HouseholdSurface): void {
  const path = `${surface.base}/:id/assignments`
  const { docs, legacy } = surface
  const alias = (method: string) => surface.alias(method, '/{id}/assignments')
  const name = surface.pick

  app.get(
    path,
    {
      config: surface.config('relationships:read'),
      schema: {
        operationId: name('listRelationshipAssignments', 'listHouseholdAssignments'),
        summary: legacy ? "List a household's assignments" : "List a relationship's assignments",
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
      config: surface.config('relationships:write'),
      schema: {
        operationId: name('setRelationshipAssignments', 'setHouseholdAssignments'),
        summary: legacy ? "Set a household's assignments" : "Set a relationship's assignments",
        description:
          `${alias('PUT')}Replaces the set of users assigned to the household, under If-Match (the household's ETag). ` +
          'Each user is a user of your organization (else 400 assignment_user_unknown), appears once (assignment_user_repeated), ' +
          'and at most one is leadAdvisor (assignment_lead_advisor_repeated). Users who stay keep their place in the list. ' +
          'Answers the household in full, whose assignments and counts show the new set, with its new ETag. Needs relationships:write or households:write.',
        ...docs,
        params: HouseholdIdParams,
        headers: IfMatchHeaders,
        body: SetAssignmentsBody,
        response: {
          200: HouseholdEnvelope,
          ...conditionalWriteErrors,
        },
      },
    },
    async (request, reply) => {
      const id = householdIdOf(request.params)
      const expected = expectedVersions(request.headers['if-match'])
      const household = await setAssignments(db, principalOf(request), {
        householdId: id,
        expected,
        body: request.body,
      })
      reply.header('ETag', etagOf(household.version))
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"household":${household.body}}` as unknown as Static<typeof HouseholdEnvelope>)
    },
  )
}
