// store/tables.ts says what the migrations made: every table, every column, its SQL type and
// whether it may be null, compared with information_schema.columns of a freshly migrated database.
// (The compiler checks the declarations against the Kysely table types: see TABLE_COLUMNS.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { TABLE_COLUMNS } from '../../src/store/tables.ts'

/** Kept by the migration runner itself (store/migrate.ts), outside the application's tables. */
const RUNNER_TABLES = ['schema_migrations']

interface ColumnRow {
  table_name: string
  column_name: string
  is_nullable: 'YES' | 'NO'
  udt_name: string
}

describe.each(storeKinds())('table declarations on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('name every table and column the migrations made, with its type and nullability', async () => {
    const { rows } = await sql<ColumnRow>`
      SELECT table_name, column_name, is_nullable, udt_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, column_name
    `.execute(store.db)
    const real: Record<string, Record<string, { type: string; nullable: boolean }>> = {}
    for (const row of rows) {
      if (RUNNER_TABLES.includes(row.table_name)) continue
      real[row.table_name] ??= {}
      real[row.table_name]![row.column_name] = { type: row.udt_name, nullable: row.is_nullable === 'YES' }
    }
    expect(real).toEqual(TABLE_COLUMNS)
  })
})
