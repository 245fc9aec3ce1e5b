// Builds the API application from its plugins and routes. It does not listen: main.ts and the
// tests do, so tests run exactly the app that production runs.
import { randomUUID } from 'node:crypto'
import Fastify, { LogController } from 'fastify'
import cookie from '@fastify/cookie'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import type { Kysely } from 'kysely'
import type { Database } from './store/tables.ts'
import type { Config } from './config.ts'
import { fastifyTrustProxy } from './net/trust-proxy.ts'
import { RateLimiter } from './rate-limit/limiter.ts'
import { MemoryRateLimitStore } from './rate-limit/memory-store.ts'
import type { RateLimitStore } from './rate-limit/store.ts'
import { KeyUsageRecorder } from './auth/key-usage.ts'
import { expireIdempotencyKeys } from './store/idempotency.ts'
import { answerClientError, registerErrorHandling } from './http/plugins/errors.ts'
import { registerJsonParser } from './http/plugins/json-body.ts'
import { registerConcurrencyLimit } from './http/plugins/concurrency-limit.ts'
import { registerAuthentication } from './http/plugins/authenticate.ts'
import { ApiKeyCache } from './auth/api-key-cache.ts'
import { findApiKeyByHash } from './store/api-keys.ts'
import { NO_KEY_CHANGE_WATCH, type KeyChangeWatch } from './store/key-changes.ts'
import { registerOrgConcurrencyLimit, type OrgConcurrencyOptions } from './http/plugins/org-concurrency.ts'
import { registerResponseHeaders } from './http/plugins/response-headers.ts'
import { registerOpenApi } from './http/plugins/openapi.ts'
import { householdRoutes } from './http/routes/household-routes.ts'
import { registerChartSessionRoutes, type ChartSessionOptions } from './http/routes/chart-sessions.ts'
import { registerSignOutRoutes } from './http/routes/sign-out.ts'
import { registerOrganizationKeyRoutes } from './http/routes/organization-keys.ts'
import { registerOrganizationOriginRoutes } from './http/routes/organization-origins.ts'
import { registerOrganizationUserRoutes } from './http/routes/organization-users.ts'
import { registerOrganizationUsageRoutes } from './http/routes/organization-usage.ts'
import { registerEventRoutes } from './http/routes/events.ts'
import { importRoutes } from './http/routes/imports.ts'
import { DEFAULT_IMPORT_WORKER, ImportWorker, type ImportWorkerOptions } from './imports/import-worker.ts'
import { registerWebhookEndpointRoutes } from './http/routes/webhook-endpoints.ts'
import { deleteEventsBefore } from './store/events.ts'
import { EVENT_RETENTION_DAYS, eventPurgeLine } from './events/retention.ts'
import { registerOrganizationLimitRoutes } from './http/routes/organization-limits.ts'
import { registerSignInRoutes } from './http/routes/sign-in.ts'
import { registerChooseOrganizationRoute } from './http/routes/choose-organization.ts'
import { registerSwitchOrganizationRoute } from './http/routes/switch-organization.ts'
import { registerMeRoute } from './http/routes/me.ts'
import { registerWebRoutes } from './web/routes.ts'
import { registerHealthRoutes, type ReadinessCheck } from './http/routes/health.ts'
import { instrumentRequests, Metrics } from './observability/metrics.ts'
import type { PoolStats } from './store/connection-use.ts'
import type { OidcSignIn } from './auth/oidc.ts'
import { expireSignInAttempts } from './store/sign-in-attempts.ts'
import { deleteEndedSessions } from './store/sessions.ts'
import type { App } from './http/types.ts'

export const BODY_LIMIT_BYTES = 1024 * 1024

export interface RequestLimits {
  /** How long a client has to send a whole request; slower ones get 408 and are closed. */
  requestTimeoutSeconds: number
  /** Requests worked on at once; more get 503 overloaded (plugins/concurrency-limit.ts). */
  maxConcurrentRequests: number
}
const DEFAULT_LIMITS: RequestLimits = { requestTimeoutSeconds: 30, maxConcurrentRequests: 256 }
/** The production defaults on PostgreSQL with a pool of 10 (config.ts, HEARTH_ORG_CONCURRENCY). */
const DEFAULT_ORG_CONCURRENCY: OrgConcurrencyOptions = { perOrg: 5, queueLength: 200, waitMs: 10_000 }

function requestTimeoutMs(limits: RequestLimits = DEFAULT_LIMITS): number {
  return limits.requestTimeoutSeconds * 1000
}
/** Room for a query of 1000 ids (about 37 KB); Node's default is 16 KB. */
const MAX_HEADER_BYTES = 64 * 1024

