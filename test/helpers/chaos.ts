// Chaos tests: database faults under load against real `hearth serve` processes. The writers are
// the crash-safety clients (test/helpers/crash-clients.ts: creates under an Idempotency-Key, member
// adds and renames under If-Match, with a ledger of what was acknowledged); readers list beside
// them. What must hold whatever the fault: every answer is a 2xx/4xx or a 503 database_unavailable
// with Retry-After (never a 500, never a dropped connection), the processes stay up, every
// acknowledged write is in the database, no write is half-applied, and requests succeed again once
// the database answers.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, expect } from 'vitest'
import pg from 'pg'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../src/store/tables.ts'
import type { DatabaseFault } from '../../src/store/database-faults.ts'
import { checkDatabase, checkThroughApi, Ledger, startClients, Targets, type Clients } from './crash-clients.ts'
import { killAll, ServerProcess } from './cli.ts'
import { DATABASE_URL, requirePart } from './environment.ts'
import { createOrgWithKey } from './app.ts'
import { openStore, type Store } from '../../src/store/db.ts'

/** Settings of a hearth process under chaos: no demo, no rate limits in the way (per key and per organization), a short statement timeout. */
export const CHAOS_ENV = {
  HEARTH_DEMO: '0',
  HEARTH_RATE_LIMIT_MAX: '1000000',
  HEARTH_ORG_RATE_LIMIT_MAX: '1000000',
  HEARTH_STATEMENT_TIMEOUT_MS: '1500',
  // These scenarios measure the API's reads and writes through a database fault, without the
  // webhook workers: once in CI (2026-11-25) the PgBouncer restart scenario with them on (their
  // pg-boss pool beside the API's, through PgBouncer's 4 server connections) hung for its whole 90 s;
  // alone it passes in 4 s with them on or off, and the cause is not found yet. Webhook delivery
  // through a killed instance is tested in test/webhooks/instances.test.ts.
  HEARTH_WEBHOOKS: '0',
}

/** How long one chaos test, and a file's cleanup, may take. */
export const CHAOS_TIMEOUT = 90_000

/**
 * What every chaos file on PostgreSQL shares: the cleanups its tests push (run after them, newest first,
 * once every hearth process is gone) and whether PostgreSQL is there (a skip fails under HEARTH_REQUIRE_ALL).
 */
export function chaosFile(): { cleanups: (() => Promise<void>)[]; hasPostgres: boolean } {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    await killAll()
    for (const cleanup of cleanups.reverse()) await cleanup()
  }, CHAOS_TIMEOUT)
  const hasPostgres = requirePart(
    'PostgreSQL',
    DATABASE_URL !== undefined,
    'set DATABASE_URL=postgres://… to run the chaos tests on PostgreSQL',
  )
  return { cleanups, hasPostgres }
}

/** The test's own store on `databaseUrl` (a small pool: the checks' connections), and an org with a key; closed by `cleanups`. */
export async function chaosStore(
  databaseUrl: string,
  cleanups: (() => Promise<void>)[],
): Promise<{ store: Store } & Awaited<ReturnType<typeof createOrgWithKey>>> {
  const store = await openStore({ databaseUrl, dataDir: '', poolMax: 2 })
  cleanups.push(() => store.close())
  return { store, ...(await createOrgWithKey(store.db)) }
}

/** An answer that breaks the contract, for the failure message. */
interface Violation {
  request: string
  outcome: string
}

/** Readers: list households in a loop, and check each answer. */
class Readers {
  readonly violations: Violation[] = []
  answered = 0
  unavailable = 0
  private stopping = false
  private readonly loops: Promise<void>[]

  constructor(count: number, targets: Targets, key: string) {
    this.loops = Array.from({ length: count }, (_, reader) => this.loop(reader, targets, key))
  }

  private async loop(reader: number, targets: Targets, key: string): Promise<void> {
    for (let turn = reader; !this.stopping; turn++) {
      const urls = targets.list()
      const url = `${urls[turn % urls.length] ?? ''}/api/v1/relationships?pageSize=20&sortBy=name`
      try {
        const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
        const text = await response.text()
        this.answered++
        if (response.status === 200) continue
        if (isDatabaseUnavailable(response.status, text, response.headers)) {
          this.unavailable++
          // As a client should: wait as long as Retry-After says (bounded: the test must not stall).
          await sleep(Math.min(Number(response.headers.get('retry-after')) * 1000, 1000))
          continue
        }
        this.violations.push({ request: `GET ${url}`, outcome: `${response.status} ${text.slice(0, 300)}` })
      } catch (error) {
        this.violations.push({
          request: `GET ${url}`,
          outcome: `no answer: ${String((error as { cause?: unknown }).cause ?? error)}`,
        })
        await sleep(50)
      }
    }
  }

