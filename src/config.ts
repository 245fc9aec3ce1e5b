// Every environment variable Hearth reads, validated once at start-up.
// Anything invalid stops the process with a message that names the variable and what it accepts.
import { Type, type Static } from 'typebox'
import { Value } from 'typebox/value'
import path from 'node:path'
import { StringEnum } from './schemas/common.ts'
import { MAX_PROXY_HOPS, proxyEntryProblem, type ProxyTrust } from './net/trust-proxy.ts'
import { MAX_WORKERS } from './cluster/worker-limit.ts'
import { EVENT_RETENTION_DAYS } from './events/retention.ts'

const Port = Type.Integer({ minimum: 0, maximum: 65535 })

const ConfigSchema = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Port,
  embedPort: Port,
  demoPort: Port,
  idpPort: Port,
  dataDir: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  databasePoolMax: Type.Integer({ minimum: 1, maximum: 200 }),
  redisUrl: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  production: Type.Boolean(),
  demo: Type.Boolean(),
  rateLimitMax: Type.Integer({ minimum: 1 }),
  rateLimitWindowSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
  orgRateLimitMax: Type.Integer({ minimum: 1 }),
  addressRateLimitMax: Type.Integer({ minimum: 1 }),
  publicUrl: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  embedUrl: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  householdsSunset: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}' })),
  trustProxy: Type.Union([
    Type.Integer({ minimum: 0, maximum: MAX_PROXY_HOPS }),
    Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  ]),
  oidcIssuer: Type.Optional(Type.String({ pattern: '^https?://' })),
  oidcClientId: Type.Optional(Type.String({ minLength: 1 })),
  oidcClientSecret: Type.Optional(Type.String({ minLength: 1 })),
  shutdownTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  statementTimeoutMs: Type.Integer({ minimum: 100, maximum: 3_600_000 }),
  preparedStatements: StringEnum(['auto', 'on', 'off'] as const),
  requestTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  maxConcurrentRequests: Type.Integer({ minimum: 1, maximum: 100_000 }),
  orgConcurrency: Type.Integer({ minimum: 0, maximum: 100_000 }),
  orgQueueLength: Type.Integer({ minimum: 0, maximum: 100_000 }),
  orgQueueTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600 }),
  logLevel: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  workers: Type.Integer({ minimum: 1, maximum: MAX_WORKERS }),
  eventRetentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  webhooks: Type.Boolean(),
  webhookTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 60 }),
  webhookConcurrency: Type.Integer({ minimum: 1, maximum: 1000 }),
  webhookRetryUnitMs: Type.Integer({ minimum: 1, maximum: 1000 }),
})
export type Config = Static<typeof ConfigSchema>

