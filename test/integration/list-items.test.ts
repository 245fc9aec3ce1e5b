// Stored list items (migration 0017): after any sequence of writes through the API (households,
// members, assignments, entities, whole documents by externalId, deletes) and of users' names, every
// household's stored item equals the item built from its rows by the list's own expression
// (LIST_ITEM_PAIRS), on both stores. A write path that did not rewrite the item, or a list-item field
// the migration's function does not have, fails it and names the household.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { LIST_ITEM_PAIRS } from '../../src/store/households.ts'
import { rebuildListItems } from '../../src/store/list-items.ts'
import { ASSIGNMENT_ROLES, MEMBER_ROLES } from '../../src/domain/household-roles.ts'

const REL = '/api/v1/relationships'

type Write =
  | { op: 'createHousehold'; name: string }
  | { op: 'patchHousehold'; at: number; name: string; externalId: string | null }
  | { op: 'deleteHousehold'; at: number }
  | { op: 'addMember'; at: number; name: string; role: (typeof MEMBER_ROLES)[number] }
  | { op: 'patchMember'; at: number; member: number; name: string; role: (typeof MEMBER_ROLES)[number] }
  | { op: 'deleteMember'; at: number; member: number }
  | { op: 'assign'; at: number; users: number[]; role: (typeof ASSIGNMENT_ROLES)[number] }
  | { op: 'renameUser'; user: number; name: string }
  | { op: 'addEntity'; at: number; name: string }
  | { op: 'deleteEntity'; at: number; entity: number }
  | { op: 'putDocument'; externalId: string; name: string; members: string[] }

const name = fc.stringMatching(/^[A-Za-z][A-Za-z '"<>&é]{0,11}$/)
const at = fc.nat(7)
/** A member of the household (most have two or three). */
const part = fc.nat(2)
/** Mostly roles a household may have many of, so that most member writes are not refused. */
const role = fc.oneof(
  { arbitrary: fc.constant('child' as const), weight: 3 },
  { arbitrary: fc.constantFrom(...MEMBER_ROLES), weight: 1 },
)
const WRITE_KINDS: readonly Write['op'][] = [
  'createHousehold',
  'patchHousehold',
  'deleteHousehold',
  'addMember',
  'patchMember',
  'deleteMember',
  'assign',
  'renameUser',
  'addEntity',
  'deleteEntity',
  'putDocument',
]
/** Writes, weighted so that households usually have members and entities to change. */
const write: fc.Arbitrary<Write> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('createHousehold' as const), name }), weight: 2 },
  {
    arbitrary: fc.record({
      op: fc.constant('patchHousehold' as const),
      at,
      name,
      externalId: fc.option(fc.constantFrom('crm-1', 'crm-2', 'crm-3'), { nil: null }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('deleteHousehold' as const), at }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('addMember' as const), at, name, role }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('patchMember' as const), at, member: part, name, role }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('deleteMember' as const), at, member: part }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('assign' as const),
      at,
      users: fc.uniqueArray(fc.nat(2), { maxLength: 3 }),
      role: fc.constantFrom(...ASSIGNMENT_ROLES),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant('renameUser' as const), user: fc.nat(2), name }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('addEntity' as const), at, name }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('deleteEntity' as const), at, entity: part }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('putDocument' as const),
      externalId: fc.constantFrom('doc-1', 'doc-2'),
      name,
      members: fc.uniqueArray(name, { maxLength: 3 }),
    }),
    weight: 1,
  },
)

/** One of each kind of write, each on the org's first household and its first member or entity. */
const EVERY_KIND_ONCE: Write[] = [
  { op: 'createHousehold', name: 'First' },
  { op: 'addMember', at: 0, name: 'Ann', role: 'child' },
  { op: 'addMember', at: 0, name: 'Bob', role: 'child' },
  { op: 'patchMember', at: 0, member: 0, name: 'Anne', role: 'child' },
  { op: 'deleteMember', at: 0, member: 1 },
  { op: 'addEntity', at: 0, name: 'Trust' },
  { op: 'deleteEntity', at: 0, entity: 0 },
  { op: 'assign', at: 0, users: [0, 1], role: 'leadAdvisor' },
  { op: 'renameUser', user: 0, name: 'Ann Renamed' },
  { op: 'patchHousehold', at: 0, name: 'First Again', externalId: 'crm-1' },
  { op: 'putDocument', externalId: 'doc-1', name: 'Doc', members: ['Cy'] },
  { op: 'deleteHousehold', at: 0 },
]