  async stop(): Promise<void> {
    this.stopping = true
    await Promise.all(this.loops)
  }
}

/** The documented answer to a database fault: 503 database_unavailable, {error, code, requestId}, Retry-After. */
export function isDatabaseUnavailable(status: number, text: string, headers: Headers): boolean {
  if (status !== 503 || !headers.get('retry-after')) return false
  try {
    const body = JSON.parse(text) as Record<string, unknown>
    return body.code === 'database_unavailable' && typeof body.error === 'string' && typeof body.requestId === 'string'
  } catch {
    return false
  }
}

export interface ChaosLoad {
  ledger: Ledger
  writers: Clients
  readers: Readers
  /** Waits for `count` more acknowledged writes (the database answers again). */
  progress(count: number, what: string): Promise<void>
  /** Stops the clients, then checks every answer they got (see the file's comment). */
  stopAndCheckAnswers(): Promise<void>
}

/**
 * Starts `writers` crash-safety client loops and `readers` list loops against the origins. A
 * crash-safety client that got no good answer from any origin waits for a change of origins; under
 * chaos the origins stay, the database comes back: a retry tick wakes them (every 100 ms).
 */
export function startChaosLoad(options: {
  targets: Targets
  key: string
  label: string
  writers: number
  readers: number
}): ChaosLoad {
  const { targets, key, label } = options
  const ledger = new Ledger()
  const writers = startClients(options.writers, { targets, ledger, key, label })
  const readers = new Readers(options.readers, targets, key)
  const tick = setInterval(() => targets.notify(), 100)
  return {
    ledger,
    writers,
    readers,
    progress: async (count, what) => {
      const target = ledger.acks + count
      await writers.until(() => ledger.acks >= target, what, 30_000)
    },
    stopAndCheckAnswers: async () => {
      try {
        await Promise.all([writers.stop(), readers.stop()])
      } finally {
        clearInterval(tick)
      }
      // The writers count a 5xx and a request without an answer alike as "lost"; only 503s are allowed.
      const notUnavailable = ledger.serverErrors.filter(
        (error) => !/ → 503 .*"code":"database_unavailable"/.test(error),
      )
      expect(notUnavailable, 'writes answered with another 5xx than 503 database_unavailable').toEqual([])
      expect(ledger.lost - ledger.serverErrors.length, `writes that got no answer (last: ${ledger.lastLost})`).toBe(0)
      expect(readers.violations, 'reads answered with something else than 200 or 503 database_unavailable').toEqual([])
      expect(readers.answered).toBeGreaterThan(0)
    },
  }
}

/** Ends every other connection to the database, as an administrator, a failover or a network reset would. How many it ended. */
export async function terminateBackends(adminUrl: string, database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl })
  admin.on('error', () => {
    // A listener so that an error on the idle connection does not crash the run; the queries report failures.
  })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ ended: number }>(
      'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    )
    return rows[0]?.ended ?? 0
  } finally {
    await admin.end()
  }
}

