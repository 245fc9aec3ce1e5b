import type { Kysely } from 'kysely'
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

export async function listOrgs(db: Kysely<Database>): Promise<Array<Org & { households: number; createdAt: Date }>> {
  return db
    .selectFrom('orgs')
    .select(['id', 'name', 'household_count as households', 'created_at as createdAt'])
    .orderBy('created_at')
    .execute()
}

export async function findDemoOrg(db: Kysely<Database>): Promise<Org | undefined> {
  return db.selectFrom('orgs').select(['id', 'name']).where('is_demo', '=', true).orderBy('created_at').executeTakeFirst()
}

export async function countOrgs(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('orgs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return row.n
}