export interface AppDependencies {
  db: Kysely<Database>
  config: Pick<
    Config,
    | 'rateLimitMax'
    | 'rateLimitWindowSeconds'
    | 'orgRateLimitMax'
    | 'addressRateLimitMax'
    | 'householdsSunset'
    | 'trustProxy'
    | 'logLevel'
  >
  rateLimitStore: RateLimitStore
  /** The origin browsers reach the API (and web app) at: cookie-authenticated writes must come from it. */
  publicUrl: string
  chart: ChartSessionOptions
  /** Request limits (defaults: DEFAULT_LIMITS). */
  limits?: RequestLimits
  /** Each organization's share of requests in progress (defaults: DEFAULT_ORG_CONCURRENCY; plugins/org-concurrency.ts). */
  orgConcurrency?: OrgConcurrencyOptions
  /** Sign-in with the identity provider; without it the web app explains that sign-in is not set up. */
  oidc?: OidcSignIn
  /** The store's connection use (Store.poolStats), for the db_pool_* metrics; without it they are not reported. */
  poolStats?: () => PoolStats
  /** Days the change feed keeps events (HEARTH_EVENT_RETENTION_DAYS; default EVENT_RETENTION_DAYS). */
  eventRetentionDays?: number
  /** What GET /readyz checks beside the store and its migrations (Redis, when configured): see ReadinessCheck. */
  readinessChecks?: ReadinessCheck[]
  /** The background import worker's settings (DEFAULT_IMPORT_WORKER otherwise; src/imports/import-worker.ts). */
  imports?: Partial<ImportWorkerOptions>
  /** NODE_ENV=production: webhook endpoints must be https (src/webhooks/endpoint-url.ts). Default false. */
  production?: boolean
  /**
   * The store's watch on changes to API keys (Store.keyChanges): while it watches, resolved keys are
   * kept in this process (src/auth/api-key-cache.ts). Without it every request reads its key.
   */
  keyChanges?: KeyChangeWatch
}

/**
 * Query strings arrive as text: their validator coerces ("2" → 2, one value → [value]).
 * Bodies are JSON: theirs does not, so "true" is not a boolean and "12" is not a number.
 */
function validators() {
  const common = { removeAdditional: false, useDefaults: false, allErrors: false, verbose: true } as const
  const coercing = new Ajv({ ...common, coerceTypes: 'array' })
  const strict = new Ajv({ ...common, coerceTypes: false })
  addFormats.default(coercing)
  addFormats.default(strict)
  return { coercing, strict }
}

