// A household whole: the household, its members, entities and links, each as the API answers it.
// It is the data of a household.replaced event (a write that changes many parts at once: PUT
// …/chart, samples), so that a copy kept from the change feed can replace its own whole.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { readMembersJson } from './members.ts'
import { readHouseholdEntitiesJson } from './entities.ts'
import { listLinks } from './entity-links.ts'

/** The members, entities and links of a household of `orgId` as JSON texts, keyed as in household.replaced. */
export async function householdPartsJson(
  trx: Kysely<Database>,
  orgId: string,
  householdId: string,
): Promise<Record<'members' | 'entities' | 'links', string>> {
  const members = await readMembersJson(trx, orgId, householdId)
  return {
    members: members?.body ?? '[]',
    entities: await readHouseholdEntitiesJson(trx, householdId),
    links: JSON.stringify(await listLinks(trx, householdId)),
  }
}
