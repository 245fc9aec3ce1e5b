// PUT and GET /api/v1/relationships/{id}/assignments (and the legacy path): the whole set replaced
// under If-Match in one transaction, users of the caller's organization only, each once, at most one
// lead advisor; list items and counts follow; every change is in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createKey, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { listAudit } from '../../src/store/audit.ts'
import { MAX_ASSIGNMENTS } from '../../src/schemas/assignment.ts'

const REL = '/api/v1/relationships'

describe.each(storeKinds())('assignments on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let alice: { orgId: string; key: string; keyId: string }
  let bob: { orgId: string; key: string; keyId: string }
  let users: { ann: string; ben: string; cat: string; dan: string }
  let bobUser: string

  async function addUser(
    orgId: string,
    name: string,
    role: 'admin' | 'advisor' | 'viewer' = 'advisor',
  ): Promise<string> {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.com`
    const row = await store.db
      .insertInto('users')
      .values({ org_id: orgId, email, name, role })
      .returning('id')
      .executeTakeFirstOrThrow()
    return row.id
  }

  async function createHousehold(key: string, name: string): Promise<{ id: string; etag: string }> {
    const created = await call(`${api.url}${REL}`, key, { body: { name } })
    expect(created.status).toBe(201)
    const household = created.body.household as { id: string }
    const read = await call(`${api.url}${REL}/${household.id}`, key)
    return { id: household.id, etag: read.headers.get('etag') ?? '' }
  }

  function put(path: string, key: string, body: unknown, ifMatch?: string) {
    return call(`${api.url}${path}`, key, {
      method: 'PUT',
      body,
      headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
    })
  }

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    alice = await createOrgWithKey(store.db)
    bob = await createOrgWithKey(store.db)
    users = {
      ann: await addUser(alice.orgId, 'Ann Advisor'),
      ben: await addUser(alice.orgId, 'Ben Planner'),
      cat: await addUser(alice.orgId, 'Cat Associate', 'viewer'),
      dan: await addUser(alice.orgId, 'Dan Lead', 'admin'),
    }
    bobUser = await addUser(bob.orgId, 'Bob Secret')
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  it('replaces the set, answers the household with its new ETag, and list items and counts show it', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Assigned Family')
    const first = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      {
        assignments: [
          { userId: users.ann, role: 'leadAdvisor' },
          { userId: users.ben.toUpperCase(), role: 'paraplanner' },
        ],
      },
      etag,
    )
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const newEtag = first.headers.get('etag')
    expect(newEtag).toMatch(/^"\d+"$/)
    expect(newEtag).not.toBe(etag)
    const household = first.body.household as Record<string, unknown>
    expect(household.id).toBe(id)
    // Added in one request, they share an assignment time and are ordered by user id.
    expect(household.assignments).toEqual(
      [
        { userId: users.ann, name: 'Ann Advisor', role: 'leadAdvisor' },
        { userId: users.ben, name: 'Ben Planner', role: 'paraplanner' },
      ].sort((a, b) => (a.userId < b.userId ? -1 : 1)),
    )
    expect(household.counts).toEqual({ members: 0, assignments: 2, entities: 0 })
    // The full household shape: create fields too.
    expect(household).toHaveProperty('dsueReceived')

    // GET of the household agrees (same ETag), and so does the list item.
    const read = await call(`${api.url}${REL}/${id}`, alice.key)
    expect(read.headers.get('etag')).toBe(newEtag)
    expect(read.body.household).toEqual(household)
    const list = await call(`${api.url}${REL}?ids=${id}`, alice.key)
    const item = (list.body.households as Record<string, unknown>[])[0]
    expect(item?.assignments).toEqual(household.assignments)
    expect(item?.counts).toEqual({ members: 0, assignments: 2, entities: 0 })

    // GET …/assignments: the set with the household's ETag, 304 when current.
    const got = await call(`${api.url}${REL}/${id}/assignments`, alice.key)
    expect(got.status).toBe(200)
    expect(got.headers.get('etag')).toBe(newEtag)
    expect(
      new Set((got.body.assignments as Record<string, unknown>[]).map((a) => `${String(a.userId)}:${String(a.role)}`)),
    ).toEqual(new Set([`${users.ann}:leadAdvisor`, `${users.ben}:paraplanner`]))
    const notModified = await call(`${api.url}${REL}/${id}/assignments`, alice.key, {
      headers: { 'if-none-match': newEtag ?? '' },
    })
    expect(notModified.status).toBe(304)

    // Replace: Ben stays (with another role) and keeps his place, Ann leaves, Cat joins after him.
    const second = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      {
        assignments: [
          { userId: users.cat, role: 'serviceAssociate' },
          { userId: users.ben, role: 'leadAdvisor' },
        ],
      },
      newEtag ?? '',
    )
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    const after = (second.body.household as Record<string, unknown>).assignments as Record<string, unknown>[]
    expect(after.map((a) => [a.userId, a.role])).toEqual([
      [users.ben, 'leadAdvisor'],
      [users.cat, 'serviceAssociate'],
    ])

    // An empty set removes everyone.
    const cleared = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      { assignments: [] },
      second.headers.get('etag') ?? '',
    )
    expect(cleared.status).toBe(200)
    expect((cleared.body.household as Record<string, unknown>).assignments).toEqual([])
    expect((cleared.body.household as Record<string, unknown>).counts).toEqual({
      members: 0,
      assignments: 0,
      entities: 0,
    })
  })

  it("refuses another organization's user exactly like an unknown one, and changes nothing", async () => {
    const { id, etag } = await createHousehold(alice.key, 'Guarded Family')
    const foreign = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      {
        assignments: [
          { userId: users.ann, role: 'advisor' },
          { userId: bobUser, role: 'advisor' },
        ],
      },
      etag,
    )
    const unknown = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      {
        assignments: [
          { userId: users.ann, role: 'advisor' },
          { userId: crypto.randomUUID(), role: 'advisor' },
        ],
      },
      etag,
    )
    for (const refused of [foreign, unknown]) {
      expect(refused.status).toBe(400)
      expect(refused.body.code).toBe('assignment_user_unknown')
      expect(refused.body.error).toBe('assignments.1.userId is not a user of your organization.')
    }
    expect(JSON.stringify(foreign.body)).not.toContain('Bob Secret')
    // Rolled back: same ETag, no assignments, no audit entry.
    const read = await call(`${api.url}${REL}/${id}`, alice.key)
    expect(read.headers.get('etag')).toBe(etag)
    expect((read.body.household as Record<string, unknown>).assignments).toEqual([])
    expect((await listAudit(store.db, alice.orgId, id, 100)).filter((e) => e.action === 'assignments.set')).toEqual([])
  })

  it('refuses a user twice, two lead advisors, bad roles, malformed ids and too many, each with its code', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Strict Family')
    const cases: [unknown, string][] = [
      [
        {
          assignments: [
            { userId: users.ann, role: 'advisor' },
            { userId: users.ann.toUpperCase(), role: 'paraplanner' },
          ],
        },
        'assignment_user_repeated',
      ],
      [
        {
          assignments: [
            { userId: users.ann, role: 'leadAdvisor' },
            { userId: users.ben, role: 'leadAdvisor' },
          ],
        },
        'assignment_lead_advisor_repeated',
      ],
      [{ assignments: [{ userId: users.ann, role: 'boss' }] }, 'invalid_body'],
      [{ assignments: [{ userId: 'ann', role: 'advisor' }] }, 'invalid_body'],
      [{ assignments: [{ userId: `urn:uuid:${users.ann}`, role: 'advisor' }] }, 'invalid_body'],
      [{ assignments: [{ userId: users.ann, role: 'advisor', extra: 1 }] }, 'invalid_body'],
      [
        {
          assignments: Array.from({ length: MAX_ASSIGNMENTS + 1 }, () => ({
            userId: crypto.randomUUID(),
            role: 'advisor',
          })),
        },
        'invalid_body',
      ],
      [{}, 'invalid_body'],
      [[], 'invalid_body'],
    ]
    for (const [body, code] of cases) {
      const refused = await put(`${REL}/${id}/assignments`, alice.key, body, etag)
      expect(refused.status, JSON.stringify(body).slice(0, 200)).toBe(400)
      expect(refused.body.code).toBe(code)
    }
    expect((await call(`${api.url}${REL}/${id}`, alice.key)).headers.get('etag')).toBe(etag)
  })

  it('needs If-Match (428) with the current ETag (412); * takes any version', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Careful Family')
    const body = { assignments: [{ userId: users.dan, role: 'leadAdvisor' }] }
    const missing = await put(`${REL}/${id}/assignments`, alice.key, body)
    expect(missing.status).toBe(428)
    expect(missing.body.code).toBe('precondition_required')
    const stale = await put(`${REL}/${id}/assignments`, alice.key, body, '"999999"')
    expect(stale.status).toBe(412)
    expect(stale.body.code).toBe('precondition_failed')
    const weak = await put(`${REL}/${id}/assignments`, alice.key, body, `W/${etag}`)
    expect(weak.status).toBe(412)
    const any = await put(`${REL}/${id}/assignments`, alice.key, body, '*')
    expect(any.status).toBe(200)
    const old = await put(`${REL}/${id}/assignments`, alice.key, body, etag)
    expect(old.status).toBe(412)
  })

  it("is 404 for another organization's household, an unknown id and a malformed one, on both methods", async () => {
    const { id, etag } = await createHousehold(bob.key, 'Bob Family')
    const body = { assignments: [{ userId: users.ann, role: 'advisor' }] }
    for (const target of [id, crypto.randomUUID(), 'not-a-uuid']) {
      const written = await put(`${REL}/${target}/assignments`, alice.key, body, etag)
      expect(written.status).toBe(404)
      expect(written.body.code).toBe('not_found')
      const read = await call(`${api.url}${REL}/${target}/assignments`, alice.key)
      expect(read.status).toBe(404)
    }
    // Bob's household is untouched.
    const bobRead = await call(`${api.url}${REL}/${id}`, bob.key)
    expect(bobRead.headers.get('etag')).toBe(etag)
    expect((bobRead.body.household as Record<string, unknown>).assignments).toEqual([])
  })

  it('needs relationships:write (or households:write) to PUT and relationships:read to GET', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Permission Family')
    const readOnly = await createKey(store.db, alice.orgId, ['relationships:read'])
    const legacyWrite = await createKey(store.db, alice.orgId, ['households:write'])
    const embedOnly = await createKey(store.db, alice.orgId, ['embed:chart'])
    const body = { assignments: [{ userId: users.ann, role: 'advisor' }] }
    expect((await put(`${REL}/${id}/assignments`, readOnly.key, body, etag)).status).toBe(403)
    expect((await call(`${api.url}${REL}/${id}/assignments`, readOnly.key)).status).toBe(200)
    expect((await call(`${api.url}${REL}/${id}/assignments`, embedOnly.key)).status).toBe(403)
    expect((await put(`${REL}/${id}/assignments`, legacyWrite.key, body, etag)).status).toBe(200)
  })

  it('works on the legacy path with deprecation headers and the same shape', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Legacy Family')
    const done = await put(
      `/api/v1/households/${id}/assignments`,
      alice.key,
      { assignments: [{ userId: users.ann, role: 'advisor' }] },
      etag,
    )
    expect(done.status).toBe(200)
    expect(done.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(done.headers.get('link')).toBe('</api/v1/relationships>; rel="successor-version"')
    expect(Object.keys(done.body)).toEqual(['household'])
    const read = await call(`${api.url}/api/v1/households/${id}/assignments`, alice.key)
    expect(read.status).toBe(200)
    expect(read.headers.get('deprecation')).toMatch(/^@\d+$/)
    expect(read.body).toEqual({ assignments: [{ userId: users.ann, name: 'Ann Advisor', role: 'advisor' }] })
    const current = await call(`${api.url}${REL}/${id}/assignments`, alice.key)
    expect(current.headers.get('deprecation')).toBeNull()
  })

  it('two PUTs with the same If-Match at once: exactly one wins, the other gets 412, no lost update', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, etag } = await createHousehold(alice.key, `Race Family ${round}`)
      const [a, b] = await Promise.all([
        put(`${REL}/${id}/assignments`, alice.key, { assignments: [{ userId: users.ann, role: 'leadAdvisor' }] }, etag),
        put(
          `${REL}/${id}/assignments`,
          alice.key,
          {
            assignments: [
              { userId: users.ben, role: 'advisor' },
              { userId: users.cat, role: 'paraplanner' },
            ],
          },
          etag,
        ),
      ])
      expect([a.status, b.status].sort()).toEqual([200, 412])
      const winner = a.status === 200 ? a : b
      const read = await call(`${api.url}${REL}/${id}`, alice.key)
      expect(read.headers.get('etag')).toBe(winner.headers.get('etag'))
      expect((read.body.household as Record<string, unknown>).assignments).toEqual(
        (winner.body.household as Record<string, unknown>).assignments,
      )
      expect(
        (await listAudit(store.db, alice.orgId, id, 100)).filter((e) => e.action === 'assignments.set'),
      ).toHaveLength(1)
    }
  })

  it('records assignments.set in the audit log with the key as actor and no values', async () => {
    const { id, etag } = await createHousehold(alice.key, 'Audited Family')
    const done = await put(
      `${REL}/${id}/assignments`,
      alice.key,
      { assignments: [{ userId: users.ann, role: 'advisor' }] },
      etag,
    )
    expect(done.status).toBe(200)
    const entries = (await listAudit(store.db, alice.orgId, id, 100)).filter((e) => e.action === 'assignments.set')
    expect(entries).toEqual([
      {
        at: expect.any(String),
        actorType: 'apiKey',
        actorId: alice.keyId,
        action: 'assignments.set',
        householdId: id,
        memberId: null,
        entityId: null,
        linkId: null,
        changed: ['assignments'],
      },
    ])
    expect(await listAudit(store.db, bob.orgId, id, 100)).toEqual([])
  })
})