/** Names of the environment variables, their meaning and default, for errors and the README. */
const ENVIRONMENT = {
  HOST: 'address both listeners bind to (default 127.0.0.1); the development sign-in and the demo need a loopback one (127.0.0.0/8, ::1, localhost)',
  PORT: 'API port (default 3000)',
  HEARTH_EMBED_PORT: 'embed origin port (default 3001)',
  HEARTH_DEMO_PORT: 'demo partner site port, with the demo on (default 3002)',
  HEARTH_IDP_PORT: 'development identity provider port, when no OIDC_ISSUER is set outside production (default 3003)',
  OIDC_ISSUER:
    "your OpenID Connect provider's issuer URL, e.g. https://login.example.com (with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET)",
  OIDC_CLIENT_ID:
    'the client id Hearth is registered under at the provider (redirect URI: HEARTH_PUBLIC_URL/auth/callback)',
  OIDC_CLIENT_SECRET: "that client's secret (sent with HTTP Basic authentication to the token endpoint)",
  HEARTH_DATA_DIR: 'embedded database directory (default ./data)',
  HEARTH_PUBLIC_URL:
    'origin the API is reached at, e.g. https://api.example.com (default http://HOST:PORT); chart tokens name it as issuer',
  HEARTH_EMBED_URL:
    'origin the embed server is reached at, e.g. https://embed.example.com (default http://HOST:HEARTH_EMBED_PORT)',
  DATABASE_URL: 'postgres://… to use PostgreSQL instead of the embedded database',
  HEARTH_DB_POOL_MAX: 'PostgreSQL connections per process (default 10)',
  REDIS_URL:
    'redis://… or rediss://…: share rate limits across instances (while Redis is unreachable each instance limits on its own)',
  NODE_ENV: '"production" turns the demo off',
  HEARTH_DEMO: '0 turns the demo organization, key and partner site off (default on outside production)',
  HEARTH_RATE_LIMIT_MAX:
    'units per credential (API key or signed-in user) per window; a plain request is 1 unit (default 600)',
  HEARTH_RATE_LIMIT_WINDOW: 'rate-limit window in seconds, sliding (default 60)',
  HEARTH_ORG_RATE_LIMIT_MAX:
    'units per organization per window, shared by all its keys and users (default 1800); hearth orgs limits overrides it per organization',
  HEARTH_ADDRESS_RATE_LIMIT_MAX:
    'units per client address per window on routes without credentials: sign-in (20 units), the web app, docs; health and metrics have a budget of the same size of their own, counted by each instance in memory (default 600)',
  HEARTH_HOUSEHOLDS_SUNSET: 'YYYY-MM-DD sunset date of the legacy /api/v1/households paths (sends a Sunset header)',
  HEARTH_TRUST_PROXY: `behind proxies or a load balancer, who may name the client in X-Forwarded-For: the number of proxies in front (e.g. 1, at most ${MAX_PROXY_HOPS}; only when nothing reaches Hearth except through them), or their addresses and CIDR ranges (e.g. 10.0.0.0/8,192.168.1.5); the client is the rightmost hop that is not one of them (default 0: none)`,
  HEARTH_SHUTDOWN_TIMEOUT: 'seconds SIGTERM waits for in-flight requests before closing their connections (default 10)',
  HEARTH_STATEMENT_TIMEOUT_MS:
    'PostgreSQL statement timeout per query in ms; a slower or blocked query fails with 503 (default 5000)',
  HEARTH_PREPARED_STATEMENTS:
    'auto|on|off: PostgreSQL only, whether the hottest writes are prepared statements; auto (default): when no connection pooler is between Hearth and PostgreSQL; on: behind a pooler that keeps prepared statements (PgBouncer 1.21+ with max_prepared_statements)',
  HEARTH_REQUEST_TIMEOUT: 'seconds a client has to send a whole request (default 30)',
  HEARTH_MAX_CONCURRENT_REQUESTS: 'requests one process works on at once; more get 503 with Retry-After (default 256)',
  HEARTH_ORG_CONCURRENCY:
    "units of requests of one organization one process guarantees it at once (a request weighs its rate-limit cost, a search 5; it may borrow up to twice that while no other organization waits), so that one organization cannot hold every database connection; more wait in that organization's queue; 0 turns it off (default half of HEARTH_DB_POOL_MAX on PostgreSQL, at least 1; 2 on the embedded database)",
  HEARTH_ORG_QUEUE:
    'requests of one organization that may wait for a slot (HEARTH_ORG_CONCURRENCY); more get 429 concurrency_limited at once (default 200)',
  HEARTH_ORG_QUEUE_TIMEOUT:
    "seconds a request may wait for one of its organization's slots before it gets 429 concurrency_limited (default 10)",
  HEARTH_LOG_LEVEL: 'fatal|error|warn|info|debug|trace|silent (default info)',
  HEARTH_EVENT_RETENTION_DAYS:
    'days the change feed (GET /api/v1/events) keeps events; an older cursor is 410 event_cursor_expired (default 30)',
  HEARTH_WEBHOOKS:
    '0: this process sends no webhooks (another instance on the same database does); default 1: every API process dispatches and delivers, each attempt once (on PostgreSQL from a thread at a lower CPU priority than its requests)',
  HEARTH_WEBHOOK_TIMEOUT:
    'seconds one webhook attempt may take, from connecting to the answer; a slower endpoint fails the attempt (default 15, at most 60)',
  HEARTH_WEBHOOK_CONCURRENCY: 'webhook attempts one process makes at once (default 50)',
  HEARTH_WEBHOOK_RETRY_UNIT_MS:
    'for tests only: milliseconds one second of the webhook retry schedule and of the 3-day disable rule lasts (default 1000)',
  HEARTH_WORKERS: `API processes hearth serve runs on this machine, 1 to ${MAX_WORKERS} (default 1); more than 1 needs DATABASE_URL (hearth serve --workers wins)`,
} as const

type Env = Record<string, string | undefined>
type EnvName = keyof typeof ENVIRONMENT

