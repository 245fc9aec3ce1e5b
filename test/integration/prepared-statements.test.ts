// The hottest writes as named prepared statements on PostgreSQL (src/store/prepared-statements.ts):
// a create is prepared once on its connection and then only bound; HEARTH_PREPARED_STATEMENTS=off
// prepares nothing; and a statement missing on its connection (as behind a pooler that does not
// keep them) fails that one statement and stops preparing, so the next create works unprepared.
// Page 1 of the list is planned once: its text depends on no value the planner would have to guess
// (no OFFSET), so PostgreSQL settles on a generic plan after its five custom ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/db.ts'
import { insertAuditedHousehold, listHouseholdsJson } from '../../src/store/households.ts'
import { createOrgWithKey } from '../helpers/app.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import { NO_OVERRIDES } from '../../src/rate-limit/org-limits.ts'
import { checkCreateBody } from '../../src/households/household-fields.ts'

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to test prepared statements',
)

describe.skipIf(!hasPostgres)('prepared statements on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> }
  const stores: Store[] = []

  beforeAll(async () => {
    database = await freshPostgresDatabase()
  })
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()))
    await database?.drop()
  })

  /** A store of one connection, so that every statement runs on the connection we look at. */
  const open = async (preparedStatements: 'auto' | 'off') => {
    const store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 1, preparedStatements })
    stores.push(store)
    const org = await createOrgWithKey(store.db)
    const actor: ApiKeyPrincipal = {
      kind: 'apiKey',
      id: org.keyId,
      orgId: org.orgId,
      permissions: [],
      rateLimits: NO_OVERRIDES,
    }
    const create = (name: string) => {
      const checked = checkCreateBody({ name })
      if (!checked.ok) throw new Error(checked.message)
      return insertAuditedHousehold(store.db, actor, checked.fields, ['name'])
    }
    const prepared = async () =>
      (await sql<{ name: string }>`SELECT name FROM pg_prepared_statements`.execute(store.db)).rows.map((r) => r.name)
    return { store, create, prepared, orgId: org.orgId }
  }

  it('prepares a create once on its connection, then reuses it', async () => {
    const { create, prepared } = await open('auto')
    await create('First')
    await create('Second')
    const names = await prepared()
    expect(names.filter((name) => name.startsWith('household-create_'))).toHaveLength(1)
  })

  it('plans page 1 of the list once: a generic plan after the first five', async () => {
    const { store, create, orgId } = await open('auto')
    for (const name of ['Ames', 'Bell']) await create(name)
    // Enough rows, known to the planner, that a plan guessing at an OFFSET (a tenth of the org's
    // households) would cost more than the page's custom plans, and never be chosen.
    await sql`INSERT INTO households (org_id, name) SELECT ${orgId}, 'Zed ' || g FROM generate_series(1, 5000) g`.execute(
      store.db,
    )
    await sql`ANALYZE households`.execute(store.db)
    const listing = { page: 1, pageSize: 2, sortBy: 'name', sortOrder: 'asc', sample: 'all' } as const
    for (let i = 0; i < 8; i++) {
      const page = JSON.parse(await listHouseholdsJson(store.db, orgId, listing)) as { households: { name: string }[] }
      expect(page.households.map((h) => h.name)).toEqual(['Ames', 'Bell'])
    }
    const plans = await sql<{ generic_plans: string; custom_plans: string }>`
      SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name LIKE 'household-list_%'`.execute(
      store.db,
    )
    expect(plans.rows.map((row) => ({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }))).toEqual(
      [{ generic: 3, custom: 5 }],
    )
  })

  it('prepares at most one list statement per power of two of page sizes, not one per size', async () => {
    const { store, create, orgId } = await open('auto')
    for (const name of ['Ames', 'Bell', 'Cole']) await create(name)
    for (let pageSize = 1; pageSize <= 100; pageSize++) {
      const listing = { page: 1, pageSize, sortBy: 'name', sortOrder: 'asc', sample: 'all' } as const
      const page = JSON.parse(await listHouseholdsJson(store.db, orgId, listing)) as {
        households: { name: string }[]
        nextCursor: string | null
      }
      expect(page.households.map((h) => h.name)).toEqual(['Ames', 'Bell', 'Cole'].slice(0, pageSize))
      expect(page.nextCursor === null).toBe(pageSize >= 3)
    }
    const texts = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'household-list_%'`.execute(store.db)
    // Page sizes 1–100 fetch 2, 4, 8, 16, 32, 64 or 128 rows.
    expect(texts.rows[0]?.n).toBe(7)
  })

  it('prepares nothing when told not to', async () => {
    const { create, prepared } = await open('off')
    await create('Unprepared')
    expect(await prepared()).toEqual([])
  })

  it('a statement missing on its connection fails once, then creates work unprepared', async () => {
    const { store, create, prepared } = await open('auto')
    await create('Before')
    // What a pooler in transaction mode does: the next statement runs where it was never prepared.
    await sql`DEALLOCATE ALL`.execute(store.db)
    await expect(create('Lost')).rejects.toMatchObject({ code: '26000' })
    const after = await create('After')
    expect(after.name).toBe('After')
    expect(await prepared()).toEqual([])
  })
})
