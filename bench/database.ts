// Where the benchmark's data lives: a throw-away PostgreSQL database (or DATABASE_URL when set),
// or a fresh PGlite directory. Each is registered for removal as soon as it exists.
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { StoreChoice } from './args.ts'
import { onCleanup } from './cleanup.ts'

/** Where to create the throw-away database when DATABASE_URL is not set. */
const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres'

export interface BenchDatabase {
  kind: StoreChoice
  /** For openStore and the server child; undefined for PGlite. */
  databaseUrl: string | undefined
  /** PGlite data directory; '' for PostgreSQL. */
  dataDir: string
  /** Human description for the log (never includes credentials). */
  where: string
  /** True when the database was given (DATABASE_URL): drop only what the bench adds to it. */
  shared: boolean
}

export async function provisionDatabase(kind: StoreChoice): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'))
    onCleanup(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }))
    return { kind, databaseUrl: undefined, dataDir, where: dataDir, shared: false }
  }
  const given = process.env.DATABASE_URL
  if (given) return { kind, databaseUrl: given, dataDir: '', where: describe(given), shared: true }

  const name = `hearth_bench_${randomBytes(6).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  onCleanup(`drop database ${name}`, () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return { kind, databaseUrl: url.toString(), dataDir: '', where: describe(url.toString()), shared: false }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

function describe(url: string): string {
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`
}
