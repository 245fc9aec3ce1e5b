// Opens the store: embedded PGlite in a data directory, or PostgreSQL from DATABASE_URL.
// Both speak the same SQL; this file makes them return the same JavaScript values too.
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './tables.ts'
import { migrate, type MigrationReport, type MigrationSession } from './migrate.ts'
import { ConnectionUse, type PoolStats } from './connection-use.ts'
import { VALUE_PARSERS } from './value-parsers.ts'
import { detectDirectConnection, PreparedStatements, type PreparedStatementsSetting } from './prepared-statements.ts'
import { NO_KEY_CHANGE_WATCH, PostgresKeyChangeWatch, type KeyChangeWatch } from './key-changes.ts'

type TypeId = Parameters<typeof pg.types.getTypeParser>[0]

export type { PoolStats } from './connection-use.ts'

export type StoreKind = 'pglite' | 'postgres'

export interface StoreOptions {
  /** postgres://… ; without it the embedded database in dataDir is used. */
  databaseUrl?: string | undefined
  dataDir: string
  poolMax?: number
  /**
   * PostgreSQL only: the longest one query may run (statement_timeout), and how long a request may
   * wait for a pool connection. A blocked or hung database then fails requests fast (503) instead
   * of holding them. Migrations are exempt: an index on a big table may take minutes.
   */
  statementTimeoutMs?: number
  /**
   * PostgreSQL only: told once for each connection the server, a pooler or the network ended (a
   * restart, a failover, pg_terminate_backend). The pool drops that connection and opens a new one
   * when needed; the request that was using it fails on its own (503 database_unavailable).
   * Default: one warning line on stderr.
   */
  onConnectionLost?: (error: Error) => void
  /**
   * PostgreSQL only: whether the hottest writes are named prepared statements (prepared-statements.ts):
   * 'auto' (the default) when this process reaches PostgreSQL without a pooler in between.
   */
  preparedStatements?: PreparedStatementsSetting
  /**
   * PostgreSQL only: open the connection that listens for changes to API keys (Store.keyChanges), for
   * a process that serves the API and keeps resolved keys; the CLI and the delivery thread do not.
   * The embedded database's one session always listens: it costs nothing there.
   */
  watchKeyChanges?: boolean
}

export interface Store {
  kind: StoreKind
  db: Kysely<Database>
  /** What opening the store migrated. */
  migrations: MigrationReport
  /** How busy the connections are now (for the db_pool_* metrics). */
  poolStats(): PoolStats
  /**
   * Runs a script of several statements without parameters (the simple protocol, which PGlite's
   * query() does not speak) between the store's other queries, never inside one of Kysely's
   * transactions; answers the rows of its last statement. The job queue (src/webhooks/queue.ts)
   * installs and maintains its schema with such scripts.
   */
  runScript(sql: string): Promise<unknown[]>
  /**
   * Whether changes to API keys made by any process are seen now, and how many (key-changes.ts):
   * the API's key cache keeps resolved keys only while they are. On PostgreSQL only when opened with
   * watchKeyChanges and this process reaches it without a pooler in between.
   */
  keyChanges: KeyChangeWatch
  close(): Promise<void>
}

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, {
        max: options.poolMax ?? 10,
        statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
        onConnectionLost: options.onConnectionLost ?? warnConnectionLost,
        preparedStatements: options.preparedStatements ?? 'auto',
        watchKeyChanges: options.watchKeyChanges ?? false,
      })
    : openPglite(options.dataDir)
}

function warnConnectionLost(error: Error): void {
  const code = (error as { code?: unknown }).code
  process.stderr.write(
    `hearth: a database connection was lost (${typeof code === 'string' ? `${code} ` : ''}${error.message}); it is replaced when next needed\n`,
  )
}

/**
 * A pg client emits 'error' when its connection ends under it (57P01 from pg_terminate_backend or a
 * server shutdown, a reset by a pooler or the network). An 'error' event without a listener ends the
 * process, and pg-pool listens only while a client is idle in the pool, not while it is checked out
 * (between the statements of a transaction, say). So every client listens for its whole life: the
 * failure is told once; the query that was running, or the next one, fails and its request gets a
 * 503; pg marks the client unusable, so the pool discards it on release instead of reusing it.
 */
function listenForConnectionLoss(client: pg.Client, onConnectionLost: (error: Error) => void): void {
  let told = false
  client.on('error', (error: Error) => {
    if (told) return
    told = true
    onConnectionLost(error)
  })
}

