// The household use cases on real stores (PGlite, and PostgreSQL with DATABASE_URL): created,
// changed and deleted with their audit entries and versions; every refusal a RuleViolation that
// names its field. The HTTP tests (test/integration) keep the wire contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { createHousehold, deleteHousehold, updateHousehold } from '../../src/households/households.ts'
import { readHouseholdJson } from '../../src/store/household-record.ts'
import { listAudit } from '../../src/store/audit.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import { actingPrincipal, expectViolation } from './use-cases.ts'

const locationOf = (id: string) => `/api/v1/relationships/${id}`

describe.each(storeKinds())('household use cases on %s', (kind) => {
  let store: TestStore
  let principal: ApiKeyPrincipal
  beforeAll(async () => {
    store = await openTestStore(kind)
    principal = await actingPrincipal(store, 'Rules')
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('creates a household with its cleaned fields and its audit entry', async () => {
    const created = await createHousehold(store.db, principal, {
      body: { name: '  The Rules  ', dsueReceived: 1200.5, deceasedSpouseName: 'Pat Rules' },
      locationOf,
    })
    const { household } = created.body
    expect(created.kind).toBe('created')
    expect(created.location).toBe(locationOf(household.id))
    expect(household).toMatchObject({ name: 'The Rules', dsueReceived: 1200.5, metadata: null, isSample: false })
    const audit = await listAudit(store.db, principal.orgId, household.id, 10)
    expect(audit.map((e) => [e.action, e.actorId, e.changed])).toEqual([
      ['household.create', principal.id, ['deceasedSpouseName', 'dsueReceived', 'name']],
    ])
  })

  it('names the field of each broken create rule', async () => {
    const create = (body: Record<string, unknown>) =>
      createHousehold(store.db, principal, { body: { name: 'Ok', ...body }, locationOf })
    await expectViolation(create({ name: '   ' }), 'invalid_body', '/name', 'name must not be blank')
    await expectViolation(create({ deceasedSpouseName: '\u0007' }), 'invalid_body', '/deceasedSpouseName')
    await expectViolation(create({ dsueReceived: 1.005 }), 'invalid_body', '/dsueReceived', 'at most 2 decimals')
    await expectViolation(create({ dsueDateOfDeath: '2023-02-30' }), 'invalid_body', '/dsueDateOfDeath')
    let deep: Record<string, unknown> = {}
    for (let i = 0; i < 9; i++) deep = { deep }
    await expectViolation(create({ metadata: deep }), 'invalid_body', '/metadata', 'levels deep')
  })

  it('replays an idempotent create and refuses the key with another body', async () => {
    const first = await createHousehold(store.db, principal, {
      body: { name: 'Once' },
      idempotencyKey: 'k-1',
      locationOf,
    })
    const again = await createHousehold(store.db, principal, {
      body: { name: 'Once' },
      idempotencyKey: 'k-1',
      locationOf: () => 'elsewhere',
    })
    expect(again).toEqual({ ...first, kind: 'replay' })
    await expectViolation(
      createHousehold(store.db, principal, { body: { name: 'Twice' }, idempotencyKey: 'k-1', locationOf }),
      'idempotency_key_reused',
      undefined,
    )
  })

  it('updates under the version read, and refuses a stale version, a missing household and a broken field', async () => {
    const { household } = (await createHousehold(store.db, principal, { body: { name: 'Versioned' }, locationOf })).body
    const updated = await updateHousehold(store.db, principal, {
      id: household.id,
      expected: [1],
      patch: { metadata: { crm: 'x' }, coClientAsDonor: true },
    })
    expect(updated.version).toBe(2)
    expect(JSON.parse(updated.body)).toMatchObject({ name: 'Versioned', metadata: { crm: 'x' }, coClientAsDonor: true })
    await expectViolation(
      updateHousehold(store.db, principal, { id: household.id, expected: [1], patch: { name: 'Late' } }),
      'precondition_failed',
      undefined,
    )
    await expectViolation(
      updateHousehold(store.db, principal, { id: household.id, expected: '*', patch: { name: '' } }),
      'invalid_body',
      '/name',
    )
    const other = await actingPrincipal(store, 'Other')
    await expectViolation(
      updateHousehold(store.db, other, { id: household.id, expected: '*', patch: { name: 'Mine' } }),
      'not_found',
      undefined,
    )
    const audit = await listAudit(store.db, principal.orgId, household.id, 10)
    expect(audit.map((e) => [e.action, e.changed])).toEqual([
      ['household.create', ['name']],
      ['household.update', ['coClientAsDonor', 'metadata']],
    ])
  })

  it('stores the estate settings: currency USD unless sent and never cleared, amounts in cents', async () => {
    const plain = (await createHousehold(store.db, principal, { body: { name: 'Plain' }, locationOf })).body.household
    expect(plain).toMatchObject({
      currency: 'USD',
      portabilityElected: null,
      primaryClientLifetimeGifts: null,
      coClientLifetimeGifts: null,
      primaryClientExemptionUsed: null,
      coClientExemptionUsed: null,
      primaryClientUsCitizen: null,
      coClientUsCitizen: null,
    })
    const settings = {
      currency: 'EUR',
      portabilityElected: 'yes' as const,
      primaryClientLifetimeGifts: 1_250_000.5,
      coClientLifetimeGifts: 0,
      primaryClientExemptionUsed: 2_000_000,
      coClientExemptionUsed: 13.99,
      primaryClientUsCitizen: true,
      coClientUsCitizen: false,
    }
    const { household } = (
      await createHousehold(store.db, principal, { body: { name: 'Estate', ...settings }, locationOf })
    ).body
    expect(household).toMatchObject(settings)
    const read = await readHouseholdJson(store.db, principal.orgId, household.id)
    expect(JSON.parse(read?.body ?? '{}')).toMatchObject(settings)

    await expectViolation(
      updateHousehold(store.db, principal, { id: household.id, expected: '*', patch: { currency: null } }),
      'invalid_body',
      '/currency',
      'send an ISO 4217 currency code',
    )
    for (const field of [
      'primaryClientLifetimeGifts',
      'coClientLifetimeGifts',
      'primaryClientExemptionUsed',
      'coClientExemptionUsed',
    ] as const) {
      await expectViolation(
        updateHousehold(store.db, principal, { id: household.id, expected: '*', patch: { [field]: 10.005 } }),
        'invalid_body',
        `/${field}`,
        'at most 2 decimals',
      )
    }
    const updated = await updateHousehold(store.db, principal, {
      id: household.id,
      expected: '*',
      patch: { currency: 'GBP', portabilityElected: null, coClientUsCitizen: null },
    })
    expect(JSON.parse(updated.body)).toMatchObject({
      ...settings,
      currency: 'GBP',
      portabilityElected: null,
      coClientUsCitizen: null,
    })
    // The audit names what the bodies set, not the default a create took.
    expect((await listAudit(store.db, principal.orgId, plain.id, 10)).map((e) => e.changed)).toEqual([['name']])
    expect((await listAudit(store.db, principal.orgId, household.id, 10)).map((e) => e.changed)).toEqual([
      [
        'coClientExemptionUsed',
        'coClientLifetimeGifts',
        'coClientUsCitizen',
        'currency',
        'name',
        'portabilityElected',
        'primaryClientExemptionUsed',
        'primaryClientLifetimeGifts',
        'primaryClientUsCitizen',
      ],
      ['coClientUsCitizen', 'currency', 'portabilityElected'],
    ])
  })

  it('deletes under the version read, with its audit entry', async () => {
    const { household } = (await createHousehold(store.db, principal, { body: { name: 'Gone' }, locationOf })).body
    await expectViolation(
      deleteHousehold(store.db, principal, { id: household.id, expected: [7] }),
      'precondition_failed',
      undefined,
    )
    await deleteHousehold(store.db, principal, { id: household.id, expected: [1] })
    expect(await readHouseholdJson(store.db, principal.orgId, household.id)).toBeUndefined()
    const audit = await listAudit(store.db, principal.orgId, household.id, 10)
    expect(audit.map((e) => e.action)).toEqual(['household.create', 'household.delete'])
  })
})
