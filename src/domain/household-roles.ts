// The roles of a household's members and of the advisors assigned to it. Plain lists, without
// TypeBox: the schemas validate against them, and the web app offers them as choices (importing
// them from a schema module would put TypeBox in its bundle).
// The chart's person roles (chart/payload.ts), in its order; migration 0011's CHECK repeats them.
export const MEMBER_ROLES = [
  'primaryClient',
  'coClient',
  'spouse',
  'child',
  'grandchild',
  'greatGrandchild',
  'parent',
  'sibling',
  'inLaw',
  'other',
] as const
/** The member roles a household has at most one member in (migration 0001's unique indexes members_one_*). */
export const ONE_PER_HOUSEHOLD_ROLES: ReadonlySet<string> = new Set<(typeof MEMBER_ROLES)[number]>([
  'primaryClient',
  'coClient',
])
export const ASSIGNMENT_ROLES = ['leadAdvisor', 'advisor', 'paraplanner', 'serviceAssociate'] as const