export async function buildApp(deps: AppDependencies): Promise<App> {
  const app = Fastify({
    logger: { level: deps.config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: requestTimeoutMs(deps.limits),
    http: {
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node checks request timeouts on this interval (30 s by default, far coarser than the timeout).
      connectionsCheckingInterval: Math.min(requestTimeoutMs(deps.limits), 5000),
      headersTimeout: Math.min(requestTimeoutMs(deps.limits), 60_000),
    },
    // Path parameters (household ids…) as long as the request head allows: a long junk id reaches
    // its handler and is the documented 404, not Fastify's own 414 body.
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    // A path Fastify cannot decode (bad percent-encoding, e.g. /relationships/%zz) names nothing:
    // the documented 404 body instead of Fastify's own, before authentication (it reveals nothing).
    frameworkErrors: (error, request, reply) => {
      if (error.code !== 'FST_ERR_BAD_URL' && error.code !== 'FST_ERR_MAX_PARAM_LENGTH') throw error
      const body = JSON.stringify({
        error: 'There is nothing at this path: it is not a valid URL.',
        code: 'not_found',
        requestId: request.id,
      })
      reply.raw.writeHead(404, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        'X-Request-Id': request.id,
        'X-Content-Type-Options': 'nosniff',
      })
      reply.raw.end(body)
    },
    clientErrorHandler: answerClientError,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    genReqId: () => randomUUID(),
    // Per-request log lines cost throughput; failures are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>()

  const { coercing, strict } = validators()
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema))
  registerJsonParser(app)

  const limiter = new RateLimiter(deps.rateLimitStore)
  // Health and metrics probes count in this process only (see plugins/authenticate.ts), never in the shared store.
  const healthLimiter = new RateLimiter(new MemoryRateLimitStore())
  const limits = {
    keyRequests: deps.config.rateLimitMax,
    orgRequests: deps.config.orgRateLimitMax,
    addressRequests: deps.config.addressRateLimitMax,
    windowSeconds: deps.config.rateLimitWindowSeconds,
  }
  const eventRetentionDays = deps.eventRetentionDays ?? EVENT_RETENTION_DAYS
  const usage = new KeyUsageRecorder(deps.db, (error) => app.log.error({ err: error }, 'could not record key usage'))
  // Idempotency keys are replayed for 24 hours, sign-ins wait 10 minutes, ended sessions are kept
  // a day, events their retention (and a day's grace): forget older ones soon after start and hourly.
  const sweep = () =>
    Promise.all([
      expireIdempotencyKeys(deps.db),
      expireSignInAttempts(deps.db, new Date()),
      deleteEndedSessions(deps.db, new Date()),
      deleteEventsBefore(deps.db, eventPurgeLine(eventRetentionDays)),
    ]).catch((error: unknown) =>
      app.log.error({ err: error }, 'could not expire idempotency keys, sign-in attempts, sessions or events'),
    )
  const firstSweep = setTimeout(() => void sweep(), 10_000).unref()
  const sweeper = setInterval(() => void sweep(), 3600_000).unref()
  app.addHook('onClose', async () => {
    clearTimeout(firstSweep)
    clearInterval(sweeper)
    await usage.close()
    await limiter.close()
    await healthLimiter.close()
  })

  const loadShedding = registerConcurrencyLimit(app, (deps.limits ?? DEFAULT_LIMITS).maxConcurrentRequests)
  // One registry per app; every response is counted by route pattern, never by its URL.
  const metrics = new Metrics({ poolStats: deps.poolStats, rateLimitStatus: () => deps.rateLimitStore.status() })
  registerErrorHandling(app, metrics.databaseFault)
  instrumentRequests(app, metrics)
  registerResponseHeaders(app, { householdsSunset: deps.config.householdsSunset })
  // Parses the Cookie header (for the idp-session cookie only) and writes Set-Cookie. Unsigned:
  // the session value is itself a random secret, checked against its stored hash.
  await app.register(cookie, { hook: 'onRequest' })
  const apiKeys = new ApiKeyCache(deps.keyChanges ?? NO_KEY_CHANGE_WATCH, (hash) => findApiKeyByHash(deps.db, hash))
  registerAuthentication(app, {
    db: deps.db,
    findApiKey: (hash) => apiKeys.find(hash),
    limiter,
    healthLimiter,
    limits,
    usage,
    publicUrl: deps.publicUrl,
    metrics,
  })
  // After authentication: it needs the principal's organization.
  registerOrgConcurrencyLimit(app, deps.orgConcurrency ?? DEFAULT_ORG_CONCURRENCY, metrics, loadShedding)
  await registerOpenApi(app)
  await app.register(householdRoutes, { db: deps.db })
  await app.register(householdRoutes, { db: deps.db, legacy: true })
  registerChartSessionRoutes(app, deps.db, deps.chart, metrics)
  registerOrganizationKeyRoutes(app, deps.db, () => apiKeys.forget())
  registerOrganizationOriginRoutes(app, deps.db)
  registerOrganizationUserRoutes(app, deps.db)
  registerOrganizationUsageRoutes(app, deps.db)
  registerEventRoutes(app, deps.db, eventRetentionDays)
  // Every instance processes imports (the lines are claimed, so instances share them); stopped
  // before the store closes, after the lines in progress.
  const importWorker = new ImportWorker(deps.db, { ...DEFAULT_IMPORT_WORKER, ...deps.imports }, (error, message) =>
    app.log.error({ err: error }, message),
  )
  await app.register(importRoutes, { db: deps.db, worker: importWorker })
  app.addHook('onReady', async () => {
    importWorker.start()
  })
  app.addHook('onClose', () => importWorker.stop())
  registerWebhookEndpointRoutes(app, deps.db, deps.production ?? false)
  registerOrganizationLimitRoutes(app, deps.db, limits, () => apiKeys.forget())
  registerSignOutRoutes(app, deps.db, deps.publicUrl)
  registerSignInRoutes(app, deps.db, { publicUrl: deps.publicUrl, oidc: deps.oidc })
  registerChooseOrganizationRoute(app, deps.db, deps.publicUrl)
  registerSwitchOrganizationRoute(app, deps.db, deps.publicUrl)
  registerMeRoute(app, deps.db)
  registerHealthRoutes(app, {
    db: deps.db,
    metrics,
    checks: [...sharedLimitsCheck(deps.rateLimitStore), ...(deps.readinessChecks ?? [])],
  })
  registerWebRoutes(app, { embedOrigin: deps.chart.embedOrigin })
  return app
}

/**
 * /readyz reports the shared rate-limit store (Redis) when there is one. An outage is reported,
 * not failed: each instance then limits on its own and keeps answering, and a failing check would
 * take every instance out of its load balancer at once — an outage of the whole API over a counter.
 */
function sharedLimitsCheck(store: RateLimitStore): ReadinessCheck[] {
  if (store.status() === 'memory') return []
  return [
    {
      name: 'redis',
      check: async () =>
        store.status() === 'ok'
          ? { ok: true, detail: 'ok' }
          : { ok: true, detail: 'unreachable: rate limits are counted per instance until it is back' },
    },
  ]
}
