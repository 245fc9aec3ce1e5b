// Drives one request against a server with autocannon, the same way for the API and the
// ceiling: an unmeasured warm-up (JIT, connection pools, caches), then the measured run.
// The two are separate calls so that the caller can measure CPU over the measured run only.
import autocannon from 'autocannon'
import type { CaseRequest } from './cases.ts'

export interface LoadSettings {
  connections: number
  duration: number
  warmup: number
  headers: Record<string, string>
  /** Requests per second over all connections (autocannon's overallRate); unset: each connection sends as soon as it is answered. */
  rate?: number
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  reqPerSec: number
  p50Ms: number
  p99Ms: number
  requests: number
  non2xx: number
  /** Connection errors and timeouts. */
  errors: number
}

function options(url: string, request: CaseRequest, settings: LoadSettings, duration: number): autocannon.Options {
  const headers: Record<string, string> = { ...settings.headers }
  if (request.body !== undefined) headers['content-type'] = 'application/json'
  Object.assign(headers, request.headers)
  return {
    url: url + request.path,
    method: request.method,
    headers,
    body: request.body,
    // In worker mode autocannon takes the path of a module to require(), not a function (its
    // README, "workers"); the type definitions only know the function form.
    ...(request.setupClient
      ? { setupClient: request.setupClient as unknown as autocannon.Options['setupClient'] }
      : {}),
    ...(request.initialContext ? { initialContext: request.initialContext } : {}),
    connections: settings.connections,
    ...(settings.rate !== undefined ? { overallRate: settings.rate } : {}),
    duration,
    // Ten connections on a loopback never need pipelining to saturate a 2-core machine.
    pipelining: 1,
    // Each run in a fresh worker thread. Run in-process, autocannon's JavaScript HTTP parser got
    // slower from one run to the next (a bare server measured 41k req/s, then 25k, then 25k:
    // autocannon at 1 core each time), which made the ceiling depend on what ran before it.
    // In a worker every run starts from the same state (45k, 43k, 45k, 46k).
    workers: 1,
  }
}

/**
 * One autocannon run per URL, all at once, the connections split between them (10 over two
 * instances: 5 each), so several instances take the same offered load as one.
 */
function runAll(
  baseUrls: readonly string[],
  request: CaseRequest,
  settings: LoadSettings,
  duration: number,
): Promise<autocannon.Result[]> {
  return Promise.all(
    baseUrls.map((url, i) => {
      const connections =
        Math.floor(settings.connections / baseUrls.length) + (i < settings.connections % baseUrls.length ? 1 : 0)
      return autocannon(options(url, request, { ...settings, connections }, duration))
    }),
  )
}

/** Unmeasured load: JIT, connection pools and caches reach their steady state. */
export async function warmUp(baseUrls: readonly string[], request: CaseRequest, settings: LoadSettings): Promise<void> {
  if (settings.warmup > 0) await runAll(baseUrls, request, settings, settings.warmup)
}

export async function measure(
  baseUrls: readonly string[],
  request: CaseRequest,
  settings: LoadSettings,
): Promise<LoadResult> {
  const results = await runAll(baseUrls, request, settings, settings.duration)
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0)
  return {
    reqPerSec: results.reduce((sum, result) => sum + result.requests.average, 0),
    // autocannon gives percentiles, not its histogram, so several runs cannot be merged exactly:
    // their p50 is the request-weighted mean of theirs and their p99 the worst of theirs.
    p50Ms:
      requests > 0
        ? results.reduce((sum, result) => sum + result.latency.p50 * result.requests.total, 0) / requests
        : 0,
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    requests,
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  }
}

export interface Probe {
  status: number
  bytes: number
  body: string
}

/** One request with fetch: checks the case works and measures the response's size for the ceiling. */
export async function probe(baseUrl: string, request: CaseRequest, headers: Record<string, string>): Promise<Probe> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: {
      ...headers,
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...request.headers,
    },
    body: request.body,
  })
  const bytes = Buffer.from(await response.arrayBuffer())
  return { status: response.status, bytes: bytes.length, body: bytes.toString('utf8') }
}
