// Adds the sample households (and the advisors they are assigned to) to an organization.
// Idempotent: a sample household whose name the org already has as a sample is skipped.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { SAMPLE_ADVISORS, SAMPLE_HOUSEHOLDS } from '../domain/sample-households.ts'
import { insertHousehold, insertMembers } from './households.ts'

export async function addSampleHouseholds(db: Kysely<Database>, orgId: string): Promise<{ added: number; skipped: number }> {
  return db.transaction().execute(async (trx) => {
    const existing = new Set(
      (await trx.selectFrom('households').select('name').where('org_id', '=', orgId).where('is_sample', '=', true).execute()).map(
        (row) => row.name,
      ),
    )
    const advisorIds = new Map<string, string>()
    for (const advisor of SAMPLE_ADVISORS) {
      const found = await trx
        .selectFrom('users')
        .select('id')
        .where('org_id', '=', orgId)
        .where(sql`lower(email)`, '=', advisor.email)
        .executeTakeFirst()
      const row =
        found ??
        (await trx
          .insertInto('users')
          .values({ org_id: orgId, email: advisor.email, name: advisor.name, role: 'advisor' })
          .returning('id')
          .executeTakeFirstOrThrow())
      advisorIds.set(advisor.key, row.id)
    }
    let added = 0
    for (const sample of SAMPLE_HOUSEHOLDS) {
      if (existing.has(sample.fields.name)) continue
      const household = await insertHousehold(trx, orgId, sample.fields, true)
      await insertMembers(trx, household.id, sample.members)
      if (sample.assignments.length > 0) {
        await trx
          .insertInto('assignments')
          .values(
            sample.assignments.map((assignment) => ({
              household_id: household.id,
              user_id: advisorIds.get(assignment.advisor) as string,
              role: assignment.role,
            })),
          )
          .execute()
      }
      added++
    }
    return { added, skipped: SAMPLE_HOUSEHOLDS.length - added }
  })
}