const DEFAULT_STATEMENT_TIMEOUT_MS = 5000

interface PostgresOptions {
  max: number
  statementTimeoutMs: number
  onConnectionLost: (error: Error) => void
  preparedStatements: PreparedStatementsSetting
  watchKeyChanges: boolean
}

async function openPostgres(connectionString: string, options: PostgresOptions): Promise<Store> {
  const { max, statementTimeoutMs, onConnectionLost } = options
  const types = {
    getTypeParser(oid: TypeId, format?: 'text' | 'binary') {
      // pg-types gives its parsers untyped.
      return VALUE_PARSERS[oid] ?? (pg.types.getTypeParser(oid, format) as (value: string) => unknown)
    },
  }
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    statement_timeout: statementTimeoutMs,
    // The server cancels a slow statement; this catches a server that does not answer at all.
    query_timeout: statementTimeoutMs + 1000,
    connectionTimeoutMillis: statementTimeoutMs,
  })
  const prepared = new PreparedStatements(false, (message) => process.stderr.write(`${message}\n`))
  pool.on('connect', (client) => {
    listenForConnectionLoss(client, onConnectionLost)
    prepared.attach(client)
  })
  pool.on('error', () => {
    // pg-pool re-emits an idle client's error here too; the client's own listener has told it already.
  })
  let migrations: MigrationReport
  let direct: boolean
  // Migrations run on a connection of their own, outside the pool and its timeouts.
  const client = new pg.Client({ connectionString, types })
  // Lost mid-migration: the migration's transaction rolls back and opening fails with its error.
  listenForConnectionLoss(client, onConnectionLost)
  try {
    await client.connect()
    migrations = await migrate(postgresSession(client))
    direct = await detectDirectConnection(client)
    prepared.enable(options.preparedStatements === 'on' || (options.preparedStatements === 'auto' && direct))
  } catch (error) {
    await pool.end()
    throw error
  } finally {
    await client.end()
  }
  // LISTEN needs a session of its own, which a pooler in transaction mode does not give.
  const keyWatch = options.watchKeyChanges && direct ? new PostgresKeyChangeWatch(connectionString) : undefined
  await keyWatch?.start()
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  // Kysely destroys only a driver it has used; end the pool ourselves so that a process that
  // never queried (hearth migrate) still exits at once.
  const close = async () => {
    await keyWatch?.close()
    await db.destroy()
    if (!pool.ended) await pool.end()
  }
  const poolStats = (): PoolStats => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })
  const runScript = async (sql: string): Promise<unknown[]> => {
    // pg answers one result per statement of a script (an array), or the result itself for one.
    const result = (await pool.query(sql)) as pg.QueryResult<object> | pg.QueryResult<object>[]
    return (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? []
  }
  const keyChanges = keyWatch?.counter ?? NO_KEY_CHANGE_WATCH
  return { kind: 'postgres', db, migrations, poolStats, runScript, keyChanges, close }
}

function postgresSession(client: pg.Client): MigrationSession {
  return {
    exec: async (sql) => {
      await client.query(sql)
    },
    query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
  }
}

async function openPglite(dataDir: string): Promise<Store> {
  // Loaded only when used: a PostgreSQL deployment does not start the embedded database's thread.
  const { PgliteThread, PgliteThreadDialect } = await import('./pglite-thread.ts')
  const pglite = await PgliteThread.start(dataDir)
  let migrations: MigrationReport
  try {
    migrations = await migrate({
      exec: async (sql) => {
        await pglite.exec(sql)
      },
      query: async <R>(sql: string, params: unknown[] = []) => (await pglite.query(sql, params)).rows as R[],
    })
  } catch (error) {
    await pglite.close()
    throw error
  }
  const use = new ConnectionUse()
  const db = new Kysely<Database>({ dialect: use.wrap(new PgliteThreadDialect(pglite)) })
  // As for PostgreSQL: close the database even if Kysely never used it, so its files are let go.
  const close = async () => {
    await db.destroy()
    if (!pglite.closed) await pglite.close()
  }
  // Holding a lease of the one connection while exec() runs keeps the script out of anyone's
  // transaction (none begins until the lease is released, and none is open when it is given), and
  // the database's thread runs the script whole before any statement sent after it.
  const runScript = (script: string) => db.connection().execute(() => pglite.exec(script))
  return {
    kind: 'pglite',
    db,
    migrations,
    poolStats: () => use.stats(!pglite.closed),
    runScript,
    keyChanges: pglite.keyChanges,
    close,
  }
}
