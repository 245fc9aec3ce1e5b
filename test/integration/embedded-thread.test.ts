// The embedded database runs in a thread of its own (src/store/pglite-thread.ts): while a long
// statement runs there, the API's event loop goes on, so a health check (and any request that needs
// no database) is answered before the statement ends. In the API's own thread, as before, the
// statement held the event loop for its whole length and the health check came after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CompiledQuery, sql } from 'kysely'
import { openTestStore, type TestStore } from '../helpers/stores.ts'
import { startApp, type TestApp } from '../helpers/app.ts'
import { preparedMark } from '../../src/store/prepared-statements.ts'

describe('the embedded database in its own thread', () => {
  let store: TestStore
  let api: TestApp
  beforeAll(async () => {
    store = await openTestStore('pglite')
    api = await startApp(store)
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('answers a health check while a long statement runs, and the statement still completes', async () => {
    const order: string[] = []
    const statement = sql<{ done: boolean }>`SELECT true AS done FROM pg_sleep(3)`.execute(store.db).then((result) => {
      order.push('statement')
      return result.rows[0]?.done
    })
    // Only an event loop that is free runs this timer before the statement ends.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const health = await fetch(`${api.url}/healthz`)
    order.push(`healthz ${health.status}`)
    expect(await statement).toBe(true)
    expect(order).toEqual(['healthz 200', 'statement'])
  })

  it('keeps a 32 MB page cache, not the 128 MB of PGlite that a small database never needs', async () => {
    const result = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(store.db)
    expect(result.rows[0]?.shared_buffers).toBe('32MB')
  })

  it('runs a statement marked to be prepared as a named statement, parsed once, with the same values as query()', async () => {
    const text = `SELECT $1::uuid AS id, $2::int AS n, $3::boolean AS yes, $4::timestamptz AS at, $5::jsonb AS doc,
      $6::text[] AS tags, $7::text AS none, $8::bigint AS big`
    const values = [
      '0b4e7e2c-8a51-4f4e-9d39-1d6a4c1f7a10',
      7,
      true,
      new Date('2026-11-28T07:00:00.123Z'),
      JSON.stringify({ a: [1, 'two'] }),
      ['x', 'y "z"'],
      null,
      '9007199254740993',
    ]
    const marked = `${preparedMark('embedded-test')} ${text}`
    const unmarked = await store.db.executeQuery(CompiledQuery.raw(text, values))
    const first = await store.db.executeQuery(CompiledQuery.raw(marked, values))
    const second = await store.db.executeQuery(CompiledQuery.raw(marked, values))
    expect(first.rows).toEqual(unmarked.rows)
    expect(second.rows).toEqual(unmarked.rows)
    const named = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(store.db)
    expect(named.rows.filter((row) => row.statement === marked)).toHaveLength(1)
  })

  it('a named statement that fails passes its error through, and the session goes on', async () => {
    const marked = `${preparedMark('embedded-test-division')} SELECT 10 / $1::int AS n`
    const error: unknown = await store.db.executeQuery(CompiledQuery.raw(marked, [0])).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toMatchObject({ message: 'division by zero', code: '22012' })
    expect((await store.db.executeQuery(CompiledQuery.raw(marked, [5]))).rows).toEqual([{ n: 2 }])
    const idle = await sql<{ ok: boolean }>`SELECT true AS ok`.execute(store.db)
    expect(idle.rows).toEqual([{ ok: true }])
  })

  it('keeps at most 64 named statements, closing the least recently used, and parses a lost one again', async () => {
    const marked = (n: number) => `${preparedMark('embedded-test-many')} SELECT $1::int + ${n} AS n`
    for (let n = 0; n < 70; n++) {
      expect((await store.db.executeQuery(CompiledQuery.raw(marked(n), [1]))).rows).toEqual([{ n: n + 1 }])
    }
    const named = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(store.db)
    expect(named.rows[0]?.n).toBeLessThanOrEqual(64)
    // What a script could do: every name gone. The next call fails, the one after parses it again.
    await sql`DEALLOCATE ALL`.execute(store.db)
    await expect(store.db.executeQuery(CompiledQuery.raw(marked(69), [1]))).rejects.toMatchObject({ code: '26000' })
    expect((await store.db.executeQuery(CompiledQuery.raw(marked(69), [1]))).rows).toEqual([{ n: 70 }])
  })

  it('passes PostgreSQL errors through with their SQLSTATE and fields, and the connection goes on', async () => {
    const error: unknown = await sql`SELECT 1 / 0`.execute(store.db).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ message: 'division by zero', code: '22012' })
    const after = await sql<{ n: number }>`SELECT 41 + 1 AS n`.execute(store.db)
    expect(after.rows).toEqual([{ n: 42 }])
  })

  it('starts a transaction with its access mode: a read-only one refuses a write', async () => {
    const refused: unknown = await store.db
      .transaction()
      .setAccessMode('read only')
      .execute((trx) => trx.insertInto('orgs').values({ name: 'Not written' }).execute())
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
    expect(refused).toMatchObject({ code: '25006' })
    const written = await store.db.selectFrom('orgs').select('id').where('name', '=', 'Not written').execute()
    expect(written).toEqual([])
  })

  it('sends a statement while another runs, instead of holding it back until the first is answered', async () => {
    const slow = sql`SELECT pg_sleep(0.5)`.execute(store.db)
    const quick = sql<{ n: number }>`SELECT 2 AS n`.execute(store.db)
    await new Promise((resolve) => setTimeout(resolve, 150))
    // Both are with the database's thread (in use); none waits in the API's thread for the connection.
    expect(store.poolStats()).toMatchObject({ idle: 0, waiting: 0 })
    await slow
    expect((await quick).rows).toEqual([{ n: 2 }])
  })

  it('begins a transaction only once the statements sent before it are answered, so none of them runs inside it', async () => {
    const name = `Outside ${Math.random()}`
    // A lease taken before the transaction, whose statement goes out only later: were the transaction
    // begun meanwhile, the insert would run inside it and go with its rollback.
    const outside = store.db.connection().execute(async (connection) => {
      await new Promise((resolve) => setTimeout(resolve, 200))
      await connection.insertInto('orgs').values({ name }).execute()
    })
    const rolledBack = store.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('orgs')
          .values({ name: `${name} (rolled back)` })
          .execute()
        // Still open when the lease's insert goes out (at 200 ms), were it begun at once.
        await sql`SELECT pg_sleep(0.4)`.execute(trx)
        throw new Error('roll back')
      })
      .catch((error: unknown) => error)
    await outside
    expect(await rolledBack).toMatchObject({ message: 'roll back' })
    const names = await store.db.selectFrom('orgs').select('name').where('name', 'like', `${name}%`).execute()
    expect(names).toEqual([{ name }])
  })

  it('holds back statements sent while a transaction has the connection: they never see its uncommitted rows', async () => {
    const name = `Uncommitted ${Math.random()}`
    let outside: Promise<unknown[]> | undefined
    const rolledBack = await store.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('orgs').values({ name }).execute()
        // Were it sent now, it would run in the transaction's session and see the row.
        outside = store.db.selectFrom('orgs').select('name').where('name', '=', name).execute()
        await sql`SELECT pg_sleep(0.1)`.execute(trx)
        throw new Error('roll back')
      })
      .catch((error: unknown) => error)
    expect(rolledBack).toMatchObject({ message: 'roll back' })
    expect(await outside).toEqual([])
  })

  it('runs one transaction after another on a lease of its own, as db.connection() keeps it', async () => {
    const names = await store.db.connection().execute(async (connection) => {
      const first = await connection.transaction().execute(() => Promise.resolve('first'))
      const second = await connection.transaction().execute(() => Promise.resolve('second'))
      return [first, second]
    })
    expect(names).toEqual(['first', 'second'])
    // The connection is free again: a statement and a transaction go through.
    expect((await sql<{ n: number }>`SELECT 1 AS n`.execute(store.db)).rows).toEqual([{ n: 1 }])
    expect(await store.db.transaction().execute(() => Promise.resolve('after'))).toBe('after')
  })

  it('runs transactions begun at once one after the other, in the order they began', async () => {
    const order: string[] = []
    const run = (label: string) =>
      store.db.transaction().execute(async (trx) => {
        order.push(`${label} begins`)
        await sql`SELECT pg_sleep(0.05)`.execute(trx)
        order.push(`${label} ends`)
        return label
      })
    expect(await Promise.all([run('first'), run('second'), run('third')])).toEqual(['first', 'second', 'third'])
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second ends', 'third begins', 'third ends'])
  })

  it('keeps a transaction on its one connection: another statement waits for it and sees only its commit', async () => {
    const created = await store.db.transaction().execute(async (trx) => {
      const org = await trx
        .insertInto('orgs')
        .values({ name: 'In a transaction' })
        .returning('id')
        .executeTakeFirstOrThrow()
      // Sent meanwhile outside the transaction: it waits for the connection, so it runs after the commit.
      const outside = store.db.selectFrom('orgs').select('id').where('id', '=', org.id).execute()
      return { id: org.id, outside }
    })
    expect(await created.outside).toEqual([{ id: created.id }])
  })
})
