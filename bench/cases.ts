// The requests the benchmark measures, and the share of the ceiling each must reach
// (the targets for PostgreSQL on a 2-core machine).

import { fileURLToPath } from 'node:url'

// Canonical order: the reads, then the writes (create last: it adds households).
export const CASE_NAMES = [
  'list',
  'list-ref',
  'first',
  'deep',
  'deep-cursor',
  'search',
  'ids',
  'get',
  'patch',
  'create',
] as const
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
  label(context: CaseContext): string
  /** Minimum API ÷ ceiling req/s, as a fraction; undefined when the issue sets none. */
  target: number | undefined
  /** Reads only: measured on several API instances too (writes would contend on their own rows). */
  read: boolean
  request(context: CaseContext): CaseRequest
}

/** What some cases need from the seeded database. */
export interface CaseContext {
  /** Real household ids of the benchmark org. */
  ids: string[]
  /** Households in the benchmark org. */
  households: number
  /** The deep case's page, and the page size of it and of its page-1 reference (first). */
  deep: { page: number; pageSize: number }
  /** nextCursor of the page before the deep page (deep-cursor); undefined when that page is past the end. */
  deepCursor: string | undefined
  /** The reference org of a multi-org seed (list-ref): its own key, and its size. */
  reference: { apiKey: string; households: number } | undefined
}

/**
 * The deep page. With one org, page 1,000 of 50 (offset 49,950), as in every earlier result; in the
 * scale run, the "page past 10,000": page 12,000 of 40 (offset 479,960), which exists in
 * an org of 500,000 households.
 */
export function deepPage(orgs: number): CaseContext['deep'] {
  return orgs > 1 ? { page: 12_000, pageSize: 40 } : { page: 1000, pageSize: 50 }
}

const count = (n: number) => n.toLocaleString('en-US')

const LIST_PAGE_1 = `${RELATIONSHIPS}?sortBy=name&sortOrder=asc&pageSize=50`

export const CASES: Record<CaseName, BenchCase> = {
  // Page 1 sorted by name: the households_org_name_covering index plus the total read from the per-org counters.
  list: {
    name: 'list',
    label: ({ reference, households }) =>
      reference ? `list page 1 by name, org of ${count(households)}` : 'list page 1 by name',
    target: 0.2,
    read: true,
    request: () => ({ method: 'GET', path: LIST_PAGE_1 }),
  },
  // The same request in the reference org (multi-org seeds only): with list, says how page 1 grows
  // with the org's size.
  'list-ref': {
    name: 'list-ref',
    label: ({ reference }) => `list page 1 by name, org of ${count(reference?.households ?? 0)}`,
    target: undefined,
    read: true,
    request: ({ reference }) => {
      if (!reference) throw new Error('list-ref needs a multi-org seed (--orgs 3 or more)')
      return { method: 'GET', path: LIST_PAGE_1, headers: { authorization: `Bearer ${reference.apiKey}` } }
    },
  },
  // Page 1 in the deep case's order and size: the reference its time is compared with.
  first: {
    name: 'first',
    label: ({ deep }) => `page 1 of ${deep.pageSize} by createdAt`,
    target: undefined,
    read: true,
    request: ({ deep }) => ({
      method: 'GET',
      path: `${RELATIONSHIPS}?page=1&pageSize=${deep.pageSize}&sortBy=createdAt`,
    }),
  },
  // OFFSET (page - 1) × pageSize over the ids (an index-only scan), then the page's rows: the
  // database walks that many index entries before the page.
  deep: {
    name: 'deep',
    label: ({ deep }) => `deep page (${count(deep.page)} of ${deep.pageSize}) by createdAt`,
    target: 0.1,
    read: true,
    request: ({ deep }) => ({
      method: 'GET',
      path: `${RELATIONSHIPS}?page=${deep.page}&pageSize=${deep.pageSize}&sortBy=createdAt`,
    }),
  },
  // The same page reached by the previous page's nextCursor: the database seeks to the cursor's
  // (created_at, id) in households_org_created instead of stepping over the offset.
  'deep-cursor': {
    name: 'deep-cursor',
    label: ({ deep }) => `deep page (${count(deep.page)} of ${deep.pageSize}) by createdAt, by cursor`,
    target: undefined,
    read: true,
    request: ({ deep, deepCursor }) => {
      if (!deepCursor) throw new Error('deep-cursor needs the page before the deep page to exist')
      return { method: 'GET', path: `${RELATIONSHIPS}?pageSize=${deep.pageSize}&sortBy=createdAt&cursor=${deepCursor}` }
    },
  },
  // Trigram search matching several thousand households; the exact total needs all of them.
  search: {
    name: 'search',
    label: () => 'search "smi"',
    target: 0.03,
    read: true,
    request: () => ({ method: 'GET', path: `${RELATIONSHIPS}?search=smi` }),
  },
  // 50 ids in one comma-separated parameter: a primary-key lookup plus a count of the same ids.
  ids: {
    name: 'ids',
    label: () => 'ids (50)',
    target: undefined,
    read: true,
    request: ({ ids }) => ({ method: 'GET', path: `${RELATIONSHIPS}?ids=${ids.join(',')}` }),
  },
  // One household by primary key, its JSON built by the database, with its ETag.
  get: {
    name: 'get',
    label: () => 'get one household',
    target: undefined,
    read: true,
    request: ({ ids }) => ({ method: 'GET', path: `${RELATIONSHIPS}/${ids[0] ?? ''}` }),
  },
  // A merge patch under If-Match: the version claim (UPDATE … WHERE version IN …, row lock), the
  // field UPDATE, an audit_log INSERT and the read-back, in one transaction, committed. Each
  // connection patches its own household with the ETag of its previous answer (patch-client.cjs),
  // so every request succeeds and none waits on another's row lock.
  patch: {
    name: 'patch',
    label: () => 'patch one household (If-Match)',
    target: undefined,
    read: false,
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
    label: () => 'create',
    target: 0.1,
    read: false,
    request: () => ({
      method: 'POST',
      path: RELATIONSHIPS,
      body: JSON.stringify({ name: 'Bench Household', dsueReceived: 1000 }),
    }),
  },
}

/** Peak RSS of the API server process the issue allows, in MB. */
export const RSS_TARGET_MB = 200

/**
 * The scale run's targets (issue 6): list page 1 in the measured org at most 1.5× its time in the
 * reference org (a fifth of the size); the deep page (by cursor) at most 3× page 1; N instances at least 1.6×
 * the read throughput of one. Times are compared at the same load (req/s of the same connections).
 */
export const SCALE_TARGETS = { orgGrowth: 1.5, deepOverFirst: 3, instances: 1.6 } as const
