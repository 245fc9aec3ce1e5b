// The requests the benchmark measures, and the share of the ceiling each must reach
// (the targets for PostgreSQL on a 2-core machine).

import { fileURLToPath } from 'node:url'

export const CASE_NAMES = ['list', 'deep', 'search', 'ids', 'get', 'patch', 'create'] as const
export type CaseName = (typeof CASE_NAMES)[number]

export const RELATIONSHIPS = '/api/v1/relationships'

export interface CaseRequest {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  /** JSON text, for POST and PATCH. */
  body?: string
  /** Headers of this case (Content-Type defaults to application/json when there is a body). */
  headers?: Record<string, string>
  /**
   * Absolute path of an autocannon setupClient module (CommonJS: autocannon's worker require()s
   * it) that gives each connection its own requests; `path`, `body` and `headers` above are then
   * what the probe sends once before the load.
   */
  setupClient?: string
  /** Data for setupClient (autocannon's initialContext; it must survive structured cloning). */
  initialContext?: Record<string, unknown>
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
  // One household by primary key, its JSON built by the database, with its ETag.
  get: {
    name: 'get',
    label: 'get one household',
    target: undefined,
    request: ({ ids }) => ({ method: 'GET', path: `${RELATIONSHIPS}/${ids[0] ?? ''}` }),
  },
  // A merge patch under If-Match: the version claim (UPDATE … WHERE version IN …, row lock), the
  // field UPDATE, an audit_log INSERT and the read-back, in one transaction, committed. Each
  // connection patches its own household with the ETag of its previous answer (patch-client.cjs),
  // so every request succeeds and none waits on another's row lock.
  patch: {
    name: 'patch',
    label: 'patch one household (If-Match)',
    target: undefined,
    request: ({ ids }) => ({
      method: 'PATCH',
      path: `${RELATIONSHIPS}/${ids[ids.length - 1] ?? ''}`,
      body: JSON.stringify({ dsueReceived: 1000 }),
      headers: { 'content-type': 'application/merge-patch+json', 'if-match': '*' },
      setupClient: fileURLToPath(new URL('./patch-client.cjs', import.meta.url)),
      // The probe patches the last id; connections take the first ones (at most 49 of them).
      initialContext: { ids: ids.slice(0, -1), base: RELATIONSHIPS },
    }),
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
