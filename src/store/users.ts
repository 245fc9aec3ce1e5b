// The organization's users: the advisors and their team whom households are assigned to. There is
// no sign-in for them yet; `hearth users add` creates them.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export type UserRole = 'admin' | 'advisor' | 'viewer'
export const USER_ROLES: readonly UserRole[] = ['admin', 'advisor', 'viewer']

export interface User {
  id: string
  email: string
  name: string
  role: UserRole
  createdAt: string
}

/** Creates a user, or answers undefined when the organization already has one with this email (in any case). */
export async function createUser(db: Kysely<Database>, user: { orgId: string; email: string; name: string; role: UserRole }): Promise<User | undefined> {
  const row = await db
    .insertInto('users')
    .values({ org_id: user.orgId, email: user.email, name: user.name, role: user.role })
    .onConflict((oc) => oc.expression(sql`org_id, lower(email)`).doNothing())
    .returning(['id', 'email', 'name', 'role', 'created_at'])
    .executeTakeFirst()
  return row && { id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.created_at.toISOString() }
}

export async function listUsers(db: Kysely<Database>, orgId: string): Promise<User[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'created_at'])
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ id: row.id, email: row.email, name: row.name, role: row.role, createdAt: row.created_at.toISOString() }))
}
