// Where the CLI tests run their commands: a fresh embedded PGlite directory (opened in this process
// only with the directory's lock, like any hearth command) or a fresh PostgreSQL database.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import { openStore, type Store } from '../../src/store/db.ts'
import { acquireDataDirLock, COMMAND_LOCK_WAIT_MS } from '../../src/operator/data-dir-lock.ts'
import { freshPgliteDir, freshPostgresDatabase } from './stores.ts'

export interface Target {
  kind: 'pglite' | 'postgres'
  env: Record<string, string>
  /** Opens the database in this process, once no hearth command runs. */
  open(): Promise<{ store: Store; release: () => void }>
  cleanup(): Promise<void>
}

export async function pgliteTarget(): Promise<Target> {
  const dataDir = freshPgliteDir()
  return {
    kind: 'pglite',
    env: { HEARTH_DATA_DIR: dataDir },
    open: async () => {
      // Taken like any hearth command would, so nothing else can open the files meanwhile.
      const lock = await acquireDataDirLock(dataDir, 'cli', { waitMs: COMMAND_LOCK_WAIT_MS })
      return { store: await openStore({ dataDir }), release: () => lock.release() }
    },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

export async function postgresTarget(): Promise<Target> {
  const database = await freshPostgresDatabase()
  // A data directory that must never appear: on PostgreSQL the CLI has no business there.
  const unused = path.join(mkdtempSync(path.join(os.tmpdir(), 'hearth-cli-pg-')), 'data')
  return {
    kind: 'postgres',
    env: { DATABASE_URL: database.url, HEARTH_DATA_DIR: unused },
    open: async () => ({
      store: await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 2 }),
      release: () => {
        // Nothing to release: on PostgreSQL no data-directory lock is taken.
      },
    }),
    cleanup: async () => {
      expect(existsSync(unused), 'the CLI on PostgreSQL created the embedded data directory').toBe(false)
      rmSync(path.dirname(unused), { recursive: true, force: true })
      await database.drop()
    },
  }
}