/** Which environment variable sets each field, so a validation error can name it. */
const SOURCE: Record<keyof Config, EnvName> = {
  host: 'HOST',
  port: 'PORT',
  embedPort: 'HEARTH_EMBED_PORT',
  demoPort: 'HEARTH_DEMO_PORT',
  idpPort: 'HEARTH_IDP_PORT',
  dataDir: 'HEARTH_DATA_DIR',
  publicUrl: 'HEARTH_PUBLIC_URL',
  embedUrl: 'HEARTH_EMBED_URL',
  databaseUrl: 'DATABASE_URL',
  databasePoolMax: 'HEARTH_DB_POOL_MAX',
  redisUrl: 'REDIS_URL',
  production: 'NODE_ENV',
  demo: 'HEARTH_DEMO',
  rateLimitMax: 'HEARTH_RATE_LIMIT_MAX',
  rateLimitWindowSeconds: 'HEARTH_RATE_LIMIT_WINDOW',
  orgRateLimitMax: 'HEARTH_ORG_RATE_LIMIT_MAX',
  addressRateLimitMax: 'HEARTH_ADDRESS_RATE_LIMIT_MAX',
  householdsSunset: 'HEARTH_HOUSEHOLDS_SUNSET',
  trustProxy: 'HEARTH_TRUST_PROXY',
  oidcIssuer: 'OIDC_ISSUER',
  oidcClientId: 'OIDC_CLIENT_ID',
  oidcClientSecret: 'OIDC_CLIENT_SECRET',
  shutdownTimeoutSeconds: 'HEARTH_SHUTDOWN_TIMEOUT',
  statementTimeoutMs: 'HEARTH_STATEMENT_TIMEOUT_MS',
  preparedStatements: 'HEARTH_PREPARED_STATEMENTS',
  requestTimeoutSeconds: 'HEARTH_REQUEST_TIMEOUT',
  maxConcurrentRequests: 'HEARTH_MAX_CONCURRENT_REQUESTS',
  orgConcurrency: 'HEARTH_ORG_CONCURRENCY',
  orgQueueLength: 'HEARTH_ORG_QUEUE',
  orgQueueTimeoutSeconds: 'HEARTH_ORG_QUEUE_TIMEOUT',
  logLevel: 'HEARTH_LOG_LEVEL',
  workers: 'HEARTH_WORKERS',
  eventRetentionDays: 'HEARTH_EVENT_RETENTION_DAYS',
  webhooks: 'HEARTH_WEBHOOKS',
  webhookTimeoutSeconds: 'HEARTH_WEBHOOK_TIMEOUT',
  webhookConcurrency: 'HEARTH_WEBHOOK_CONCURRENCY',
  webhookRetryUnitMs: 'HEARTH_WEBHOOK_RETRY_UNIT_MS',
}

export class ConfigError extends Error {}

