// The list's `cursor`: where the next page starts, so that walking a long list costs the same on
// every page. `page` skips its offset one entry at a time (0.07 µs per entry, 35 ms at offset
// 480,000); a cursor names the last household of the page it came with by its sort key and id, and
// the database seeks past it in the same index that sorts the list.
//
// The text is opaque to partners (base64url of a JSON array) and not signed: whatever it says, the
// query stays inside the caller's organization, so a forged cursor can only start a list elsewhere.
import { createHash } from 'node:crypto'
import type { Listing, SortKey } from './listing.ts'
import { isUuid } from './ids.ts'
import { isStorableText } from './text.ts'

const VERSION = 1

/** The last household of the page before: its sort value (as the database gave it) and its id. */
export interface CursorAfter {
  key: string | number
  id: string
}

/** Where a cursor puts a listing: its page number and the household it continues after. */
export interface CursorPosition {
  page: number
  after: CursorAfter
}

/**
 * What a cursor is bound to: everything that decides the order and the rows, and the page size
 * (the response's page number counts pages of that size). Not the page itself.
 */
function queryFingerprint(listing: Listing): string {
  const { sortBy, sortOrder, sample, search, externalId, ids, pageSize } = listing
  const filters = [sortBy, sortOrder, sample, search ?? null, ids ? [...ids].sort() : null, pageSize]
  // Appended only when set, so that cursors given out before the filter existed stay valid.
  const canonical = JSON.stringify(externalId === undefined ? filters : [...filters, externalId])
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16)
}

export function encodeCursor(listing: Listing, page: number, after: CursorAfter): string {
  return Buffer.from(JSON.stringify([VERSION, queryFingerprint(listing), page, after.key, after.id])).toString(
    'base64url',
  )
}

// createdAt keys are written by the store as UTC with microseconds (finer than the column keeps).
const CREATED_AT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const NAME_KEY_MAX = 1000
const INT4_MAX = 2_147_483_647

/** A real instant in the store's format: the database casts it, and must not be the one to refuse it. */
function isCreatedAtKey(key: string): boolean {
  // Year 0 is a JavaScript year but not a PostgreSQL one.
  if (!CREATED_AT_KEY.test(key) || key.startsWith('0000')) return false
  const milliseconds = `${key.slice(0, 23)}Z`
  const instant = new Date(milliseconds)
  return !Number.isNaN(instant.getTime()) && instant.toISOString() === milliseconds
}

// Each key must be one the database accepts for its cast (timestamptz, int, text), so that a
// forged cursor is a 400 here and never an error there.
function isKeyOf(sortBy: SortKey, key: unknown): key is string | number {
  if (sortBy === 'members') return typeof key === 'number' && Number.isSafeInteger(key) && key >= 0 && key <= INT4_MAX
  if (sortBy === 'createdAt') return typeof key === 'string' && isCreatedAtKey(key)
  return typeof key === 'string' && key.length <= NAME_KEY_MAX && isStorableText(key)
}

export type CursorResult = { ok: true; position: CursorPosition } | { ok: false; message: string }

const NOT_OURS = 'cursor is not one this API gave out: pass nextCursor from a list response unchanged'

/** Reads a cursor for the listing it is sent with; refuses one made for another query. */
export function decodeCursor(text: string, listing: Listing): CursorResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return { ok: false, message: NOT_OURS }
  }
  if (!Array.isArray(parsed) || parsed.length !== 5 || parsed[0] !== VERSION) return { ok: false, message: NOT_OURS }
  const [, fingerprint, page, key, id] = parsed as unknown[]
  if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 2 || typeof id !== 'string' || !isUuid(id)) {
    return { ok: false, message: NOT_OURS }
  }
  // Before the key: a key of another sort is what a cursor of another query would have.
  if (fingerprint !== queryFingerprint(listing)) {
    return {
      ok: false,
      message:
        'cursor belongs to another query: send it with the same sortBy, sortOrder, search, isSample, excludeSample, externalId, ids and pageSize as the request that returned it',
    }
  }
  if (!isKeyOf(listing.sortBy, key)) return { ok: false, message: NOT_OURS }
  return { ok: true, position: { page, after: { key, id: id.toLowerCase() } } }
}
