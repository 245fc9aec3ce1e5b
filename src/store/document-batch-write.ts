// New households written from documents many at once (an import's batch of lines whose households
// do not exist yet): one multi-row statement per table for the whole batch instead of a transaction
// of about 16 statements per household, so the count triggers (statement-level, migrations 0001 and
// 0010) run once per batch too. The ids are made in Node (the plans already hold the members' and
// entities' ids), so that the rows can name each other without reading anything back. What each
// household ends up as is exactly what store/document-write.ts writes for one: the same columns,
// the same version 1 with the document's hash, the same audit entry, and a household.replaced
// event whose data is built by the same expressions as the per-household path's (events.ts
// appendEvents with household-document.ts householdPartsJson), so the two cannot differ.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { DocumentPlan } from '../households/document-plan.ts'
import { householdInsertSql, householdJsonPairs } from '../households/household-fields.ts'
import { entityColumnValues } from '../households/entity-fields.ts'
import type { AuditActor } from './audit.ts'
import { LIST_ITEM_PAIRS } from './households.ts'
import { membersArray } from './members.ts'
import { entitiesArray } from './entities.ts'
import { linkOf, type LinkSelection } from './entity-links.ts'

export interface NewDocumentHousehold {
  /** Made by the caller (randomUUID). */
  id: string
  /** The document's hash (household-document.ts documentHash): the same document again is `unchanged`. */
  hash: string
  plan: DocumentPlan
  /** The audit entry's `changed` (recorded sorted, as recordAudit does). */
  changed: readonly string[]
}

/** Inserts the households, version 1 with their documents' hashes, in one statement. */
async function insertHouseholds(trx: Kysely<Database>, orgId: string, households: readonly NewDocumentHousehold[]) {
  const [first] = households
  if (!first) return
  const { columns } = householdInsertSql(first.plan.household)
  const rows = households.map((h) => {
    const { values } = householdInsertSql(h.plan.household)
    return sql`(${h.id}::uuid, ${orgId}::uuid, ${values}, ${h.hash}::text, 1)`
  })
  await sql`
    INSERT INTO households (id, org_id, ${columns}, document_hash, document_version) VALUES ${sql.join(rows)}
  `.execute(trx)
}

/** Inserts every household's members, entities, valuations and kinships: one statement per table. */
async function insertParts(trx: Kysely<Database>, households: readonly NewDocumentHousehold[]) {
  const members = households.flatMap(({ id, plan }) =>
    plan.members.map((m) => ({
      id: m.id,
      household_id: id,
      name: m.fields.name,
      role: m.fields.role,
      birth_date: m.fields.birthDate,
      death_date: m.fields.deathDate,
      email: m.fields.email,
      external_id: m.fields.externalId,
      position: m.position,
    })),
  )
  if (members.length > 0) await trx.insertInto('members').values(members).execute()
  const entities = households.flatMap(({ id, plan }) =>
    plan.entities.map((e) => ({ id: e.id, household_id: id, position: e.position, ...entityColumnValues(e.fields) })),
  )
  if (entities.length > 0) await trx.insertInto('entities').values(entities).execute()
  const valuations = households.flatMap(({ id, plan }) =>
    plan.entities
      .filter((e) => e.valued)
      .map((e) => ({ household_id: id, entity_id: e.id, value: e.fields.value, value_as_of: e.fields.valueAsOf })),
  )
  if (valuations.length > 0) await trx.insertInto('entity_valuations').values(valuations).execute()
  const kinships = households.flatMap(({ id, plan }) =>
    plan.kinships.map((k) => ({
      household_id: id,
      from_member_id: k.from,
      to_member_id: k.to,
      type: k.type,
      parent_kind: k.parentKind,
      since: k.since,
      until: k.until,
    })),
  )
  if (kinships.length > 0) await trx.insertInto('member_relationships').values(kinships).execute()
}

/**
 * Inserts every household's links, each household's in its document's order (seq follows the
 * rows' order, as for one household), and answers each household's links as the links list
 * answers them (JSON text), from what the INSERT returned: no read back.
 */
