// The API under test, in its own process: the real app from src/app.ts on the seeded store, with
// a rate limit too high to matter and warn-level logs. Reports its port to the parent over IPC.
// Started by run.ts with BENCH_DATABASE_URL (PostgreSQL) or BENCH_DATA_DIR (PGlite).
import { openStore } from '../src/store/db.ts'
import { buildApp } from '../src/app.ts'
import { MemoryRateLimitStore } from '../src/rate-limit/memory-store.ts'
import { openSharedRateLimitStore } from '../src/rate-limit/fallback-store.ts'
import { loadConfig } from '../src/config.ts'
import { startDeliveries } from '../src/webhooks/start-deliveries.ts'
import type { ListeningMessage } from './child.ts'

const databaseUrl = process.env.BENCH_DATABASE_URL || undefined
const dataDir = process.env.BENCH_DATA_DIR ?? ''
if (!databaseUrl && !dataDir) throw new Error('bench/server.ts needs BENCH_DATABASE_URL or BENCH_DATA_DIR')
if (!process.send) throw new Error('bench/server.ts must be started by bench/run.ts (it reports its port over IPC)')

// The production default pool size (HEARTH_DB_POOL_MAX), so the numbers are those of a default install.
const store = await openStore({ databaseUrl, dataDir, poolMax: 10, watchKeyChanges: true })
// BENCH_REDIS_URL: count rate limits in Redis, as several instances do (one round trip per request),
// under a prefix of this process's own so that nothing else's counts are touched.
const redisUrl = process.env.BENCH_REDIS_URL || undefined
const rateLimitStore = redisUrl
  ? await openSharedRateLimitStore(redisUrl, { prefix: `hearth:bench:${process.pid}:` })
  : new MemoryRateLimitStore()
// The production defaults for this store and pool: each organization's share of requests in progress
// (unless HEARTH_ORG_CONCURRENCY (0: off), HEARTH_ORG_QUEUE or HEARTH_ORG_QUEUE_TIMEOUT say otherwise;
// the fairness bench sets them) and the webhook settings (--webhooks).
const { HEARTH_ORG_CONCURRENCY, HEARTH_ORG_QUEUE, HEARTH_ORG_QUEUE_TIMEOUT } = process.env
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  HEARTH_DB_POOL_MAX: '10',
  HEARTH_ORG_CONCURRENCY,
  HEARTH_ORG_QUEUE,
  HEARTH_ORG_QUEUE_TIMEOUT,
})
const app = await buildApp({
  db: store.db,
  keyChanges: store.keyChanges,
  config: {
    rateLimitMax: 1e9,
    orgRateLimitMax: 1e9,
    addressRateLimitMax: 1e9,
    rateLimitWindowSeconds: 60,
    householdsSunset: undefined,
    trustProxy: 0,
    logLevel: 'warn',
  },
  rateLimitStore,
  orgConcurrency: {
    perOrg: config.orgConcurrency,
    queueLength: config.orgQueueLength,
    waitMs: config.orgQueueTimeoutSeconds * 1000,
  },
  publicUrl: 'http://127.0.0.1',
  // No chart case is measured; the embed origin is only named in tokens.
  chart: { issuer: 'http://127.0.0.1', embedOrigin: 'http://127.0.0.1:3001' },
  // bench/import.ts --lanes/--batch: the import worker's settings to measure (its defaults otherwise).
  imports: {
    ...(process.env.BENCH_IMPORT_LANES ? { lanes: Number(process.env.BENCH_IMPORT_LANES) } : {}),
    ...(process.env.BENCH_IMPORT_BATCH ? { batch: Number(process.env.BENCH_IMPORT_BATCH) } : {}),
  },
})
await app.listen({ host: '127.0.0.1', port: 0 })
const address = app.server.address()
if (address === null || typeof address === 'string') throw new Error('the API is not listening on a TCP port')

// --webhooks: this process delivers too, as every instance of `hearth serve` does (src/serve.ts),
// and where serve does: on PostgreSQL from its lower-priority delivery thread.
const webhooks =
  process.env.BENCH_WEBHOOKS === '1'
    ? await startDeliveries(store, config, (error, text) => app.log.error({ err: error }, text))
    : undefined

let closing = false
async function shutdown(): Promise<void> {
  if (closing) return
  closing = true
  await webhooks?.close()
  // Close the app (which flushes key usage), then the store: a PGlite directory must be closed
  // cleanly, and process.exit lets --cpu-prof write its profile.
  await app.close()
  await store.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown())
process.on('SIGINT', () => void shutdown())
// The parent died without stopping us (kill -9): do not linger holding the database.
process.on('disconnect', () => void shutdown())

const message: ListeningMessage = { type: 'listening', port: address.port }
process.send(message)
