// The rows a chart import (src/households/chart-import.ts) reads and writes: what the household holds
// now, then its members, kinships and entities replaced in a few set-based statements (a payload may
// carry 1000 people and 200 entities). Runs inside writeHousehold, with the household's row lock
// held. Links are written by the links' own module (store/entity-links.ts), after their rules.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { EntityWrite, ExistingRecord, ImportPlan, MemberWrite } from '../domain/chart-import.ts'
import { ONE_PER_HOUSEHOLD_ROLES } from '../domain/household-roles.ts'

/** What the household holds now, as a chart import matches against it. */
export async function readImportTarget(trx: Kysely<Database>, householdId: string): Promise<ExistingRecord> {
  const [members, entities, kinships, links] = await Promise.all([
    trx.selectFrom('members').select(['id', 'external_id']).where('household_id', '=', householdId).execute(),
    trx
      .selectFrom('entities')
      .select(['id', 'external_id', 'kind', 'value', 'estate'])
      .where('household_id', '=', householdId)
      .execute(),
    trx
      .selectFrom('member_relationships')
      .select(['from_member_id', 'to_member_id', 'type', 'parent_kind', 'since', 'until'])
      .where('household_id', '=', householdId)
      .execute(),
    trx
      .selectFrom('entity_links')
      .select(['from_member_id', 'from_entity_id', 'to_entity_id', 'type', 'share', 'beneficiary_type'])
      .where('household_id', '=', householdId)
      .orderBy('seq')
      .execute(),
  ])
  return {
    members: members.map((m) => ({ id: m.id, externalId: m.external_id })),
    entities: entities.map((e) => ({
      id: e.id,
      externalId: e.external_id,
      kind: e.kind,
      value: e.value,
      estate: e.estate,
    })),
    kinships: kinships.map((k) => ({
      from: k.from_member_id,
      to: k.to_member_id,
      type: k.type,
      parentKind: k.parent_kind,
      since: k.since,
      until: k.until,
    })),
    links: links.map((l) => ({
      from: l.from_member_id ?? l.from_entity_id ?? '',
      to: l.to_entity_id,
      type: l.type,
      share: l.share,
      beneficiaryType: l.beneficiary_type,
    })),
  }
}

const ONE_PER_HOUSEHOLD = [...ONE_PER_HOUSEHOLD_ROLES]

async function writeMembers(
  trx: Kysely<Database>,
  householdId: string,
  members: readonly MemberWrite[],
): Promise<void> {
  const updated = members.filter((m) => !m.isNew)
  if (updated.length > 0) {
    const rows = JSON.stringify(
      updated.map((m) => ({
        id: m.id,
        name: m.name,
        role: m.role,
        birth_date: m.birthDate,
        death_date: m.deathDate,
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
    await sql`
      UPDATE members m SET name = v.name, role = v.role, birth_date = v.birth_date, death_date = v.death_date,
        position = v.position
      FROM json_to_recordset(${rows}::json) AS v(id uuid, name text, role text, birth_date date, death_date date, position int)
      WHERE m.id = v.id AND m.household_id = ${householdId}
    `.execute(trx)
  }
  const created = members.filter((m) => m.isNew)
  if (created.length > 0) {
    await trx
      .insertInto('members')
      .values(
        created.map((m) => ({
          id: m.id,
          household_id: householdId,
          name: m.name,
          role: m.role,
          birth_date: m.birthDate,
          death_date: m.deathDate,
          external_id: m.externalId,
          position: m.position,
        })),
      )
      .execute()
  }
}

async function writeEntities(
  trx: Kysely<Database>,
  householdId: string,
  entities: readonly EntityWrite[],
): Promise<void> {
  const updated = entities.filter((e) => !e.isNew)
  if (updated.length > 0) {
    const rows = JSON.stringify(
      updated.map((e) => ({
        id: e.id,
        name: e.name,
        short_name: e.shortName,
        kind: e.kind,
        value: e.value,
        value_as_of: e.valueAsOf,
        estate: e.estate,
        value_changed: e.valueChanged,
        position: e.position,
      })),
    )
    // A short name or value date the payload does not state is kept (null = not stated); a value that
    // changed without a date loses its old one. updated_at moves only for an entity that changed.
    await sql`
      UPDATE entities e SET name = v.name, kind = v.kind, value = v.value, estate = v.estate, position = v.position,
        short_name = COALESCE(v.short_name, e.short_name),
        value_as_of = CASE WHEN v.value_as_of IS NOT NULL THEN v.value_as_of
          WHEN v.value_changed THEN NULL ELSE e.value_as_of END,
        updated_at = CASE WHEN (e.name, e.kind, e.value, e.estate, e.short_name, e.value_as_of) IS DISTINCT FROM
          (v.name, v.kind, v.value, v.estate, COALESCE(v.short_name, e.short_name),
           CASE WHEN v.value_as_of IS NOT NULL THEN v.value_as_of WHEN v.value_changed THEN NULL ELSE e.value_as_of END)
          THEN clock_timestamp() ELSE e.updated_at END
      FROM json_to_recordset(${rows}::json)
        AS v(id uuid, name text, short_name text, kind text, value numeric, value_as_of date, estate text,
          value_changed boolean, position int)
      WHERE e.id = v.id AND e.household_id = ${householdId}
    `.execute(trx)
  }
  const created = entities.filter((e) => e.isNew)
  if (created.length > 0) {
    await trx
      .insertInto('entities')
      .values(
        created.map((e) => ({
          id: e.id,
          household_id: householdId,
          name: e.name,
          short_name: e.shortName,
          kind: e.kind,
          value: e.value,
          value_as_of: e.valueAsOf,
          estate: e.estate,
          external_id: e.externalId,
          position: e.position,
        })),
      )
      .execute()
  }
  const valued = entities.filter((e) => e.valueChanged)
  if (valued.length > 0) {
    await trx
      .insertInto('entity_valuations')
      .values(
        valued.map((e) => ({ household_id: householdId, entity_id: e.id, value: e.value, value_as_of: e.valueAsOf })),
      )
      .execute()
  }
}

/**
 * Replaces the household's members, kinships and entities with the plan's, and deletes every link
 * (the caller adds the plan's links back, each through the links' rules). Deletions come first,
 * so a created row may take an externalId that a deleted one held.
 */
export async function writeImportRows(trx: Kysely<Database>, householdId: string, plan: ImportPlan): Promise<void> {
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
  await writeMembers(trx, householdId, plan.members)
  await writeEntities(trx, householdId, plan.entities)
  if (plan.kinships.length > 0) {
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
  }
}
