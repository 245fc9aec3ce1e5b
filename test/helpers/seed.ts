// Known households for listing tests, written through the same store functions the API uses.
import type { Kysely } from 'kysely'
import type { Database } from '../../src/store/tables.ts'
import { insertHousehold, insertMembers, type NewMember } from '../../src/store/households.ts'
import { NO_OPTIONAL_FIELDS } from '../../src/households/household-fields.ts'

export const EMPTY_FIELDS = NO_OPTIONAL_FIELDS

export interface SeedHousehold {
  name: string
  members?: string[]
  sample?: boolean
  deceasedSpouseName?: string
}

export async function seedHouseholds(
  db: Kysely<Database>,
  orgId: string,
  households: SeedHousehold[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  for (const household of households) {
    const created = await insertHousehold(
      db,
      orgId,
      { ...EMPTY_FIELDS, name: household.name, deceasedSpouseName: household.deceasedSpouseName ?? null },
      household.sample ?? false,
    )
    const members: NewMember[] = (household.members ?? []).map((name, i) => ({
      name,
      role: i === 0 ? 'primaryClient' : i === 1 ? 'coClient' : 'child',
    }))
    await insertMembers(db, created.id, members)
    ids.set(household.name, created.id)
  }
  return ids
}
