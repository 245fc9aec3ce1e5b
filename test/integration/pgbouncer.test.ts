// Hearth behind PgBouncer in transaction mode, configured as docs/scaling.md says: instances that
// start together through it migrate once (the migration lock is transaction-level, so it cannot be
// left held on a pooled server connection), and the API's reads and writes, transactions included,
// work when consecutive transactions of one client land on different server connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/db.ts'
import { readMigrations } from '../../src/store/migrate.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import { pgbouncerAvailable, ThrowawayPgBouncer } from '../helpers/pgbouncer.ts'
import { call, createOrgWithKey, startApp } from '../helpers/app.ts'
import pg from 'pg'
import { detectDirectConnection } from '../../src/store/prepared-statements.ts'

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to test Hearth behind PgBouncer',
)
const runnable = hasPostgres && pgbouncerAvailable()

describe.skipIf(!runnable)('behind PgBouncer in transaction mode', () => {
  let database: { url: string; drop: () => Promise<void> }
  let bouncer: ThrowawayPgBouncer
  let bouncedUrl: string
  const stores: Store[] = []

  beforeAll(async () => {
    database = await freshPostgresDatabase()
    // Two server connections for every client: consecutive transactions of one client land on
    // whichever is free, and the four instances below share them.
    bouncer = await ThrowawayPgBouncer.start(database.url, 2)
    bouncedUrl = bouncer.url(new URL(database.url).pathname.slice(1))
  })
  afterAll(async () => {
    try {
      await Promise.allSettled(stores.map((store) => store.close()))
    } finally {
      await bouncer?.stop()
      await database?.drop()
    }
  })

  it('applies each migration once when four instances start together through it', async () => {
    const opened = await Promise.all(
      Array.from({ length: 4 }, () =>
        openStore({ databaseUrl: bouncedUrl, dataDir: '', poolMax: 3, watchKeyChanges: true }),
      ),
    )
    stores.push(...opened)
    // Each migration once, by whichever instance held the lock when it was next.
    const applied = opened.flatMap((store) => store.migrations.applied)
    expect(applied.sort(), bouncer.log).toEqual(
      readMigrations().map((m) => `${String(m.version).padStart(4, '0')}_${m.name}`),
    )
    // No lock is left behind: another instance starts (and finds nothing to do) at once.
    const late = await openStore({ databaseUrl: bouncedUrl, dataDir: '', poolMax: 3 })
    stores.push(late)
    expect(late.migrations.applied).toEqual([])
    const held = await sql<{
      n: number
    }>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
      late.db,
    )
    expect(held.rows[0]?.n).toBe(0)
  })

  it('is told apart from PostgreSQL itself, so statements are not prepared and keys not kept through it', async () => {
    // LISTEN does not hold through a pooler in transaction mode: no watch, so every request reads its key.
    expect(stores[0]?.keyChanges.watching).toBe(false)
    const through = new pg.Client({ connectionString: bouncedUrl })
    const direct = new pg.Client({ connectionString: database.url })
    await through.connect()
    await direct.connect()
    try {
      expect(await detectDirectConnection(through)).toBe(false)
      expect(await detectDirectConnection(direct)).toBe(true)
    } finally {
      await through.end()
      await direct.end()
    }
  })

  it('serves creates, members, conditional updates and cursor paging through it', async () => {
    const store = stores[0]
    if (!store) throw new Error('the migration test opens the stores')
    const org = await createOrgWithKey(store.db)
    const api = await startApp(store)
    try {
      const url = `${api.url}/api/v1/relationships`
      // Concurrent creates, half with an Idempotency-Key (a transaction with the key's record).
      const created = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(url, org.key, {
            body: { name: `Pooled ${i}` },
            headers: i % 2 === 0 ? { 'idempotency-key': `pooled-${i}` } : {},
          }),
        ),
      )
      expect(created.map((response) => response.status)).toEqual(created.map(() => 201))
      const ids = created.map((response) => (response.body.household as { id: string }).id)
      const replay = await call(url, org.key, {
        body: { name: 'Pooled 0' },
        headers: { 'idempotency-key': 'pooled-0' },
      })
      expect(replay.headers.get('idempotent-replayed')).toBe('true')

      // A member each (a transaction that locks the household and moves its version), concurrently.
      const added = await Promise.all(
        ids.map((id, i) =>
          call(`${url}/${id}/members`, org.key, { body: { name: `Member ${i}`, role: 'primaryClient' } }),
        ),
      )
      expect(added.map((response) => response.status)).toEqual(added.map(() => 201))

      // A conditional update with the ETag the member's creation returned.
      const first = ids[0] ?? ''
      const current = await call(`${url}/${first}`, org.key)
      const patched = await call(`${url}/${first}`, org.key, {
        method: 'PATCH',
        body: { dsueReceived: 1000 },
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': current.headers.get('etag') ?? '' },
      })
      expect(patched.status).toBe(200)
      const stale = await call(`${url}/${first}`, org.key, {
        method: 'PATCH',
        body: { dsueReceived: 2000 },
        headers: { 'content-type': 'application/merge-patch+json', 'if-match': current.headers.get('etag') ?? '' },
      })
      expect(stale.status).toBe(412)

      // Every household once, each with its member, by cursor.
      const seen: { id: string; counts: { members: number } }[] = []
      let cursor: string | null = null
      do {
        const page: { status: number; body: Record<string, unknown> } = await call(
          `${url}?pageSize=7&sortBy=name${cursor ? `&cursor=${cursor}` : ''}`,
          org.key,
        )
        expect(page.status).toBe(200)
        expect(page.body.total).toBe(30)
        seen.push(...(page.body.households as typeof seen))
        cursor = page.body.nextCursor as string | null
      } while (cursor)
      expect(seen.map((h) => h.id).sort()).toEqual([...ids].sort())
      expect(seen.every((h) => h.counts.members === 1)).toBe(true)
    } finally {
      await api.close()
    }
  })
})
