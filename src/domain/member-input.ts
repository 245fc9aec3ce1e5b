// Rules for member fields beyond what the JSON Schema checks: trimmed names, plausible emails,
// real past dates in order, and a relationship set that names each other member once and never
// the member itself. Rules that need the household (roles taken, members known, no cycles) are
// checked in the write transaction (store/members.ts).
import { EMAIL_MAX, type CreateMemberBody, type MemberRelationship, type MemberRole, type UpdateMemberBody } from '../schemas/member.ts'
import { cleanName, isPastCalendarDate } from './household-input.ts'
import { isStorableText } from './text.ts'
import { isUuid } from './ids.ts'

export interface MemberFields {
  name: string
  role: MemberRole
  birthDate: string | null
  deathDate: string | null
  email: string | null
}

export type MemberProblem = { ok: false; code: 'invalid_body' | 'relationship_self' | 'relationship_conflict'; message: string }

// One @, something on each side, a dot in the domain, no spaces or control characters.
const PLAUSIBLE_EMAIL = /^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f.]+(\.[^\s@\u0000-\u001f\u007f.]+)+$/


export function cleanEmail(value: string): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  if (trimmed.length > EMAIL_MAX) return { ok: false, message: `email must be at most ${EMAIL_MAX} characters, got ${trimmed.length}` }
  if (!isStorableText(trimmed) || !PLAUSIBLE_EMAIL.test(trimmed)) {
    return { ok: false, message: 'email must be a plausible address such as name@example.com, or null' }
  }
  return { ok: true, value: trimmed }
}

/** Checks a whole member (a create body, or a merged patch): every field rule, and the dates in order. */
export function checkMemberFields(fields: MemberFields): { ok: true; fields: MemberFields } | MemberProblem {
  const name = cleanName('name', fields.name)
  if (!name.ok) return { ok: false, code: 'invalid_body', message: name.message }
  for (const field of ['birthDate', 'deathDate'] as const) {
    const date = fields[field]
    if (date !== null && !isPastCalendarDate(date)) {
      return { ok: false, code: 'invalid_body', message: `${field} must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${date}` }
    }
  }
  if (fields.birthDate !== null && fields.deathDate !== null && fields.deathDate < fields.birthDate) {
    return { ok: false, code: 'invalid_body', message: `deathDate (${fields.deathDate}) must not be before birthDate (${fields.birthDate})` }
  }
  let email: string | null = null
  if (fields.email !== null) {
    const cleaned = cleanEmail(fields.email)
    if (!cleaned.ok) return { ok: false, code: 'invalid_body', message: cleaned.message }
    email = cleaned.value
  }
  return { ok: true, fields: { ...fields, name: name.value, email } }
}

export function createFieldsOf(body: CreateMemberBody): MemberFields {
  return { name: body.name, role: body.role, birthDate: body.birthDate ?? null, deathDate: body.deathDate ?? null, email: body.email ?? null }
}

/** The member after a merge patch: sent fields replace (null clears), the others stay. */
export function mergeMemberPatch(current: MemberFields, patch: UpdateMemberBody): MemberFields {
  return {
    name: patch.name ?? current.name,
    role: patch.role ?? current.role,
    birthDate: patch.birthDate !== undefined ? patch.birthDate : current.birthDate,
    deathDate: patch.deathDate !== undefined ? patch.deathDate : current.deathDate,
    email: patch.email !== undefined ? patch.email : current.email,
  }
}

/**
 * A relationship set with lower-cased ids and exact repeats dropped; refused when it names the
 * member itself or names one other member twice (a pair of members has one relationship).
 */
export function checkRelationshipSet(
  memberId: string | undefined,
  relationships: readonly MemberRelationship[],
): { ok: true; relationships: MemberRelationship[] } | MemberProblem {
  const byMember = new Map<string, MemberRelationship>()
  for (const relationship of relationships) {
    const other = relationship.memberId.toLowerCase()
    if (!isUuid(other)) return { ok: false, code: 'invalid_body', message: `relationships memberId must be a member id (a UUID), got ${relationship.memberId}` }
    if (other === memberId) {
      return { ok: false, code: 'relationship_self', message: 'A member cannot have a relationship with themself; memberId names this member.' }
    }
    const seen = byMember.get(other)
    if (seen && seen.type !== relationship.type) {
      return {
        ok: false,
        code: 'relationship_conflict',
        message: `Member ${other} is named twice (${seen.type} and ${relationship.type}); two members have at most one relationship.`,
      }
    }
    byMember.set(other, { memberId: other, type: relationship.type })
  }
  return { ok: true, relationships: [...byMember.values()] }
}