/** Runs `fault` `times` times, `pauseMs` apart: bounded by count (and so by time). Returns what each returned. */
export async function repeatFault<T>(
  times: number,
  pauseMs: number,
  fault: (round: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = []
  for (let round = 0; round < times; round++) {
    results.push(await fault(round))
    await sleep(pauseMs)
  }
  return results
}

/** The database name of a postgres:// URL. */
export function databaseOf(url: string): string {
  return new URL(url).pathname.slice(1)
}

/** The process is still running, with the pid it had, and said nothing of an unhandled error. */
export function expectStillUp(server: ServerProcess, pids: readonly number[]): void {
  expect(server.exit, `hearth serve ended:\n${server.stderr}`).toBeUndefined()
  for (const pid of pids) expect(isRunning(pid), `process ${pid} ended:\n${server.stderr}`).toBe(true)
  // A worker that died would have been replaced (same count, new pid): the primary says so.
  expect(server.stderr).not.toMatch(/starting worker \d+ in its place|Unhandled 'error' event|uncaught/i)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * After the load: everything acknowledged is there (through the API and in the database), counters
 * agree with rows, no idempotency claim is left open, no create applied twice, and every write left
 * exactly one audit row (its own transaction's): a household at version v has v of them.
 */
export async function checkNothingLost(
  db: Kysely<Database>,
  orgId: string,
  load: ChaosLoad,
  urls: readonly string[],
  key: string,
): Promise<void> {
  await checkThroughApi(load.ledger.households, urls, key, true)
  await checkDatabase(db, orgId, load.ledger.households, load.ledger, true)
  const { rows } = await sql<{ name: string; version: number; audited: number }>`
    SELECT h.name, h.version, (SELECT count(*)::int FROM audit_log a WHERE a.household_id = h.id) AS audited
    FROM households h WHERE h.org_id = ${orgId}`.execute(db)
  expect(
    rows.filter((row) => row.audited !== row.version),
    'households whose audit rows do not match their writes (a write applied without its audit row, or the reverse)',
  ).toEqual([])
  expect(load.ledger.households.size).toBeGreaterThan(0)
}

/**
 * The crash of issue 12, made certain rather than left to chance: the key-usage flush (every 5 s, in
 * a transaction) is held at its UPDATE of api_keys by a row lock (after its INSERT), so its connection is checked out
 * mid-transaction, and then every connection to the database is ended. Returns how many were ended.
 */
export async function terminateDuringKeyUsageFlush(databaseUrl: string, keyId: string): Promise<number> {
  const holder = new pg.Client({ connectionString: databaseUrl })
  // Watches from outside the holder's transaction: pg_stat_activity is read once per transaction.
  const watcher = new pg.Client({ connectionString: databaseUrl })
  for (const client of [holder, watcher])
    client.on('error', () => {
      // The holder is among the connections ended on purpose; an unheard error would crash the run.
    })
  await Promise.all([holder.connect(), watcher.connect()])
  try {
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid
    await holder.query('BEGIN')
    // NO KEY UPDATE: the flush's INSERT (whose foreign key takes KEY SHARE) passes, its UPDATE waits.
    await holder.query('SELECT id FROM api_keys WHERE id = $1 FOR NO KEY UPDATE', [keyId])
    const deadline = Date.now() + 12_000
    for (;;) {
      const { rows } = await watcher.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE 'update "api_keys"%'`,
      )
      if ((rows[0]?.waiting ?? 0) > 0) break
      if (Date.now() > deadline) throw new Error('the key-usage flush did not reach its UPDATE of api_keys within 12 s')
      await sleep(50)
    }
    const { rows } = await watcher.query<{ ended: number }>(
      'SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1',
      [holderPid],
    )
    await holder.query('ROLLBACK')
    return rows[0]?.ended ?? 0
  } finally {
    await Promise.all([holder.end(), watcher.end()])
  }
}

/**
 * One chaos scenario against a `hearth serve` process on `apiDatabaseUrl` (directly, or through a
 * pooler): load, `fault` (bounded by the caller), more load, then every check of this file.
 * `db` reads the same database for the checks; `orgId`/`key` belong to it.
 */
export async function runChaosScenario(options: {
  label: string
  apiDatabaseUrl: string
  db: Kysely<Database>
  orgId: string
  key: string
  /** Brings the fault about (and back), bounded; it may wait for the load's progress, or send requests of its own. */
  fault: (context: { load: ChaosLoad; apiUrl: string }) => Promise<unknown>
}): Promise<ChaosLoad> {
  const server = new ServerProcess({ DATABASE_URL: options.apiDatabaseUrl, ...CHAOS_ENV })
  const banner = await server.ready()
  const targets = new Targets([banner.apiUrl])
  const load = startChaosLoad({ targets, key: options.key, label: options.label, writers: 4, readers: 2 })
  try {
    await load.progress(10, `${options.label}: 10 acknowledged writes before the fault`)
    await options.fault({ load, apiUrl: banner.apiUrl })
    expectStillUp(server, [server.pid])
    await load.progress(10, `${options.label}: 10 acknowledged writes after the fault`)
    await load.stopAndCheckAnswers()
    expectStillUp(server, [server.pid])
    await checkNothingLost(options.db, options.orgId, load, targets.list(), options.key)
    // Each of those 503s was counted, by kind (the fault's own requests may add more).
    const counted = await databaseErrorsCounted(banner.apiUrl)
    expect(counted.timeout + counted.connection).toBeGreaterThanOrEqual(
      load.ledger.serverErrors.length + load.readers.unavailable,
    )
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    console.info(
      `${options.label}: ${load.ledger.acks} acknowledged writes, ${load.ledger.serverErrors.length} writes and ${load.readers.unavailable} reads answered 503 database_unavailable, ${load.readers.answered} reads; db_errors_total ${JSON.stringify(counted)}`,
    )
  } finally {
    load.writers.abandon()
    await server.stop('SIGKILL') // Ended already, unless a check failed.
  }
  return load
}

/** The db_errors_total series of a process's /metrics. */
export async function databaseErrorsCounted(origin: string): Promise<Record<DatabaseFault, number>> {
  const text = await (await fetch(`${origin}/metrics`)).text()
  const counted: Record<DatabaseFault, number> = { timeout: 0, connection: 0 }
  for (const [, kind, value] of text.matchAll(/^db_errors_total\{kind="(\w+)"\} (\d+)$/gm))
    counted[kind as DatabaseFault] = Number(value)
  return counted
}
