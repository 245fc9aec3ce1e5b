// The rows a household document (src/households/household-document.ts) reads and writes: what the
// household holds now, then its members, kinships, entities and links replaced in a few set-based
// statements, whatever their number (a bulk import writes hundreds of households a second). Runs
// inside the write's transaction, with the household's row lock held (or on a household the same
// transaction just inserted).
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { DocumentPlan, DocumentTarget, PlannedEntity, PlannedMember } from '../households/document-plan.ts'
import { householdInsertSql, type HouseholdFields } from '../households/household-fields.ts'
import { entityColumnValues } from '../households/entity-fields.ts'
import { ONE_PER_HOUSEHOLD_ROLES } from '../domain/household-roles.ts'

/** The household's members and entities, as a document is matched against them. */
export async function readDocumentTarget(trx: Kysely<Database>, householdId: string): Promise<DocumentTarget> {
  const [members, entities] = await Promise.all([
    trx.selectFrom('members').select(['id', 'external_id']).where('household_id', '=', householdId).execute(),
    trx
      .selectFrom('entities')
      .select(['id', 'external_id', 'value', 'value_as_of'])
      .where('household_id', '=', householdId)
      .execute(),
  ])
  return {
    members: members.map((m) => ({ id: m.id, externalId: m.external_id })),
    entities: entities.map((e) => ({ id: e.id, externalId: e.external_id, value: e.value, valueAsOf: e.value_as_of })),
  }
}

/** Inserts a household written by a document: version 1, with the document's hash. */
export async function insertDocumentHousehold(
  trx: Kysely<Database>,
  orgId: string,
  fields: HouseholdFields,
  documentHash: string,
): Promise<{ id: string; version: number }> {
  const { columns, values } = householdInsertSql(fields)
  const result = await sql<{ id: string; version: number }>`
    INSERT INTO households (org_id, ${columns}, document_hash, document_version)
    VALUES (${orgId}, ${values}, ${documentHash}, 1)
    RETURNING id, version
  `.execute(trx)
  const row = result.rows[0]
  if (!row) throw new Error('INSERT … RETURNING gave no row')
  return row
}

const ONE_PER_HOUSEHOLD = [...ONE_PER_HOUSEHOLD_ROLES]

async function updateMembers(
  trx: Kysely<Database>,
  householdId: string,
  members: readonly PlannedMember[],
): Promise<void> {
  if (members.length === 0) return
  const rows = JSON.stringify(
    members.map((m) => ({
      id: m.id,
      name: m.fields.name,
      role: m.fields.role,
      birth_date: m.fields.birthDate,
      death_date: m.fields.deathDate,
      email: m.fields.email,
      position: m.position,
    })),
  )
  // A primaryClient and a coClient may swap: the one-per-household indexes are checked row by
  // row, so members leaving such a role give it up in a statement of its own first.
  await sql`
    UPDATE members m SET role = 'other'
    FROM json_to_recordset(${rows}::json) AS v(id uuid, role text)
    WHERE m.id = v.id AND m.household_id = ${householdId}
      AND m.role IN (${sql.join(ONE_PER_HOUSEHOLD)}) AND m.role <> v.role
  `.execute(trx)
  // Only rows that change are written (each write fires the household's count trigger).
  await sql`
    UPDATE members m SET name = v.name, role = v.role, birth_date = v.birth_date, death_date = v.death_date,
      email = v.email, position = v.position
    FROM json_to_recordset(${rows}::json)
      AS v(id uuid, name text, role text, birth_date date, death_date date, email text, position int)
    WHERE m.id = v.id AND m.household_id = ${householdId}
      AND (m.name, m.role, m.birth_date, m.death_date, m.email, m.position)
        IS DISTINCT FROM (v.name, v.role, v.birth_date, v.death_date, v.email, v.position)
  `.execute(trx)
}

