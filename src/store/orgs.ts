import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface Org {
  id: string
  name: string
}

export async function createOrg(db: Kysely<Database>, name: string, isDemo = false): Promise<Org> {
  return db.insertInto('orgs').values({ name, is_demo: isDemo }).returning(['id', 'name']).executeTakeFirstOrThrow()
}

export async function findOrg(db: Kysely<Database>, id: string): Promise<Org | undefined> {
  return db.selectFrom('orgs').select(['id', 'name']).where('id', '=', id).executeTakeFirst()
}

export async function listOrgs(db: Kysely<Database>): Promise<(Org & { households: number; createdAt: Date })[]> {
  return db
    .selectFrom('orgs')
    .select(['id', 'name', 'created_at as createdAt'])
    .select((eb) =>
      eb
        .selectFrom('org_household_counts')
        .select(sql<number>`coalesce(sum(households), 0)::int`.as('n'))
        .whereRef('org_household_counts.org_id', '=', 'orgs.id')
        .as('households'),
    )
    .$narrowType<{ households: number }>()
    .orderBy('created_at')
    .execute()
}

export async function findDemoOrg(db: Kysely<Database>): Promise<Org | undefined> {
  return db
    .selectFrom('orgs')
    .select(['id', 'name'])
    .where('is_demo', '=', true)
    .orderBy('created_at')
    .executeTakeFirst()
}

export async function countOrgs(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('orgs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return row.n
}

/** The org's household counts, kept by triggers: the sum of its counter rows. */
function householdCountsQuery(db: Kysely<Database>, orgId: string) {
  return db
    .selectFrom('org_household_counts')
    .select([
      sql<number>`coalesce(sum(households), 0)::int`.as('households'),
      sql<number>`coalesce(sum(samples), 0)::int`.as('samples'),
    ])
    .where('org_id', '=', orgId)
}

export async function householdCounts(
  db: Kysely<Database>,
  orgId: string,
): Promise<{ households: number; samples: number }> {
  return householdCountsQuery(db, orgId).executeTakeFirstOrThrow()
}
