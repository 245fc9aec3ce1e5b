// Prometheus metrics (prom-client), served at GET /metrics. Each app has its own registry, so two
// apps in one process (tests, or an API beside its embed origin) never share or clash.
//
// Nothing here may carry tenant data: labels are the route *pattern* (/api/v1/relationships/:id,
// never the URL with its ids), the method, the status code and the rate-limit scope. No org ids,
// key ids or prefixes, household ids, origins or query strings — ever.
//
// What each series means is in the README ("Operate").
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolStats } from '../store/connection-use.ts'
import { DATABASE_FAULTS, type DatabaseFault } from '../store/database-faults.ts'
import type { OrgConcurrencyRefusal } from '../http/plugins/org-concurrency.ts'
import type { App } from '../http/types.ts'
import type { RateLimitStatus } from '../rate-limit/store.ts'

/**
 * Whose budget a 429 was about: an API key's, a signed-in user's, their organization's, failed
 * authentications from one address, or one address's requests on routes without credentials.
 */
export type RateLimitScope = 'credential' | 'user' | 'org' | 'auth_failure' | 'address'
const SCOPES: RateLimitScope[] = ['credential', 'user', 'org', 'auth_failure', 'address']

/** The `route` label of requests that matched no route (404s): their paths are the client's, not ours. */
const UNMATCHED_ROUTE = 'unmatched'

/** Seconds; from 1 ms (a cached read) to 10 s (something is wrong). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

type RequestLabel = 'method' | 'route' | 'status'

// prom-client's process metrics (CPU, memory, event-loop lag, GC, handles) describe the process,
// not an app, and their collectors (an event-loop delay monitor, a GC observer) can never be
// stopped: collected once per process into a registry of their own (not prom-client's global one),
// which every app's exposition includes.
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

export interface MetricsOptions {
  /** The store's connection use, read at each scrape; without it there are no db_pool_* series. */
  poolStats?: () => PoolStats
  /** Where rate limits are counted now (RateLimitStore.status), read at each scrape; 'memory' (no REDIS_URL) has no series. */
  rateLimitStatus?: () => RateLimitStatus
}

