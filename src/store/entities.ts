// The entities of one household (trusts, business entities, charities, holdings, parties). Reads
// build the API's JSON in the database, in one statement with the household's version, so a list
// and its ETag always agree. Writes run inside writeHousehold (the household's row lock is held),
// so the checks made here (count, externalId, links to the entity) cannot race another write to
// the same household.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from './tables.ts'
import {
  ENTITY_FIELD_NAMES,
  ENTITY_FIELDS,
  entityColumnChanges,
  entityColumnValues,
  entityJsonPairs,
  type EntityFields,
} from '../households/entity-fields.ts'

export interface EntityJson {
  /** JSON text: an Entity, or (for a list) an array of Entity. */
  body: string
  version: number
}

const isoTime = (column: RawBuilder<unknown>) =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** The Entity of the row aliased `alias`. */
function entityJson(alias: string): RawBuilder<unknown> {
  const ref = (column: string) => sql.ref(`${alias}.${column}`)
  return sql`json_build_object(
    'id', ${ref('id')},
    ${entityJsonPairs(alias)},
    'estateSet', ${ref('estate')} IS NOT NULL,
    'createdAt', ${isoTime(ref('created_at'))},
    'updatedAt', ${isoTime(ref('updated_at'))}
  )`
}

/** The household's entities as a JSON array, in the order they were added (also an import batch's household.replaced data). */
export function entitiesArray(householdId: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`coalesce((
    SELECT json_agg(${entityJson('e')} ORDER BY e.position, e.id) FROM entities e WHERE e.household_id = ${householdId}
  ), '[]'::json)`
}

/** The household's entities (JSON array text) with its version, or undefined when the org has no such household. */
export async function readEntitiesJson(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
): Promise<EntityJson | undefined> {
  const result = await sql<EntityJson>`
    SELECT h.version, ${entitiesArray(sql.ref('h.id'))}::text AS body
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${householdId}
  `.execute(db)
  return result.rows[0]
}

/** The household's entities (JSON array text), for a caller that already knows the household is the org's. */
export async function readHouseholdEntitiesJson(db: Kysely<Database>, householdId: string): Promise<string> {
  const result = await sql<{ body: string }>`SELECT ${entitiesArray(sql`${householdId}::uuid`)}::text AS body`.execute(
    db,
  )
  return result.rows[0]?.body ?? '[]'
}

/** One entity (JSON text) with its household's version, or undefined when either is not found. */
export async function readEntityJson(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
  entityId: string,
): Promise<EntityJson | undefined> {
  const result = await sql<EntityJson>`
    SELECT h.version, ${entityJson('e')}::text AS body
    FROM households h JOIN entities e ON e.household_id = h.id
    WHERE h.org_id = ${orgId} AND h.id = ${householdId} AND e.id = ${entityId}
  `.execute(db)
  return result.rows[0]
}

/** An entity's stored fields (estate as set, null = the kind's default), or undefined when the household has no such entity. */
export async function readEntityFields(
  trx: Kysely<Database>,
  householdId: string,
  entityId: string,
): Promise<EntityFields | undefined> {
  const row = await trx
    .selectFrom('entities')
    .select(ENTITY_FIELD_NAMES.map((name) => ENTITY_FIELDS[name].column))
    .where('household_id', '=', householdId)
    .where('id', '=', entityId)
    .executeTakeFirst()
  if (!row) return undefined
  const columns: Record<string, unknown> = row
  return Object.fromEntries(
    ENTITY_FIELD_NAMES.map((name) => [name, columns[ENTITY_FIELDS[name].column]]),
  ) as EntityFields
}

/** Entities in the household now (read under the household's lock, in a write). */
export async function entityCount(trx: Kysely<Database>, householdId: string): Promise<number> {
  const row = await trx.selectFrom('households').select('entity_count').where('id', '=', householdId).executeTakeFirst()
  return row?.entity_count ?? 0
}

/** Whether another entity of the household has this externalId. */
export async function externalIdTaken(
  trx: Kysely<Database>,
  householdId: string,
  externalId: string,
  exceptEntityId?: string,
): Promise<boolean> {
  let query = trx
    .selectFrom('entities')
    .select('id')
    .where('household_id', '=', householdId)
    .where('external_id', '=', externalId)
  if (exceptEntityId !== undefined) query = query.where('id', '<>', exceptEntityId)
  return (await query.executeTakeFirst()) !== undefined
}

/** Adds an entity after the household's others; returns its id. */
export async function insertEntity(trx: Kysely<Database>, householdId: string, fields: EntityFields): Promise<string> {
  const row = await trx
    .insertInto('entities')
    .values({
      ...entityColumnValues(fields),
      household_id: householdId,
      position: sql<number>`coalesce((SELECT max(position) + 1 FROM entities WHERE household_id = ${householdId}), 0)`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Sets the fields a patch changes (and updatedAt). */
export async function updateEntity(
  trx: Kysely<Database>,
  entityId: string,
  changes: Partial<EntityFields>,
): Promise<void> {
  await trx
    .updateTable('entities')
    .set({ ...entityColumnChanges(changes), updated_at: sql<Date>`clock_timestamp()` })
    .where('id', '=', entityId)
    .execute()
}

/** Deletes an entity; its links and valuations go with it (foreign keys ON DELETE CASCADE). */
export async function deleteEntity(trx: Kysely<Database>, householdId: string, entityId: string): Promise<boolean> {
  const deleted = await trx
    .deleteFrom('entities')
    .where('household_id', '=', householdId)
    .where('id', '=', entityId)
    .returning('id')
    .executeTakeFirst()
  return deleted !== undefined
}
