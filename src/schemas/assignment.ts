// Assignments: the org's users (advisors and their team) assigned to a household, each with a role.
// PUT replaces the whole set; GET reads it. The rules JSON Schema cannot say (no user twice, at most
// one lead advisor, users of the caller's organization only) are checked by the route and the store.
import { Type, type Static } from 'typebox'
import { StringEnum } from './common.ts'
import { ASSIGNMENT_ROLES } from '../domain/household-roles.ts'

export const MAX_ASSIGNMENTS = 50

const UserId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'The id of a user of your organization (a UUID).',
})

const AssignmentInput = Type.Object(
  {
    userId: UserId,
    role: StringEnum(ASSIGNMENT_ROLES, {
      description: 'leadAdvisor (at most one per household), advisor, paraplanner or serviceAssociate.',
    }),
  },
  { additionalProperties: false },
)

export const SetAssignmentsBody = Type.Object(
  {
    assignments: Type.Array(AssignmentInput, {
      maxItems: MAX_ASSIGNMENTS,
      description: `The whole set, replacing the current one (an empty array removes everyone). At most ${MAX_ASSIGNMENTS}; each user once; at most one leadAdvisor.`,
    }),
  },
  { title: 'SetAssignments', additionalProperties: false },
)
export type SetAssignmentsBody = Static<typeof SetAssignmentsBody>

const Assignment = Type.Object(
  {
    userId: Type.String({ description: 'The user id (a UUID).' }),
    name: Type.String(),
    role: StringEnum(ASSIGNMENT_ROLES),
  },
  { title: 'Assignment', additionalProperties: false },
)

export const AssignmentList = Type.Object(
  {
    assignments: Type.Array(Assignment, {
      description: 'In the order they were first assigned (then by user id), as in list items.',
    }),
  },
  { title: 'AssignmentList', additionalProperties: false },
)
export type AssignmentList = Static<typeof AssignmentList>

export type AssignmentRole = (typeof ASSIGNMENT_ROLES)[number]
