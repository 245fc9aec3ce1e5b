// Applies the numbered SQL files in ./migrations in order, each in its own transaction.
// Safe when several instances start at once: a PostgreSQL advisory lock lets one of them
// migrate while the others wait, then find nothing left to do.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

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

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
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

export async function migrate(session: MigrationSession, migrations = readMigrations()): Promise<MigrationReport> {
  await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
  try {
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Map(
      (await session.query<{ version: number; checksum: string }>('SELECT version, checksum FROM schema_migrations')).map(
        (row) => [row.version, row.checksum],
      ),
    )
    const applied: string[] = []
    for (const migration of migrations) {
      const checksum = done.get(migration.version)
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.version} (${migration.name}) was changed after it was applied; add a new migration instead`,
          )
        }
        continue
      }
      await session.exec('BEGIN')
      try {
        await session.exec(migration.sql)
        await session.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          migration.checksum,
        ])
        await session.exec('COMMIT')
      } catch (error) {
        await session.exec('ROLLBACK')
        throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`)
      }
      applied.push(`${String(migration.version).padStart(4, '0')}_${migration.name}`)
    }
    return { applied, current: Math.max(0, ...migrations.map((m) => m.version)) }
  } finally {
    await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
  }
}

/** The line a server prints when it applied migrations as it started; none when it applied none. */
export function appliedMigrationsLine(report: MigrationReport): string | undefined {
  return report.applied.length ? `Applied migrations ${report.applied.join(', ')}; the schema is at version ${report.current}.` : undefined
}
