// Operations endpoints, for load balancers, orchestrators and Prometheus — not for partners:
//   GET /healthz  the process serves requests (liveness): always 200 while it does;
//   GET /readyz   it can do its work (readiness): the store answers, every migration this code
//                 needs is applied, and every extra check (Redis, when configured) passes; else 503
//                 naming what fails;
//   GET /metrics  Prometheus text exposition (see src/observability/metrics.ts).
// All three are public (no credentials), never rate-limited (only routes that declare a permission
// pass through the limiter) and hidden from the OpenAPI document. They reveal no tenant data; they
// do reveal how busy the service is, so operators should not route them from the internet (README,
// "Operate").
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { readMigrations, type Migration } from '../../store/migrate.ts'
import type { Metrics } from '../../observability/metrics.ts'
import type { App } from '../types.ts'

/** How long /readyz waits for any one check: a hung database or Redis makes it 503, never hang. */
const READINESS_TIMEOUT_MS = 1000

/**
 * A dependency /readyz also checks, beside the store and its migrations (Redis, when the rate
 * limits are shared through it). `name` is its key in the answer's `checks`; `check` resolves
 * `{ok, detail}` (detail: 'ok', or a short reason without secrets); a rejection or no answer within
 * READINESS_TIMEOUT_MS counts as failing. Without a check named 'redis', /readyz says
 * `redis: 'not configured'`.
 */
export interface ReadinessCheck {
  name: string
  check(): Promise<{ ok: boolean; detail: string }>
}

export interface HealthOptions {
  db: Kysely<Database>
  metrics: Metrics
  checks?: ReadinessCheck[] | undefined
  /** The migrations this code needs (default: the ones it ships). */
  migrations?: Migration[]
}

interface CheckResult {
  name: string
  ok: boolean
  detail: string
}

const NO_STORE = 'no-store'

export function registerHealthRoutes(app: App, options: HealthOptions): void {
  const { db, metrics } = options
  const checks = options.checks ?? []
  const needed = (options.migrations ?? readMigrations()).map((m) => ({
    version: m.version,
    label: `${String(m.version).padStart(4, '0')}_${m.name}`,
  }))
  const hidden = { config: { public: true, operational: true }, schema: { hide: true } } as const

  app.get('/healthz', hidden, async (_request, reply) => {
    reply.header('Cache-Control', NO_STORE)
    return { status: 'ok' }
  })

  app.get('/readyz', hidden, async (request, reply) => {
    const [database, ...extra] = await Promise.all([
      run(
        'database',
        async () => {
          await sql`SELECT 1`.execute(db)
          return { ok: true, detail: 'ok' }
        },
        'unreachable',
      ),
      ...checks.map((c) => run(c.name, () => c.check(), 'failing')),
    ])
    const migrations: CheckResult = database.ok
      ? await run(
          'migrations',
          async () => {
            const rows = await sql<{ version: number }>`SELECT version FROM schema_migrations`.execute(db)
            const applied = new Set(rows.rows.map((row) => row.version))
            const pending = needed.filter((m) => !applied.has(m.version)).map((m) => m.label)
            if (pending.length === 0) return { ok: true, detail: 'ok' }
            const shown = pending.slice(0, 3).join(', ') + (pending.length > 3 ? `, … (${pending.length} in all)` : '')
            return { ok: false, detail: `pending: ${shown}` }
          },
          'unknown',
        )
      : { name: 'migrations', ok: false, detail: 'unknown: the database is unreachable' }
    const results = [database, migrations, ...extra]
    const body: Record<string, string> = {}
    for (const result of results) body[result.name] = result.detail
    if (!('redis' in body)) body.redis = 'not configured'
    const ready = results.every((result) => result.ok)
    if (!ready) request.log.warn({ checks: body }, 'not ready')
    reply.header('Cache-Control', NO_STORE)
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: body })
  })

  app.get('/metrics', hidden, async (_request, reply) => {
    reply.header('Cache-Control', NO_STORE)
    return reply.type(metrics.contentType).send(await metrics.exposition())
  })
}

/** Runs one check within the timeout; a failure's detail is `<prefix>: <first line of the reason>`. */
async function run(
  name: string,
  check: () => Promise<{ ok: boolean; detail: string }>,
  prefix: string,
): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS)
  })
  try {
    const result = await Promise.race([check(), timeout])
    return { name, ok: result.ok, detail: result.detail || (result.ok ? 'ok' : prefix) }
  } catch (error) {
    return { name, ok: false, detail: `${prefix}: ${shortReason(error)}` }
  } finally {
    clearTimeout(timer)
  }
}

function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  // A refused connection to several addresses is an AggregateError without a message: say its code.
  const code = (error as { code?: unknown } | null)?.code
  const line =
    (message.split('\n')[0] ?? '').trim() ||
    (typeof code === 'string' ? code : error instanceof Error ? error.name : 'error')
  return line.length > 120 ? `${line.slice(0, 117)}…` : line
}
