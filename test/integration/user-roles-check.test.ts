// The database's own list of user roles (the CHECK on users.role, written by migration 0001 and by
// any later migration that changes it) is the list the code derives everything from, USER_ROLES:
// read from pg_constraint of a freshly migrated database, on each store kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { USER_ROLES } from '../../src/domain/user-roles.ts'

describe.each(storeKinds())('the users.role CHECK on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('allows exactly USER_ROLES', async () => {
    const { rows } = await sql<{ definition: string }>`
      SELECT pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.conrelid = 'public.users'::regclass AND c.contype = 'c' AND a.attname = 'role'
    `.execute(store.db)
    expect(rows).toHaveLength(1)
    // CHECK ((role = ANY (ARRAY['admin'::text, 'advisor'::text, 'viewer'::text])))
    const definition = rows[0]?.definition ?? ''
    const allowed = [...definition.matchAll(/'([^']*)'::text/g)].map((match) => match[1])
    expect(allowed).toEqual([...USER_ROLES])
  })
})
