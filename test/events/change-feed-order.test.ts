// The change feed never hands out a position that a later commit lands behind (migration 0013):
// an event whose transaction started writing first but commits last is read in its place, not
// skipped; and with several instances writing at once, a reader polling all along sees every
// event exactly once, each household's in the order of its versions. PostgreSQL (real concurrent
// transactions on one database); PGlite has a single connection, so its writes never overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import type { FeedEvent } from '../helpers/event-mirror.ts'
import { DATABASE_URL } from '../helpers/environment.ts'

interface Page {
  events: FeedEvent[]
  nextCursor: string
}

describe.runIf(storeKinds().includes('postgres'))('change feed order on postgres', () => {
  let store: TestStore
  let instances: TestApp[]
  let writer: string
  let reader: string
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore('postgres')
    const second = await store.reopen()
    instances = [await startApp(store), await startApp(second)]
    const org = await createOrgWithKey(store.db, ['relationships:write'])
    orgId = org.orgId
    writer = org.key
    reader = (await createKey(store.db, orgId, ['events:read'])).key
  }, 60_000)
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close()
    await store?.drop()
  })

  async function page(after: string | undefined, url = instances[0]!.url): Promise<Page> {
    const query = new URLSearchParams({ limit: '1000' })
    if (after) query.set('after', after)
    const answer = await call(`${url}/api/v1/events?${query.toString()}`, reader)
    expect(answer.status).toBe(200)
    return answer.body as unknown as Page
  }

  it('holds back what committed after a transaction still open, and then reads that one first', async () => {
    const start = (await page(undefined)).nextCursor
    const held = new pg.Client({ connectionString: store.env.DATABASE_URL })
    await held.connect()
    try {
      await held.query('BEGIN')
      // Writes its event (and so takes its transaction id and its seq) first…
      await held.query(
        `INSERT INTO events (org_id, type, household_id, data) VALUES ($1, 'household.updated', gen_random_uuid(), '{"held":true}')`,
        [orgId],
      )
      // …while another instance's write commits after it.
      const created = await call(`${instances[1]!.url}/api/v1/relationships`, writer, { body: { name: 'Later' } })
      expect(created.status).toBe(201)
      const early = await page(start)
      // Handing out the later commit now would let the held event land behind the cursor.
      expect(early.events).toEqual([])
      await held.query('COMMIT')
      const after = await page(early.nextCursor)
      expect(after.events.map((event) => event.type)).toEqual(['household.updated', 'household.created'])
      expect(after.events[0]!.data).toEqual({ held: true })
    } finally {
      await held.end()
    }
  }, 60_000)

  it('is not held back by a transaction open in another database of the same server', async () => {
    const start = (await page(undefined)).nextCursor
    const elsewhere = new pg.Client({ connectionString: DATABASE_URL })
    await elsewhere.connect()
    try {
      await elsewhere.query('BEGIN')
      // A transaction id taken in another database, older than the write below.
      await elsewhere.query('SELECT pg_current_xact_id()')
      const created = await call(`${instances[0]!.url}/api/v1/relationships`, writer, { body: { name: 'Now' } })
      expect(created.status).toBe(201)
      // Readable once this database's own transactions that began before it have ended (the app's
      // background writes may hold it a moment), while the other database's stays open throughout.
      let read = await page(start)
      for (let tries = 0; read.events.length === 0 && tries < 300; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        read = await page(start)
      }
      expect(read.events.map((event) => event.type)).toEqual(['household.created'])
    } finally {
      await elsewhere.query('ROLLBACK')
      await elsewhere.end()
    }
  }, 60_000)

  it('gives a reader polling during concurrent writes on two instances every event once, in each household’s order', async () => {
    const households = 6
    const patches = 12
    const expected = households * (1 + patches)
    const start = (await page(undefined)).nextCursor
    let writing = true
    let deadline = Infinity
    const polled: FeedEvent[] = []
    const poller = (async () => {
      let cursor = start
      for (;;) {
        const done = !writing
        const next = await page(cursor, instances[polled.length % 2]!.url)
        polled.push(...next.events)
        cursor = next.nextCursor
        // Once the writers have stopped, everything they committed is below the horizon: read until
        // it has all come (the count is checked below), or give up after a while.
        if (done && (polled.length >= expected || Date.now() > deadline)) return
      }
    })()
    await Promise.all(
      Array.from({ length: households }, async (_, index) => {
        const instance = instances[index % 2]!
        const created = await call(`${instance.url}/api/v1/relationships`, writer, { body: { name: `H${index}` } })
        expect(created.status).toBe(201)
        const id = (created.body.household as { id: string }).id
        for (let patch = 1; patch <= patches; patch++) {
          const answer = await call(`${instances[patch % 2]!.url}/api/v1/relationships/${id}`, writer, {
            method: 'PATCH',
            body: { name: `H${index} v${patch}` },
            headers: { 'if-match': '*' },
          })
          expect(answer.status).toBe(200)
        }
      }),
    )
    deadline = Date.now() + 30_000
    writing = false
    await poller

    const polledIds = polled.map((event) => event.id)
    expect(new Set(polledIds).size).toBe(polledIds.length)
    expect(polled).toHaveLength(households * (1 + patches))
    const byHousehold = new Map<string, FeedEvent[]>()
    for (const event of polled)
      byHousehold.set(event.householdId, [...(byHousehold.get(event.householdId) ?? []), event])
    const stored = await store.db
      .selectFrom('events')
      .select('id')
      .where('household_id', 'in', [...byHousehold.keys()])
      .execute()
    expect(new Set(stored.map((row) => row.id))).toEqual(new Set(polledIds))
    for (const [index, events] of [...byHousehold.values()].entries()) {
      const names = events.map((event) => (event.data.household as { name: string }).name)
      const first = names[0] ?? `household ${index}`
      expect(names).toEqual([first, ...Array.from({ length: patches }, (_, patch) => `${first} v${patch + 1}`)])
    }
  }, 120_000)
})
