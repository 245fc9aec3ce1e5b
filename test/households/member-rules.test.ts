// The member use cases on real stores: members and their kinships (member-to-member relationships)
// added, changed and removed under the household's version, and every member and kinship rule
// refused as a RuleViolation that points at its field in the member's body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { createHousehold } from '../../src/households/households.ts'
import { addMember, MEMBERS_MAX, removeMember, updateMember } from '../../src/households/members.ts'
import { insertMembers } from '../../src/store/households.ts'
import { readMembersJson } from '../../src/store/members.ts'
import { listAudit } from '../../src/store/audit.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import type { Kinship, Member } from '../../src/schemas/member.ts'
import { actingPrincipal, expectViolation } from './use-cases.ts'

describe.each(storeKinds())('member use cases on %s', (kind) => {
  let store: TestStore
  let principal: ApiKeyPrincipal
  beforeAll(async () => {
    store = await openTestStore(kind)
    principal = await actingPrincipal(store, 'Members')
  })
  afterAll(async () => {
    await store?.drop()
  })

  async function newHousehold(name: string): Promise<string> {
    const created = await createHousehold(store.db, principal, { body: { name }, locationOf: (id) => id })
    return created.body.household.id
  }

  async function members(householdId: string): Promise<Member[]> {
    const found = await readMembersJson(store.db, principal.orgId, householdId)
    return JSON.parse(found?.body ?? '[]') as Member[]
  }

  it('adds members with kinships, moves the version each time and audits each', async () => {
    const householdId = await newHousehold('Kin')
    const ann = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: ' Ann ', role: 'primaryClient', email: ' ann@example.com ' },
    })
    expect(ann.version).toBe(2)
    const bo = await addMember(store.db, principal, {
      householdId,
      expected: [2],
      body: { name: 'Bo', role: 'child', relationships: [{ memberId: ann.memberId.toUpperCase(), type: 'parent' }] },
    })
    expect(bo.version).toBe(3)
    const listed = await members(householdId)
    expect(listed.map((m) => [m.name, m.email, m.relationships])).toEqual([
      ['Ann', 'ann@example.com', []],
      ['Bo', null, [{ memberId: ann.memberId, type: 'parent', parentKind: null, since: null, until: null }]],
    ])
    const audit = await listAudit(store.db, principal.orgId, householdId, 10)
    expect(audit.map((e) => [e.action, e.memberId, e.changed])).toEqual([
      ['household.create', null, ['name']],
      ['member.create', ann.memberId, ['email', 'name', 'role']],
      ['member.create', bo.memberId, ['name', 'relationships', 'role']],
    ])
  })

  it('names the field of each member rule', async () => {
    const householdId = await newHousehold('Fields')
    const add = (body: Record<string, unknown>) =>
      addMember(store.db, principal, { householdId, expected: '*', body: { name: 'X', role: 'child', ...body } })
    await expectViolation(add({ name: ' ' }), 'invalid_body', '/name')
    await expectViolation(add({ birthDate: '1700-01-01' }), 'invalid_body', '/birthDate')
    await expectViolation(add({ birthDate: '2000-01-02', deathDate: '2000-01-01' }), 'invalid_body', '/deathDate')
    await expectViolation(add({ email: 'not an address' }), 'invalid_body', '/email')
    await add({ role: 'primaryClient' })
    await expectViolation(add({ role: 'primaryClient' }), 'member_role_taken', '/role', 'already has a primaryClient')
    await expectViolation(
      add({ relationships: [{ memberId: 'nope', type: 'spouse' }] }),
      'invalid_body',
      '/relationships/0/memberId',
    )
    expect((await members(householdId)).length).toBe(1)
  })

  it('names the kinship entry each kinship rule refuses', async () => {
    const householdId = await newHousehold('Kinships')
    const add = async (name: string, relationships: Kinship[] = []) =>
      (
        await addMember(store.db, principal, {
          householdId,
          expected: '*',
          body: { name, role: 'child', relationships },
        })
      ).memberId
    const grandparent = await add('Grandparent')
    const parent = await add('Parent', [{ memberId: grandparent, type: 'parent' }])
    const child = await add('Child', [{ memberId: parent, type: 'parent' }])
    const stranger = '00000000-0000-4000-8000-000000000000'
    const patch = (memberId: string, relationships: Kinship[]) =>
      updateMember(store.db, principal, { householdId, memberId, expected: '*', patch: { relationships } })

    await expectViolation(
      patch(child, [
        { memberId: parent, type: 'parent' },
        { memberId: stranger, type: 'spouse' },
      ]),
      'relationship_member_unknown',
      '/relationships/1/memberId',
    )
    await expectViolation(
      patch(child, [{ memberId: child, type: 'spouse' }]),
      'relationship_self',
      '/relationships/0/memberId',
    )
    await expectViolation(
      patch(child, [
        { memberId: parent, type: 'parent' },
        { memberId: parent, type: 'spouse' },
      ]),
      'relationship_conflict',
      '/relationships/1/memberId',
    )
    // The parent's child cannot be its parent (nor its spouse: the pair has its link already).
    await expectViolation(
      patch(parent, [{ memberId: child, type: 'parent' }]),
      'relationship_cycle',
      '/relationships/0/memberId',
    )
    await expectViolation(
      patch(parent, [{ memberId: child, type: 'spouse' }]),
      'relationship_conflict',
      '/relationships/0/memberId',
    )
    // A longer loop is no one entry's fault: the set as a whole.
    await expectViolation(
      patch(grandparent, [{ memberId: child, type: 'parent' }]),
      'relationship_cycle',
      '/relationships',
    )
    expect((await members(householdId)).find((m) => m.id === grandparent)?.relationships).toEqual([])
  })

  it('updates a member under the version read and refuses a role taken, a stale version and a missing member', async () => {
    const householdId = await newHousehold('Updates')
    const first = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'A', role: 'primaryClient' },
    })
    const second = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'B', role: 'child' },
    })
    await expectViolation(
      updateMember(store.db, principal, {
        householdId,
        memberId: second.memberId,
        expected: '*',
        patch: { role: 'primaryClient' },
      }),
      'member_role_taken',
      '/role',
    )
    await expectViolation(
      updateMember(store.db, principal, {
        householdId,
        memberId: second.memberId,
        expected: [first.version],
        patch: { name: 'Late' },
      }),
      'precondition_failed',
      undefined,
    )
    await expectViolation(
      updateMember(store.db, principal, {
        householdId,
        memberId: '00000000-0000-4000-8000-000000000000',
        expected: '*',
        patch: { name: 'Nobody' },
      }),
      'not_found',
      undefined,
      'No member',
    )
    const updated = await updateMember(store.db, principal, {
      householdId,
      memberId: second.memberId,
      expected: [second.version],
      patch: { birthDate: '1990-05-05', relationships: [{ memberId: first.memberId, type: 'parent' }] },
    })
    expect(updated.version).toBe(second.version + 1)
    expect(JSON.parse(updated.value.body)).toMatchObject({ name: 'B', birthDate: '1990-05-05' })
  })

  it('removes a member with the kinships to them', async () => {
    const householdId = await newHousehold('Removal')
    const parent = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'P', role: 'parent' },
    })
    const child = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'C', role: 'child', relationships: [{ memberId: parent.memberId, type: 'parent' }] },
    })
    const removed = await removeMember(store.db, principal, {
      householdId,
      memberId: parent.memberId,
      expected: [child.version],
    })
    expect(removed.version).toBe(child.version + 1)
    expect((await members(householdId)).map((m) => [m.name, m.relationships])).toEqual([['C', []]])
    await expectViolation(
      removeMember(store.db, principal, { householdId, memberId: parent.memberId, expected: '*' }),
      'not_found',
      undefined,
    )
  })

  it("holds the chart's roles, a deceased spouse as a member, parent kinds and a couple's dates", async () => {
    const householdId = await newHousehold('Chart family')
    const add = async (body: Parameters<typeof addMember>[2]['body']) =>
      (await addMember(store.db, principal, { householdId, expected: '*', body })).memberId
    const client = await add({ name: 'Rose', role: 'primaryClient', externalId: 'crm:rose-1' })
    const late = await add({
      name: 'Walter',
      role: 'spouse',
      birthDate: '1940-02-01',
      deathDate: '2019-06-30',
      relationships: [{ memberId: client, type: 'spouse', since: '1962-05-05', until: '2019-06-30' }],
    })
    const son = await add({
      name: 'Sam',
      role: 'child',
      relationships: [
        { memberId: client, type: 'parent', parentKind: 'biological' },
        { memberId: late, type: 'parent', parentKind: 'adopted' },
      ],
    })
    const inLaw = await add({
      name: 'Ines',
      role: 'inLaw',
      relationships: [{ memberId: son, type: 'spouse', since: '1990-09-09', until: null }],
    })
    await add({
      name: 'Gus',
      role: 'greatGrandchild',
      relationships: [{ memberId: inLaw, type: 'parent', parentKind: 'step' }],
    })
    const listed = await members(householdId)
    expect(listed.map((m) => [m.name, m.role, m.externalId])).toEqual([
      ['Rose', 'primaryClient', 'crm:rose-1'],
      ['Walter', 'spouse', null],
      ['Sam', 'child', null],
      ['Ines', 'inLaw', null],
      ['Gus', 'greatGrandchild', null],
    ])
    const byName = new Map(listed.map((m) => [m.name, m]))
    // A couple's dates show on both members; a parent's kind on the child.
    const marriage = { type: 'spouse', parentKind: null, since: '1962-05-05', until: '2019-06-30' }
    expect(byName.get('Rose')?.relationships).toEqual([{ memberId: late, ...marriage }])
    expect(byName.get('Walter')?.relationships).toEqual([{ memberId: client, ...marriage }])
    expect(byName.get('Walter')?.deathDate).toBe('2019-06-30')
    expect(byName.get('Sam')?.relationships).toEqual([
      { memberId: client, type: 'parent', parentKind: 'biological', since: null, until: null },
      { memberId: late, type: 'parent', parentKind: 'adopted', since: null, until: null },
      { memberId: inLaw, type: 'spouse', parentKind: null, since: '1990-09-09', until: null },
    ])
    expect(byName.get('Gus')?.relationships).toEqual([
      { memberId: inLaw, type: 'parent', parentKind: 'step', since: null, until: null },
    ])
  })

  it('names the kinship detail each rule refuses', async () => {
    const householdId = await newHousehold('Details')
    const other = (
      await addMember(store.db, principal, { householdId, expected: '*', body: { name: 'Other', role: 'coClient' } })
    ).memberId
    const add = (relationships: Kinship[]) =>
      addMember(store.db, principal, { householdId, expected: '*', body: { name: 'X', role: 'child', relationships } })
    await expectViolation(
      add([{ memberId: other, type: 'spouse', parentKind: 'adopted' }]),
      'invalid_body',
      '/relationships/0/parentKind',
      'only for parent relationships',
    )
    await expectViolation(
      add([{ memberId: other, type: 'parent', since: '2000-01-01' }]),
      'invalid_body',
      '/relationships/0/since',
      'only for spouse, partner and exSpouse',
    )
    await expectViolation(
      add([{ memberId: other, type: 'parent', until: '2000-01-01' }]),
      'invalid_body',
      '/relationships/0/until',
    )
    await expectViolation(
      add([{ memberId: other, type: 'exSpouse', since: '2001-01-01', until: '2000-12-31' }]),
      'invalid_body',
      '/relationships/0/until',
      'must not be before since',
    )
    await expectViolation(
      add([{ memberId: other, type: 'partner', since: '2023-02-30' }]),
      'invalid_body',
      '/relationships/0/since',
      'real calendar date',
    )
    await expectViolation(
      add([{ memberId: other, type: 'partner', since: '9999-01-01' }]),
      'invalid_body',
      '/relationships/0/since',
    )
    await expectViolation(
      add([
        { memberId: other, type: 'spouse', since: '2001-01-01' },
        { memberId: other, type: 'spouse', since: '2002-02-02' },
      ]),
      'relationship_conflict',
      '/relationships/1/memberId',
      'different details',
    )
    // The same entry twice is one entry.
    const twice = await add([
      { memberId: other, type: 'partner', since: '2001-01-01' },
      { memberId: other, type: 'partner', since: '2001-01-01', until: null },
    ])
    expect(JSON.parse(twice.member.body)).toMatchObject({
      relationships: [{ memberId: other, type: 'partner', parentKind: null, since: '2001-01-01', until: null }],
    })
  })

  it('keeps an externalId unique in its household, naming the field', async () => {
    const householdId = await newHousehold('External ids')
    const first = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'First', role: 'child', externalId: 'p-1' },
    })
    await expectViolation(
      addMember(store.db, principal, {
        householdId,
        expected: '*',
        body: { name: 'Second', role: 'child', externalId: 'p-1' },
      }),
      'member_external_id_taken',
      '/externalId',
      'already has externalId p-1',
    )
    const second = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'Second', role: 'child', externalId: 'p-2' },
    })
    await expectViolation(
      updateMember(store.db, principal, {
        householdId,
        memberId: second.memberId,
        expected: '*',
        patch: { externalId: 'p-1' },
      }),
      'member_external_id_taken',
      '/externalId',
    )
    // Its own id again, another field changed, is no conflict; cleared, the id is free for another.
    await updateMember(store.db, principal, {
      householdId,
      memberId: first.memberId,
      expected: '*',
      patch: { externalId: 'p-1', name: 'First again' },
    })
    await updateMember(store.db, principal, {
      householdId,
      memberId: first.memberId,
      expected: '*',
      patch: { externalId: null },
    })
    await updateMember(store.db, principal, {
      householdId,
      memberId: second.memberId,
      expected: '*',
      patch: { externalId: 'p-1' },
    })
    // Another household may use the same id.
    const elsewhere = await newHousehold('Elsewhere')
    await addMember(store.db, principal, {
      householdId: elsewhere,
      expected: '*',
      body: { name: 'Twin', role: 'child', externalId: 'p-1' },
    })
    expect((await members(householdId)).map((m) => [m.name, m.externalId])).toEqual([
      ['First again', null],
      ['Second', 'p-1'],
    ])
    const audit = await listAudit(store.db, principal.orgId, householdId, 10)
    expect(audit.filter((e) => e.memberId === first.memberId).map((e) => [e.action, e.changed])).toEqual([
      ['member.create', ['externalId', 'name', 'role']],
      ['member.update', ['externalId', 'name']],
      ['member.update', ['externalId']],
    ])
  })

  it('refuses a member past the most a household can have, naming the body', async () => {
    const householdId = await newHousehold('Full')
    await insertMembers(
      store.db,
      householdId,
      Array.from({ length: MEMBERS_MAX }, (_, i) => ({ name: `M${i}`, role: 'child' as const })),
    )
    await expectViolation(
      addMember(store.db, principal, { householdId, expected: '*', body: { name: 'One more', role: 'child' } }),
      'household_members_limit',
      '',
    )
  })
})
