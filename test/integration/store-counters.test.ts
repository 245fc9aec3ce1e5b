// The per-org and per-household counters and the search text are kept by triggers in the
// writing transaction: they stay exact under concurrent writes, deletes, rollbacks and bulk loads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { createOrg, householdCounts } from '../../src/store/orgs.ts'
import { insertHousehold, insertMembers } from '../../src/store/households.ts'
import { addSampleHouseholds } from '../../src/store/samples.ts'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { EMPTY_FIELDS } from '../helpers/seed.ts'

describe.each(storeKinds())('counters on %s', (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind)
  })
  afterAll(async () => {
    await store?.drop()
  })

  async function orgCounts(orgId: string) {
    const row = await householdCounts(store.db, orgId)
    const actual = await store.db
      .selectFrom('households')
      .select([sql<number>`count(*)::int`.as('n'), sql<number>`(count(*) FILTER (WHERE is_sample))::int`.as('s')])
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow()
    return { counter: [row.households, row.samples], actual: [actual.n, actual.s] }
  }

  it('match the rows after concurrent creates, deletes, sample flips and a rollback', async () => {
    const org = await createOrg(store.db, 'Counters')
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        insertHousehold(store.db, org.id, { ...EMPTY_FIELDS, name: `H${i}` }, i % 4 === 0),
      ),
    )
    await store.db
      .deleteFrom('households')
      .where('org_id', '=', org.id)
      .where('name', 'in', ['H1', 'H2', 'H4'])
      .execute()
    await store.db
      .updateTable('households')
      .set({ is_sample: true })
      .where('org_id', '=', org.id)
      .where('name', '=', 'H3')
      .execute()
    await store.db
      .updateTable('households')
      .set({ is_sample: false })
      .where('org_id', '=', org.id)
      .where('name', '=', 'H8')
      .execute()
    await expect(
      store.db.transaction().execute(async (trx) => {
        await insertHousehold(trx, org.id, { ...EMPTY_FIELDS, name: 'rolled back' })
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    const counts = await orgCounts(org.id)
    expect(counts.counter).toEqual(counts.actual)
    expect(counts.actual).toEqual([37, 9])
  })

  it('follow a bulk insert of many rows in one statement', async () => {
    const org = await createOrg(store.db, 'Bulk')
    await sql`INSERT INTO households (org_id, name, is_sample) SELECT ${org.id}::uuid, 'Bulk ' || g, g % 10 = 0 FROM generate_series(1, 500) g`.execute(
      store.db,
    )
    expect((await orgCounts(org.id)).counter).toEqual([500, 50])
  })

  it('keep member counts and search text in step with members', async () => {
    const org = await createOrg(store.db, 'Members')
    const household = await insertHousehold(store.db, org.id, {
      ...EMPTY_FIELDS,
      name: 'Zed Household',
      deceasedSpouseName: 'Quentin Zed',
    })
    await insertMembers(store.db, household.id, [
      { name: 'Xavier Zed', role: 'primaryClient' },
      { name: 'Yolanda Zed', role: 'coClient' },
    ])
    const read = () =>
      store.db
        .selectFrom('households')
        .select(['member_count', 'search_text'])
        .where('id', '=', household.id)
        .executeTakeFirstOrThrow()
    expect(await read()).toEqual({ member_count: 2, search_text: 'zed household quentin zed xavier zed yolanda zed' })
    await store.db
      .updateTable('members')
      .set({ name: 'Xena Zed' })
      .where('household_id', '=', household.id)
      .where('role', '=', 'primaryClient')
      .execute()
    await store.db
      .deleteFrom('members')
      .where('household_id', '=', household.id)
      .where('role', '=', 'coClient')
      .execute()
    expect(await read()).toEqual({ member_count: 1, search_text: 'zed household quentin zed xena zed' })
  })

  it('refuse a second primary client and moving a household to another org', async () => {
    const org = await createOrg(store.db, 'Rules')
    const other = await createOrg(store.db, 'Other')
    const household = await insertHousehold(store.db, org.id, { ...EMPTY_FIELDS, name: 'Rules' })
    await insertMembers(store.db, household.id, [{ name: 'One', role: 'primaryClient' }])
    await expect(insertMembers(store.db, household.id, [{ name: 'Two', role: 'primaryClient' }])).rejects.toThrow()
    await expect(
      store.db.updateTable('households').set({ org_id: other.id }).where('id', '=', household.id).execute(),
    ).rejects.toThrow(/cannot move/)
  })

  it('adds the sample households once, with members, kinships, entities, links and advisors', async () => {
    const org = await createOrg(store.db, 'Samples')
    expect(await addSampleHouseholds(store.db, org.id)).toEqual({ added: SAMPLE_HOUSEHOLDS.length, skipped: 0 })
    expect(await addSampleHouseholds(store.db, org.id)).toEqual({ added: 0, skipped: SAMPLE_HOUSEHOLDS.length })
    const counts = await orgCounts(org.id)
    expect(counts.counter).toEqual([SAMPLE_HOUSEHOLDS.length, SAMPLE_HOUSEHOLDS.length])
    const members = await store.db
      .selectFrom('households')
      .select(sql<number>`sum(member_count)::int`.as('n'))
      .where('org_id', '=', org.id)
      .executeTakeFirstOrThrow()
    expect(members.n).toBe(SAMPLE_HOUSEHOLDS.reduce((sum, h) => sum + h.members.length, 0))
    const assignments = await store.db
      .selectFrom('households')
      .select(sql<number>`sum(assignment_count)::int`.as('n'))
      .where('org_id', '=', org.id)
      .executeTakeFirstOrThrow()
    expect(assignments.n).toBe(SAMPLE_HOUSEHOLDS.reduce((sum, h) => sum + h.assignments.length, 0))
    const count = async (table: 'member_relationships' | 'entities' | 'entity_links' | 'entity_valuations') =>
      (
        await store.db
          .selectFrom(table)
          .innerJoin('households', 'households.id', `${table}.household_id`)
          .select(sql<number>`count(*)::int`.as('n'))
          .where('households.org_id', '=', org.id)
          .executeTakeFirstOrThrow()
      ).n
    const total = (count: (h: (typeof SAMPLE_HOUSEHOLDS)[number]) => number) =>
      SAMPLE_HOUSEHOLDS.reduce((sum, h) => sum + count(h), 0)
    expect(await count('member_relationships')).toBe(total((h) => h.kinships.length))
    expect(await count('entities')).toBe(total((h) => h.entities.length))
    expect(await count('entity_links')).toBe(total((h) => h.links.length))
    expect(await count('entity_valuations')).toBe(total((h) => h.entities.filter((e) => e.value !== undefined).length))
    const entityCounts = await store.db
      .selectFrom('households')
      .select(sql<number>`sum(entity_count)::int`.as('n'))
      .where('org_id', '=', org.id)
      .executeTakeFirstOrThrow()
    expect(entityCounts.n).toBe(total((h) => h.entities.length))
  })
})
