// What a request costs, in units of the budgets (limiter.ts). Most requests cost 1. Expensive ones
// cost more, so that a budget measures the load a client puts on the database rather than its
// request count; a route declares its cost in `config.rateLimitCost`, computed from the raw query
// before anything else runs. Documented in the OpenAPI document and the README.
import { LIST_DEFAULTS } from '../domain/listing.ts'

/** A list with a non-blank search: it counts every match for the exact total. */
const SEARCH_COST = 5
/** An offset page this deep reads and skips that many rows first; a cursor page does not. */
const DEEP_OFFSET = 10_000
const DEEP_PAGE_COST = 5
/** A 304 still read the database to compare versions: a tenth of a unit, never nothing. */
export const NOT_MODIFIED_COST = 0.1
/** Starting or finishing a sign-in (writes a row, calls the identity provider): ~30 a minute per address by default. */
export const SIGN_IN_COST = 20

/**
 * GET of the relationship (household) list: 1 unit; 5 with a non-blank search, or an offset page
 * at or beyond the 10,000th row. Both at once cost 5 too: a request costs its most expensive part,
 * and either is bounded by the statement timeout the same way.
 */
export function listCost(query: unknown): number {
  const search = first(query, 'search')
  const expensiveSearch = search !== undefined && search.trim() !== ''
  const page = Number(first(query, 'page') ?? LIST_DEFAULTS.page)
  const pageSize = Number(first(query, 'pageSize') ?? LIST_DEFAULTS.pageSize)
  const deepOffset = first(query, 'cursor') === undefined && (page - 1) * pageSize >= DEEP_OFFSET
  return expensiveSearch || deepOffset ? Math.max(SEARCH_COST, DEEP_PAGE_COST) : 1
}

/** What the list operation's description says about its cost. */
export const LIST_COST_NOTE =
  `Rate-limit cost: 1 unit; ${SEARCH_COST} units with a non-blank search (it counts every match for the exact total) ` +
  `or an offset page at or beyond row ${DEEP_OFFSET} ((page-1)×pageSize ≥ ${DEEP_OFFSET}); both at once cost ${Math.max(SEARCH_COST, DEEP_PAGE_COST)}. ` +
  'Cursor pages cost 1 however deep: follow nextCursor to walk a long list. RateLimit-Policy names the cost in hearth-cost.'

/** A query parameter as the raw query has it (a repeated one is an array: its first value). */
function first(query: unknown, name: string): string | undefined {
  if (typeof query !== 'object' || query === null) return undefined
  const value: unknown = (query as Record<string, unknown>)[name]
  const one: unknown = Array.isArray(value) ? value[0] : value
  return typeof one === 'string' ? one : undefined
}

/** The costs as GET /api/v1/limits lists them; everything not named costs 1. */
export const COST_TABLE: readonly { request: string; units: number }[] = [
  { request: 'any request not listed here', units: 1 },
  { request: 'GET /api/v1/relationships (or /households) with a non-blank search', units: SEARCH_COST },
  {
    request: `GET /api/v1/relationships (or /households) with page and pageSize such that (page-1)*pageSize >= ${DEEP_OFFSET}`,
    units: DEEP_PAGE_COST,
  },
  { request: 'a 304 Not Modified (If-None-Match naming the current ETag)', units: NOT_MODIFIED_COST },
  { request: 'GET /auth/sign-in and GET /auth/callback (per client address)', units: SIGN_IN_COST },
]
