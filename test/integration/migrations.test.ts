// Migrations: applied once even when several instances start together; an edited migration is
// refused; a failing one leaves nothing half-applied.
import { afterAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openStore } from '../../src/store/db.ts'
import { migrate, readMigrations, type MigrationSession } from '../../src/store/migrate.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to test migrations on PostgreSQL',
)

describe.skipIf(!hasPostgres)('migrations on PostgreSQL', () => {
  const drops: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const drop of drops) await drop()
  })

  async function session(url: string): Promise<{ session: MigrationSession; end: () => Promise<void> }> {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    return {
      session: {
        exec: async (sql) => {
          await client.query(sql)
        },
        query: async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[],
      },
      end: () => client.end(),
    }
  }

  it('applies each migration once when four instances start together', async () => {
    const database = await freshPostgresDatabase()
    drops.push(database.drop)
    const stores = await Promise.all(
      Array.from({ length: 4 }, () => openStore({ databaseUrl: database.url, dataDir: '', poolMax: 2 })),
    )
    // Each migration once, by whichever instance held the lock when it was next.
    const applied = stores.flatMap((s) => s.migrations.applied)
    expect(applied.sort()).toEqual(readMigrations().map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`))
    const rows = await stores[0]?.db.selectFrom('orgs').selectAll().execute()
    expect(rows).toEqual([])
    for (const store of stores) await store.close()
  })

  it('refuses to start when an applied migration was edited', async () => {
    const database = await freshPostgresDatabase()
    drops.push(database.drop)
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-migrations-'))
    writeFileSync(path.join(dir, '0001_first.sql'), 'CREATE TABLE first_table (id int);')
    const { session: s, end } = await session(database.url)
    try {
      await migrate(s, readMigrations(dir))
      writeFileSync(path.join(dir, '0001_first.sql'), 'CREATE TABLE first_table (id bigint);')
      await expect(migrate(s, readMigrations(dir))).rejects.toThrow(/was changed after it was applied/)
    } finally {
      await end()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('rolls a failing migration back whole and reports which one', async () => {
    const database = await freshPostgresDatabase()
    drops.push(database.drop)
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-migrations-'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, '0001_ok.sql'), 'CREATE TABLE ok_table (id int);')
    writeFileSync(path.join(dir, '0002_broken.sql'), 'CREATE TABLE half_table (id int);\nTHIS IS NOT SQL;')
    const { session: s, end } = await session(database.url)
    try {
      await expect(migrate(s, readMigrations(dir))).rejects.toThrow(/migration 2 \(broken\) failed/)
      const tables = await s.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      )
      expect(tables.map((t) => t.table_name)).toEqual(['ok_table', 'schema_migrations'])
      expect(await s.query('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }])
    } finally {
      await end()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
