// Rules for member fields beyond what the JSON Schema checks: trimmed names, plausible emails,
// real past dates in order, and a kinship set that names each other member once and never
// the member itself, with a parent kind only on parent links and dates only on couples'. Rules that need the household (roles taken, members known, no cycles) are
// checked in the write transaction (store/members.ts).
import {
  EMAIL_MAX,
  type CreateMemberBody,
  type Kinship,
  type KinshipType,
  type MemberRole,
  type ParentKind,
  type UpdateMemberBody,
} from '../schemas/member.ts'
import { cleanName, isPastCalendarDate } from './household-input.ts'
import { isStorableText } from './text.ts'
import { isUuid } from './ids.ts'

export interface MemberFields {
  name: string
  role: MemberRole
  birthDate: string | null
  deathDate: string | null
  email: string | null
  externalId: string | null
}

/** A kinship as stored: every detail, null when not stated. */
export interface KinshipEntry {
  memberId: string
  type: KinshipType
  parentKind: ParentKind | null
  since: string | null
  until: string | null
}

export interface MemberProblem {
  ok: false
  code: 'invalid_body' | 'relationship_self' | 'relationship_conflict'
  message: string
  /** A JSON Pointer into the member's body: "/email", "/relationships/2/memberId". */
  field: string
}

// One @, something on each side, a dot in the domain, no spaces or control characters.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const PLAUSIBLE_EMAIL = /^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f.]+(\.[^\s@\u0000-\u001f\u007f.]+)+$/

function cleanEmail(value: string): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  if (trimmed.length > EMAIL_MAX)
    return { ok: false, message: `email must be at most ${EMAIL_MAX} characters, got ${trimmed.length}` }
  if (!isStorableText(trimmed) || !PLAUSIBLE_EMAIL.test(trimmed)) {
    return { ok: false, message: 'email must be a plausible address such as name@example.com, or null' }
  }
  return { ok: true, value: trimmed }
}

/** Checks a whole member (a create body, or a merged patch): every field rule, and the dates in order. */
export function checkMemberFields(fields: MemberFields): { ok: true; fields: MemberFields } | MemberProblem {
  const name = cleanName('name', fields.name)
  if (!name.ok) return { ok: false, code: 'invalid_body', message: name.message, field: '/name' }
  for (const field of ['birthDate', 'deathDate'] as const) {
    const date = fields[field]
    if (date !== null && !isPastCalendarDate(date)) {
      return {
        ok: false,
        code: 'invalid_body',
        field: `/${field}`,
        message: `${field} must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${date}`,
      }
    }
  }
  if (fields.birthDate !== null && fields.deathDate !== null && fields.deathDate < fields.birthDate) {
    return {
      ok: false,
      code: 'invalid_body',
      field: '/deathDate',
      message: `deathDate (${fields.deathDate}) must not be before birthDate (${fields.birthDate})`,
    }
  }
  let email: string | null = null
  if (fields.email !== null) {
    const cleaned = cleanEmail(fields.email)
    if (!cleaned.ok) return { ok: false, code: 'invalid_body', message: cleaned.message, field: '/email' }
    email = cleaned.value
  }
  return { ok: true, fields: { ...fields, name: name.value, email } }
}

export function createFieldsOf(body: CreateMemberBody): MemberFields {
  return {
    name: body.name,
    role: body.role,
    birthDate: body.birthDate ?? null,
    deathDate: body.deathDate ?? null,
    email: body.email ?? null,
    externalId: body.externalId ?? null,
  }
}

/** The member after a merge patch: sent fields replace (null clears), the others stay. */
export function mergeMemberPatch(current: MemberFields, patch: UpdateMemberBody): MemberFields {
  return {
    name: patch.name ?? current.name,
    role: patch.role ?? current.role,
    birthDate: patch.birthDate !== undefined ? patch.birthDate : current.birthDate,
    deathDate: patch.deathDate !== undefined ? patch.deathDate : current.deathDate,
    email: patch.email !== undefined ? patch.email : current.email,
    externalId: patch.externalId !== undefined ? patch.externalId : current.externalId,
  }
}

/** The details of one kinship entry, or the first that is not allowed on its type or not a real date. */
function kinshipEntry(
  relationship: Kinship,
  memberId: string,
  at: string,
): { ok: true; entry: KinshipEntry } | MemberProblem {
  const entry: KinshipEntry = {
    memberId,
    type: relationship.type,
    parentKind: relationship.parentKind ?? null,
    since: relationship.since ?? null,
    until: relationship.until ?? null,
  }
  const refuse = (field: string, message: string): MemberProblem => ({
    ok: false,
    code: 'invalid_body',
    field: `${at}/${field}`,
    message,
  })
  if (entry.type !== 'parent' && entry.parentKind !== null)
    return refuse('parentKind', `parentKind is only for parent relationships, not ${entry.type}; leave it out.`)
  for (const key of ['since', 'until'] as const) {
    const date = entry[key]
    if (date === null) continue
    if (entry.type === 'parent')
      return refuse(key, `${key} is only for spouse, partner and exSpouse relationships, not parent; leave it out.`)
    if (!isPastCalendarDate(date))
      return refuse(key, `${key} must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${date}`)
  }
  if (entry.since !== null && entry.until !== null && entry.until < entry.since)
    return refuse('until', `until (${entry.until}) must not be before since (${entry.since})`)
  return { ok: true, entry }
}

const sameDetails = (a: KinshipEntry, b: KinshipEntry) =>
  a.type === b.type && a.parentKind === b.parentKind && a.since === b.since && a.until === b.until

/**
 * A kinship set (a member's relationships to other members) with lower-cased ids, every detail
 * (null when not stated) and exact repeats dropped; refused when it names the member itself, names
 * one other member twice otherwise (a pair of members has one relationship), or has a detail its
 * type does not take (parentKind on a couple, dates on a parent link) or dates out of order.
 */
export function checkKinshipSet(
  memberId: string | undefined,
  relationships: readonly Kinship[],
): { ok: true; relationships: KinshipEntry[] } | MemberProblem {
  const byMember = new Map<string, KinshipEntry>()
  for (const [index, relationship] of relationships.entries()) {
    const field = `/relationships/${index}/memberId`
    const other = relationship.memberId.toLowerCase()
    if (!isUuid(other))
      return {
        ok: false,
        code: 'invalid_body',
        field,
        message: `relationships memberId must be a member id (a UUID), got ${relationship.memberId}`,
      }
    if (other === memberId) {
      return {
        ok: false,
        code: 'relationship_self',
        field,
        message: 'A member cannot have a relationship with themself; memberId names this member.',
      }
    }
    const checked = kinshipEntry(relationship, other, `/relationships/${index}`)
    if (!checked.ok) return checked
    const seen = byMember.get(other)
    if (seen && !sameDetails(seen, checked.entry)) {
      return {
        ok: false,
        code: 'relationship_conflict',
        field,
        message:
          seen.type === relationship.type
            ? `Member ${other} is named twice as ${seen.type} with different details; send one entry per member.`
            : `Member ${other} is named twice (${seen.type} and ${relationship.type}); two members have at most one relationship.`,
      }
    }
    byMember.set(other, checked.entry)
  }
  return { ok: true, relationships: [...byMember.values()] }
}
