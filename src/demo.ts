// The demo a newcomer sees on `npm start`: on an empty database, a demo organization with the
// sample households; on every start, a fresh demo key (valid 30 days) for the printed curl line.
// Off in production and with HEARTH_DEMO=0.
import type { Kysely } from 'kysely'
import type { Database } from './store/tables.ts'
import { countOrgs, createOrg, findDemoOrg, type Org } from './store/orgs.ts'
import { addSampleHouseholds } from './store/samples.ts'
import { issueApiKey } from './auth/issue-api-key.ts'
import { PERMISSIONS } from './domain/permissions.ts'
import { DEMO_PEOPLE } from './domain/demo-people.ts'
import { createUser } from './store/users.ts'

const DEMO_ORG_NAME = 'Demo Wealth Partners'
const DEMO_KEY_DAYS = 30

export interface Demo {
  org: Org
  key: string
  /** True when this start created the demo organization. */
  created: boolean
}

export async function prepareDemo(db: Kysely<Database>): Promise<Demo | undefined> {
  let org = await findDemoOrg(db)
  let created = false
  if (!org) {
    // Only an empty database gets a demo organization; an operator's real data is left alone.
    if ((await countOrgs(db)) > 0) return undefined
    org = await createOrg(db, DEMO_ORG_NAME, true)
    await addSampleHouseholds(db, org.id)
    created = true
  }
  // The people who sign in to the demo (one per role); on every start, so older demo databases get them too.
  for (const person of DEMO_PEOPLE) {
    if (person.role) await createUser(db, { orgId: org.id, email: person.email, name: person.name, role: person.role })
  }
  const { key } = await issueApiKey(db, {
    orgId: org.id,
    name: 'demo key (made at start-up)',
    permissions: [...PERMISSIONS],
    expiresAt: new Date(Date.now() + DEMO_KEY_DAYS * 86_400_000),
  })
  return { org, key, created }
}
