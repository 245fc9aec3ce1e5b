// Issue 17, external ids: a household's externalId is unique in its organization (409 with the
// existing id, on create and PATCH; another organization may use the same), the list finds one by
// it, and PUT …/by-external-id/{externalId} creates or replaces a household whole under HTTP's
// preconditions, with the records' rules and codes, and one household.replaced event whose data
// is the household as its GETs answer it. On PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { encodeCursor, decodeCursor } from '../../src/domain/list-cursor.ts'
import type { Listing } from '../../src/domain/listing.ts'

const WRITE = ['relationships:read', 'relationships:write']

const DOCUMENT = {
  name: 'Rivera Family',
  currency: 'EUR',
  members: [
    { externalId: 'pat', name: 'Pat Rivera', role: 'primaryClient', birthDate: '1961-04-02' },
    {
      externalId: 'sam',
      name: 'Sam Rivera',
      role: 'coClient',
      relationships: [{ externalId: 'pat', type: 'spouse', since: '1990-06-01' }],
    },
    {
      externalId: 'ava',
      name: 'Ava Rivera',
      role: 'child',
      relationships: [
        { externalId: 'pat', type: 'parent', parentKind: 'biological' },
        { externalId: 'sam', type: 'parent' },
      ],
    },
  ],
  entities: [
    { externalId: 'rlt', name: 'Rivera Revocable Trust', kind: 'revocableTrust', value: 2500000 },
    { externalId: 'llc', name: 'Rivera Holdings LLC', kind: 'llc', value: 1200000 },
  ],
  links: [
    { from: 'pat', to: 'rlt', type: 'grantor' },
    { from: 'ava', to: 'rlt', type: 'beneficiary', share: 100 },
    { from: 'rlt', to: 'llc', type: 'owner', share: 100 },
  ],
}

