// The link use cases on real stores: links (who holds what) added, changed and removed under the
// household's version, every link rule refused as a RuleViolation with its code and the JSON
// Pointer of its field, shares summed per entity (owners and partners; primary beneficiaries only),
// ownership cycles through chains refused, parties, kinds, duplicates and the per-household limit,
// and links gone with the member or entity they name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { createHousehold } from '../../src/households/households.ts'
import { addMember, removeMember } from '../../src/households/members.ts'
import { createEntity, deleteEntity } from '../../src/households/entities.ts'
import { checkLink, createLink, deleteLink, updateLink } from '../../src/households/entity-links.ts'
import { listLinks } from '../../src/store/entity-links.ts'
import { listAudit } from '../../src/store/audit.ts'
import { ESTATE_LIMITS, type EntityKind } from '../../src/domain/estate-vocabulary.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import type { CreateLinkBody } from '../../src/schemas/entity-link.ts'
import { actingPrincipal, expectViolation } from './use-cases.ts'

const NO_SUCH = '00000000-0000-4000-8000-000000000000'

describe.each(storeKinds())('link use cases on %s', (kind) => {
  let store: TestStore
  let principal: ApiKeyPrincipal
  let stranger: ApiKeyPrincipal
  beforeAll(async () => {
    store = await openTestStore(kind)
    principal = await actingPrincipal(store, 'Links')
    stranger = await actingPrincipal(store, 'Other org')
  })
  afterAll(async () => {
    await store?.drop()
  })

  async function newHousehold(name: string, as = principal): Promise<string> {
    const created = await createHousehold(store.db, as, { body: { name }, locationOf: (id) => id })
    return created.body.household.id
  }
  async function member(householdId: string, name: string, as = principal): Promise<string> {
    const added = await addMember(store.db, as, { householdId, expected: '*', body: { name, role: 'other' } })
    return added.memberId
  }
  async function entity(householdId: string, name: string, entityKind: EntityKind, as = principal): Promise<string> {
    const created = await createEntity(store.db, as, { householdId, expected: '*', body: { name, kind: entityKind } })
    return created.entityId
  }
  const link = (householdId: string, body: CreateLinkBody, as = principal) =>
    createLink(store.db, as, { householdId, expected: '*', body })

  it('adds, changes and removes links under the version, each audited with the fields sent', async () => {
    const householdId = await newHousehold('Holdings')
    const ann = await member(householdId, 'Ann')
    const trust = await entity(householdId, 'Ann Revocable Trust', 'revocableTrust')
    const before = await listAudit(store.db, principal.orgId, householdId, 50)
    const version = (await link(householdId, { from: ann, to: trust, type: 'grantor' })).version
    const created = await createLink(store.db, principal, {
      householdId,
      expected: [version],
      body: { from: ann.toUpperCase(), to: trust, type: 'beneficiary', share: 40 },
    })
    expect(created.version).toBe(version + 1)
    expect(created.value).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      from: ann,
      fromType: 'member',
      to: trust,
      type: 'beneficiary',
      share: 40,
      beneficiaryType: 'primary',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    })
    const linkId = created.value.id
    await expectViolation(
      updateLink(store.db, principal, { householdId, linkId, expected: [version], patch: { share: 1 } }),
      'precondition_failed',
      undefined,
    )
    const updated = await updateLink(store.db, principal, {
      householdId,
      linkId,
      expected: [created.version],
      patch: { share: 33.3333, beneficiaryType: 'contingent' },
    })
    expect(updated.value).toMatchObject({ share: 33.3333, beneficiaryType: 'contingent' })
    // null takes a beneficiary back to primary, and clears the share.
    const cleared = await updateLink(store.db, principal, {
      householdId,
      linkId,
      expected: '*',
      patch: { share: null, beneficiaryType: null },
    })
    expect(cleared.value).toMatchObject({ share: null, beneficiaryType: 'primary' })
    const removed = await deleteLink(store.db, principal, { householdId, linkId, expected: [cleared.version] })
    expect(removed.version).toBe(cleared.version + 1)
    await expectViolation(
      deleteLink(store.db, principal, { householdId, linkId, expected: '*' }),
      'not_found',
      undefined,
      'No link',
    )
    await expectViolation(
      updateLink(store.db, principal, { householdId, linkId: 'nope', expected: '*', patch: { share: 1 } }),
      'not_found',
      undefined,
    )
    expect((await listLinks(store.db, householdId)).map((l) => l.type)).toEqual(['grantor'])
    const audit = (await listAudit(store.db, principal.orgId, householdId, 50)).slice(before.length)
    expect(audit.map((e) => [e.action, e.linkId, e.changed])).toEqual([
      ['link.create', expect.any(String), ['from', 'to', 'type']],
      ['link.create', linkId, ['from', 'share', 'to', 'type']],
      ['link.update', linkId, ['beneficiaryType', 'share']],
      ['link.update', linkId, ['beneficiaryType', 'share']],
      ['link.delete', linkId, []],
    ])
  })

  it('names the field of each rule about one link', async () => {
    const householdId = await newHousehold('One link')
    const ann = await member(householdId, 'Ann')
    const trust = await entity(householdId, 'Trust', 'irrevocableTrust')
    const llc = await entity(householdId, 'LLC', 'llc')
    const brokerage = await entity(householdId, 'Brokerage', 'taxableAccount')
    const policy = await entity(householdId, 'Policy', 'lifeInsurance')
    const foundation = await entity(householdId, 'Foundation', 'foundation')
    const bank = await entity(householdId, 'First Trust Bank', 'corporateTrustee')
    const firm = await entity(householdId, 'Counsel LLP', 'lawFirm')
    const catchAll = await entity(householdId, 'Imported', 'other')
    const add = (body: CreateLinkBody) => link(householdId, body)

    await expectViolation(add({ from: ann, to: trust, type: 'grantor', share: 10 }), 'link_share_not_allowed', '/share')
    await expectViolation(
      add({ from: ann, to: trust, type: 'owner', beneficiaryType: 'primary' }),
      'link_share_not_allowed',
      '/beneficiaryType',
    )
    await expectViolation(add({ from: ann, to: trust, type: 'owner', share: 0 }), 'invalid_body', '/share')
    await expectViolation(add({ from: ann, to: trust, type: 'owner', share: 100.5 }), 'invalid_body', '/share')
    await expectViolation(add({ from: ann, to: trust, type: 'owner', share: 10.12345 }), 'invalid_body', '/share')
    await expectViolation(add({ from: 'ann', to: trust, type: 'owner' }), 'invalid_body', '/from')
    await expectViolation(add({ from: ann, to: ann, type: 'trustee' }), 'invalid_body', '/to', 'to names the same')
    await expectViolation(add({ from: llc, to: llc, type: 'owner' }), 'link_ownership_cycle', '/to')
    await expectViolation(add({ from: NO_SUCH, to: trust, type: 'trustee' }), 'not_found', '/from')
    await expectViolation(add({ from: ann, to: NO_SUCH, type: 'trustee' }), 'not_found', '/to')
    await expectViolation(add({ from: trust, to: ann, type: 'trustee' }), 'invalid_body', '/to', 'to names a member')
    // Kinds: insured, partners, grantor/trustee/successorTrustee.
    await expectViolation(add({ from: ann, to: brokerage, type: 'insured' }), 'link_kind_mismatch', '/type')
    await expectViolation(add({ from: ann, to: trust, type: 'generalPartner' }), 'link_kind_mismatch', '/type')
    await expectViolation(add({ from: ann, to: brokerage, type: 'trustee' }), 'link_kind_mismatch', '/type')
    await expectViolation(add({ from: ann, to: llc, type: 'grantor' }), 'link_kind_mismatch', '/type')
    await add({ from: ann, to: policy, type: 'insured' })
    await add({ from: ann, to: llc, type: 'limitedPartner', share: 20 })
    await add({ from: ann, to: foundation, type: 'successorTrustee' })
    // Parties: a corporate trustee may be a trustee, never owned, a beneficiary's trust or insured.
    await add({ from: bank, to: trust, type: 'trustee' })
    await add({ from: bank, to: trust, type: 'successorTrustee' })
    await expectViolation(add({ from: ann, to: bank, type: 'owner', share: 50 }), 'link_party_owned', '/to')
    await expectViolation(add({ from: ann, to: firm, type: 'beneficiary' }), 'link_party_owned', '/to')
    await expectViolation(add({ from: ann, to: bank, type: 'insured' }), 'link_party_owned', '/to')
    await expectViolation(add({ from: ann, to: firm, type: 'generalPartner' }), 'link_party_owned', '/to')
    // Nor does a party own, hold a partnership in or benefit from anything.
    await expectViolation(add({ from: bank, to: llc, type: 'owner', share: 10 }), 'link_party_owned', '/from')
    await expectViolation(add({ from: firm, to: llc, type: 'generalPartner' }), 'link_party_owned', '/from')
    await expectViolation(add({ from: bank, to: trust, type: 'beneficiary' }), 'link_party_owned', '/from')
    // The catch-all kind of chart 0.1.x payloads takes any type.
    await add({ from: ann, to: catchAll, type: 'trustee' })
    await add({ from: ann, to: catchAll, type: 'insured' })
    // The same from, to and type once.
    await expectViolation(add({ from: bank, to: trust, type: 'trustee' }), 'link_duplicate', '/type')
    // A change of share on a link without one.
    const grantor = await add({ from: ann, to: trust, type: 'grantor' })
    await expectViolation(
      updateLink(store.db, principal, { householdId, linkId: grantor.value.id, expected: '*', patch: { share: 5 } }),
      'link_share_not_allowed',
      '/share',
    )
    await expectViolation(
      updateLink(store.db, principal, {
        householdId,
        linkId: grantor.value.id,
        expected: '*',
        patch: { beneficiaryType: 'income' },
      }),
      'link_share_not_allowed',
      '/beneficiaryType',
    )
    expect((await listLinks(store.db, householdId)).length).toBe(8)
  })

  it("sums the owners' and partners' shares, and the primary beneficiaries' (contingent ones apart), to at most 100", async () => {
    const householdId = await newHousehold('Shares')
    const [ann, bo, cy] = [
      await member(householdId, 'Ann'),
      await member(householdId, 'Bo'),
      await member(householdId, 'Cy'),
    ]
    const home = await entity(householdId, 'Home', 'realEstate')
    const flp = await entity(householdId, 'Family LP', 'flp')
    const trust = await entity(householdId, 'Trust', 'irrevocableTrust')
    const holding = await entity(householdId, 'Holding LLC', 'llc')

    // A holding owned jointly by two members.
    await link(householdId, { from: ann, to: home, type: 'owner', share: 50 })
    await link(householdId, { from: bo, to: home, type: 'owner', share: 50 })
    await expectViolation(
      link(householdId, { from: cy, to: home, type: 'owner', share: 0.0001 }),
      'link_shares_exceed',
      '/share',
      'at most 0 % is left',
    )
    // An owner without a share counts nothing.
    await link(householdId, { from: cy, to: home, type: 'owner' })

    // Partners and owners share one 100.
    await link(householdId, { from: ann, to: flp, type: 'generalPartner', share: 1 })
    await link(householdId, { from: holding, to: flp, type: 'owner', share: 60 })
    await expectViolation(
      link(householdId, { from: bo, to: flp, type: 'limitedPartner', share: 39.0001 }),
      'link_shares_exceed',
      '/share',
    )
    const lp = await link(householdId, { from: bo, to: flp, type: 'limitedPartner', share: 39 })
    // A change is summed without the link's own old share.
    await updateLink(store.db, principal, { householdId, linkId: lp.value.id, expected: '*', patch: { share: 38 } })
    await expectViolation(
      updateLink(store.db, principal, { householdId, linkId: lp.value.id, expected: '*', patch: { share: 39.5 } }),
      'link_shares_exceed',
      '/share',
    )

    // Primary beneficiaries to 100; contingent and income ones are not counted.
    await link(householdId, { from: ann, to: trust, type: 'beneficiary', share: 60 })
    await link(householdId, { from: bo, to: trust, type: 'beneficiary', share: 40, beneficiaryType: 'primary' })
    const contingent = await link(householdId, {
      from: cy,
      to: trust,
      type: 'beneficiary',
      share: 100,
      beneficiaryType: 'contingent',
    })
    await link(householdId, { from: holding, to: trust, type: 'beneficiary', share: 100, beneficiaryType: 'income' })
    // Made primary, the contingent beneficiary's 100 would pass it.
    await expectViolation(
      updateLink(store.db, principal, {
        householdId,
        linkId: contingent.value.id,
        expected: '*',
        patch: { beneficiaryType: 'primary' },
      }),
      'link_shares_exceed',
      '/share',
    )
    await expectViolation(
      link(householdId, { from: await member(householdId, 'Di'), to: trust, type: 'beneficiary', share: 1 }),
      'link_shares_exceed',
      '/share',
    )
    // A beneficiary's share does not count against the owners of the same entity.
    await link(householdId, { from: cy, to: trust, type: 'owner', share: 100 })
  })

  it('refuses an entity owning itself through a chain of owners and partners', async () => {
    const householdId = await newHousehold('Chains')
    const a = await entity(householdId, 'A', 'llc')
    const b = await entity(householdId, 'B', 'flp')
    const c = await entity(householdId, 'C', 'corporation')
    const d = await entity(householdId, 'D', 'llc')
    await link(householdId, { from: a, to: b, type: 'owner', share: 50 })
    await link(householdId, { from: b, to: c, type: 'generalPartner', share: 50 })
    await expectViolation(
      link(householdId, { from: c, to: a, type: 'limitedPartner', share: 10 }),
      'link_ownership_cycle',
      '/to',
    )
    await expectViolation(link(householdId, { from: b, to: a, type: 'owner' }), 'link_ownership_cycle', '/to')
    // A diamond is no cycle; nor is a beneficiary link back up the chain.
    await link(householdId, { from: a, to: d, type: 'owner', share: 50 })
    await link(householdId, { from: d, to: c, type: 'owner', share: 50 })
    await link(householdId, { from: c, to: a, type: 'beneficiary', share: 10 })
    // The chain broken, the link is allowed.
    const bc = (await listLinks(store.db, householdId)).find((l) => l.from === b && l.to === c)
    await deleteLink(store.db, principal, { householdId, linkId: bc?.id ?? '', expected: '*' })
    await expectViolation(link(householdId, { from: c, to: a, type: 'owner' }), 'link_ownership_cycle', '/to')
    const dc = (await listLinks(store.db, householdId)).find((l) => l.from === d && l.to === c)
    await deleteLink(store.db, principal, { householdId, linkId: dc?.id ?? '', expected: '*' })
    await link(householdId, { from: c, to: a, type: 'owner', share: 10 })
  })

  it('refuses ids of another household (same org) and of another organization, and writes nothing', async () => {
    const householdId = await newHousehold('Mine')
    const ann = await member(householdId, 'Ann')
    const trust = await entity(householdId, 'Trust', 'slat')
    const otherHousehold = await newHousehold('Neighbours')
    const theirMember = await member(otherHousehold, 'Neighbour')
    const theirTrust = await entity(otherHousehold, 'Their trust', 'slat')
    const foreignHousehold = await newHousehold('Foreign', stranger)
    const foreignMember = await member(foreignHousehold, 'Foreigner', stranger)
    const foreignTrust = await entity(foreignHousehold, 'Foreign trust', 'slat', stranger)

    await expectViolation(
      link(householdId, { from: theirMember, to: trust, type: 'trustee' }),
      'link_target_other_household',
      '/from',
    )
    await expectViolation(
      link(householdId, { from: ann, to: theirTrust, type: 'trustee' }),
      'link_target_other_household',
      '/to',
    )
    await expectViolation(link(householdId, { from: foreignMember, to: trust, type: 'trustee' }), 'not_found', '/from')
    await expectViolation(link(householdId, { from: ann, to: foreignTrust, type: 'trustee' }), 'not_found', '/to')
    // Another organization's household in the path is not found, for its own ids too.
    await expectViolation(
      link(foreignHousehold, { from: foreignMember, to: foreignTrust, type: 'trustee' }),
      'not_found',
      undefined,
      'No household',
    )
    expect(await listLinks(store.db, householdId)).toEqual([])
    expect(await listLinks(store.db, foreignHousehold)).toEqual([])
  })

  it(`holds at most ${ESTATE_LIMITS.links} links per household`, async () => {
    const householdId = await newHousehold('Full')
    const ann = await member(householdId, 'Ann')
    const trust = await entity(householdId, 'Trust', 'dynastyTrust')
    // Filled as rows (the rules would refuse 2000 copies of one link; the limit counts rows).
    await store.db
      .insertInto('entity_links')
      .values(
        Array.from({ length: ESTATE_LIMITS.links }, () => ({
          household_id: householdId,
          from_member_id: ann,
          to_entity_id: trust,
          type: 'trustee' as const,
        })),
      )
      .execute()
    await expectViolation(link(householdId, { from: ann, to: trust, type: 'grantor' }), 'household_links_limit', '')
    // checkLink prefixes its fields with the pointer of the link in a larger body.
    await expectViolation(
      store.db
        .transaction()
        .execute((trx) => checkLink(trx, householdId, { from: ann, to: trust, type: 'grantor' }, '/links/7')),
      'household_links_limit',
      '/links/7',
    )
    await expectViolation(
      store.db
        .transaction()
        .execute((trx) => checkLink(trx, householdId, { from: ann, to: trust, type: 'grantor', share: 5 }, '/links/7')),
      'link_share_not_allowed',
      '/links/7/share',
    )
  })

  it('removes the links of a member or an entity with it', async () => {
    const householdId = await newHousehold('Cascade')
    const ann = await member(householdId, 'Ann')
    const bo = await member(householdId, 'Bo')
    const trust = await entity(householdId, 'Trust', 'ilit')
    const policy = await entity(householdId, 'Policy', 'lifeInsurance')
    await link(householdId, { from: ann, to: trust, type: 'grantor' })
    await link(householdId, { from: bo, to: trust, type: 'beneficiary', share: 100 })
    await link(householdId, { from: trust, to: policy, type: 'owner', share: 100 })
    await link(householdId, { from: ann, to: policy, type: 'insured' })
    await removeMember(store.db, principal, { householdId, memberId: ann, expected: '*' })
    expect((await listLinks(store.db, householdId)).map((l) => [l.from, l.type])).toEqual([
      [bo, 'beneficiary'],
      [trust, 'owner'],
    ])
    await deleteEntity(store.db, principal, { householdId, entityId: trust, expected: '*' })
    expect(await listLinks(store.db, householdId)).toEqual([])
  })

  it('lists links in the order they were written, even when written within one millisecond', async () => {
    const householdId = await newHousehold('Order')
    const ann = await member(householdId, 'Ann')
    const trusts: string[] = []
    for (let i = 0; i < 6; i++) trusts.push(await entity(householdId, `Trust ${String(i)}`, 'irrevocableTrust'))
    // Written against the order of their ids, all with one created_at: ordering by time and then id
    // (as before migration 0012) would give them back the other way round.
    const written = [...trusts].sort().reverse()
    for (const trust of written)
      await sql`INSERT INTO entity_links (household_id, from_member_id, to_entity_id, type, created_at)
        VALUES (${householdId}, ${ann}, ${trust}, 'trustee', '2026-01-01T00:00:00Z')`.execute(store.db)
    expect((await listLinks(store.db, householdId)).map((link) => link.to)).toEqual(written)
  })
})