export class Metrics {
  /** This app's own series. */
  readonly registry = new Registry()
  /** This app's series and the process metrics: what GET /metrics serves. */
  private readonly exposed: Registry
  private readonly requests: Counter<RequestLabel>
  private readonly duration: Histogram<RequestLabel>
  private readonly refusals: Counter<'scope'>
  private readonly legacy: Counter
  private readonly mints: Counter
  private readonly databaseFaults: Counter<'kind'>
  private readonly orgInProgress: Gauge
  private readonly orgWaiting: Gauge
  private readonly orgRefusals: Counter<'reason'>

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry]
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern ("unmatched" for paths no route serves) and status code.',
      labelNames: ['method', 'route', 'status'],
      registers,
    })
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    })
    this.refusals = new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused with 429, by the budget that ran out: credential (an API key), user (a signed-in user), auth_failure (failed authentications from one address).',
      labelNames: ['scope'],
      registers,
    })
    // Every scope is present from the start (at 0), so a rate() over it never sees a missing series.
    for (const scope of SCOPES) this.refusals.inc({ scope }, 0)
    this.legacy = new Counter({
      name: 'legacy_path_requests_total',
      help: 'Requests answered on the deprecated /api/v1/households paths (whatever their status).',
      registers,
    })
    this.mints = new Counter({
      name: 'chart_mints_total',
      help: 'Chart tokens minted (POST /api/v1/embed/chart-sessions answered 201).',
      registers,
    })
    // Summed over all organizations: which organization is busy is tenant data, and stays out.
    this.orgInProgress = new Gauge({
      name: 'org_concurrency_in_progress',
      help: "Authenticated requests holding one of their organization's slots (HEARTH_ORG_CONCURRENCY), all organizations together.",
      registers,
    })
    this.orgWaiting = new Gauge({
      name: 'org_concurrency_waiting',
      help: "Requests waiting for one of their organization's slots, all organizations together: above 0 for long means an organization sends more at once than its share.",
      registers,
    })
    this.orgRefusals = new Counter({
      name: 'org_concurrency_refusals_total',
      help: 'Requests refused with 429 concurrency_limited, by reason: queue_full (HEARTH_ORG_QUEUE waiting already), wait_timeout (waited HEARTH_ORG_QUEUE_TIMEOUT).',
      labelNames: ['reason'],
      registers,
    })
    for (const reason of ['queue_full', 'wait_timeout'] satisfies OrgConcurrencyRefusal[])
      this.orgRefusals.inc({ reason }, 0)
    this.databaseFaults = new Counter({
      name: 'db_errors_total',
      help: 'Requests answered 503 database_unavailable, by kind: timeout (a statement timeout, or no pool connection in time: the database is slow or blocked), connection (the connection was refused, reset or ended: the database, a pooler or the network is gone or restarting).',
      labelNames: ['kind'],
      registers,
    })
    for (const kind of DATABASE_FAULTS) this.databaseFaults.inc({ kind }, 0)
    const pool = options.poolStats
    if (pool) {
      const gauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read(pool()))
          },
        })
      gauge(
        'db_pool_total',
        'Database connections open (embedded PGlite: 1, its single in-process connection).',
        (s) => s.total,
      )
      gauge(
        'db_pool_idle',
        'Open database connections not serving a query (PGlite: 1 when idle, 0 while a query runs).',
        (s) => s.idle,
      )
      gauge(
        'db_pool_waiting',
        'Queries waiting for a database connection: above 0 for long means the pool is too small.',
        (s) => s.waiting,
      )
    }
    const limits = options.rateLimitStatus
    if (limits && limits() !== 'memory') {
      new Gauge({
        name: 'rate_limit_shared',
        help: 'REDIS_URL is set: 1 while rate limits are counted in Redis (shared by every instance), 0 while Redis is unreachable and this instance counts on its own.',
        registers,
        collect() {
          this.set(limits() === 'ok' ? 1 : 0)
        },
      })
    }
    this.exposed = Registry.merge([processMetrics(), this.registry])
  }

  /** Counts a 429 (called by the authentication hook). */
  readonly rateLimitRefused = (scope: RateLimitScope): void => {
    this.refusals.inc({ scope })
  }

  /** Follows the per-organization slots (called by plugins/org-concurrency.ts). */
  readonly orgConcurrencyChanged = (change: { inProgress?: number; waiting?: number }): void => {
    if (change.inProgress !== undefined) this.orgInProgress.inc(change.inProgress)
    if (change.waiting !== undefined) this.orgWaiting.inc(change.waiting)
  }

  /** Counts a 429 concurrency_limited (called by plugins/org-concurrency.ts). */
  readonly orgConcurrencyRefused = (reason: OrgConcurrencyRefusal): void => {
    this.orgRefusals.inc({ reason })
  }

  /** Counts a request answered 503 database_unavailable (called by the error handler). */
  readonly databaseFault = (kind: DatabaseFault): void => {
    this.databaseFaults.inc({ kind })
  }

  /** Counts a minted chart token (called by the chart-sessions route). */
  readonly chartMinted = (): void => {
    this.mints.inc()
  }

  /** Counts one answered request; `route` must be a route pattern or UNMATCHED_ROUTE. */
  observeRequest(method: string, route: string, status: number, seconds: number, legacy: boolean): void {
    const labels = { method, route, status: String(status) }
    this.requests.inc(labels)
    this.duration.observe(labels, seconds)
    if (legacy) this.legacy.inc()
  }

  /** The Prometheus text exposition format: text/plain; version=0.0.4; charset=utf-8. */
  get contentType(): string {
    return this.exposed.contentType
  }

  exposition(): Promise<string> {
    return this.exposed.metrics()
  }
}

/** Counts every response of the app once it is sent. */
export function instrumentRequests(app: App, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const options = request.routeOptions
    metrics.observeRequest(
      request.method,
      options.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
      options.config.legacy === true,
    )
  })
}
