// Timeouts and limits: a process takes at most HEARTH_MAX_CONCURRENT_REQUESTS requests at once
// (503 overloaded with Retry-After beyond), a client has HEARTH_REQUEST_TIMEOUT to send its request
// (408), and on PostgreSQL a blocked database fails requests fast with 503 database_unavailable
// (HEARTH_STATEMENT_TIMEOUT_MS) instead of holding them.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { freshPostgresDatabase, openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { openStore, type Store } from '../../src/store/db.ts'
import { holdCreate } from '../helpers/held-request.ts'

describe('request limits', () => {
  let store: TestStore
  let key: string

  beforeAll(async () => {
    store = await openTestStore('pglite')
    ;({ key } = await createOrgWithKey(store.db))
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('past HEARTH_MAX_CONCURRENT_REQUESTS: 503 overloaded with Retry-After, at once; health is exempt; then it recovers', async () => {
    const api = await startApp(store, { limits: { requestTimeoutSeconds: 30, maxConcurrentRequests: 2 } })
    try {
      const held = [
        await holdCreate(api.url, key, 'The Held Family'),
        await holdCreate(api.url, key, 'The Held Family'),
      ]
      const refused = await call(`${api.url}/api/v1/relationships`, key)
      expect(refused.status).toBe(503)
      expect(refused.body.code).toBe('overloaded')
      expect(refused.headers.get('retry-after')).toBe('1')
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200)
      for (const request of held) request.finish()
      expect((await Promise.all(held.map((request) => request.response))).map((response) => response.status)).toEqual([
        201, 201,
      ])
      expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
    } finally {
      await api.close()
    }
  })

  it('a client that does not send its whole request within HEARTH_REQUEST_TIMEOUT gets 408 and is closed', async () => {
    const api = await startApp(store, { limits: { requestTimeoutSeconds: 1, maxConcurrentRequests: 10 } })
    try {
      const held = await holdCreate(api.url, key, 'The Held Family')
      const outcome = await held.response.then(
        (response) => response.status,
        () => 'closed',
      )
      expect(outcome).toBe(408)
      // The slot it held is free again.
      expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
    } finally {
      await api.close()
    }
  })
})

describe.runIf(storeKinds().includes('postgres'))('a blocked database on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> }
  let store: Store
  let api: TestApp
  let key: string

  beforeAll(async () => {
    database = await freshPostgresDatabase()
    store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 4, statementTimeoutMs: 300 })
    ;({ key } = await createOrgWithKey(store.db))
    api = await startApp(store)
  })
  afterAll(async () => {
    await api?.close()
    await store?.close()
    await database?.drop()
  })

  it('a query blocked by a lock fails fast with 503 database_unavailable and Retry-After; once released, it answers', async () => {
    const locker = new pg.Client({ connectionString: database.url })
    await locker.connect()
    try {
      await locker.query('BEGIN')
      await locker.query('LOCK TABLE households IN ACCESS EXCLUSIVE MODE')
      const blocked = await call(`${api.url}/api/v1/relationships`, key)
      expect(blocked.status).toBe(503)
      expect(blocked.body.code).toBe('database_unavailable')
      expect(blocked.headers.get('retry-after')).toBe('1')
      await locker.query('ROLLBACK')
      expect((await call(`${api.url}/api/v1/relationships`, key)).status).toBe(200)
    } finally {
      await locker.end()
    }
  })
})
