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

const household = (answer: Answer) => answer.body.household as { id: string; name: string; assignments: Array<{ userId: string }> }
const member = (answer: Answer) => answer.body.member as { id: string; name: string }
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
    request: (fixture) => ({ path: `/${fixture.id}`, method: 'PATCH', body: { name: 'Patched' }, headers: ifMatch(fixture) }),
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
    request: (fixture) => ({ path: `/${fixture.id}/members/${fixture.memberId}`, method: 'PATCH', body: { name: 'Renamed' }, headers: ifMatch(fixture) }),
    status: 200,
    readBack: (fixture) => `/${fixture.id}/members/${fixture.memberId}`,
    readStatus: 200,
    check: (written, read) => {
      expect(member(written).name).toBe('Renamed')
      expect(member(read)).toEqual(member(written))
    },
  },
  'DELETE /{id}/members/{memberId}': {
    request: (fixture) => ({ path: `/${fixture.id}/members/${fixture.memberId}`, method: 'DELETE', headers: ifMatch(fixture) }),
    status: 204,
    readBack: (fixture) => `/${fixture.id}/members`,
    readStatus: 200,
    check: (_written, read) => expect(read.body.members).toEqual([]),
  },
  'PUT /{id}/assignments': {
    request: (fixture) => ({ path: `/${fixture.id}/assignments`, method: 'PUT', body: { assignments: [{ userId: fixture.userId, role: 'advisor' }] }, headers: ifMatch(fixture) }),
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
    api = await startApp(store.db)
    org = await createOrgWithKey(store.db)
    for (const permission of ['relationships:write', 'households:write', 'relationships:read', 'households:read']) {
      keys[permission] = (await createKey(store.db, org.orgId, [permission])).key
    }
    const user = await store.db.insertInto('users').values({ org_id: org.orgId, email: 'ann.writer@example.com', name: 'Ann Writer', role: 'advisor' }).returning('id').executeTakeFirstOrThrow()
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
    const added = await call(`${api.url}${PREFIXES[0]}/${id}/members`, org.key, { body: { name: 'Fixture Member', role: 'primaryClient' } })
    expect(added.status).toBe(201)
    return { id, memberId: member(added).id, etag: added.headers.get('etag') ?? '', userId }
  }

  /** Everything a write could change in the organization's records. */
  async function orgState() {
    const households = await store.db.selectFrom('households').selectAll().where('org_id', '=', org.orgId).orderBy('id').execute()
    const ids = households.map((h) => h.id)
    if (ids.length === 0) return { households }
    const members = await store.db.selectFrom('members').selectAll().where('household_id', 'in', ids).orderBy('id').execute()
    const assignments = await store.db.selectFrom('assignments').selectAll().where('household_id', 'in', ids).orderBy('household_id').orderBy('user_id').execute()
    return { households, members, assignments }
  }

  function write(prefix: string, key: string, request: ReturnType<WriteCase['request']>): Promise<Answer> {
    return call(`${api.url}${prefix}${request.path}`, key, { method: request.method, body: request.body, headers: request.headers })
  }

  it('covers every write route the API documents', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> }
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => WRITE_METHODS.has(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    const relationshipWrites = documented.filter((route) => PREFIXES.some((prefix) => route.split(' ')[1]?.startsWith(prefix)))
    const tested = PREFIXES.flatMap((prefix) => Object.keys(WRITES).map((route) => route.replace(' ', ` ${prefix}`)))
    expect(relationshipWrites.sort(), 'add the new write route to WRITES').toEqual(tested.sort())
  })

  for (const prefix of PREFIXES) {
    for (const [route, writeCase] of Object.entries(WRITES)) {
      for (const permission of ['relationships:write', 'households:write']) {
        it(`${route.replace(' ', ` ${prefix}`)} with only ${permission}: the write answers, and the key reads the record back`, async () => {
          const key = keys[permission] as string
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
          const refused = await write(prefix, keys[permission] as string, writeCase.request(before))
          expect(refused.status).toBe(403)
          expect(refused.body).toMatchObject({ code: 'missing_permission', error: expect.stringContaining('relationships:write') })
          expect(await orgState()).toEqual(state)
        })
      }
    }
  }
})
