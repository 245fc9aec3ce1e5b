// Starts Hearth: the store (taking the embedded database's lock and control socket when there is
// no DATABASE_URL), the API origin, the embed origin, and the demo with its partner site. close()
// drains in-flight requests, then closes the store and gives the data directory back.
import type { FastifyInstance } from 'fastify'
import type { Server } from 'node:net'
import type { Config } from './config.ts'
import { openStore, type Store } from './store/db.ts'
import { buildApp } from './app.ts'
import { buildEmbedApp } from './embed/server.ts'
import { loadChartReleases, releasedVersions } from './embed/releases.ts'
import { MemoryRateLimitStore } from './rate-limit/memory-store.ts'
import { openSharedRateLimitStore } from './rate-limit/fallback-store.ts'
import { RateLimiter } from './rate-limit/limiter.ts'
import { acquireDataDirLock, COMMAND_LOCK_WAIT_MS, type DataDirLock } from './operator/data-dir-lock.ts'
import { socketPathOf, startControlSocket, type ControlResponse } from './operator/control-socket.ts'
import { runOperation } from './operator/operations.ts'
import { OperatorError, isOperatorRequest } from './operator/requests.ts'
import { prepareDemo, type Demo } from './demo.ts'
import { startDemoPartner } from './demo-partner/server.ts'
import { OidcSignIn, CALLBACK_PATH, type OidcSettings } from './auth/oidc.ts'
import { freePort } from './net/free-port.ts'
import { startDeliveries } from './webhooks/start-deliveries.ts'
import { assertDevelopmentServicesOnLoopback, usesDemo, usesDevelopmentSignIn } from './dev-idp/loopback-only.ts'

export interface RunningService {
  store: Store
  apiUrl?: string
  embedUrl?: string
  demo?: Demo
  /** The demo partner site (with the demo on, when both the API and the embed origin run here). */
  demoPartnerUrl?: string
  /** Where sign-in happens: the configured provider, or the development one started here. */
  signIn?: { issuer: string; development: boolean }
  close(): Promise<void>
}

export type Listener = 'api' | 'embed'

/** What the API needs from the rest of the service, wherever it runs. */
export interface ApiSettings {
  config: Config
  store: Store
  /** Already chosen (PORT=0 picks one first), so that publicUrl names it. */
  port: number
  publicUrl: string
  embedOrigin: string
  oidc: OidcSettings | undefined
}

export interface RunningApi {
  url: string
  /** Drains the requests in flight (bounded by HEARTH_SHUTDOWN_TIMEOUT), then lets go. */
  close(): Promise<void>
}

/** Starts the API: in this process (the default), or in worker processes (src/cluster/primary.ts). */
export type ApiStarter = (settings: ApiSettings) => Promise<RunningApi>