async function insertLinks(
  trx: Kysely<Database>,
  households: readonly NewDocumentHousehold[],
): Promise<Map<string, string>> {
  const rows = households.flatMap(({ id, plan }) =>
    plan.links.map((l) => ({
      household_id: id,
      from_member_id: l.fromMemberId,
      from_entity_id: l.fromEntityId,
      to_entity_id: l.toEntityId,
      type: l.type,
      share: l.share,
      beneficiary_type: l.beneficiaryType,
    })),
  )
  const inserted: (LinkSelection & { household_id: string; seq: number })[] =
    rows.length === 0
      ? []
      : await trx
          .insertInto('entity_links')
          .values(rows)
          .returning([
            'id',
            'household_id',
            'from_member_id',
            'from_entity_id',
            'to_entity_id',
            'type',
            'share',
            'beneficiary_type',
            'created_at',
            'seq',
          ])
          .execute()
  // RETURNING promises no order: seq is the order the links list reads them in (listLinks).
  inserted.sort((a, b) => a.seq - b.seq)
  const byHousehold = new Map<string, LinkSelection[]>()
  for (const row of inserted) byHousehold.set(row.household_id, [...(byHousehold.get(row.household_id) ?? []), row])
  return new Map(households.map(({ id }) => [id, JSON.stringify((byHousehold.get(id) ?? []).map(linkOf))]))
}

async function insertAudit(trx: Kysely<Database>, actor: AuditActor, households: readonly NewDocumentHousehold[]) {
  await trx
    .insertInto('audit_log')
    .values(
      households.map((h) => ({
        org_id: actor.orgId,
        actor_type: actor.kind,
        actor_id: actor.id,
        action: 'household.create',
        household_id: h.id,
        member_id: null,
        entity_id: null,
        link_id: null,
        changed: [...h.changed].sort(),
      })),
    )
    .execute()
}

/**
 * One household.replaced per household, in the given order, with the data the per-household path
 * writes: `{"household":…,"members":…,"entities":…,"links":…}`, the household, members and entities
 * built by the database with the GET endpoints' own expressions, after every row is in (so the
 * counts the triggers keep are final).
 */
async function insertEvents(
  trx: Kysely<Database>,
  orgId: string,
  households: readonly NewDocumentHousehold[],
  links: ReadonlyMap<string, string>,
) {
  const ids = households.map((h) => h.id)
  await sql`
    INSERT INTO events (org_id, type, household_id, data)
    SELECT ${orgId}::uuid, 'household.replaced', h.id,
      '{"household":' || json_build_object(${LIST_ITEM_PAIRS}, ${householdJsonPairs(false)})::text
        || ',"members":' || ${membersArray(sql.ref('h.id'))}::text
        || ',"entities":' || ${entitiesArray(sql.ref('h.id'))}::text
        || ',"links":' || v.links || '}'
    FROM unnest(${ids}::uuid[], ${ids.map((id) => links.get(id) ?? '[]')}::text[]) WITH ORDINALITY AS v(id, links, n)
    JOIN households h ON h.id = v.id
    ORDER BY v.n
  `.execute(trx)
}

/**
 * Writes new households of `actor`'s organization from their plans (each made against an empty
 * household), with their audit entries and events, inside the caller's transaction. The caller
 * checked that no household has their externalIds; one that took an externalId meanwhile makes
 * the households INSERT fail on households_org_external_id, and the whole transaction with it.
 */
export async function insertDocumentHouseholds(
  trx: Kysely<Database>,
  actor: AuditActor,
  households: readonly NewDocumentHousehold[],
): Promise<void> {
  if (households.length === 0) return
  // The events' statement builds a hundred households' JSON with correlated subqueries: its
  // estimated cost passes jit_above_cost (more so before the tables' first ANALYZE), and compiling
  // it took 0.7 s of a 1 s statement on the bench, for a query that runs in milliseconds.
  await sql`SET LOCAL jit = off`.execute(trx)
  // The households in externalId order, whatever the file's: two batches that share externalIds
  // (two imports that name one, processed at once) then wait on each other's index entries in the
  // same order, and one fails on the unique index instead of both deadlocking.
  const inIndexOrder = [...households].sort((a, b) =>
    (a.plan.household.externalId ?? '') < (b.plan.household.externalId ?? '') ? -1 : 1,
  )
  await insertHouseholds(trx, actor.orgId, inIndexOrder)
  await insertParts(trx, households)
  const links = await insertLinks(trx, households)
  await insertAudit(trx, actor, households)
  await insertEvents(trx, actor.orgId, households, links)
}
