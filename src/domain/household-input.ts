// Rules for fields beyond what the JSON Schema checks: trimmed names, cents, real dates, and JSON
// of bounded depth that PostgreSQL can store. The household's fields apply them per field
// (src/households/household-fields.ts); members use the name and date rules too.
import { isStorableText } from './text.ts'

/** The most characters a name has after trimming. */
export const NAME_MAX = 200

// Control characters have no place in a name and break CSV exports and terminals.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/

export function cleanName(field: string, value: string): { ok: true; value: string } | { ok: false; message: string } {
  const trimmed = value.trim()
  if (trimmed.length === 0) return { ok: false, message: `${field} must not be blank` }
  if (trimmed.length > NAME_MAX)
    return { ok: false, message: `${field} must be at most ${NAME_MAX} characters, got ${trimmed.length}` }
  if (CONTROL.test(trimmed)) return { ok: false, message: `${field} must not contain control characters` }
  if (!isStorableText(trimmed))
    return { ok: false, message: `${field} must not contain broken Unicode (an unpaired surrogate)` }
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
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }]
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
