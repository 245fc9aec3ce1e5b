// The change feed (GET /api/v1/events): every kind of write leaves its events; applying them in
// order to an empty copy gives every household as the API reads it (household, members with their
// relationships, entities, links); a refused write leaves none; pages, types, permissions, another
// organization and old cursors behave as documented. On PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { EventMirror, type FeedEvent } from '../helpers/event-mirror.ts'
import { sql } from 'kysely'
import { deleteEventsBefore } from '../../src/store/events.ts'
import { removeUser } from '../../src/store/users.ts'
import { eventPurgeLine } from '../../src/events/retention.ts'

const WRITE = ['relationships:read', 'relationships:write']
const FEED = ['events:read']

interface Page {
  events: FeedEvent[]
  nextCursor: string
}

describe.each(storeKinds())('change feed on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let writer: string
  let reader: string
  let orgId: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store, { eventRetentionDays: 30 })
    const org = await createOrgWithKey(store.db, WRITE)
    orgId = org.orgId
    writer = org.key
    reader = (await createKey(store.db, orgId, FEED)).key
  }, 60_000)
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const rel = (path = '') => `${api.url}/api/v1/relationships${path}`

  /** Every event after `after` (or from the start), page by page. */
  async function readAll(after?: string, limit = 7): Promise<{ events: FeedEvent[]; cursor: string }> {
    const events: FeedEvent[] = []
    let cursor = after
    for (;;) {
      const query = new URLSearchParams({ limit: String(limit) })
      if (cursor) query.set('after', cursor)
      const page = await call(`${api.url}/api/v1/events?${query.toString()}`, reader)
      expect(page.status).toBe(200)
      const body = page.body as unknown as Page
      events.push(...body.events)
      cursor = body.nextCursor
      if (body.events.length < limit) return { events, cursor }
    }
  }

  /**
   * The events after `after`, once there are at least `count`. An event is readable once every
   * transaction of the database that began writing before it has ended (the app's own background
   * writes, such as key usage, included), so a read right after a write may come a moment early.
   */
  async function readAtLeast(
    after: string | undefined,
    count: number,
  ): Promise<{ events: FeedEvent[]; cursor: string }> {
    const deadline = Date.now() + 15_000
    for (;;) {
      const read = await readAll(after)
      if (read.events.length >= count || Date.now() > deadline) return read
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  /** A write under the household's current ETag; answers the response and remembers the new ETag. */
  async function write(etags: Map<string, string>, householdId: string, path: string, method: string, body?: unknown) {
    const answer = await call(rel(`/${householdId}${path}`), writer, {
      method,
      body,
      headers: { 'if-match': etags.get(householdId) ?? '*' },
    })
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
    const etag = answer.headers.get('etag')
    if (etag) etags.set(householdId, etag)
    return answer.body
  }

  async function apiState(householdId: string) {
    const household = (await call(rel(`/${householdId}`), writer)).body.household
    const members = (await call(rel(`/${householdId}/members`), writer)).body.members as { id: string }[]
    const entities = (await call(rel(`/${householdId}/entities`), writer)).body.entities as { id: string }[]
    const links = (await call(rel(`/${householdId}/links`), writer)).body.links as { id: string }[]
    const sorted = (items: { id: string }[]) => [...items].sort((a, b) => a.id.localeCompare(b.id))
    return { household, members: sorted(members), entities: sorted(entities), links: sorted(links) }
  }

  it('reproduces every household from an empty copy after each kind of write, each one in turn', async () => {
    const etags = new Map<string, string>()
    const mirror = new EventMirror()
    const seen: FeedEvent[] = []
    let cursor = (await readAll()).cursor
    const sorted = <T extends { id: string }>(items: Iterable<T>) => [...items].sort((a, b) => a.id.localeCompare(b.id))
    /** Applies the events since the last look until the copy equals the API's reads (see readAtLeast). */
    async function expectInSync(id: string) {
      const state = await apiState(id)
      const deadline = Date.now() + 15_000
      for (;;) {
        const next = await readAll(cursor)
        cursor = next.cursor
        seen.push(...next.events)
        for (const event of next.events) mirror.apply(event)
        const copy = mirror.households.get(id)
        const mirrored = {
          household: copy?.household,
          members: sorted(copy?.members.values() ?? []),
          entities: sorted(copy?.entities.values() ?? []),
          links: sorted(copy?.links.values() ?? []),
        }
        if (Date.now() > deadline || JSON.stringify(mirrored) === JSON.stringify(state)) {
          expect(copy, `household ${id} in the copy`).toBeDefined()
          expect(mirrored).toEqual(state)
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    }
    const step = async (id: string, path: string, method: string, body?: unknown) => {
      const answer = await write(etags, id, path, method, body)
      await expectInSync(id)
      return answer
    }

    const created = await call(rel(), writer, { body: { name: 'Feed Family', dsueReceived: 1000 } })
    expect(created.status).toBe(201)
    const id = (created.body.household as { id: string }).id
    etags.set(id, created.headers.get('etag') ?? '*')
    await expectInSync(id)
    const other = (await call(rel(), writer, { body: { name: 'Gone Family' } })).body.household as { id: string }

    await step(id, '', 'PATCH', { name: 'Feed-Reyes Family', metadata: { crm: 'A1' } })
    const ana = (await step(id, '/members', 'POST', { name: 'Ana', role: 'primaryClient' })).member as { id: string }
    const ben = (
      await step(id, '/members', 'POST', {
        name: 'Ben',
        role: 'coClient',
        relationships: [{ memberId: ana.id, type: 'spouse', since: '1990-06-01' }],
      })
    ).member as { id: string }
    const cara = (
      await step(id, '/members', 'POST', {
        name: 'Cara',
        role: 'child',
        relationships: [
          { memberId: ana.id, type: 'parent' },
          { memberId: ben.id, type: 'parent' },
        ],
      })
    ).member as { id: string }
    // Ben's relationships replaced: the couple shows on Ana too, so she gets a member.updated.
    await step(id, `/members/${ben.id}`, 'PATCH', {
      relationships: [{ memberId: ana.id, type: 'exSpouse', since: '1990-06-01', until: '2020-01-01' }],
    })
    await step(id, `/members/${ana.id}`, 'PATCH', { name: 'Ana Reyes' })
    const trust = (
      await step(id, '/entities', 'POST', { name: 'Feed Revocable Trust', kind: 'revocableTrust', value: 500000 })
    ).entity as { id: string }
    const llc = (await step(id, '/entities', 'POST', { name: 'Feed LLC', kind: 'llc', value: 200000 })).entity as {
      id: string
    }
    await step(id, `/entities/${llc.id}`, 'PATCH', { value: 250000 })
    await step(id, '/links', 'POST', { from: ana.id, to: trust.id, type: 'grantor' })
    const owned = (await step(id, '/links', 'POST', { from: trust.id, to: llc.id, type: 'owner', share: 60 })).link as {
      id: string
    }
    await step(id, `/links/${owned.id}`, 'PATCH', { share: 70 })
    await step(id, '/links', 'POST', { from: ben.id, to: llc.id, type: 'owner', share: 30 })
    await step(id, '/links', 'POST', { from: cara.id, to: trust.id, type: 'beneficiary', share: 100 })
    // Removing Ana: Cara no longer lists her as a parent, Ben no longer as his ex-spouse, and her
    // grantor link goes: each its own event.
    await step(id, `/members/${ana.id}`, 'DELETE')
    // Removing the LLC takes the trust's and Ben's owner links with it.
    await step(id, `/entities/${llc.id}`, 'DELETE')
    await write(etags, other.id, '', 'DELETE')
    await expectInSync(id)
    expect(mirror.households.has(other.id)).toBe(false)

    expect(new Set(seen.map((event) => event.type))).toEqual(
      new Set([
        'household.created',
        'household.updated',
        'household.deleted',
        'member.created',
        'member.updated',
        'member.deleted',
        'entity.created',
        'entity.updated',
        'entity.deleted',
        'link.created',
        'link.updated',
        'link.deleted',
      ]),
    )
    expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length)
  }, 60_000)

  it('reports assignments and a household written whole (PUT …/chart) so that the copy still matches', async () => {
    const etags = new Map<string, string>()
    const start = (await readAll()).cursor
    const created = await call(rel(), writer, { body: { name: 'Whole Family' } })
    const id = (created.body.household as { id: string }).id
    etags.set(id, created.headers.get('etag') ?? '*')
    const advisor = await store.db
      .insertInto('users')
      .values({ org_id: orgId, email: `feed-${kind}@example.com`, name: 'Feed Advisor', role: 'advisor' })
      .returning('id')
      .executeTakeFirstOrThrow()
    await write(etags, id, '/assignments', 'PUT', { assignments: [{ userId: advisor.id, role: 'leadAdvisor' }] })
    await write(etags, id, '/chart', 'PUT', {
      household: { name: 'Whole Family' },
      people: [
        { id: 'p1', name: 'Pat Whole', role: 'primaryClient' },
        { id: 'p2', name: 'Sam Whole', role: 'child' },
      ],
      relationships: [{ from: 'p1', to: 'p2', type: 'parent' }],
      entities: [{ id: 'e1', name: 'Whole Trust', kind: 'revocableTrust', value: 100 }],
      links: [{ from: 'p1', to: 'e1', type: 'grantor' }],
    })
    const { events } = await readAtLeast(start, 3)
    const mirror = new EventMirror()
    for (const event of events) mirror.apply(event)
    expect(events.map((event) => event.type)).toEqual([
      'household.created',
      'assignments.updated',
      'household.replaced',
    ])
    const copy = mirror.households.get(id)!
    const state = await apiState(id)
    expect(state.members).toHaveLength(2)
    expect(copy.household).toEqual(state.household)
    expect([...copy.members.values()].sort((a, b) => a.id.localeCompare(b.id))).toEqual(state.members)
    expect([...copy.links.values()]).toEqual(state.links)
  }, 60_000)

  it('has no event for a write that was refused, and continues from a cursor without repeating', async () => {
    const { cursor } = await readAll()
    const created = await call(rel(), writer, { body: { name: 'Refused Family' } })
    const id = (created.body.household as { id: string }).id
    const stale = await call(rel(`/${id}`), writer, {
      method: 'PATCH',
      body: { name: 'x' },
      headers: { 'if-match': '"99"' },
    })
    expect(stale.status).toBe(412)
    const second = await call(rel(`/${id}/members`), writer, {
      body: { name: 'A', role: 'primaryClient', relationships: [{ memberId: id, type: 'spouse' }] },
    })
    expect(second.status).toBe(400)
    // A write after the refused ones: once its event is read, theirs would have been too.
    const marker = await call(rel(), writer, { body: { name: 'Marker Family' } })
    expect(marker.status).toBe(201)
    const after = await readAtLeast(cursor, 2)
    expect(after.events.map((event) => [event.type, (event.data.household as { name: string }).name])).toEqual([
      ['household.created', 'Refused Family'],
      ['household.created', 'Marker Family'],
    ])
    expect((await readAll(after.cursor)).events).toEqual([])
  }, 60_000)

  it('filters by type, and refuses an unknown type, a forged cursor and one older than the retention', async () => {
    const created = await readAll()
    const filtered = await call(`${api.url}/api/v1/events?types=household.deleted,link.updated&limit=1000`, reader)
    expect(filtered.status).toBe(200)
    const kinds = new Set((filtered.body.events as FeedEvent[]).map((event) => event.type))
    expect(kinds).toEqual(new Set(['household.deleted', 'link.updated']))
    expect(created.events.length).toBeGreaterThan((filtered.body.events as FeedEvent[]).length)

    const unknown = await call(`${api.url}/api/v1/events?types=household.exploded`, reader)
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ code: 'invalid_query', field: '/types' })
    const forged = await call(`${api.url}/api/v1/events?after=not-a-cursor`, reader)
    expect(forged.status).toBe(400)
    expect(forged.body).toMatchObject({ code: 'invalid_event_cursor', field: '/after' })
  }, 60_000)

  it('needs events:read (relationships keys keep their list), and shows nothing of another organization', async () => {
    const refused = await call(`${api.url}/api/v1/events`, writer)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ code: 'missing_permission' })
    expect((await call(rel(), writer)).status).toBe(200)

    const stranger = await createOrgWithKey(store.db, [...WRITE, ...FEED])
    const theirs = await call(`${api.url}/api/v1/events?limit=1000`, stranger.key)
    expect(theirs.status).toBe(200)
    expect(theirs.body.events).toEqual([])
    // The other way round: a cursor of ours read by them still shows only theirs.
    const ours = await readAll()
    await call(`${api.url}/api/v1/relationships`, stranger.key, { body: { name: 'Stranger Family' } })
    let mine = await call(`${api.url}/api/v1/events?limit=1000`, stranger.key)
    for (let tries = 0; (mine.body.events as FeedEvent[]).length === 0 && tries < 300; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      mine = await call(`${api.url}/api/v1/events?limit=1000`, stranger.key)
    }
    expect((mine.body.events as FeedEvent[]).map((event) => event.type)).toEqual(['household.created'])
    expect((await readAll(ours.cursor)).events).toEqual([])
    expect(orgId).not.toBe(stranger.orgId)
  }, 60_000)

  it('tells each household a removed user was assigned to that they are gone (assignments.updated, a new ETag)', async () => {
    const start = (await readAll()).cursor
    const advisor = await store.db
      .insertInto('users')
      .values({ org_id: orgId, email: `leaving-${kind}@example.com`, name: 'Leaving Advisor', role: 'advisor' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const created = await call(rel(), writer, { body: { name: 'Assigned Family' } })
    const id = (created.body.household as { id: string }).id
    const assigned = await call(rel(`/${id}/assignments`), writer, {
      method: 'PUT',
      body: { assignments: [{ userId: advisor.id, role: 'advisor' }] },
      headers: { 'if-match': '*' },
    })
    expect(assigned.status).toBe(200)
    const etag = assigned.headers.get('etag')
    const removed = await removeUser(store.db, orgId, advisor.id)
    expect(removed).toMatchObject({ ok: true })
    const events = (await readAll(start)).events
    expect(events.map((event) => event.type)).toEqual([
      'household.created',
      'assignments.updated',
      'assignments.updated',
    ])
    const read = await call(rel(`/${id}`), writer)
    expect(read.headers.get('etag')).not.toBe(etag)
    expect(events.at(-1)?.data.household).toEqual(read.body.household)
    expect((read.body.household as { assignments: unknown[] }).assignments).toEqual([])
  }, 60_000)

  // Last: its events are dated in the past but written now, so the purged position it sets lies
  // after every event written before it, which a cursor of the other tests would then be behind.
  it('forgets events a day after their retention, and refuses (410) only a cursor the purge has passed', async () => {
    const now = Date.now()
    const day = 86_400_000
    const before = (await readAll()).cursor
    // Oldest first, so that their order in the feed and their age agree, as they do in life.
    for (const age of [40, 30.5, 29]) {
      await sql`INSERT INTO events (org_id, type, household_id, data, occurred_at)
        VALUES (${orgId}, 'household.updated', gen_random_uuid(), ${JSON.stringify({ age })}, ${new Date(now - age * day)})`.execute(
        store.db,
      )
    }
    await readAtLeast(before, 3)
    const firstTwo = await call(`${api.url}/api/v1/events?limit=2&after=${before}`, reader)
    const ages = (page: Record<string, unknown>) =>
      (page.events as FeedEvent[]).map((event) => (event.data as { age: number }).age)
    expect(ages(firstTwo.body)).toEqual([40, 30.5])

    // Kept 30 days, deleted a day later: only the 40-day-old one goes.
    expect(await deleteEventsBefore(store.db, eventPurgeLine(30, now))).toBe(1)
    // A reader that stopped after the 30.5-day-old event lost nothing: it reads on.
    const rest = await call(`${api.url}/api/v1/events?after=${String(firstTwo.body.nextCursor)}`, reader)
    expect(rest.status).toBe(200)
    expect(ages(rest.body)).toEqual([29])
    // One that stopped before the purged event would miss it: 410, saying what to do.
    const expired = await call(`${api.url}/api/v1/events?after=${before}`, reader)
    expect(expired.status).toBe(410)
    expect(expired.body).toMatchObject({ code: 'event_cursor_expired', field: '/after' })
    expect(String(expired.body.error)).toMatch(/30 days.*read the relationships again/)
  }, 60_000)
})
