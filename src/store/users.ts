// The organization's users: the advisors and their team whom households are assigned to. `hearth
// users add` and POST /api/v1/users invite them; their first sign-in makes them active.
import { appendEvents } from './events.ts'
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely'
import type { Database, UsersTable } from './tables.ts'
import type { UserRole } from '../domain/user-roles.ts'

/** invited: has never signed in (no identity bound yet); active: has signed in at least once. */
export type UserStatus = 'invited' | 'active'

export interface User {
  id: string
  email: string
  name: string
  role: UserRole
  createdAt: string
  lastSignInAt: string | null
  status: UserStatus
}

const userColumns = ['id', 'email', 'name', 'role', 'created_at', 'last_sign_in_at', 'idp_subject'] as const
type UserRow = Pick<Selectable<UsersTable>, (typeof userColumns)[number]>

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at?.toISOString() ?? null,
    status: row.idp_subject === null ? 'invited' : 'active',
  }
}

/** Creates a user, or answers undefined when the organization already has one with this email (in any case). */
export async function createUser(
  db: Kysely<Database>,
  user: { orgId: string; email: string; name: string; role: UserRole },
): Promise<User | undefined> {
  const row = await db
    .insertInto('users')
    .values({ org_id: user.orgId, email: user.email, name: user.name, role: user.role })
    .onConflict((oc) => oc.expression(sql`org_id, lower(email)`).doNothing())
    .returning(userColumns)
    .executeTakeFirst()
  return row && toUser(row)
}

export async function listUsers(db: Kysely<Database>, orgId: string): Promise<User[]> {
  const rows = await db
    .selectFrom('users')
    .select(userColumns)
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
  return rows.map(toUser)
}

/** Why a change to a user was refused: no such user in the organization, or it would leave the organization without an admin. */
export type UserChange<T> = { ok: true; value: T } | { ok: false; reason: 'not_found' | 'last_admin' }

/**
 * Runs `change` on a user of the organization unless the user is an admin who would stop being
 * one (staysAdmin false) while being the organization's only admin.
 */
async function keepingAnAdmin<T>(
  db: Kysely<Database>,
  orgId: string,
  userId: string,
  staysAdmin: boolean,
  change: (trx: Transaction<Database>) => Promise<T>,
): Promise<UserChange<T>> {
  return db.transaction().execute(async (trx) => {
    // Role changes and removals are serialized per organization on its row. Without the lock two
    // admins demoting each other at once would each still see the other as an admin (write skew
    // under READ COMMITTED) and leave none. NO KEY UPDATE does not block inserts that reference
    // the organization: their foreign key checks take KEY SHARE, which it does not conflict with.
    await trx.selectFrom('orgs').select('id').where('id', '=', orgId).forNoKeyUpdate().execute()
    // A statement after the lock: under READ COMMITTED it sees every change committed before the
    // lock was granted (a count in the locking statement itself would use the older snapshot).
    const target = await trx
      .selectFrom('users')
      .select([
        'role',
        sql<number>`(SELECT count(*)::int FROM users admins WHERE admins.org_id = ${orgId} AND admins.role = 'admin')`.as(
          'admins',
        ),
      ])
      .where('id', '=', userId)
      .where('org_id', '=', orgId)
      .executeTakeFirst()
    if (!target) return { ok: false, reason: 'not_found' }
    if (target.role === 'admin' && !staysAdmin && target.admins <= 1) return { ok: false, reason: 'last_admin' }
    return { ok: true, value: await change(trx) }
  })
}

/** Gives a user of the organization another role; the organization keeps at least one admin. */
export async function updateUserRole(
  db: Kysely<Database>,
  orgId: string,
  userId: string,
  role: UserRole,
): Promise<UserChange<User>> {
  return keepingAnAdmin(db, orgId, userId, role === 'admin', async (trx) =>
    toUser(
      await trx
        .updateTable('users')
        .set({ role })
        .where('id', '=', userId)
        .returning(userColumns)
        .executeTakeFirstOrThrow(),
    ),
  )
}

/**
 * Removes a user of the organization; the organization keeps at least one admin. Their sessions
 * and household assignments go with them (ON DELETE CASCADE), so they are signed out at once.
 */
export async function removeUser(db: Kysely<Database>, orgId: string, userId: string): Promise<UserChange<undefined>> {
  return keepingAnAdmin(db, orgId, userId, false, async (trx) => {
    const assigned = await trx
      .selectFrom('assignments')
      .select('household_id')
      .where('user_id', '=', userId)
      .orderBy('household_id')
      .execute()
    await trx.deleteFrom('users').where('id', '=', userId).execute()
    // Each household the user was assigned to now reads without them: a new version (its ETag moves)
    // and an assignments.updated, so that a copy kept from the change feed loses them too.
    for (const { household_id: householdId } of assigned) {
      await trx
        .updateTable('households')
        .set({ version: sql<number>`version + 1`, updated_at: sql<Date>`clock_timestamp()` })
        .where('id', '=', householdId)
        .execute()
      await appendEvents(trx, { orgId, householdId, events: [{ type: 'assignments.updated' }] })
    }
    return undefined
  })
}