function integer(env: Env, name: EnvName, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name}=${raw} is not a whole number: ${ENVIRONMENT[name]}`)
  return Number(raw)
}

function flag(env: Env, name: EnvName, fallback: boolean): boolean {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false
  throw new ConfigError(`${name}=${raw} must be 1 or 0: ${ENVIRONMENT[name]}`)
}

/**
 * Each organization's share of the database when HEARTH_ORG_CONCURRENCY is not set. PostgreSQL: half
 * the pool, so that two busy organizations still leave connections for everyone else. The embedded
 * database has one connection that runs statements one after another: 2 lets an organization have
 * one request's statements running while its next one is being parsed or its last one serialized
 * (1 would leave that one connection idle between them), and another organization's request still
 * queues behind at most two of them.
 */
function defaultOrgConcurrency(env: Env): number {
  if (!env.DATABASE_URL) return 2
  return Math.max(1, Math.floor(integer(env, 'HEARTH_DB_POOL_MAX', 10) / 2))
}

/** Words that used to turn HEARTH_TRUST_PROXY on for every hop: refused, so that nobody keeps that by accident. */
const TRUST_EVERY_HOP = ['true', 'yes', 'on', '*', 'all']

function proxyTrust(env: Env): ProxyTrust {
  const raw = (env.HEARTH_TRUST_PROXY ?? '').trim()
  // false/no/off were valid before, and still mean what they said.
  if (raw === '' || ['false', 'no', 'off'].includes(raw.toLowerCase())) return 0
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > MAX_PROXY_HOPS)
      throw new ConfigError(
        `HEARTH_TRUST_PROXY=${raw} is more proxies than ${MAX_PROXY_HOPS}: write the number of proxies really in front of Hearth, or their addresses`,
      )
    return Number(raw)
  }
  if (TRUST_EVERY_HOP.includes(raw.toLowerCase())) {
    throw new ConfigError(
      `HEARTH_TRUST_PROXY=${raw} would trust every hop, so any client could choose its own address: write the number of proxies in front of Hearth (e.g. 1) or their addresses (e.g. 10.0.0.0/8,192.168.1.5)`,
    )
  }
  const entries = raw.split(',').map((entry) => entry.trim())
  for (const entry of entries) {
    const problem = proxyEntryProblem(entry)
    if (problem)
      throw new ConfigError(`HEARTH_TRUST_PROXY=${raw}: ${problem}. It takes ${ENVIRONMENT.HEARTH_TRUST_PROXY}`)
  }
  return entries
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production'
  const config: Config = {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3000),
    embedPort: integer(env, 'HEARTH_EMBED_PORT', 3001),
    demoPort: integer(env, 'HEARTH_DEMO_PORT', 3002),
    idpPort: integer(env, 'HEARTH_IDP_PORT', 3003),
    dataDir: path.resolve(env.HEARTH_DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolMax: integer(env, 'HEARTH_DB_POOL_MAX', 10),
    redisUrl: env.REDIS_URL || undefined,
    production,
    demo: !production && flag(env, 'HEARTH_DEMO', true),
    rateLimitMax: integer(env, 'HEARTH_RATE_LIMIT_MAX', 600),
    rateLimitWindowSeconds: integer(env, 'HEARTH_RATE_LIMIT_WINDOW', 60),
    orgRateLimitMax: integer(env, 'HEARTH_ORG_RATE_LIMIT_MAX', 1800),
    addressRateLimitMax: integer(env, 'HEARTH_ADDRESS_RATE_LIMIT_MAX', 600),
    publicUrl: env.HEARTH_PUBLIC_URL || undefined,
    embedUrl: env.HEARTH_EMBED_URL || undefined,
    householdsSunset: env.HEARTH_HOUSEHOLDS_SUNSET || undefined,
    trustProxy: proxyTrust(env),
    oidcIssuer: env.OIDC_ISSUER || undefined,
    oidcClientId: env.OIDC_CLIENT_ID || undefined,
    oidcClientSecret: env.OIDC_CLIENT_SECRET || undefined,
    shutdownTimeoutSeconds: integer(env, 'HEARTH_SHUTDOWN_TIMEOUT', 10),
    statementTimeoutMs: integer(env, 'HEARTH_STATEMENT_TIMEOUT_MS', 5000),
    preparedStatements: (env.HEARTH_PREPARED_STATEMENTS || 'auto') as Config['preparedStatements'],
    requestTimeoutSeconds: integer(env, 'HEARTH_REQUEST_TIMEOUT', 30),
    maxConcurrentRequests: integer(env, 'HEARTH_MAX_CONCURRENT_REQUESTS', 256),
    orgConcurrency: integer(env, 'HEARTH_ORG_CONCURRENCY', defaultOrgConcurrency(env)),
    // Long: a refused client comes straight back, and its key is looked up in the database again
    // before it can be refused again; a waiting request costs a socket and nothing in the database.
    orgQueueLength: integer(env, 'HEARTH_ORG_QUEUE', 200),
    orgQueueTimeoutSeconds: integer(env, 'HEARTH_ORG_QUEUE_TIMEOUT', 10),
    logLevel: (env.HEARTH_LOG_LEVEL || 'info') as Config['logLevel'],
    workers: integer(env, 'HEARTH_WORKERS', 1),
    eventRetentionDays: integer(env, 'HEARTH_EVENT_RETENTION_DAYS', EVENT_RETENTION_DAYS),
    webhooks: flag(env, 'HEARTH_WEBHOOKS', true),
    webhookTimeoutSeconds: integer(env, 'HEARTH_WEBHOOK_TIMEOUT', 15),
    webhookConcurrency: integer(env, 'HEARTH_WEBHOOK_CONCURRENCY', 50),
    webhookRetryUnitMs: integer(env, 'HEARTH_WEBHOOK_RETRY_UNIT_MS', 1000),
  }
  if (!Value.Check(ConfigSchema, config)) {
    const first = [...Value.Errors(ConfigSchema, config)][0]
    const name = SOURCE[(first?.instancePath.slice(1) ?? 'host') as keyof Config]
    throw new ConfigError(
      `${name}=${env[name] ?? ''} is not valid (${first?.message ?? 'unknown problem'}): ${ENVIRONMENT[name]}`,
    )
  }
  if (config.householdsSunset && Number.isNaN(Date.parse(config.householdsSunset))) {
    throw new ConfigError(
      `HEARTH_HOUSEHOLDS_SUNSET=${config.householdsSunset} is not a date: ${ENVIRONMENT.HEARTH_HOUSEHOLDS_SUNSET}`,
    )
  }
  const oidcSet = [config.oidcIssuer, config.oidcClientId, config.oidcClientSecret].filter(
    (value) => value !== undefined,
  ).length
  if (oidcSet !== 0 && oidcSet !== 3) {
    throw new ConfigError(
      'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three to sign in with your identity provider, or none',
    )
  }
  return config
}
