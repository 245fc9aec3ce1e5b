// Setting a household's assignments: which of the organization's users work on it, in which role.
// Only users of the caller's own organization can be assigned; any other id — another org's user
// included — is the same assignment_user_unknown, so nothing says which users other organizations
// have. Refusals are thrown as RuleViolation (see rule-violation.ts).
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { SetAssignmentsBody } from '../schemas/assignment.ts'
import { replaceAssignments, usersNotInOrg, type AssignmentWrite } from '../store/assignments.ts'
import type { ExpectedVersions, HouseholdJson } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { readHouseholdAppendingEvents } from '../store/events.ts'
import { writeHousehold } from './household-write.ts'
import { householdNotFound, RuleViolation } from './rule-violation.ts'

/** The set as the store writes it (user ids lower-cased), or a refusal naming the first broken rule. */
function checkAssignments(body: SetAssignmentsBody): AssignmentWrite[] {
  const seen = new Set<string>()
  let lead: number | undefined
  return body.assignments.map((a, i): AssignmentWrite => {
    const userId = a.userId.toLowerCase()
    if (seen.has(userId))
      throw new RuleViolation(
        'assignment_user_repeated',
        `assignments.${i}.userId names a user already in the set; give each user one role.`,
        `/assignments/${i}/userId`,
      )
    seen.add(userId)
    if (a.role === 'leadAdvisor') {
      if (lead !== undefined)
        throw new RuleViolation(
          'assignment_lead_advisor_repeated',
          `assignments.${i} is a second leadAdvisor (the first is assignments.${lead}); a household has at most one.`,
          `/assignments/${i}/role`,
        )
      lead = i
    }
    return { userId, role: a.role }
  })
}

export interface SetAssignmentsInput {
  householdId: string
  expected: ExpectedVersions
  body: SetAssignmentsBody
}

/** Replaces the household's assignments; answers the household as JSON with its new version. */
export async function setAssignments(
  db: Kysely<Database>,
  principal: Principal,
  input: SetAssignmentsInput,
): Promise<HouseholdJson> {
  const { householdId } = input
  const wanted = checkAssignments(input.body)
  const { orgId } = principal
  const written = await writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
    const unknown = await usersNotInOrg(
      trx,
      orgId,
      wanted.map((a) => a.userId),
    )
    if (unknown.length > 0) {
      const index = wanted.findIndex((a) => a.userId === unknown[0])
      throw new RuleViolation(
        'assignment_user_unknown',
        `assignments.${index}.userId is not a user of your organization.`,
        `/assignments/${index}/userId`,
      )
    }
    await replaceAssignments(trx, householdId, wanted)
    await recordAudit(trx, { actor: principal, action: 'assignments.set', householdId, changed: ['assignments'] })
    return readHouseholdAppendingEvents(trx, orgId, householdId, [{ type: 'assignments.updated' }])
  })
  if (!written.value) throw householdNotFound()
  return written.value
}
