// Starts the real API on a real store on a loopback port, and gives tests an org and keys.
import type { Kysely } from 'kysely'
import { buildApp, type AppDependencies, type RequestLimits } from '../../src/app.ts'
import type { Config } from '../../src/config.ts'
import type { Database } from '../../src/store/tables.ts'
import type { Store } from '../../src/store/db.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { issueApiKey } from '../../src/auth/issue-api-key.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import type { App } from '../../src/http/types.ts'
import type { OidcSignIn } from '../../src/auth/oidc.ts'
import type { RateLimitStore } from '../../src/rate-limit/store.ts'

export type TestConfig = AppConfigOverrides
type AppConfigOverrides = Partial<
  Pick<
    Config,
    | 'rateLimitMax'
    | 'rateLimitWindowSeconds'
    | 'orgRateLimitMax'
    | 'addressRateLimitMax'
    | 'householdsSunset'
    | 'trustProxy'
  >
> & {
  embedOrigin?: string
  /** The API's public origin (chart token issuer; the only origin cookie writes may come from). */
  publicUrl?: string
  /** Request timeout and concurrency cap (src/app.ts DEFAULT_LIMITS otherwise). */
  limits?: RequestLimits
  /** Each organization's share of requests in progress (src/app.ts DEFAULT_ORG_CONCURRENCY otherwise). */
  orgConcurrency?: AppDependencies['orgConcurrency']
  /** Sign-in with an identity provider (its public URL must be this app's: give `port` too). */
  oidc?: OidcSignIn
  /** The loopback port to listen on (default: any free one). */
  port?: number
  /** Where rate limits are counted (default: this app's own memory); the app closes it. */
  rateLimitStore?: RateLimitStore
  /** The store's connection use (TestStore.poolStats), for the db_pool_* metrics. */
  poolStats?: AppDependencies['poolStats']
  /** Extra /readyz checks (e.g. a Redis stand-in). */
  readinessChecks?: AppDependencies['readinessChecks']
  /** Days the change feed keeps events (src/events/retention.ts otherwise). */
  eventRetentionDays?: number
  /** The import worker's settings (src/imports/import-worker.ts DEFAULT_IMPORT_WORKER otherwise). */
  imports?: AppDependencies['imports']
}

/** The public origin test apps run under unless told otherwise. */
export const TEST_PUBLIC_URL = 'http://api.hearth.test'

export interface TestApp {
  app: App
  url: string
  close(): Promise<void>
}

/**
 * The API on `store`, with its key cache on the store's watch as `hearth serve` has it (tests of
 * revocations and limits then check the cache too).
 */
export async function startApp(
  store: Pick<Store, 'db' | 'keyChanges'>,
  overrides: AppConfigOverrides = {},
): Promise<TestApp> {
  const app = await buildApp({
    db: store.db,
    keyChanges: store.keyChanges,
    config: {
      rateLimitMax: 100_000,
      rateLimitWindowSeconds: 60,
      orgRateLimitMax: 1_000_000,
      addressRateLimitMax: 1_000_000,
      householdsSunset: undefined,
      trustProxy: 0,
      logLevel: 'silent',
      ...overrides,
    },
    rateLimitStore: overrides.rateLimitStore ?? new MemoryRateLimitStore(),
    publicUrl: overrides.publicUrl ?? TEST_PUBLIC_URL,
    ...(overrides.limits ? { limits: overrides.limits } : {}),
    ...(overrides.orgConcurrency ? { orgConcurrency: overrides.orgConcurrency } : {}),
    chart: {
      issuer: overrides.publicUrl ?? TEST_PUBLIC_URL,
      embedOrigin: overrides.embedOrigin ?? 'http://embed.hearth.test',
    },
    oidc: overrides.oidc,
    poolStats: overrides.poolStats,
    readinessChecks: overrides.readinessChecks,
    ...(overrides.eventRetentionDays ? { eventRetentionDays: overrides.eventRetentionDays } : {}),
    ...(overrides.imports ? { imports: overrides.imports } : {}),
  })
  await app.listen({ host: '127.0.0.1', port: overrides.port ?? 0 })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no address')
  return { app, url: `http://127.0.0.1:${address.port}`, close: () => app.close() }
}

export const ALL_PERMISSIONS = [
  'relationships:read',
  'relationships:write',
  'households:read',
  'households:write',
  'embed:chart',
]

export async function createKey(
  db: Kysely<Database>,
  orgId: string,
  permissions: string[] = ALL_PERMISSIONS,
  expiresAt: Date | null = null,
): Promise<{ id: string; key: string }> {
  const { record, key } = await issueApiKey(db, { orgId, name: 'test', permissions, expiresAt })
  return { id: record.id, key }
}

export async function createOrgWithKey(db: Kysely<Database>, permissions: string[] = ALL_PERMISSIONS) {
  const org = await createOrg(db, `Test org ${Math.random().toString(36).slice(2, 8)}`)
  const key = await createKey(db, org.id, permissions)
  return { orgId: org.id, key: key.key, keyId: key.id }
}

/** fetch with a bearer key and JSON in and out. */
export async function call(
  url: string,
  key: string | undefined,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) }
  if (key !== undefined) headers.authorization = `Bearer ${key}`
  let body: string | undefined
  if (init.body !== undefined) {
    headers['content-type'] ??= 'application/json'
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
  }
  const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  }
}
