// A write permission implies read (src/domain/permissions.ts), for every write route on the
// relationship paths and their legacy household aliases: a write-only key's write succeeds and
// answers the record, and that key's GET of the same record succeeds; a read-only key's write is
// 403 missing_permission and changes nothing. The write routes are taken from the OpenAPI document,
// so a new one fails the first test until it is added to WRITES.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'

const PREFIXES = ['/api/v1/relationships', '/api/v1/households'] as const
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete'])

/** A household with one member, made fresh for each write, and a user of its organization. */
interface Fixture {
  id: string
  memberId: string
  /** A revocable trust of the household, and the member's beneficiary link to it (50 %). */
  entityId: string
  linkId: string
  etag: string
  userId: string
}
type Answer = Awaited<ReturnType<typeof call>>

interface WriteCase {
  /** The request, its path relative to the prefix. */
  request(fixture: Fixture): { path: string; method: string; body?: unknown; headers?: Record<string, string> }
  status: number
  /** Where the written record is read back, from the fixture and the write's answer. */
  readBack(fixture: Fixture, answer: Answer): string
  /** The read-back's status: 404 for a deleted household (the key may look; it is gone). */
  readStatus: number
  /** What the write's answer and the read-back say about the record (204 writes answer nothing). */
  check(written: Answer, read: Answer, fixture: Fixture): void
}

const household = (answer: Answer) =>
  answer.body.household as { id: string; name: string; assignments: { userId: string }[] }
const member = (answer: Answer) => answer.body.member as { id: string; name: string }
const entity = (answer: Answer) => answer.body.entity as { id: string; name: string }
const link = (answer: Answer) => answer.body.link as { id: string; type: string; share: number | null }
const ifMatch = (fixture: Fixture) => ({ 'if-match': fixture.etag })

