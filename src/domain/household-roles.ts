// The roles of a household's members and of the advisors assigned to it. Plain lists, without
// TypeBox: the schemas validate against them, and the web app offers them as choices (importing
// them from a schema module would put TypeBox in its bundle).
export const MEMBER_ROLES = ['primaryClient', 'coClient', 'child', 'grandchild', 'parent', 'sibling', 'other'] as const
export const ASSIGNMENT_ROLES = ['leadAdvisor', 'advisor', 'paraplanner', 'serviceAssociate'] as const
