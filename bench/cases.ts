// The requests the benchmark measures, and the share of the ceiling each must reach
// (the targets for PostgreSQL on a 2-core machine).

export const CASE_NAMES = ['list', 'deep', 'search', 'ids', 'create'] as const
export type CaseName = (typeof CASE_NAMES)[number]

export const RELATIONSHIPS = '/api/v1/relationships'

export interface CaseRequest {
  method: 'GET' | 'POST'
  path: string
  /** JSON text, for POST. */
  body?: string
}

export interface BenchCase {
  name: CaseName
  /** What the row of the table says. */
  label: string
  /** Minimum API ÷ ceiling req/s, as a fraction; undefined when the issue sets none. */
  target: number | undefined
  request(context: CaseContext): CaseRequest
}

/** What some cases need from the seeded database. */
export interface CaseContext {
  /** Real household ids of the benchmark org. */
  ids: string[]
}

export const CASES: Record<CaseName, BenchCase> = {
  // Page 1 sorted by name: the households_org_name index plus the total read from the per-org counters.
  list: {
    name: 'list',
    label: 'list page 1 by name',
    target: 0.2,
    request: () => ({ method: 'GET', path: `${RELATIONSHIPS}?sortBy=name&sortOrder=asc&pageSize=50` }),
  },
  // OFFSET 49,950: the database walks that many index entries before the page.
  deep: {
    name: 'deep',
    label: 'deep page (1000) by createdAt',
    target: 0.1,
    request: () => ({ method: 'GET', path: `${RELATIONSHIPS}?page=1000&pageSize=50&sortBy=createdAt` }),
  },
  // Trigram search matching several thousand households; the exact total needs all of them.
  search: {
    name: 'search',
    label: 'search "smi"',
    target: 0.03,
    request: () => ({ method: 'GET', path: `${RELATIONSHIPS}?search=smi` }),
  },
  // 50 ids in one comma-separated parameter: a primary-key lookup plus a count of the same ids.
  ids: {
    name: 'ids',
    label: 'ids (50)',
    target: undefined,
    request: ({ ids }) => ({ method: 'GET', path: `${RELATIONSHIPS}?ids=${ids.join(',')}` }),
  },
  // One INSERT (row trigger for search_text, statement trigger for the org counter) per request.
  create: {
    name: 'create',
    label: 'create',
    target: 0.1,
    request: () => ({ method: 'POST', path: RELATIONSHIPS, body: JSON.stringify({ name: 'Bench Household', dsueReceived: 1000 }) }),
  },
}

/** Peak RSS of the API server process the issue allows, in MB. */
export const RSS_TARGET_MB = 200