/** Every write route, by method and OpenAPI path under a prefix. */
const WRITES: Record<string, WriteCase> = {
  'POST ': {
    request: () => ({ path: '', method: 'POST', body: { name: 'Written' } }),
    status: 201,
    readBack: (_fixture, answer) => `/${household(answer).id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(household(written).name).toBe('Written')
      expect(household(read)).toEqual(household(written))
    },
  },
  'PATCH /{id}': {
    request: (fixture) => ({
      path: `/${fixture.id}`,
      method: 'PATCH',
      body: { name: 'Patched' },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(household(written).name).toBe('Patched')
      expect(household(read)).toEqual(household(written))
    },
  },
  'DELETE /{id}': {
    request: (fixture) => ({ path: `/${fixture.id}`, method: 'DELETE', headers: ifMatch(fixture) }),
    status: 204,
    readBack: (fixture) => `/${fixture.id}`,
    readStatus: 404,
    check: (_written, read) => expect(read.body.code).toBe('not_found'),
  },
  'POST /{id}/members': {
    request: (fixture) => ({ path: `/${fixture.id}/members`, method: 'POST', body: { name: 'Added', role: 'child' } }),
    status: 201,
    readBack: (fixture, answer) => `/${fixture.id}/members/${member(answer).id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(member(written).name).toBe('Added')
      expect(member(read)).toEqual(member(written))
    },
  },
  'PATCH /{id}/members/{memberId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/members/${fixture.memberId}`,
      method: 'PATCH',
      body: { name: 'Renamed' },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/members/${fixture.memberId}`,
    readStatus: 200,
    check: (written, read) => {
      expect(member(written).name).toBe('Renamed')
      expect(member(read)).toEqual(member(written))
    },
  },
  'DELETE /{id}/members/{memberId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/members/${fixture.memberId}`,
      method: 'DELETE',
      headers: ifMatch(fixture),
    }),
    status: 204,
    readBack: (fixture) => `/${fixture.id}/members`,
    readStatus: 200,
    check: (_written, read) => expect(read.body.members).toEqual([]),
  },
  'POST /{id}/entities': {
    request: (fixture) => ({
      path: `/${fixture.id}/entities`,
      method: 'POST',
      body: { name: 'Added ILIT', kind: 'ilit' },
    }),
    status: 201,
    readBack: (fixture, answer) => `/${fixture.id}/entities/${entity(answer).id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(entity(written).name).toBe('Added ILIT')
      expect(entity(read)).toEqual(entity(written))
    },
  },
  'PATCH /{id}/entities/{entityId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/entities/${fixture.entityId}`,
      method: 'PATCH',
      body: { name: 'Renamed trust' },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/entities/${fixture.entityId}`,
    readStatus: 200,
    check: (written, read) => {
      expect(entity(written).name).toBe('Renamed trust')
      expect(entity(read)).toEqual(entity(written))
    },
  },
  'DELETE /{id}/entities/{entityId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/entities/${fixture.entityId}`,
      method: 'DELETE',
      headers: ifMatch(fixture),
    }),
    status: 204,
    readBack: (fixture) => `/${fixture.id}/entities`,
    readStatus: 200,
    check: (_written, read) => expect(read.body.entities).toEqual([]),
  },
  'POST /{id}/links': {
    request: (fixture) => ({
      path: `/${fixture.id}/links`,
      method: 'POST',
      body: { from: fixture.memberId, to: fixture.entityId, type: 'trustee' },
    }),
    status: 201,
    readBack: (fixture, answer) => `/${fixture.id}/links/${link(answer).id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(link(written).type).toBe('trustee')
      expect(link(read)).toEqual(link(written))
    },
  },
  'PATCH /{id}/links/{linkId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/links/${fixture.linkId}`,
      method: 'PATCH',
      body: { share: 60 },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/links/${fixture.linkId}`,
    readStatus: 200,
    check: (written, read) => {
      expect(link(written).share).toBe(60)
      expect(link(read)).toEqual(link(written))
    },
  },
  'DELETE /{id}/links/{linkId}': {
    request: (fixture) => ({
      path: `/${fixture.id}/links/${fixture.linkId}`,
      method: 'DELETE',
      headers: ifMatch(fixture),
    }),
    status: 204,
    readBack: (fixture) => `/${fixture.id}/links`,
    readStatus: 200,
    check: (_written, read) => expect(read.body.links).toEqual([]),
  },
  'PUT /{id}/chart': {
    request: (fixture) => ({
      path: `/${fixture.id}/chart`,
      method: 'PUT',
      body: {
        household: { name: 'Imported' },
        people: [{ id: 'ann', name: 'Ann Imported', role: 'primaryClient' }],
      },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/chart`,
    readStatus: 200,
    check: (written, read) => {
      // The payload comes back with the records' ids; 'ann' is kept as the new member's externalId.
      expect(written.body.people).toEqual([{ id: expect.any(String), name: 'Ann Imported', role: 'primaryClient' }])
      expect(read.body).toEqual(written.body)
    },
  },
  'PUT /by-external-id/{externalId}': {
    request: (fixture) => ({
      path: `/by-external-id/wir-${fixture.id}`,
      method: 'PUT',
      body: { name: 'Put whole', members: [{ externalId: 'ann', name: 'Ann Put', role: 'primaryClient' }] },
    }),
    status: 201,
    readBack: (_fixture, answer) => `/${household(answer).id}`,
    readStatus: 200,
    check: (written, read) => {
      expect(household(written).name).toBe('Put whole')
      expect(household(read)).toEqual(household(written))
    },
  },
  'PUT /{id}/assignments': {
    request: (fixture) => ({
      path: `/${fixture.id}/assignments`,
      method: 'PUT',
      body: { assignments: [{ userId: fixture.userId, role: 'advisor' }] },
      headers: ifMatch(fixture),
    }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/assignments`,
    readStatus: 200,
    check: (written, read, fixture) => {
      expect(household(written).assignments.map((a) => a.userId)).toEqual([fixture.userId])
      expect(read.body.assignments).toEqual(household(written).assignments)
    },
  },
}

describe.each(storeKinds())('a write permission implies read on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let org: { orgId: string; key: string }
  let userId: string
  /** Write-only and read-only keys, by their one permission. */
  const keys: Record<string, string> = {}

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    org = await createOrgWithKey(store.db)
    for (const permission of ['relationships:write', 'households:write', 'relationships:read', 'households:read']) {
      keys[permission] = (await createKey(store.db, org.orgId, [permission])).key
    }
    const user = await store.db
      .insertInto('users')
      .values({ org_id: org.orgId, email: 'ann.writer@example.com', name: 'Ann Writer', role: 'advisor' })
      .returning('id')
      .executeTakeFirstOrThrow()
    userId = user.id
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  /** Made with the all-permissions key, so only the write under test uses the narrow one. */
  async function fixture(): Promise<Fixture> {
    const created = await call(`${api.url}${PREFIXES[0]}`, org.key, { body: { name: 'Fixture' } })
    expect(created.status).toBe(201)
    const id = household(created).id
    const added = await call(`${api.url}${PREFIXES[0]}/${id}/members`, org.key, {
      body: { name: 'Fixture Member', role: 'primaryClient' },
    })
    expect(added.status).toBe(201)
    const trust = await call(`${api.url}${PREFIXES[0]}/${id}/entities`, org.key, {
      body: { name: 'Fixture Trust', kind: 'revocableTrust' },
    })
    expect(trust.status).toBe(201)
    const linked = await call(`${api.url}${PREFIXES[0]}/${id}/links`, org.key, {
      body: {
        from: member(added).id,
        to: entity(trust).id,
        type: 'beneficiary',
        share: 50,
        beneficiaryType: 'primary',
      },
    })
    expect(linked.status).toBe(201)
    return {
      id,
      memberId: member(added).id,
      entityId: entity(trust).id,
      linkId: link(linked).id,
      etag: linked.headers.get('etag') ?? '',
      userId,
    }
  }

  /** Everything a write could change in the organization's records. */
  async function orgState() {
    const households = await store.db
      .selectFrom('households')
      .selectAll()
      .where('org_id', '=', org.orgId)
      .orderBy('id')
      .execute()
    const ids = households.map((h) => h.id)
    if (ids.length === 0) return { households }
    const members = await store.db
      .selectFrom('members')
      .selectAll()
      .where('household_id', 'in', ids)
      .orderBy('id')
      .execute()
    const assignments = await store.db
      .selectFrom('assignments')
      .selectAll()
      .where('household_id', 'in', ids)
      .orderBy('household_id')
      .orderBy('user_id')
      .execute()
    const entities = await store.db
      .selectFrom('entities')
      .selectAll()
      .where('household_id', 'in', ids)
      .orderBy('id')
      .execute()
    const links = await store.db
      .selectFrom('entity_links')
      .selectAll()
      .where('household_id', 'in', ids)
      .orderBy('id')
      .execute()
    return { households, members, assignments, entities, links }
  }

  function write(prefix: string, key: string, request: ReturnType<WriteCase['request']>): Promise<Answer> {
    return call(`${api.url}${prefix}${request.path}`, key, {
      method: request.method,
      body: request.body,
      headers: request.headers,
    })
  }

  it('covers every write route the API documents', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => WRITE_METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    const relationshipWrites = documented.filter((route) =>
      PREFIXES.some((prefix) => route.split(' ')[1]?.startsWith(prefix)),
    )
    const tested = PREFIXES.flatMap((prefix) => Object.keys(WRITES).map((route) => route.replace(' ', ` ${prefix}`)))
    expect(relationshipWrites.sort(), 'add the new write route to WRITES').toEqual(tested.sort())
  })

  for (const prefix of PREFIXES) {
    for (const [route, writeCase] of Object.entries(WRITES)) {
      for (const permission of ['relationships:write', 'households:write']) {
        it(`${route.replace(' ', ` ${prefix}`)} with only ${permission}: the write answers, and the key reads the record back`, async () => {
          const key = keys[permission]!
          const before = await fixture()
          const written = await write(prefix, key, writeCase.request(before))
          expect(written.status, JSON.stringify(written.body)).toBe(writeCase.status)
          const read = await call(`${api.url}${prefix}${writeCase.readBack(before, written)}`, key)
          expect(read.status, JSON.stringify(read.body)).toBe(writeCase.readStatus)
          writeCase.check(written, read, before)
        })
      }
      for (const permission of ['relationships:read', 'households:read']) {
        it(`${route.replace(' ', ` ${prefix}`)} with only ${permission}: 403 missing_permission, nothing changes`, async () => {
          const before = await fixture()
          const state = await orgState()
          const refused = await write(prefix, keys[permission]!, writeCase.request(before))
          expect(refused.status).toBe(403)
          expect(refused.body).toMatchObject({
            code: 'missing_permission',
            error: expect.stringContaining('relationships:write'),
          })
          expect(await orgState()).toEqual(state)
        })
      }
    }
  }
})
