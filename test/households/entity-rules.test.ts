// The entity use cases on real stores: entities added, changed and removed under the household's
// version, their valuation history, every rule refused as a RuleViolation that points at its field
// in the entity's body, and the audit log naming the fields (never the notes).
import { addMember } from '../../src/households/members.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { createHousehold } from '../../src/households/households.ts'
import { createEntity, deleteEntity, ENTITIES_MAX, listEntities, updateEntity } from '../../src/households/entities.ts'
import { readValuationsJson } from '../../src/store/entity-valuations.ts'
import { listAudit } from '../../src/store/audit.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import type { CreateEntityBody, Entity, Valuation } from '../../src/schemas/entity.ts'
import { actingPrincipal, expectViolation } from './use-cases.ts'

describe.each(storeKinds())('entity use cases on %s', (kind) => {
  let store: TestStore
  let principal: ApiKeyPrincipal
  beforeAll(async () => {
    store = await openTestStore(kind)
    principal = await actingPrincipal(store, 'Entities')
  })
  afterAll(async () => {
    await store?.drop()
  })

  async function newHousehold(name: string): Promise<string> {
    const created = await createHousehold(store.db, principal, { body: { name }, locationOf: (id) => id })
    return created.body.household.id
  }
  const create = (householdId: string, body: CreateEntityBody) =>
    createEntity(store.db, principal, { householdId, expected: '*', body })
  const update = (householdId: string, entityId: string, patch: Record<string, unknown>) =>
    updateEntity(store.db, principal, { householdId, entityId, expected: '*', patch })
  const entityOf = (json: { body: string }) => JSON.parse(json.body) as Entity
  async function valuations(householdId: string, entityId: string): Promise<Valuation[]> {
    const found = await readValuationsJson(store.db, principal.orgId, householdId, entityId)
    return JSON.parse(found?.body ?? 'null') as Valuation[]
  }

  it('creates, patches and deletes entities under the household version, with defaults and estate as counted', async () => {
    const householdId = await newHousehold('Estate')
    const slat = await create(householdId, {
      name: '  Spousal Lifetime Access Trust ',
      shortName: ' SLAT-C ',
      kind: 'slat',
      value: 2500000.5,
      valueAsOf: '2025-01-31',
      externalId: 'slat-c',
    })
    expect(slat.version).toBe(2)
    expect(entityOf(slat.entity)).toEqual({
      id: slat.entityId,
      name: 'Spousal Lifetime Access Trust',
      shortName: 'SLAT-C',
      kind: 'slat',
      value: 2500000.5,
      valueAsOf: '2025-01-31',
      estate: 'out',
      estateSet: false,
      notes: null,
      externalId: 'slat-c',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    })
    const trustee = await create(householdId, { name: 'First Fiduciary', kind: 'corporateTrustee' })
    expect(entityOf(trustee.entity)).toMatchObject({ estate: null, estateSet: false, value: null })
    expect(trustee.version).toBe(3)

    const moved = await updateEntity(store.db, principal, {
      householdId,
      entityId: slat.entityId,
      expected: [3],
      patch: { estate: 'in', shortName: null, notes: 'Funded in 2024' },
    })
    expect(moved.version).toBe(4)
    expect(entityOf(moved.value)).toMatchObject({
      estate: 'in',
      estateSet: true,
      shortName: null,
      notes: 'Funded in 2024',
    })
    const back = await update(householdId, slat.entityId, { estate: null })
    expect(entityOf(back.value)).toMatchObject({ estate: 'out', estateSet: false })

    expect((await listEntities(store.db, householdId)).map((e) => e.name)).toEqual([
      'Spousal Lifetime Access Trust',
      'First Fiduciary',
    ])
    await expectViolation(
      updateEntity(store.db, principal, { householdId, entityId: slat.entityId, expected: [3], patch: { name: 'X' } }),
      'precondition_failed',
      undefined,
    )
    const removed = await deleteEntity(store.db, principal, { householdId, entityId: slat.entityId, expected: [5] })
    expect(removed.version).toBe(6)
    expect((await listEntities(store.db, householdId)).map((e) => e.id)).toEqual([trustee.entityId])
    await expectViolation(
      deleteEntity(store.db, principal, { householdId, entityId: slat.entityId, expected: '*' }),
      'not_found',
      undefined,
    )
    await expectViolation(update(householdId, slat.entityId, { name: 'Gone' }), 'not_found', undefined)
    // Its valuations went with it.
    const left = await store.db
      .selectFrom('entity_valuations')
      .select('id')
      .where('entity_id', '=', slat.entityId)
      .execute()
    expect(left).toEqual([])
  })

  it('keeps a valuation per create with a value and per change of value or valueAsOf, newest first', async () => {
    const householdId = await newHousehold('Valued')
    const bare = await create(householdId, { name: 'Brokerage', kind: 'taxableAccount' })
    expect(await valuations(householdId, bare.entityId)).toEqual([])
    await update(householdId, bare.entityId, { name: 'Brokerage account' })
    expect(await valuations(householdId, bare.entityId)).toEqual([])
    await update(householdId, bare.entityId, { value: 100, valueAsOf: '2024-12-31' })
    await update(householdId, bare.entityId, { value: 100 })
    await update(householdId, bare.entityId, { valueAsOf: '2025-03-31' })
    await update(householdId, bare.entityId, { value: 250.25, valueAsOf: '2025-06-30' })
    await update(householdId, bare.entityId, { value: null })
    const history = await valuations(householdId, bare.entityId)
    expect(history.map((v) => [v.value, v.valueAsOf])).toEqual([
      [null, '2025-06-30'],
      [250.25, '2025-06-30'],
      [100, '2025-03-31'],
      [100, '2024-12-31'],
    ])
    expect(history.every((v) => v.recordedAt.endsWith('Z'))).toBe(true)

    const valued = await create(householdId, { name: 'House', kind: 'realEstate', value: 900000 })
    expect((await valuations(householdId, valued.entityId)).map((v) => [v.value, v.valueAsOf])).toEqual([
      [900000, null],
    ])
  })

  it('names the field of each field rule and leaves nothing written', async () => {
    const householdId = await newHousehold('Fields')
    const add = (body: Partial<CreateEntityBody>) => create(householdId, { name: 'X', kind: 'llc', ...body })
    await expectViolation(add({ name: '  ' }), 'invalid_body', '/name')
    await expectViolation(add({ shortName: 'x'.repeat(41) }), 'invalid_body', '/shortName', 'at most 40')
    await expectViolation(add({ value: 1.005 }), 'invalid_body', '/value', '2 decimals')
    await expectViolation(add({ valueAsOf: '2999-01-01' }), 'invalid_body', '/valueAsOf')
    await expectViolation(add({ valueAsOf: '2023-02-29' }), 'invalid_body', '/valueAsOf')
    await expectViolation(add({ notes: 'a\u0000b' }), 'invalid_body', '/notes')
    expect(await listEntities(store.db, householdId)).toEqual([])

    const llc = await add({ name: 'Family LLC' })
    await expectViolation(update(householdId, llc.entityId, { name: '\u0007' }), 'invalid_body', '/name')
    await expectViolation(update(householdId, llc.entityId, { value: -0.001 }), 'invalid_body', '/value')
  })

  it('refuses a party with a value, valueAsOf or estate (entity_party_value), pointing at what was sent', async () => {
    const householdId = await newHousehold('Parties')
    const party = (body: Partial<CreateEntityBody>) =>
      create(householdId, { name: 'Law Firm', kind: 'lawFirm', ...body })
    await expectViolation(party({ value: 1 }), 'entity_party_value', '/value', 'party')
    await expectViolation(party({ valueAsOf: '2024-01-01' }), 'entity_party_value', '/valueAsOf')
    await expectViolation(party({ estate: 'out' }), 'entity_party_value', '/estate')
    // null is not set, so a party may send it.
    const firm = await party({ value: null, estate: null })
    await expectViolation(update(householdId, firm.entityId, { estate: 'in' }), 'entity_party_value', '/estate')

    // A kind that becomes a party while a value is stored: the refusal names kind.
    const account = await create(householdId, { name: 'Account', kind: 'retirementAccount', value: 10 })
    await expectViolation(update(householdId, account.entityId, { kind: 'otherParty' }), 'entity_party_value', '/kind')
    // Clearing the value in the same patch makes it fine.
    const cleared = await update(householdId, account.entityId, { kind: 'otherParty', value: null })
    expect(entityOf(cleared.value)).toMatchObject({ kind: 'otherParty', value: null, estate: null })
  })

  it('refuses a kind that becomes a party while the entity is owned, a beneficiary target or insured (link_party_owned)', async () => {
    const householdId = await newHousehold('Owned')
    const owner = await create(householdId, { name: 'Holding LLC', kind: 'llc' })
    const owned = await create(householdId, { name: 'Operating Co', kind: 'corporation' })
    const trust = await create(householdId, { name: 'Trust', kind: 'irrevocableTrust' })
    // A trustee link does not stop it: a party may be a trustee.
    await store.db
      .insertInto('entity_links')
      .values([
        { household_id: householdId, from_entity_id: owned.entityId, to_entity_id: trust.entityId, type: 'trustee' },
        {
          household_id: householdId,
          from_entity_id: owner.entityId,
          to_entity_id: owned.entityId,
          type: 'owner',
          share: 100,
        },
      ])
      .execute()
    await expectViolation(
      update(householdId, owned.entityId, { kind: 'corporateTrustee' }),
      'link_party_owned',
      '/kind',
      'remove those links first',
    )
    // Once no one owns it, it becomes a corporate trustee and stays the trust's trustee: a party may be one.
    await store.db.deleteFrom('entity_links').where('to_entity_id', '=', owned.entityId).execute()
    const became = await update(householdId, owned.entityId, { kind: 'corporateTrustee' })
    expect(entityOf(became.value).kind).toBe('corporateTrustee')
  })

  it('refuses a kind its links no longer fit, and a party kind for an entity that owns or benefits (/kind)', async () => {
    const householdId = await newHousehold('Kinds')
    const policy = await create(householdId, { name: 'Policy', kind: 'lifeInsurance' })
    const llc = await create(householdId, { name: 'Holding LLC', kind: 'llc' })
    const partner = await create(householdId, { name: 'Family LP', kind: 'flp' })
    const insured = await addMember(store.db, principal, {
      householdId,
      expected: '*',
      body: { name: 'Ann', role: 'other' },
    })
    await store.db
      .insertInto('entity_links')
      .values([
        { household_id: householdId, from_member_id: insured.memberId, to_entity_id: policy.entityId, type: 'insured' },
        {
          household_id: householdId,
          from_entity_id: partner.entityId,
          to_entity_id: llc.entityId,
          type: 'owner',
          share: 60,
        },
      ])
      .execute()
    // insured goes to life insurance only: the policy cannot become a brokerage account while insured.
    await expectViolation(
      update(householdId, policy.entityId, { kind: 'taxableAccount' }),
      'link_kind_mismatch',
      '/kind',
      'remove its insured links first',
    )
    // An owner of another entity cannot become a party, which holds nothing.
    await expectViolation(
      update(householdId, partner.entityId, { kind: 'lawFirm' }),
      'link_party_owned',
      '/kind',
      'owner of another entity',
    )
    // A kind its links still fit is taken.
    const renamed = await update(householdId, llc.entityId, { kind: 'corporation' })
    expect(entityOf(renamed.value).kind).toBe('corporation')
  })

  it('keeps externalId unique per household (entity_external_id_taken)', async () => {
    const householdId = await newHousehold('External')
    const otherHousehold = await newHousehold('External elsewhere')
    const first = await create(householdId, { name: 'A', kind: 'grat', externalId: 'grat-1' })
    await expectViolation(
      create(householdId, { name: 'B', kind: 'grat', externalId: 'grat-1' }),
      'entity_external_id_taken',
      '/externalId',
    )
    // Another household may use it.
    await create(otherHousehold, { name: 'B', kind: 'grat', externalId: 'grat-1' })
    const second = await create(householdId, { name: 'B', kind: 'grat', externalId: 'grat-2' })
    await expectViolation(
      update(householdId, second.entityId, { externalId: 'grat-1' }),
      'entity_external_id_taken',
      '/externalId',
    )
    // Re-sending its own is fine; clearing frees it.
    await update(householdId, first.entityId, { externalId: 'grat-1' })
    await update(householdId, first.entityId, { externalId: null })
    await update(householdId, second.entityId, { externalId: 'grat-1' })
  })

  it(`refuses an entity past the most one household can have (${ENTITIES_MAX}, household_entities_limit)`, async () => {
    const householdId = await newHousehold('Full')
    await store.db
      .insertInto('entities')
      .values(
        Array.from({ length: ENTITIES_MAX }, (_, i) => ({
          household_id: householdId,
          name: `Holding ${i}`,
          kind: 'otherAsset' as const,
          position: i,
        })),
      )
      .execute()
    await expectViolation(create(householdId, { name: 'One too many', kind: 'llc' }), 'household_entities_limit', '')
    expect(await listEntities(store.db, householdId)).toHaveLength(ENTITIES_MAX)
  })

  it('audits every write with the names of the fields sent, never their values; refusals record nothing', async () => {
    const householdId = await newHousehold('Audited')
    const trust = await create(householdId, {
      name: 'ILIT',
      kind: 'ilit',
      notes: 'secret: the policy number is 12345',
      shortName: null,
    })
    await update(householdId, trust.entityId, { notes: 'another secret', value: 5 })
    await create(householdId, { name: 'Refused', kind: 'lawFirm', value: 1 }).catch(() => undefined)
    await update(householdId, trust.entityId, { valueAsOf: '2999-01-01' }).catch(() => undefined)
    await deleteEntity(store.db, principal, { householdId, entityId: trust.entityId, expected: '*' })
    const audit = await listAudit(store.db, principal.orgId, householdId, 10)
    expect(audit.map((e) => [e.action, e.entityId, e.changed])).toEqual([
      ['household.create', null, ['name']],
      ['entity.create', trust.entityId, ['kind', 'name', 'notes']],
      ['entity.update', trust.entityId, ['notes', 'value']],
      ['entity.delete', trust.entityId, []],
    ])
    const rows = await store.db.selectFrom('audit_log').selectAll().where('household_id', '=', householdId).execute()
    expect(JSON.stringify(rows)).not.toContain('secret')
  })
})
