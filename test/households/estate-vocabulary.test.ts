// The estate vocabulary is declared once (src/domain/estate-vocabulary.ts) and repeated in the
// CHECK constraints of migration 0010, so that the database refuses what the API refuses. This
// compares the two on a freshly migrated database: a kind or link type added to one and not the
// other fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import {
  BENEFICIARY_TYPES,
  defaultEstateSide,
  effectiveEstateSide,
  ENTITY_KINDS,
  isParty,
  LINK_TYPES,
} from '../../src/domain/estate-vocabulary.ts'

/** The quoted words of a CHECK (col IN ('a', 'b')) constraint's definition, sorted. */
function wordsOf(definition: string): string[] {
  return [...definition.matchAll(/'([A-Za-z]+)'/g)].map((match) => match[1] ?? '').sort()
}

describe.each(storeKinds())('the estate vocabulary and migration 0010 on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  async function checkOn(table: string, column: string): Promise<string[]> {
    const { rows } = await sql<{ definition: string }>`
      SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      WHERE t.relname = ${table} AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE ${`%(${column} = ANY%`}
    `.execute(store.db)
    expect(rows, `one CHECK on ${table}.${column}`).toHaveLength(1)
    return wordsOf(rows[0]?.definition ?? '')
  }

  it('allows exactly the declared entity kinds, link types and beneficiary types', async () => {
    expect(await checkOn('entities', 'kind')).toEqual([...ENTITY_KINDS].sort())
    expect(await checkOn('entity_links', 'type')).toEqual([...LINK_TYPES].sort())
    expect(await checkOn('entity_links', 'beneficiary_type')).toEqual([...BENEFICIARY_TYPES].sort())
  })
})

describe('estate sides', () => {
  it('parties have none, whatever was set; other kinds take the one set, else their default', () => {
    expect(isParty('corporateTrustee')).toBe(true)
    expect(effectiveEstateSide('corporateTrustee', 'in')).toBeNull()
    expect(defaultEstateSide('revocableTrust')).toBe('in')
    expect(defaultEstateSide('ilit')).toBe('out')
    expect(effectiveEstateSide('ilit', 'in')).toBe('in')
    expect(effectiveEstateSide('llc', null)).toBe('in')
  })
})
