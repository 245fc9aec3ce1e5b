// The households list's state lives in its URL (/households?q=…&sort=…), so a view can be
// reloaded, shared and reached with Back. Values at their default are left out of the URL, and a
// value that makes no sense (page=abc, size=7) reads as the default rather than as an error.

export type SortKey = 'name' | 'members' | 'createdAt'
export type SortOrder = 'asc' | 'desc'
export type SampleFilter = 'all' | 'only' | 'exclude'

export interface ListState {
  q: string
  sort: SortKey
  order: SortOrder
  sample: SampleFilter
  page: number
  size: number
}

export const PAGE_SIZES = [10, 25, 50, 100] as const
const SORT_KEYS: readonly SortKey[] = ['name', 'members', 'createdAt']
/** The direction a column sorts in when first chosen: names A→Z, the biggest and newest first. */
const DEFAULT_ORDER: Record<SortKey, SortOrder> = { name: 'asc', members: 'desc', createdAt: 'desc' }
/** The API's own defaults (DESIGN §4): newest first, 50 a page. */
const DEFAULTS: ListState = { q: '', sort: 'createdAt', order: 'desc', sample: 'all', page: 1, size: 50 }
/** The API refuses longer searches. */
export const SEARCH_MAX = 200

function positiveInteger(value: string | null): number | undefined {
  if (value === null || !/^\d{1,7}$/.test(value)) return undefined
  const n = Number(value)
  return n >= 1 ? n : undefined
}

export function readListState(query: URLSearchParams): ListState {
  const sortParam = query.get('sort')
  const sort = SORT_KEYS.find((key) => key === sortParam) ?? DEFAULTS.sort
  const orderParam = query.get('order')
  const order: SortOrder = orderParam === 'asc' || orderParam === 'desc' ? orderParam : DEFAULT_ORDER[sort]
  const sampleParam = query.get('sample')
  const sample: SampleFilter = sampleParam === 'only' || sampleParam === 'exclude' ? sampleParam : 'all'
  const size = positiveInteger(query.get('size'))
  return {
    q: (query.get('q') ?? '').trim().slice(0, SEARCH_MAX),
    sort,
    order,
    sample,
    page: positiveInteger(query.get('page')) ?? DEFAULTS.page,
    size: PAGE_SIZES.find((s) => s === size) ?? DEFAULTS.size,
  }
}

/** The app URL of a list state, with defaults left out. */
export function listUrl(state: ListState): string {
  const query = new URLSearchParams()
  if (state.q) query.set('q', state.q)
  if (state.sort !== DEFAULTS.sort) query.set('sort', state.sort)
  if (state.order !== DEFAULT_ORDER[state.sort]) query.set('order', state.order)
  if (state.sample !== 'all') query.set('sample', state.sample)
  if (state.size !== DEFAULTS.size) query.set('size', String(state.size))
  if (state.page !== 1) query.set('page', String(state.page))
  const search = query.toString()
  return search ? `/households?${search}` : '/households'
}

/** The API query string of a list state (every value spelled out, so the answer never depends on server defaults). */
export function apiQuery(state: ListState): string {
  const query = new URLSearchParams()
  if (state.q) query.set('search', state.q)
  query.set('sortBy', state.sort)
  query.set('sortOrder', state.order)
  if (state.sample === 'only') query.set('isSample', 'true')
  if (state.sample === 'exclude') query.set('excludeSample', 'true')
  query.set('page', String(state.page))
  query.set('pageSize', String(state.size))
  return query.toString()
}

/** The state after choosing a column to sort by: the same column flips its direction. */
export function sortedBy(state: ListState, key: SortKey): ListState {
  const order = state.sort === key ? (state.order === 'asc' ? 'desc' : 'asc') : DEFAULT_ORDER[key]
  return { ...state, sort: key, order, page: 1 }
}

export function isFiltered(state: ListState): boolean {
  return state.q !== '' || state.sample !== 'all'
}