async function updateEntities(
  trx: Kysely<Database>,
  householdId: string,
  entities: readonly PlannedEntity[],
): Promise<void> {
  if (entities.length === 0) return
  const rows = JSON.stringify(
    entities.map((e) => ({
      id: e.id,
      name: e.fields.name,
      short_name: e.fields.shortName,
      kind: e.fields.kind,
      value: e.fields.value,
      value_as_of: e.fields.valueAsOf,
      estate: e.fields.estate,
      notes: e.fields.notes,
      position: e.position,
    })),
  )
  // updatedAt moves only for an entity that changed, as a PATCH that changes nothing would not.
  await sql`
    UPDATE entities e SET name = v.name, short_name = v.short_name, kind = v.kind, value = v.value,
      value_as_of = v.value_as_of, estate = v.estate, notes = v.notes, position = v.position,
      updated_at = clock_timestamp()
    FROM json_to_recordset(${rows}::json)
      AS v(id uuid, name text, short_name text, kind text, value numeric, value_as_of date, estate text,
        notes text, position int)
    WHERE e.id = v.id AND e.household_id = ${householdId}
      AND (e.name, e.short_name, e.kind, e.value, e.value_as_of, e.estate, e.notes, e.position)
        IS DISTINCT FROM (v.name, v.short_name, v.kind, v.value, v.value_as_of, v.estate, v.notes, v.position)
  `.execute(trx)
}

/**
 * Writes the plan's members, kinships, entities and links into the household. `fresh`: the
 * household was just inserted (nothing to delete or update). Otherwise its links and kinships are
 * deleted and written again, members and entities the plan does not keep are deleted first (so a
 * created row may take an externalId a deleted one held), and kept ones updated in place.
 */
export async function writeDocumentRows(
  trx: Kysely<Database>,
  householdId: string,
  plan: DocumentPlan,
  fresh: boolean,
): Promise<void> {
  if (!fresh) {
    await trx.deleteFrom('entity_links').where('household_id', '=', householdId).execute()
    await trx.deleteFrom('member_relationships').where('household_id', '=', householdId).execute()
    if (plan.deleteMemberIds.length > 0)
      await trx
        .deleteFrom('members')
        .where('household_id', '=', householdId)
        .where('id', 'in', plan.deleteMemberIds)
        .execute()
    if (plan.deleteEntityIds.length > 0)
      await trx
        .deleteFrom('entities')
        .where('household_id', '=', householdId)
        .where('id', 'in', plan.deleteEntityIds)
        .execute()
    await updateMembers(
      trx,
      householdId,
      plan.members.filter((m) => !m.isNew),
    )
    await updateEntities(
      trx,
      householdId,
      plan.entities.filter((e) => !e.isNew),
    )
  }
  const newMembers = plan.members.filter((m) => m.isNew)
  if (newMembers.length > 0)
    await trx
      .insertInto('members')
      .values(
        newMembers.map((m) => ({
          id: m.id,
          household_id: householdId,
          name: m.fields.name,
          role: m.fields.role,
          birth_date: m.fields.birthDate,
          death_date: m.fields.deathDate,
          email: m.fields.email,
          external_id: m.fields.externalId,
          position: m.position,
        })),
      )
      .execute()
  const newEntities = plan.entities.filter((e) => e.isNew)
  if (newEntities.length > 0)
    await trx
      .insertInto('entities')
      .values(
        newEntities.map((e) => ({
          id: e.id,
          household_id: householdId,
          position: e.position,
          ...entityColumnValues(e.fields),
        })),
      )
      .execute()
  const valued = plan.entities.filter((e) => e.valued)
  if (valued.length > 0)
    await trx
      .insertInto('entity_valuations')
      .values(
        valued.map((e) => ({
          household_id: householdId,
          entity_id: e.id,
          value: e.fields.value,
          value_as_of: e.fields.valueAsOf,
        })),
      )
      .execute()
  if (plan.kinships.length > 0)
    await trx
      .insertInto('member_relationships')
      .values(
        plan.kinships.map((k) => ({
          household_id: householdId,
          from_member_id: k.from,
          to_member_id: k.to,
          type: k.type,
          parent_kind: k.parentKind,
          since: k.since,
          until: k.until,
        })),
      )
      .execute()
  // One statement: seq (the order links are listed in) follows the rows' order.
  if (plan.links.length > 0)
    await trx
      .insertInto('entity_links')
      .values(
        plan.links.map((l) => ({
          household_id: householdId,
          from_member_id: l.fromMemberId,
          from_entity_id: l.fromEntityId,
          to_entity_id: l.toEntityId,
          type: l.type,
          share: l.share,
          beneficiary_type: l.beneficiaryType,
        })),
      )
      .execute()
}
