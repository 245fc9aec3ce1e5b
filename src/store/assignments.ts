// Assignments of a household: who of the organization's users works on it, in which role. Written
// inside a household write (writeHousehold), so the version gate and the audit entry share its
// transaction; the assignment_count column follows through the assignments_refresh_* triggers.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { AssignmentList, AssignmentRole } from '../schemas/assignment.ts'

export interface AssignmentWrite {
  userId: string
  role: AssignmentRole
}

/** The ids among `userIds` that are not users of the organization (another org's users included). */
export async function usersNotInOrg(
  db: Kysely<Database>,
  orgId: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (userIds.length === 0) return []
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', 'in', [...userIds])
    .execute()
  const known = new Set(found.map((row) => row.id))
  return userIds.filter((id) => !known.has(id))
}

/**
 * Makes the household's assignments exactly `wanted`: removes the users not in it, changes the role
 * of those who stay (keeping when they were first assigned, which orders the list), adds the rest.
 */
export async function replaceAssignments(
  trx: Kysely<Database>,
  householdId: string,
  wanted: readonly AssignmentWrite[],
): Promise<void> {
  let removal = trx.deleteFrom('assignments').where('household_id', '=', householdId)
  if (wanted.length > 0)
    removal = removal.where(
      'user_id',
      'not in',
      wanted.map((a) => a.userId),
    )
  await removal.execute()
  if (wanted.length === 0) return
  await trx
    .insertInto('assignments')
    .values(wanted.map((a) => ({ household_id: householdId, user_id: a.userId, role: a.role })))
    .onConflict((oc) =>
      oc
        .columns(['household_id', 'user_id'])
        .doUpdateSet({ role: (eb) => eb.ref('excluded.role') })
        .where(sql<boolean>`assignments.role IS DISTINCT FROM excluded.role`),
    )
    .execute()
}

/** The household's assignments with its version (one statement, one snapshot), or undefined when the org has no such household. */
export async function readAssignments(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
): Promise<{ version: number; list: AssignmentList } | undefined> {
  const result = await sql<{ version: number; assignments: AssignmentList['assignments'] | string }>`
    SELECT h.version, coalesce((
      SELECT json_agg(json_build_object('userId', u.id, 'name', u.name, 'role', a.role) ORDER BY a.created_at, u.id)
      FROM assignments a JOIN users u ON u.id = a.user_id WHERE a.household_id = h.id), '[]'::json) AS assignments
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${householdId}
  `.execute(db)
  const row = result.rows[0]
  if (!row) return undefined
  const assignments =
    typeof row.assignments === 'string'
      ? (JSON.parse(row.assignments) as AssignmentList['assignments'])
      : row.assignments
  return { version: row.version, list: { assignments } }
}
