// Migrates one template per store kind, so that each test store is a copy (milliseconds) instead of
// a migration (seconds): the PGlite directory once per machine and migration set, the PostgreSQL
// database (when DATABASE_URL is set) once per run, dropped at its end.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openStore } from '../src/store/db.ts'
import { DATABASE_URL, pgliteTemplateDir, testDatabaseName } from './helpers/environment.ts'
import './helpers/provided-context.ts'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The CLI tests run the compiled `hearth` (bin/hearth.js runs build/): build it once, now, if a
  // source changed since the last build (test/helpers/cli.ts tells the children not to check again).
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/build.js', import.meta.url)), '--if-stale'], {
    stdio: 'inherit',
  })
  const [, postgres] = await Promise.all([buildPgliteTemplate(), buildPostgresTemplate()])
  project.provide('postgresTemplate', postgres?.name ?? '')
  return async () => {
    await postgres?.drop()
  }
}

async function buildPgliteTemplate(): Promise<void> {
  const template = pgliteTemplateDir()
  if (existsSync(template)) return
  const building = mkdtempSync(path.join(path.dirname(template), 'hearth-template-building-'))
  const store = await openStore({ dataDir: building })
  await store.close()
  try {
    renameSync(building, template)
  } catch {
    rmSync(building, { recursive: true, force: true }) // Another run made it first.
  }
}

async function buildPostgresTemplate(): Promise<{ name: string; drop(): Promise<void> } | undefined> {
  if (!DATABASE_URL) return undefined
  const name = testDatabaseName()
  const adminQuery = async (sql: string) => {
    const admin = new pg.Client({ connectionString: DATABASE_URL })
    await admin.connect()
    try {
      await admin.query(sql)
    } finally {
      await admin.end()
    }
  }
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  // Closed before any copy: PostgreSQL copies a database only while nobody is connected to it.
  const store = await openStore({ databaseUrl: url.toString(), dataDir: '' })
  await store.close()
  return { name, drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}
