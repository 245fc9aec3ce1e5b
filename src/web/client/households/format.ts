// Words and numbers of households: role names, money, and today's date.
import type { AssignmentRole } from '../../../schemas/assignment.ts'
import type { MemberRole } from '../../../schemas/member.ts'

export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = {
  primaryClient: 'Primary client',
  coClient: 'Co-client',
  spouse: 'Spouse',
  child: 'Child',
  grandchild: 'Grandchild',
  greatGrandchild: 'Great-grandchild',
  parent: 'Parent',
  sibling: 'Sibling',
  inLaw: 'In-law',
  other: 'Other',
}

export const ASSIGNMENT_ROLE_LABELS: Record<AssignmentRole, string> = {
  leadAdvisor: 'Lead advisor',
  advisor: 'Advisor',
  paraplanner: 'Paraplanner',
  serviceAssociate: 'Service associate',
}

const moneyFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 0, maximumFractionDigits: 2 })

export function formatMoney(value: number): string {
  return `$${moneyFormat.format(value)}`
}

/** Today in the reader's time zone, YYYY-MM-DD: the latest date a date field accepts. */
export function today(): string {
  const now = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
