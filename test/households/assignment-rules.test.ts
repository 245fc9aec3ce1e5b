// The assignment use case on real stores: the set replaced under the household's version, with its
// audit entry; every refusal names the entry of the set it is about.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, storeKinds, type TestStore } from '../helpers/stores.ts'
import { createHousehold } from '../../src/households/households.ts'
import { setAssignments } from '../../src/households/assignments.ts'
import { createUser } from '../../src/store/users.ts'
import { listAudit } from '../../src/store/audit.ts'
import type { ApiKeyPrincipal } from '../../src/auth/principal.ts'
import type { Household } from '../../src/schemas/household.ts'
import { actingPrincipal, expectViolation } from './use-cases.ts'

describe.each(storeKinds())('assignment use case on %s', (kind) => {
  let store: TestStore
  let principal: ApiKeyPrincipal
  let advisors: string[]
  let foreigner: string
  beforeAll(async () => {
    store = await openTestStore(kind)
    principal = await actingPrincipal(store, 'Assigning')
    advisors = []
    for (const name of ['Ada', 'Ben']) {
      const user = await createUser(store.db, {
        orgId: principal.orgId,
        email: `${name}@example.com`,
        name,
        role: 'advisor',
      })
      advisors.push(user?.id ?? '')
    }
    const other = await actingPrincipal(store, 'Elsewhere')
    const user = await createUser(store.db, { orgId: other.orgId, email: 'x@example.com', name: 'X', role: 'advisor' })
    foreigner = user?.id ?? ''
  })
  afterAll(async () => {
    await store?.drop()
  })

  it('replaces the set and audits it; each rule names its entry', async () => {
    const created = await createHousehold(store.db, principal, { body: { name: 'Assigned' }, locationOf: (id) => id })
    const householdId = created.body.household.id
    const [ada = '', ben = ''] = advisors
    const set = (assignments: { userId: string; role: 'leadAdvisor' | 'advisor' }[], expected: '*' | number[] = '*') =>
      setAssignments(store.db, principal, { householdId, expected, body: { assignments } })

    await expectViolation(
      set([
        { userId: ada, role: 'advisor' },
        { userId: ada.toUpperCase(), role: 'leadAdvisor' },
      ]),
      'assignment_user_repeated',
      '/assignments/1/userId',
    )
    await expectViolation(
      set([
        { userId: ada, role: 'leadAdvisor' },
        { userId: ben, role: 'leadAdvisor' },
      ]),
      'assignment_lead_advisor_repeated',
      '/assignments/1/role',
    )
    await expectViolation(
      set([
        { userId: ada, role: 'leadAdvisor' },
        { userId: foreigner, role: 'advisor' },
      ]),
      'assignment_user_unknown',
      '/assignments/1/userId',
    )
    await expectViolation(set([], [5]), 'precondition_failed', undefined)

    const written = await set(
      [
        { userId: ada, role: 'leadAdvisor' },
        { userId: ben, role: 'advisor' },
      ],
      [1],
    )
    expect(written.version).toBe(2)
    const household = JSON.parse(written.body) as Household
    // Assigned in one statement: the same time, so the list's order between them is by user id.
    expect(household.assignments.map((a) => [a.name, a.role]).sort()).toEqual([
      ['Ada', 'leadAdvisor'],
      ['Ben', 'advisor'],
    ])
    const audit = await listAudit(store.db, principal.orgId, householdId, 10)
    expect(audit.map((e) => [e.action, e.changed])).toEqual([
      ['household.create', ['name']],
      ['assignments.set', ['assignments']],
    ])
  })
})
