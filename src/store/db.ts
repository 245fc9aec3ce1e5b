// Opens the store: embedded PGlite in a data directory, or PostgreSQL from DATABASE_URL.
// Both speak the same SQL; this file makes them return the same JavaScript values too.
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './tables.ts'
import { migrate, type MigrationReport, type MigrationSession } from './migrate.ts'

export type StoreKind = 'pglite' | 'postgres'

export interface StoreOptions {
  /** postgres://… ; without it the embedded database in dataDir is used. */
  databaseUrl?: string | undefined
  dataDir: string
  poolMax?: number
}

export interface Store {
  kind: StoreKind
  db: Kysely<Database>
  /** What opening the store migrated. */
  migrations: MigrationReport
  close(): Promise<void>
}

// Type OIDs whose default parsing differs between `pg` and PGlite, or loses information.
const INT8 = 20
const NUMERIC = 1700
const DATE = 1082
// int8 holds counts here (never past 2^53); numeric holds money with 2 decimals (exact as a double
// up to 1e12); date stays a 'YYYY-MM-DD' string instead of a local-midnight Date.
const parsers: Record<number, (value: string) => unknown> = {
  [INT8]: Number,
  [NUMERIC]: Number,
  [DATE]: (value) => value,
}

export async function openStore(options: StoreOptions): Promise<Store> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.poolMax ?? 10) : openPglite(options.dataDir)
}

async function openPostgres(connectionString: string, max: number): Promise<Store> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      return parsers[oid] ?? pg.types.getTypeParser(oid, format)
    },
  } as pg.CustomTypesConfig
  const pool = new pg.Pool({ connectionString, max, types })
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  let migrations: MigrationReport
  try {
    const client = await pool.connect()
    try {
      migrations = await migrate(postgresSession(client))
    } finally {
      client.release()
    }
  } catch (error) {
    await pool.end()
    throw error
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  // Kysely destroys only a driver it has used; end the pool ourselves so that a process that
  // never queried (hearth migrate) still exits at once.
  const close = async () => {
    await db.destroy()
    if (!pool.ended) await pool.end()
  }
  return { kind: 'postgres', db, migrations, close }
}

function postgresSession(client: pg.PoolClient): MigrationSession {
  return {
    exec: async (sql) => {
      await client.query(sql)
    },
    query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
  }
}

async function openPglite(dataDir: string): Promise<Store> {
  // Loaded only when used: a PostgreSQL deployment does not carry PGlite's ~44 MB in memory.
  const [{ PGlite }, { pg_trgm }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('kysely-pglite-dialect'),
  ])
  const pglite = await PGlite.create({ dataDir, extensions: { pg_trgm }, parsers })
  let migrations: MigrationReport
  try {
    migrations = await migrate({
      exec: async (sql) => {
        await pglite.exec(sql)
      },
      query: async <R>(sql: string, params: unknown[] = []) => (await pglite.query<R>(sql, params)).rows,
    })
  } catch (error) {
    await pglite.close()
    throw error
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) })
  // As for PostgreSQL: close the database even if Kysely never used it, so its files are let go.
  const close = async () => {
    await db.destroy()
    if (!pglite.closed) await pglite.close()
  }
  return { kind: 'pglite', db, migrations, close }
}
