// Real stores for tests: a fresh PGlite directory (copied from the template) and, when
// DATABASE_URL is set, a fresh PostgreSQL database (copied from the run's migrated template
// database, or empty for tests that migrate it themselves); both dropped when the test file ends.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { openStore, type Store, type StoreKind } from '../../src/store/db.ts'
import { DATABASE_URL, pgliteTemplateDir, requirePart, testDatabaseName } from './environment.ts'
import './provided-context.ts'

export interface TestStore extends Store {
  /** Opens the same database again (another "instance"). */
  reopen(): Promise<Store>
  /** What a server or CLI needs to reach this database. */
  env: Record<string, string>
  drop(): Promise<void>
}

/** The store kinds this run tests: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function storeKinds(): StoreKind[] {
  const postgres = requirePart(
    'PostgreSQL',
    DATABASE_URL !== undefined,
    'set DATABASE_URL=postgres://… to also test on PostgreSQL',
  )
  return postgres ? ['pglite', 'postgres'] : ['pglite']
}

export function freshPgliteDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'))
  cpSync(pgliteTemplateDir(), dir, { recursive: true })
  return dir
}

/** Creates an empty PostgreSQL database next to DATABASE_URL's and returns its URL. */
export function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createPostgresDatabase('')
}

/**
 * Creates a PostgreSQL database with every migration applied: a copy of the template database
 * test/global-setup.ts migrated once for the run (copying takes milliseconds, migrating seconds).
 */
function migratedPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  return createPostgresDatabase(` TEMPLATE ${inject('postgresTemplate')}`)
}

async function createPostgresDatabase(template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!DATABASE_URL) throw new Error('DATABASE_URL is not set')
  const name = testDatabaseName()
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}${template}`)
  await admin.end()
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: DATABASE_URL })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await client.end()
    },
  }
}

export async function openTestStore(kind: StoreKind): Promise<TestStore> {
  if (kind === 'pglite') {
    const dataDir = freshPgliteDir()
    const store = await openStore({ dataDir })
    return {
      ...store,
      env: { HEARTH_DATA_DIR: dataDir },
      reopen: () => openStore({ dataDir }),
      drop: async () => {
        await store.close()
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const database = await migratedPostgresDatabase()
  // As hearth serve opens it: the apps tests start on it keep resolved keys (src/auth/api-key-cache.ts).
  const store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 10, watchKeyChanges: true })
  return {
    ...store,
    env: { DATABASE_URL: database.url },
    reopen: () => openStore({ databaseUrl: database.url, dataDir: '', poolMax: 10, watchKeyChanges: true }),
    drop: async () => {
      await store.close()
      await database.drop()
    },
  }
}
