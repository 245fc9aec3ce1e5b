// Which real parts this run has. Under HEARTH_REQUIRE_ALL=1 (CI) a missing part fails the run
// instead of being skipped; otherwise the suite says loudly what it skipped.
import os from 'node:os'
import path from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { readMigrations } from '../../src/store/migrate.ts'

export const DATABASE_URL = process.env.DATABASE_URL || undefined
export const REDIS_URL = process.env.REDIS_URL || undefined
const REQUIRE_ALL = process.env.HEARTH_REQUIRE_ALL === '1'

export function requirePart(name: string, present: boolean, howToProvide: string): boolean {
  if (present) return true
  const message = `${name} is not available: ${howToProvide}`
  if (REQUIRE_ALL) throw new Error(`HEARTH_REQUIRE_ALL=1 but ${message}`)
  console.warn(`\n  SKIPPED: ${message}\n`)
  return false
}

/** The migrated PGlite directory that test files copy; keyed by the migrations it holds. */
export function pgliteTemplateDir(): string {
  const hash = createHash('sha256')
  for (const migration of readMigrations()) hash.update(migration.checksum)
  return path.join(os.tmpdir(), `hearth-pglite-template-${hash.digest('hex').slice(0, 16)}`)
}

/**
 * A name for a database of this run next to DATABASE_URL's. It starts with DATABASE_URL's database
 * name and `_t_`, so a CI run can drop what its killed test files left.
 */
export function testDatabaseName(): string {
  if (!DATABASE_URL) throw new Error('DATABASE_URL is not set')
  const base =
    new URL(DATABASE_URL).pathname
      .slice(1)
      .replace(/[^a-z0-9_]/gi, '')
      .slice(0, 40) || 'hearth'
  return `${base}_t_${randomBytes(6).toString('hex')}`.toLowerCase()
}