export async function serve(
  config: Config,
  only?: Listener,
  startApi: ApiStarter = startApiHere,
): Promise<RunningService> {
  // Before anything opens or listens: a refusal leaves nothing behind.
  assertDevelopmentServicesOnLoopback(config, only)
  const cleanups: (() => Promise<void> | void)[] = []
  // Every cleanup runs even when one fails (the database went away, say), so that ports, files and
  // worker processes are let go all the same; the first failure is thrown at the end.
  const close = async () => {
    const failures: unknown[] = []
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup()
      } catch (error) {
        failures.push(error)
      }
    }
    cleanups.length = 0
    if (failures.length > 0) throw failures[0]
  }
  try {
    let lock: DataDirLock | undefined
    const socket = socketPathOf(config.dataDir)
    if (!config.databaseUrl) {
      lock = await acquireDataDirLock(config.dataDir, 'server', { socket, waitMs: COMMAND_LOCK_WAIT_MS })
      const held = lock
      cleanups.push(() => held.release())
    }
    const store = await openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolMax: config.databasePoolMax,
      statementTimeoutMs: config.statementTimeoutMs,
      preparedStatements: config.preparedStatements,
      // An API in this process keeps resolved keys while it hears of changes to them
      // (src/auth/api-key-cache.ts); --workers' primary and the embed origin alone serve no API.
      watchKeyChanges: only !== 'embed' && startApi === startApiHere,
    })
    cleanups.push(() => store.close())
    if (lock) {
      const control = await startControlSocket(socket, (request) => handleControl(store, request))
      cleanups.push(() => closeServer(control))
    }
    const service: RunningService = { store, close }
    if (usesDemo(config, only)) {
      const demo = await prepareDemo(store.db)
      if (demo) service.demo = demo
    }
    // PORT=0 (tests) picks a free port now, so that the public URL names the real one.
    const port = config.port === 0 && !config.publicUrl ? await freePort(config.host) : config.port
    const publicUrl = config.publicUrl ?? `http://${hostInUrl(config.host)}:${port}`
    // The embed origin first: the API names it in chart tokens and embed URLs.
    let chartVersions: string[] = []
    if (only !== 'api') {
      const releases = await loadChartReleases()
      chartVersions = releasedVersions(releases)
      const limiter = new RateLimiter(new MemoryRateLimitStore())
      const addressBudget = { limit: config.addressRateLimitMax, windowSeconds: config.rateLimitWindowSeconds }
      const embed = buildEmbedApp({
        db: store.db,
        releases,
        limiter,
        addressBudget,
        trustProxy: config.trustProxy,
        appOrigin: new URL(publicUrl).origin,
      })
      cleanups.push(() => closeWithin(embed, config.shutdownTimeoutSeconds))
      service.embedUrl = await listen(embed, config.host, config.embedPort)
    }
    if (only !== 'embed') {
      const embedOrigin = config.embedUrl ?? service.embedUrl ?? `http://${config.host}:${config.embedPort}`
      const oidc = await identityProvider(config, only, publicUrl, cleanups)
      if (oidc) service.signIn = { issuer: oidc.issuer, development: !config.oidcIssuer }
      const api = await startApi({ config, store, port, publicUrl, embedOrigin, oidc })
      cleanups.push(() => api.close())
      service.apiUrl = api.url
    }
    // The demo partner mints through the API and embeds from the embed origin: it needs both here.
    if (service.demo && service.apiUrl && service.embedUrl) {
      const partner = await startDemoPartner({
        db: store.db,
        orgId: service.demo.org.id,
        apiKey: service.demo.key,
        apiUrl: service.apiUrl,
        embedOrigin: config.embedUrl ?? service.embedUrl,
        chartVersion: newestVersion(chartVersions),
        host: config.host,
        port: config.demoPort,
      })
      cleanups.push(() => partner.close())
      service.demoPartnerUrl = partner.url
    }
    return service
  } catch (error) {
    await close().catch(() => {
      // The reason it could not start matters more than anything closing says.
    })
    throw error
  }
}

