// Turns the validated query string into the listing model the store runs, and says what is
// wrong with combinations JSON Schema cannot express.
import type { ListQuery } from '../schemas/household.ts'
import { isStorableText } from './text.ts'
import { isUuid } from './ids.ts'
import { decodeCursor, type CursorAfter } from './list-cursor.ts'

export type SortKey = 'name' | 'members' | 'createdAt'
export type SampleFilter = 'all' | 'only' | 'exclude'

export interface Listing {
  page: number
  pageSize: number
  sortBy: SortKey
  sortOrder: 'asc' | 'desc'
  sample: SampleFilter
  /** Already trimmed; absent when empty. Matched literally (no wildcards). */
  search?: string
  /** Only the household with this externalId. */
  externalId?: string
  /** Lower-cased, de-duplicated UUIDs. */
  ids?: string[]
  /** From a cursor: the page starts right after this household, found by seeking, not by offset. */
  after?: CursorAfter
}

export const LIST_DEFAULTS = { page: 1, pageSize: 50, sortBy: 'createdAt', sortOrder: 'desc' } as const
const MAX_IDS = 1000

/** A refusal names the query parameter at fault as a JSON Pointer into the query string ("/pageSize"). */
export type ListingResult =
  | { ok: true; listing: Listing }
  | { ok: false; code: 'invalid_query' | 'invalid_cursor'; message: string; field: string }

const invalid = (field: keyof ListQuery, message: string): ListingResult => ({
  ok: false,
  code: 'invalid_query',
  message,
  field: `/${field}`,
})

export function toListing(query: ListQuery): ListingResult {
  if (query.isSample === true && query.excludeSample === true) {
    return invalid('excludeSample', 'isSample=true and excludeSample=true contradict each other; send one of them')
  }
  // The schema bounds them, but a coerced "Infinity" is an integer to JSON Schema and skips the bounds.
  for (const [name, value] of [
    ['page', query.page],
    ['pageSize', query.pageSize],
  ] as const) {
    if (value !== undefined && !Number.isSafeInteger(value)) return invalid(name, `${name} must be a whole number`)
  }
  const listing: Listing = {
    page: query.page ?? LIST_DEFAULTS.page,
    pageSize: query.pageSize ?? LIST_DEFAULTS.pageSize,
    sortBy: query.sortBy ?? LIST_DEFAULTS.sortBy,
    sortOrder: query.sortOrder ?? LIST_DEFAULTS.sortOrder,
    sample:
      query.isSample === true ? 'only' : query.isSample === false || query.excludeSample === true ? 'exclude' : 'all',
  }
  const search = query.search?.trim()
  if (search && !isStorableText(search))
    return invalid('search', 'search must not contain NUL characters or broken Unicode')
  if (search) listing.search = search
  if (query.externalId !== undefined) listing.externalId = query.externalId
  if (query.ids !== undefined) {
    const ids = new Set<string>()
    for (const piece of query.ids.flatMap((value) => value.split(','))) {
      const id = piece.trim()
      if (!isUuid(id)) return invalid('ids', `ids: "${id.slice(0, 60)}" is not a household UUID`)
      ids.add(id.toLowerCase())
    }
    if (ids.size > MAX_IDS) return invalid('ids', `ids: at most ${MAX_IDS} distinct ids, got ${ids.size}`)
    listing.ids = [...ids]
  }
  if (query.cursor !== undefined) {
    // A cursor says which page it is; a page number beside it would contradict or repeat it.
    if (query.page !== undefined)
      return invalid('page', 'send either page or cursor, not both: a cursor already says which page it continues to')
    const decoded = decodeCursor(query.cursor, listing)
    if (!decoded.ok) return { ok: false, code: 'invalid_cursor', message: decoded.message, field: '/cursor' }
    listing.page = decoded.position.page
    listing.after = decoded.position.after
  }
  return { ok: true, listing }
}

/** Escapes LIKE wildcards so that the search text is matched literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}