describe.each(storeKinds())('external ids on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let key: string
  let orgId: string
  let reader: string

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    ;({ key, orgId } = await createOrgWithKey(store.db, WRITE))
    reader = (await createKey(store.db, orgId, ['events:read'])).key
  }, 60_000)
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const rel = (path = '') => `${api.url}/api/v1/relationships${path}`
  const put = (externalId: string, body: unknown, headers: Record<string, string> = {}) =>
    call(rel(`/by-external-id/${externalId}`), key, { method: 'PUT', body, headers })

  async function eventsAfter(cursor: string | undefined) {
    const query = new URLSearchParams({ limit: '1000' })
    if (cursor) query.set('after', cursor)
    const page = await call(`${api.url}/api/v1/events?${query.toString()}`, reader)
    expect(page.status).toBe(200)
    return page.body as {
      events: { type: string; householdId: string; data: Record<string, unknown> }[]
      nextCursor: string
    }
  }

  it('a household externalId is unique in the organization: 409 with the existing id, on create and on PATCH', async () => {
    const first = await call(rel(), key, { body: { name: 'First', externalId: 'crm-1' } })
    expect(first.status).toBe(201)
    const household = first.body.household as { id: string; externalId: string }
    expect(household.externalId).toBe('crm-1')

    const again = await call(rel(), key, { body: { name: 'Second', externalId: 'crm-1' } })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({
      code: 'household_external_id_taken',
      existingId: household.id,
      field: '/externalId',
    })

    const other = await call(rel(), key, { body: { name: 'Other', externalId: 'crm-2' } })
    const otherId = (other.body.household as { id: string }).id
    const patched = await call(rel(`/${otherId}`), key, {
      method: 'PATCH',
      body: { externalId: 'crm-1' },
      headers: { 'if-match': '*' },
    })
    expect(patched.status).toBe(409)
    expect(patched.body).toMatchObject({ code: 'household_external_id_taken', existingId: household.id })
    // Its own id again is no conflict; clearing frees it for another.
    const same = await call(rel(`/${household.id}`), key, {
      method: 'PATCH',
      body: { externalId: 'crm-1', name: 'First again' },
      headers: { 'if-match': '*' },
    })
    expect(same.status).toBe(200)

    // Another organization may use the same id.
    const elsewhere = await createOrgWithKey(store.db, WRITE)
    const theirs = await call(rel(), elsewhere.key, { body: { name: 'Theirs', externalId: 'crm-1' } })
    expect(theirs.status).toBe(201)
  })

  it('?externalId= lists the one household with it (or none), on both prefixes; the cursor is bound to it', async () => {
    await call(rel(), key, { body: { name: 'Filtered', externalId: 'find-me' } })
    const found = await call(rel('?externalId=find-me'), key)
    expect(found.status).toBe(200)
    expect(found.body.total).toBe(1)
    expect((found.body.households as { name: string; externalId: string }[])[0]).toMatchObject({
      name: 'Filtered',
      externalId: 'find-me',
    })
    const none = await call(rel('?externalId=nobody'), key)
    expect(none.body).toMatchObject({ total: 0, households: [] })
    const legacy = await call(`${api.url}/api/v1/households?externalId=find-me`, key)
    expect(legacy.body.total).toBe(1)
    const bad = await call(rel('?externalId=not%20an%20id'), key)
    expect(bad.status).toBe(400)

    const listing: Listing = { page: 1, pageSize: 1, sortBy: 'createdAt', sortOrder: 'desc', sample: 'all' }
    const cursor = encodeCursor({ ...listing, externalId: 'a' }, 2, {
      key: '2025-01-01T00:00:00.000000Z',
      id: '00000000-0000-4000-8000-000000000000',
    })
    expect(decodeCursor(cursor, { ...listing, externalId: 'a' }).ok).toBe(true)
    expect(decodeCursor(cursor, { ...listing, externalId: 'b' }).ok).toBe(false)
    expect(decodeCursor(cursor, listing).ok).toBe(false)
  })

  it('PUT creates (201, Location, ETag), then replaces under If-Match, keeping matched ids; preconditions as HTTP says', async () => {
    const before = await eventsAfter(undefined)
    const created = await put('rivera', DOCUMENT)
    expect(created.status).toBe(201)
    expect(created.headers.get('etag')).toBe('"1"')
    const whole = created.body as {
      household: { id: string; externalId: string; currency: string; counts: Record<string, number> }
      members: { id: string; externalId: string; relationships: unknown[] }[]
      entities: { id: string; externalId: string }[]
      links: unknown[]
    }
    const id = whole.household.id
    expect(created.headers.get('location')).toBe(`/api/v1/relationships/${id}`)
    expect(whole.household).toMatchObject({
      externalId: 'rivera',
      currency: 'EUR',
      counts: { members: 3, entities: 2 },
    })
    expect(whole.members.map((m) => m.externalId)).toEqual(['pat', 'sam', 'ava'])
    expect(whole.links).toHaveLength(3)

    // The event's data is exactly what the GETs answer.
    const after = await eventsAfter(before.nextCursor)
    expect(after.events.map((e) => e.type)).toEqual(['household.replaced'])
    const [household, members, entities, links] = await Promise.all([
      call(rel(`/${id}`), key),
      call(rel(`/${id}/members`), key),
      call(rel(`/${id}/entities`), key),
      call(rel(`/${id}/links`), key),
    ])
    expect(after.events[0]?.data).toEqual({
      household: household.body.household,
      members: members.body.members,
      entities: entities.body.entities,
      links: links.body.links,
    })
    expect(created.body).toEqual(after.events[0]?.data)

    // It exists now: a replace needs If-Match.
    expect((await put('rivera', DOCUMENT)).status).toBe(428)
    expect((await put('rivera', DOCUMENT, { 'if-match': '"7"' })).status).toBe(412)
    expect((await put('rivera', DOCUMENT, { 'if-none-match': '*' })).status).toBe(412)
    expect((await put('nobody-yet', DOCUMENT, { 'if-match': '*' })).status).toBe(412)

    // The same document again: 200, the same ETag, no event.
    const same = await put('rivera', DOCUMENT, { 'if-match': '"1"' })
    expect(same.status).toBe(200)
    expect(same.headers.get('etag')).toBe('"1"')
    expect(same.body).toEqual(created.body)
    expect((await eventsAfter(after.nextCursor)).events).toEqual([])

    // A change: sam leaves, ben joins, pat is renamed; pat's and ava's ids are kept.
    const changed = {
      ...DOCUMENT,
      members: [
        { ...DOCUMENT.members[0], name: 'Patricia Rivera' },
        {
          externalId: 'ava',
          name: 'Ava Rivera',
          role: 'child',
          relationships: [{ externalId: 'pat', type: 'parent' }],
        },
        {
          externalId: 'ben',
          name: 'Ben Rivera',
          role: 'child',
          relationships: [{ externalId: 'pat', type: 'parent' }],
        },
      ],
      links: [{ from: 'pat', to: 'rlt', type: 'grantor' }],
    }
    const replaced = await put('rivera', changed, { 'if-match': '*' })
    expect(replaced.status).toBe(200)
    expect(replaced.headers.get('etag')).toBe('"2"')
    const next = replaced.body as typeof whole
    const idOf = (list: { id: string; externalId: string }[], externalId: string) =>
      list.find((m) => m.externalId === externalId)?.id
    expect(idOf(next.members, 'pat')).toBe(idOf(whole.members, 'pat'))
    expect(idOf(next.members, 'ava')).toBe(idOf(whole.members, 'ava'))
    expect(idOf(next.members, 'sam')).toBeUndefined()
    expect(idOf(next.entities, 'rlt')).toBe(idOf(whole.entities, 'rlt'))
    expect(next.household.currency).toBe('EUR')
    expect(next.links).toHaveLength(1)
    const events = await eventsAfter(after.nextCursor)
    expect(events.events.map((e) => e.type)).toEqual(['household.replaced'])
    expect(events.events[0]?.data).toEqual(replaced.body)

    // A PATCH moves the version: the first document again is written in full.
    await call(rel(`/${id}`), key, { method: 'PATCH', body: { name: 'Renamed' }, headers: { 'if-match': '*' } })
    const back = await put('rivera', changed, { 'if-match': '"3"' })
    expect(back.status).toBe(200)
    expect(back.headers.get('etag')).toBe('"4"')
    expect((back.body.household as { name: string }).name).toBe('Rivera Family')

    // A body externalId other than the path's.
    const mismatch = await put('rivera', { ...DOCUMENT, externalId: 'other' }, { 'if-match': '*' })
    expect(mismatch.status).toBe(400)
    expect(mismatch.body).toMatchObject({ code: 'invalid_body', field: '/externalId' })
  })

  it("refuses a document with the records' codes and a JSON Pointer into it, writing nothing", async () => {
    const refusals: [unknown, string, string][] = [
      [
        { name: 'X', members: [DOCUMENT.members[0], { ...DOCUMENT.members[0], externalId: 'pat2' }] },
        'member_role_taken',
        '/members/1/role',
      ],
      [
        { name: 'X', members: [DOCUMENT.members[0], DOCUMENT.members[0]] },
        'member_external_id_taken',
        '/members/1/externalId',
      ],
      [
        {
          name: 'X',
          members: [
            { externalId: 'a', name: 'A', role: 'child', relationships: [{ externalId: 'zz', type: 'parent' }] },
          ],
        },
        'relationship_member_unknown',
        '/members/0/relationships/0/externalId',
      ],
      [
        {
          name: 'X',
          members: [
            { externalId: 'a', name: 'A', role: 'child', relationships: [{ externalId: 'b', type: 'parent' }] },
            { externalId: 'b', name: 'B', role: 'child', relationships: [{ externalId: 'a', type: 'parent' }] },
          ],
        },
        'relationship_cycle',
        '/members/1/relationships/0',
      ],
      [
        {
          name: 'X',
          members: [
            { externalId: 'a', name: 'A', role: 'child', relationships: [{ externalId: 'c', type: 'parent' }] },
            { externalId: 'b', name: 'B', role: 'child', relationships: [{ externalId: 'a', type: 'parent' }] },
            { externalId: 'c', name: 'C', role: 'child', relationships: [{ externalId: 'b', type: 'parent' }] },
          ],
        },
        'relationship_cycle',
        '/members/0/relationships/0',
      ],
      [
        {
          name: 'X',
          members: [
            { externalId: 'a', name: 'A', role: 'child', relationships: [{ externalId: 'b', type: 'spouse' }] },
            { externalId: 'b', name: 'B', role: 'child', relationships: [{ externalId: 'a', type: 'partner' }] },
          ],
        },
        'relationship_conflict',
        '/members/1/relationships/0',
      ],
      [{ name: 'X', dsueReceived: 1.234 }, 'invalid_body', '/dsueReceived'],
      [{ name: 'X', members: [{ externalId: 'a', name: '  ', role: 'child' }] }, 'invalid_body', '/members/0/name'],
      [
        { name: 'X', entities: [{ externalId: 'p', name: 'Trust Co', kind: 'corporateTrustee', value: 5 }] },
        'entity_party_value',
        '/entities/0/value',
      ],
      [{ ...DOCUMENT, links: [{ from: 'pat', to: 'nowhere', type: 'grantor' }] }, 'invalid_body', '/links/0/to'],
      [
        {
          ...DOCUMENT,
          links: [
            { from: 'pat', to: 'llc', type: 'owner', share: 60 },
            { from: 'sam', to: 'llc', type: 'owner', share: 50 },
          ],
        },
        'link_shares_exceed',
        '/links/1/share',
      ],
      [
        {
          ...DOCUMENT,
          links: [
            { from: 'rlt', to: 'llc', type: 'owner', share: 50 },
            { from: 'llc', to: 'rlt', type: 'owner', share: 50 },
          ],
        },
        'link_ownership_cycle',
        '/links/1/to',
      ],
      [{ ...DOCUMENT, links: [{ from: 'pat', to: 'llc', type: 'insured' }] }, 'link_kind_mismatch', '/links/0/type'],
      [{ ...DOCUMENT, links: [{ from: 'rlt', to: 'pat', type: 'owner' }] }, 'invalid_body', '/links/0/to'],
      [
        { name: 'X', members: [{ externalId: 'a', name: 'A', role: 'child', nickname: 'x' }] },
        'invalid_body',
        '/members/0/nickname',
      ],
    ]
    for (const [document, code, field] of refusals) {
      const answer = await put('refused', document)
      expect({ code: answer.body.code, field: answer.body.field }, JSON.stringify(document)).toEqual({ code, field })
    }
    expect((await call(rel('?externalId=refused'), key)).body.total).toBe(0)
  })

  it('a document that takes the externalId of a household created with POST replaces that household', async () => {
    const posted = await call(rel(), key, { body: { name: 'Posted', externalId: 'posted' } })
    const id = (posted.body.household as { id: string }).id
    const replaced = await put(
      'posted',
      { name: 'Put', members: [{ externalId: 'm', name: 'M', role: 'primaryClient' }] },
      { 'if-match': '"1"' },
    )
    expect(replaced.status).toBe(200)
    expect((replaced.body.household as { id: string }).id).toBe(id)
  })
})
