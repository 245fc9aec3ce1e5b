// Rules for household fields beyond what the JSON Schema checks: trimming, cents, real dates,
// and the size and depth of metadata. Returns the cleaned values or the first problem.
import { LIMITS, type CreateHouseholdBody, type UpdateHouseholdBody } from '../schemas/relationship.ts'
import { isStorableText } from './text.ts'

export interface HouseholdFields {
  name: string
  dsueReceived: number | null
  deceasedSpouseName: string | null
  dsueDateOfDeath: string | null
  metadata: Record<string, unknown> | null
  primaryClientAsDonor: boolean | null
  coClientAsDonor: boolean | null
}

/** Every optional field unset: the base of fixtures and sample data. */
export const NO_OPTIONAL_FIELDS: Omit<HouseholdFields, 'name'> = {
  dsueReceived: null,
  deceasedSpouseName: null,
  dsueDateOfDeath: null,
  metadata: null,
  primaryClientAsDonor: null,
  coClientAsDonor: null,
}

export type FieldsResult = { ok: true; fields: HouseholdFields } | { ok: false; message: string }

// Control characters have no place in a name and break CSV exports and terminals.
const CONTROL = /[\u0000-\u001f\u007f]/

export function cleanName(field: string, value: string): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  if (trimmed.length === 0) return { ok: false, message: `${field} must not be blank` }
  if (trimmed.length > LIMITS.NAME_MAX) return { ok: false, message: `${field} must be at most ${LIMITS.NAME_MAX} characters, got ${trimmed.length}` }
  if (CONTROL.test(trimmed)) return { ok: false, message: `${field} must not contain control characters` }
  if (!isStorableText(trimmed)) return { ok: false, message: `${field} must not contain broken Unicode (an unpaired surrogate)` }
  return { ok: true, value: trimmed }
}

/** Amounts are dollars with at most 2 decimals; String() gives the shortest exact decimal form. */
export function hasAtMostTwoDecimals(amount: number): boolean {
  return /^\d+(\.\d{1,2})?$/.test(String(amount))
}

/** A real calendar date that is not after today anywhere on Earth (UTC+14). */
export function isPastCalendarDate(date: string, now = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const parsed = new Date(Date.UTC(year, month - 1, day))
  const real = parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day
  const latestToday = new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10)
  return real && year >= 1800 && date <= latestToday
}

export type JsonProblem = 'too_deep' | 'bad_text'

/**
 * Walks a parsed JSON value without recursion (a body may nest hundreds of thousands of levels)
 * and stops at the first level past maxDepth or the first string or key PostgreSQL cannot store.
 */
export function findJsonProblem(value: unknown, maxDepth: number): JsonProblem | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number }
    if (typeof current === 'string') {
      if (!isStorableText(current)) return 'bad_text'
      continue
    }
    if (current === null || typeof current !== 'object') continue
    if (depth + 1 > maxDepth) return 'too_deep'
    for (const [key, child] of Object.entries(current)) {
      if (!Array.isArray(current) && !isStorableText(key)) return 'bad_text'
      stack.push({ value: child, depth: depth + 1 })
    }
  }
  return undefined
}

export function checkCreateBody(body: CreateHouseholdBody): FieldsResult {
  const name = cleanName('name', body.name)
  if (!name.ok) return name
  let deceasedSpouseName: string | null = null
  if (body.deceasedSpouseName != null) {
    const cleaned = cleanName('deceasedSpouseName', body.deceasedSpouseName)
    if (!cleaned.ok) return cleaned
    deceasedSpouseName = cleaned.value
  }
  const dsueReceived = body.dsueReceived ?? null
  if (dsueReceived !== null && !hasAtMostTwoDecimals(dsueReceived)) {
    return { ok: false, message: `dsueReceived must have at most 2 decimals, got ${dsueReceived}` }
  }
  const dsueDateOfDeath = body.dsueDateOfDeath ?? null
  if (dsueDateOfDeath !== null && !isPastCalendarDate(dsueDateOfDeath)) {
    return { ok: false, message: `dsueDateOfDeath must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${dsueDateOfDeath}` }
  }
  const metadata = body.metadata ?? null
  if (metadata !== null) {
    const problem = findJsonProblem(metadata, LIMITS.METADATA_MAX_DEPTH)
    if (problem === 'too_deep') return { ok: false, message: `metadata must be at most ${LIMITS.METADATA_MAX_DEPTH} levels deep` }
    if (problem === 'bad_text') return { ok: false, message: 'metadata must not contain NUL characters or broken Unicode' }
    // Measured only once the depth is known to be small, so stringifying cannot overflow the stack.
    const bytes = Buffer.byteLength(JSON.stringify(metadata))
    if (bytes > LIMITS.METADATA_MAX_BYTES) {
      return { ok: false, message: `metadata must be at most ${LIMITS.METADATA_MAX_BYTES} bytes as JSON, got ${bytes}` }
    }
  }
  return {
    ok: true,
    fields: {
      name: name.value,
      dsueReceived,
      deceasedSpouseName,
      dsueDateOfDeath,
      metadata,
      primaryClientAsDonor: body.primaryClientAsDonor ?? null,
      coClientAsDonor: body.coClientAsDonor ?? null,
    },
  }
}

export type PatchResult = { ok: true; fields: Partial<HouseholdFields> } | { ok: false; message: string }

/**
 * The fields a merge patch sets, cleaned by exactly the create rules (each rule concerns one
 * field, so checking the patch's fields is checking the merged household).
 */
export function checkPatchBody(body: UpdateHouseholdBody): PatchResult {
  const checked = checkCreateBody({ ...body, name: body.name ?? 'unchanged' })
  if (!checked.ok) return checked
  const sent = Object.keys(body) as Array<keyof HouseholdFields>
  return { ok: true, fields: Object.fromEntries(sent.map((key) => [key, checked.fields[key]])) }
}
