// Adds the sample households (and the advisors they are assigned to) to an organization, each with
// its members, their kinships, its entities (with a first valuation each) and who holds what, in
// one transaction. Idempotent: a sample household whose name the org already has as a sample is skipped.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { SAMPLE_ADVISORS, SAMPLE_HOUSEHOLDS, type SampleHousehold } from '../domain/sample-households.ts'
import { insertHousehold, insertMembers } from './households.ts'
import { appendEvents } from './events.ts'
import { householdPartsJson } from './household-document.ts'

export async function addSampleHouseholds(
  db: Kysely<Database>,
  orgId: string,
): Promise<{ added: number; skipped: number }> {
  return db.transaction().execute(async (trx) => {
    const existing = new Set(
      (
        await trx
          .selectFrom('households')
          .select('name')
          .where('org_id', '=', orgId)
          .where('is_sample', '=', true)
          .execute()
      ).map((row) => row.name),
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
      await insertEstate(trx, household.id, sample)
      if (sample.assignments.length > 0) {
        await trx
          .insertInto('assignments')
          .values(
            sample.assignments.map((assignment) => ({
              household_id: household.id,
              user_id: advisorIds.get(assignment.advisor)!,
              role: assignment.role,
            })),
          )
          .execute()
      }
      // Written whole, as PUT …/chart writes: the change feed tells it as household.replaced.
      await appendEvents(trx, {
        orgId,
        householdId: household.id,
        events: [{ type: 'household.replaced', resources: await householdPartsJson(trx, orgId, household.id) }],
      })
      added++
    }
    return { added, skipped: SAMPLE_HOUSEHOLDS.length - added }
  })
}

/** The sample's kinships, entities, their first valuations and links; names resolve to the ids just written. */
async function insertEstate(trx: Kysely<Database>, householdId: string, sample: SampleHousehold): Promise<void> {
  const members = new Map(
    (await trx.selectFrom('members').select(['id', 'name']).where('household_id', '=', householdId).execute()).map(
      (row) => [row.name, row.id],
    ),
  )
  const member = (name: string): string => {
    const id = members.get(name)
    if (id === undefined) throw new Error(`sample ${sample.fields.name}: no member named ${name}`)
    return id
  }
  if (sample.kinships.length > 0) {
    await trx
      .insertInto('member_relationships')
      .values(
        sample.kinships.map((kinship) => {
          const [a, b] = [member(kinship.from), member(kinship.to)]
          // Mutual kinships are stored with the smaller id first (see store/members.ts).
          const [from, to] = kinship.type === 'parent' || a < b ? [a, b] : [b, a]
          return {
            household_id: householdId,
            from_member_id: from,
            to_member_id: to,
            type: kinship.type,
            parent_kind: kinship.parentKind ?? null,
            since: kinship.since ?? null,
            until: kinship.until ?? null,
          }
        }),
      )
      .execute()
  }
  if (sample.entities.length === 0) return

  const rows = await trx
    .insertInto('entities')
    .values(
      sample.entities.map((entity, position) => ({
        household_id: householdId,
        name: entity.name,
        short_name: entity.shortName ?? null,
        kind: entity.kind,
        value: entity.value ?? null,
        value_as_of: entity.valueAsOf ?? null,
        estate: entity.estate ?? null,
        position,
      })),
    )
    .returning(['id', 'name', 'value', 'value_as_of'])
    .execute()
  const entities = new Map(rows.map((row) => [row.name, row.id]))
  const valued = rows.filter((row) => row.value !== null)
  if (valued.length > 0) {
    await trx
      .insertInto('entity_valuations')
      .values(
        valued.map((row) => ({
          household_id: householdId,
          entity_id: row.id,
          value: row.value,
          value_as_of: row.value_as_of,
        })),
      )
      .execute()
  }
  const entity = (name: string): string => {
    const id = entities.get(name)
    if (id === undefined) throw new Error(`sample ${sample.fields.name}: no entity named ${name}`)
    return id
  }
  if (sample.links.length === 0) return
  await trx
    .insertInto('entity_links')
    .values(
      sample.links.map((link) => {
        const fromEntity = entities.get(link.from)
        return {
          household_id: householdId,
          from_member_id: fromEntity === undefined ? member(link.from) : null,
          from_entity_id: fromEntity ?? null,
          to_entity_id: entity(link.to),
          type: link.type,
          share: link.share ?? null,
          beneficiary_type: link.beneficiaryType ?? null,
        }
      }),
    )
    .execute()
}
