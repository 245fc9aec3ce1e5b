// Applies the numbered SQL files in ./migrations in order, each in its own transaction.
// Safe when several instances start at once: a PostgreSQL advisory lock, taken by each
// migration's transaction, lets one of them migrate while the others wait, then find it done.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { projectPath } from '../project-files.ts'

/** One database session: statements run on the same connection, in order. */
export interface MigrationSession {
  /** Runs a script of one or more statements, without parameters. */
  exec(sql: string): Promise<void>
  query<R>(sql: string, params?: unknown[]): Promise<R[]>
}

export interface Migration {
  version: number
  name: string
  sql: string
  checksum: string
}

const MIGRATIONS_DIR = projectPath('src', 'store', 'migrations')
// Arbitrary constant identifying Hearth's migration lock among other advisory locks.
const MIGRATION_LOCK = 7_451_902_113

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(path.join(dir, file), 'utf8')
      return {
        version: Number(file.slice(0, 4)),
        name: file.slice(5, -4),
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      }
    })
}

export interface MigrationReport {
  applied: string[]
  current: number
}

/**
 * Runs `work` in a transaction that holds the migration lock. The lock is transaction-level
 * (pg_advisory_xact_lock): it ends with the transaction, so it also works through a pooler in
 * transaction mode (PgBouncer), where a session-level lock and its unlock could land on
 * different server connections and leave the lock held.
 */
async function underMigrationLock<T>(session: MigrationSession, work: () => Promise<T>): Promise<T> {
  // READ COMMITTED whatever the server's default: each statement after the lock must see what the
  // instance that held it before committed (a snapshot taken before the wait would not).
  await session.exec('BEGIN ISOLATION LEVEL READ COMMITTED')
  try {
    await session.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    const result = await work()
    await session.exec('COMMIT')
    return result
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => {
      // If the connection is gone, ROLLBACK fails too; the first error is the one to report.
    })
    throw error
  }
}

/**
 * Applies the migrations not applied yet, each in its own transaction under the migration lock.
 * Instances starting together take turns: each one checks under the lock whether the migration is
 * still to do, so every migration runs once. A failing migration is rolled back whole; the ones
 * before it stay applied.
 */
export async function migrate(session: MigrationSession, migrations = readMigrations()): Promise<MigrationReport> {
  await underMigrationLock(session, () =>
    session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`),
  )
  const applied: string[] = []
  for (const migration of migrations) {
    const name = `${String(migration.version).padStart(4, '0')}_${migration.name}`
    const ran = await underMigrationLock(session, async () => {
      const [done] = await session.query<{ checksum: string }>(
        'SELECT checksum FROM schema_migrations WHERE version = $1',
        [migration.version],
      )
      if (done) {
        if (done.checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.version} (${migration.name}) was changed after it was applied; add a new migration instead`,
          )
        }
        return false
      }
      try {
        await session.exec(migration.sql)
      } catch (error) {
        throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, {
          cause: error,
        })
      }
      await session.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ])
      return true
    })
    if (ran) applied.push(name)
  }
  return { applied, current: Math.max(0, ...migrations.map((m) => m.version)) }
}

/** The line a server prints when it applied migrations as it started; none when it applied none. */
export function appliedMigrationsLine(report: MigrationReport): string | undefined {
  return report.applied.length
    ? `Applied migrations ${report.applied.join(', ')}; the schema is at version ${report.current}.`
    : undefined
}