/** The API in this process, on the store opened here. */
async function startApiHere({ config, store, port, publicUrl, embedOrigin, oidc }: ApiSettings): Promise<RunningApi> {
  // REDIS_URL: every instance counts in Redis; while it is unreachable, each counts on its own
  // (rate-limit/fallback-store.ts).
  const sharedLimits = config.redisUrl ? await openSharedRateLimitStore(config.redisUrl) : undefined
  const rateLimitStore = sharedLimits ?? new MemoryRateLimitStore()
  let api: FastifyInstance | undefined
  let webhooks: Promise<{ close(): Promise<void> } | undefined> | undefined
  const close = async () => {
    // Webhooks first: attempts in flight are handed back to the queue while the store is still open.
    await (await webhooks)?.close()
    if (api) await closeWithin(api, config.shutdownTimeoutSeconds)
    await rateLimitStore.close()
  }
  try {
    api = await buildApp({
      limits: {
        requestTimeoutSeconds: config.requestTimeoutSeconds,
        maxConcurrentRequests: config.maxConcurrentRequests,
      },
      orgConcurrency: {
        perOrg: config.orgConcurrency,
        queueLength: config.orgQueueLength,
        waitMs: config.orgQueueTimeoutSeconds * 1000,
      },
      oidc: oidc && new OidcSignIn(store.db, oidc, publicUrl),
      db: store.db,
      poolStats: () => store.poolStats(),
      keyChanges: store.keyChanges,
      eventRetentionDays: config.eventRetentionDays,
      config,
      rateLimitStore,
      publicUrl,
      chart: { issuer: publicUrl, embedOrigin },
      production: config.production,
    })
    sharedLimits?.logTo(api.log)
    const url = await listen(api, config.host, port)
    if (config.webhooks) {
      const log = api.log
      // In the background: the API serves while the job queue installs or checks its schema, and a
      // queue that cannot start (said in the log) leaves the API serving.
      webhooks = startDeliveries(store, config, (error, message) => log.error({ err: error }, message)).catch(
        (error: unknown) => {
          log.error({ err: error }, 'webhooks could not start: no webhooks are sent by this process')
          return undefined
        },
      )
    }
    return { url, close }
  } catch (error) {
    await close().catch(() => {
      // The reason it could not start matters more than anything closing says.
    })
    throw error
  }
}

/**
 * The identity provider the web app signs in with: the configured one, or, outside production and
 * with the whole service here, the development provider started on HEARTH_IDP_PORT. None: sign-in
 * is not set up.
 */
async function identityProvider(
  config: Config,
  only: Listener | undefined,
  publicUrl: string,
  cleanups: (() => Promise<void> | void)[],
): Promise<OidcSettings | undefined> {
  if (config.oidcIssuer && config.oidcClientId && config.oidcClientSecret) {
    return { issuer: config.oidcIssuer, clientId: config.oidcClientId, clientSecret: config.oidcClientSecret }
  }
  if (!usesDevelopmentSignIn(config, only)) return undefined
  // Loaded only when used: oidc-provider and its dependencies take a while to load.
  const { startDevIdentityProvider } = await import('./dev-idp/server.ts')
  const provider = await startDevIdentityProvider({
    host: config.host,
    port: config.idpPort,
    redirectUri: new URL(CALLBACK_PATH, publicUrl).href,
  })
  cleanups.push(() => provider.close())
  return provider
}

/** The highest x.y.z (compared as numbers), or undefined when nothing is released. */
function newestVersion(versions: string[]): string | undefined {
  const key = (version: string) => version.split('.').map(Number)
  return [...versions]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)]
      for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0)
      return 0
    })
    .at(-1)
}

/**
 * Stops accepting connections and waits for the requests in flight (Fastify's close), for at most
 * `seconds`; then the connections still open are closed, so a hung client cannot hold a shutdown
 * (or a deploy) forever.
 */
async function closeWithin(app: FastifyInstance, seconds: number): Promise<void> {
  const deadline = setTimeout(() => {
    app.log.warn({ shutdownTimeoutSeconds: seconds }, 'shutdown timeout: closing the connections still open')
    app.server.closeAllConnections()
  }, seconds * 1000)
  try {
    await app.close()
  } finally {
    clearTimeout(deadline)
  }
}

export function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port })
  const address = app.server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return `http://${hostInUrl(host)}:${actualPort}`
}

async function handleControl(store: Store, request: unknown): Promise<ControlResponse> {
  if (!isOperatorRequest(request)) return { ok: false, error: 'not a valid admin request', exitCode: 2 }
  try {
    // The server applied any migrations when it started; nothing is left for this command.
    const migrations = { applied: [], current: store.migrations.current }
    return { ok: true, result: await runOperation(store.db, request, migrations) }
  } catch (error) {
    if (error instanceof OperatorError) return { ok: false, error: error.message, exitCode: 2 }
    return {
      ok: false,
      error: `the server could not carry out ${request.op}: ${(error as Error).message}`,
      exitCode: 1,
    }
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}
