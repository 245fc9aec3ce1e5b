// Words and numbers for people: role names, relationship names, dates and counts.
import type { AssignmentRole, MemberRole, RelationshipType } from './types.ts'

export const MEMBER_ROLE_LABELS: Record<MemberRole, string> = {
  primaryClient: 'Primary client',
  coClient: 'Co-client',
  child: 'Child',
  grandchild: 'Grandchild',
  parent: 'Parent',
  sibling: 'Sibling',
  other: 'Other',
}

export const ASSIGNMENT_ROLE_LABELS: Record<AssignmentRole, string> = {
  leadAdvisor: 'Lead advisor',
  advisor: 'Advisor',
  paraplanner: 'Paraplanner',
  serviceAssociate: 'Service associate',
}

/** How a relationship stored on a member reads from that member's side ("Spouse of Ann"). */
export const RELATIONSHIP_LABELS: Record<RelationshipType, string> = {
  spouse: 'Spouse',
  partner: 'Partner',
  exSpouse: 'Former spouse',
  parent: 'Child', // {memberId: X, type: parent}: X is this member's parent, so this member is X's child
}

const numberFormat = new Intl.NumberFormat()
const moneyFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 0, maximumFractionDigits: 2 })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const calendarDateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

export function formatCount(value: number): string {
  return numberFormat.format(value)
}

export function formatMoney(value: number): string {
  return `$${moneyFormat.format(value)}`
}

/** A timestamp (createdAt) in the reader's calendar. */
export function formatTimestamp(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date)
}

/** A calendar date (YYYY-MM-DD, no time zone) as the reader writes dates. */
export function formatCalendarDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`)
  return Number.isNaN(parsed.getTime()) ? date : calendarDateFormat.format(parsed)
}

/** Today in the reader's time zone, YYYY-MM-DD: the latest date a date field accepts. */
export function today(): string {
  const now = new Date()
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** "1 member", "3 members". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}
