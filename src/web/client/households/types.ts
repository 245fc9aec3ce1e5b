// The household resources as the API answers them (src/schemas/relationship.ts, member.ts,
// assignment.ts), written out for the browser so the client does not import server code.

export const MEMBER_ROLES = ['primaryClient', 'coClient', 'child', 'grandchild', 'parent', 'sibling', 'other'] as const
export type MemberRole = (typeof MEMBER_ROLES)[number]

export const ASSIGNMENT_ROLES = ['leadAdvisor', 'advisor', 'paraplanner', 'serviceAssociate'] as const
export type AssignmentRole = (typeof ASSIGNMENT_ROLES)[number]

export const RELATIONSHIP_TYPES = ['spouse', 'partner', 'exSpouse', 'parent'] as const
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number]

export interface MemberSummary {
  id: string
  name: string
  role: MemberRole
}

export interface Assignment {
  userId: string
  name: string
  role: AssignmentRole
}

export interface HouseholdListItem {
  id: string
  name: string
  createdAt: string
  updatedAt: string
  isSample: boolean
  members: MemberSummary[]
  assignments: Assignment[]
  counts: { members: number; assignments: number }
}

export interface HouseholdList {
  households: HouseholdListItem[]
  total: number
  page: number
  pageSize: number
}

export interface Household extends HouseholdListItem {
  dsueReceived: number | null
  deceasedSpouseName: string | null
  dsueDateOfDeath: string | null
  metadata: Record<string, unknown> | null
  primaryClientAsDonor: boolean | null
  coClientAsDonor: boolean | null
}

/** The create body; the update body is the same fields, each optional (a merge patch). */
export interface HouseholdFieldsBody {
  name?: string
  dsueReceived?: number | null
  deceasedSpouseName?: string | null
  dsueDateOfDeath?: string | null
  metadata?: Record<string, unknown> | null
  primaryClientAsDonor?: boolean | null
  coClientAsDonor?: boolean | null
}

export interface MemberRelationship {
  memberId: string
  type: RelationshipType
}

export interface Member {
  id: string
  name: string
  role: MemberRole
  birthDate: string | null
  deathDate: string | null
  email: string | null
  relationships: MemberRelationship[]
}

export interface MemberBody {
  name?: string
  role?: MemberRole
  birthDate?: string | null
  deathDate?: string | null
  email?: string | null
  relationships?: MemberRelationship[] | null
}

export interface OrgUser {
  id: string
  email: string
  name: string
  role: 'admin' | 'advisor' | 'viewer'
  status: 'invited' | 'active'
}

export interface ChartSession {
  token: string
  expiresAt: string
  embedUrl: string
}
