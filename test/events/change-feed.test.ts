// The change feed (GET /api/v1/events): every kind of write leaves its events; applying them in
// order to an empty copy gives every household as the API reads it (household, members with their
// relationships, entities, links); a refused write leaves none; pages, types, permissions, another
// organization and old cursors behave as documented. On PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { EventMirror, type FeedEvent } from '../helpers/event-mirror.ts'
import { sql } from 'kysely'
import { encodeEventCursor } from '../../src/events/event-cursor.ts'
import { deleteEventsBefore } from '../../src/store/events.ts'
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
    api = await startApp(store.db, { eventRetentionDays: 30 })
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
    /** Applies the events since the last look, and compares the copy with the API's reads. */
    async function expectInSync(id: string) {
      const next = await readAll(cursor)
      cursor = next.cursor
      seen.push(...next.events)
      for (const event of next.events) mirror.apply(event)
      const copy = mirror.households.get(id)
      expect(copy, `household ${id} in the copy`).toBeDefined()
      expect({
        household: copy?.household,
        members: sorted(copy?.members.values() ?? []),
        entities: sorted(copy?.entities.values() ?? []),
        links: sorted(copy?.links.values() ?? []),
      }).toEqual(await apiState(id))
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
    const { events } = await readAll(start)
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
    const after = await readAll(cursor)
    expect(after.events.map((event) => event.type)).toEqual(['household.created'])
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
    const old = encodeEventCursor({ tx: 1, seq: 1, at: Date.now() - 31 * 86_400_000 })
    const expired = await call(`${api.url}/api/v1/events?after=${old}`, reader)
    expect(expired.status).toBe(410)
    expect(expired.body).toMatchObject({ code: 'event_cursor_expired' })
    expect(String(expired.body.error)).toMatch(/30 days/)
  }, 60_000)

  it('forgets events a day after their retention, never one a cursor still accepted could need', async () => {
    const now = Date.now()
    const day = 86_400_000
    const ages = [29, 30.5, 31.5]
    for (const age of ages) {
      await sql`INSERT INTO events (org_id, type, household_id, data, occurred_at)
        VALUES (${orgId}, 'household.updated', gen_random_uuid(), ${JSON.stringify({ age })}, ${new Date(now - age * day)})`.execute(
        store.db,
      )
    }
    expect(await deleteEventsBefore(store.db, eventPurgeLine(30, now))).toBe(1)
    const left = await store.db
      .selectFrom('events')
      .select('data')
      .where('org_id', '=', orgId)
      .where('occurred_at', '<', new Date(now - 28 * day))
      .execute()
    const kept = left.map((row) => (JSON.parse(row.data) as { age: number }).age)
    expect(kept.sort((a, b) => a - b)).toEqual([29, 30.5])
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
    const mine = await call(`${api.url}/api/v1/events?limit=1000`, stranger.key)
    expect((mine.body.events as FeedEvent[]).map((event) => event.type)).toEqual(['household.created'])
    expect((await readAll(ours.cursor)).events).toEqual([])
    expect(orgId).not.toBe(stranger.orgId)
  }, 60_000)
})
