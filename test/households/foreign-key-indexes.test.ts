// Every foreign key that cascades a delete has an index led by its column. PostgreSQL finds the rows
// a cascade deletes or nulls with a query on the referencing column; without such an index, deleting
// one household (or entity, member, organization…) reads the whole referencing table of every
// organization. Migration 0012 added the two that were missing (entity_valuations.household_id, sessions.org_id).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'

interface UnindexedKey {
  table_name: string
  column_name: string
}

describe.each(storeKinds())('foreign key indexes on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('index the column of every single-column foreign key that cascades (ON DELETE CASCADE or SET NULL)', async () => {
    // confdeltype: c = CASCADE, n = SET NULL. An index serves when its first column is the key's.
    const { rows } = await sql<UnindexedKey>`
      SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND c.confdeltype IN ('c', 'n') AND cardinality(c.conkey) = 1
        AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
      ORDER BY 1, 2
    `.execute(store.db)
    expect(rows).toEqual([])
  })
})