describe.each(storeKinds())('stored list items on %s', (kind) => {
  let store: TestStore
  let api: TestApp
  let org: { orgId: string; key: string }
  let users: string[]
  /** The writes of each kind that succeeded, over all runs: the property must not pass on refusals alone. */
  const succeeded = new Map<Write['op'], number>()

  beforeAll(async () => {
    store = await openTestStore(kind)
    api = await startApp(store)
    org = await createOrgWithKey(store.db)
    users = []
    for (const person of ['Ann Advisor', 'Ben Planner', 'Cat Lead']) {
      const row = await store.db
        .insertInto('users')
        .values({
          org_id: org.orgId,
          email: `${person.split(' ')[0]?.toLowerCase()}@example.com`,
          name: person,
          role: 'advisor',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      users.push(row.id)
    }
  })
  afterAll(async () => {
    await api?.close()
    await store?.drop()
  })

  const request = (path: string, method: string, body?: unknown) =>
    call(`${api.url}${REL}${path}`, org.key, { method, body, headers: { 'if-match': '*' } })

  /** The organization's households, or only those with members or entities (the ones a write to one can pick). */
  async function households(having?: 'members' | 'entities'): Promise<string[]> {
    let query = store.db.selectFrom('households').select('id').where('org_id', '=', org.orgId)
    if (having === 'members') query = query.where('member_count', '>', 0)
    if (having === 'entities') query = query.where('entity_count', '>', 0)
    const rows = await query.orderBy('created_at').orderBy('id').execute()
    return rows.map((row) => row.id)
  }

  async function partIds(householdId: string, part: 'members' | 'entities'): Promise<string[]> {
    const rows = await store.db
      .selectFrom(part)
      .select('id')
      .where('household_id', '=', householdId)
      .orderBy('position')
      .orderBy('id')
      .execute()
    return rows.map((row) => row.id)
  }

  /** Runs one write; answers whether it was done (a refusal by the API's rules is a fair outcome). */
  async function run(step: Write): Promise<boolean> {
    if (step.op === 'createHousehold') return (await request('', 'POST', { name: step.name })).status === 201
    if (step.op === 'renameUser') {
      const user = users[step.user]
      if (!user) return false
      await store.db.updateTable('users').set({ name: step.name }).where('id', '=', user).execute()
      return true
    }
    if (step.op === 'putDocument') {
      const members = step.members.map((person, i) => ({ externalId: `m${i}`, name: person, role: 'child' }))
      const path = `${api.url}${REL}/by-external-id/${step.externalId}`
      const body = { name: step.name, members }
      // A create must not say If-Match (there is nothing to match); a replace must.
      let put = await call(path, org.key, { method: 'PUT', body })
      if (put.status === 428) put = await call(path, org.key, { method: 'PUT', body, headers: { 'if-match': '*' } })
      return put.status === 200 || put.status === 201
    }
    const having =
      step.op === 'patchMember' || step.op === 'deleteMember'
        ? 'members'
        : step.op === 'deleteEntity'
          ? 'entities'
          : undefined
    const all = await households(having)
    const id = all[step.at % Math.max(1, all.length)]
    if (id === undefined) return false
    switch (step.op) {
      case 'patchHousehold':
        return (await request(`/${id}`, 'PATCH', { name: step.name, externalId: step.externalId })).status === 200
      case 'deleteHousehold':
        return (await request(`/${id}`, 'DELETE')).status === 204
      case 'addMember':
        return (await request(`/${id}/members`, 'POST', { name: step.name, role: step.role })).status === 201
      case 'patchMember': {
        const member = (await partIds(id, 'members'))[step.member]
        if (!member) return false
        return (await request(`/${id}/members/${member}`, 'PATCH', { name: step.name, role: step.role })).status === 200
      }
      case 'deleteMember': {
        const member = (await partIds(id, 'members'))[step.member]
        if (!member) return false
        return (await request(`/${id}/members/${member}`, 'DELETE')).status === 204
      }
      case 'assign': {
        const assignments = step.users.map((user, i) => ({
          userId: users[user],
          role: i === 0 ? step.role : 'advisor',
        }))
        return (await request(`/${id}/assignments`, 'PUT', { assignments })).status === 200
      }
      case 'addEntity':
        return (await request(`/${id}/entities`, 'POST', { name: step.name, kind: 'llc', value: 1000 })).status === 201
      case 'deleteEntity': {
        const entity = (await partIds(id, 'entities'))[step.entity]
        if (!entity) return false
        return (await request(`/${id}/entities/${entity}`, 'DELETE')).status === 204
      }
    }
  }

  /** The households whose stored item is not the item built from their rows now. */
  async function drifted() {
    const result = await sql<{ id: string; stored: string | null; built: string }>`
      SELECT h.id, i.item::text AS stored, json_build_object(${LIST_ITEM_PAIRS})::text AS built
      FROM households h LEFT JOIN household_list_items i ON i.household_id = h.id
      WHERE h.org_id = ${org.orgId} AND i.item::text IS DISTINCT FROM json_build_object(${LIST_ITEM_PAIRS})::text`.execute(
      store.db,
    )
    return result.rows
  }

  it('equal the items built from the rows after random sequences of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 20 }), async (steps) => {
        for (const step of steps) {
          if (await run(step)) succeeded.set(step.op, (succeeded.get(step.op) ?? 0) + 1)
        }
        expect(await drifted()).toEqual([])
      }),
      // First a sequence in which every kind of write succeeds: random runs alone left a kind (a
      // delete of a household's second entity, say) refused in every run about one time in five.
      { numRuns: 30, examples: [[EVERY_KIND_ONCE]] },
    )
    // Each kind of write really happened, not only refusals (the example sees to it; the 29 random
    // runs then mix them in any order).
    for (const op of WRITE_KINDS) {
      expect(succeeded.get(op) ?? 0, op).toBeGreaterThan(0)
    }
    // And the list answers the stored items: the page is the built items, in order.
    const list = await call(`${api.url}${REL}?sortBy=name&sortOrder=asc&pageSize=100`, org.key)
    const built = await sql<{ item: unknown }>`
      SELECT json_build_object(${LIST_ITEM_PAIRS}) AS item FROM households h WHERE h.org_id = ${org.orgId}
      ORDER BY lower(h.name) COLLATE "C", h.id`.execute(store.db)
    expect(list.body.households).toEqual(built.rows.map((row) => row.item))
  })

  it('follow a user renamed and a member added straight to the table', async () => {
    const created = await request('', 'POST', { name: 'Direct Writes' })
    const id = (created.body.household as { id: string }).id
    await request(`/${id}/assignments`, 'PUT', { assignments: [{ userId: users[0], role: 'leadAdvisor' }] })
    await store.db
      .updateTable('users')
      .set({ name: 'Ann Renamed' })
      .where('id', '=', users[0] ?? '')
      .execute()
    await store.db
      .insertInto('members')
      .values({ household_id: id, name: 'Straight In', role: 'child', position: 9 })
      .execute()
    const read = await call(`${api.url}${REL}?ids=${id}`, org.key)
    const item = (read.body.households as { assignments: { name: string }[]; members: { name: string }[] }[])[0]
    expect(item?.assignments.map((a) => a.name)).toEqual(['Ann Renamed'])
    expect(item?.members.map((m) => m.name)).toEqual(['Straight In'])
    expect(await drifted()).toEqual([])
  })

  it('are checked and rewritten by the rebuild when one went stale', async () => {
    const created = await request('', 'POST', { name: 'Before The Trigger Was Off' })
    const id = (created.body.household as { id: string }).id
    expect(await rebuildListItems(store.db)).toMatchObject({ rebuilt: 0 })
    // A write the trigger did not see (as after a restore, or with the trigger disabled by hand).
    await sql`ALTER TABLE households DISABLE TRIGGER households_list_items_update`.execute(store.db)
    await store.db.updateTable('households').set({ name: 'Renamed Behind Its Back' }).where('id', '=', id).execute()
    await sql`ALTER TABLE households ENABLE TRIGGER households_list_items_update`.execute(store.db)
    expect((await drifted()).map((row) => row.id)).toEqual([id])

    // And one lost altogether.
    const other = (await request('', 'POST', { name: 'Its Item Lost' })).body.household as { id: string }
    await store.db.deleteFrom('household_list_items').where('household_id', '=', other.id).execute()
    expect((await drifted()).map((row) => row.id).sort()).toEqual([id, other.id].sort())

    const rebuild = await rebuildListItems(store.db)
    expect(rebuild.rebuilt).toBe(2)
    expect(rebuild.checked).toBeGreaterThan(1)
    expect(await drifted()).toEqual([])
    const read = await call(`${api.url}${REL}?ids=${id}`, org.key)
    expect((read.body.households as { name: string }[])[0]?.name).toBe('Renamed Behind Its Back')
  })
})
