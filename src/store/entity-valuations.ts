// Every value an entity has had: a row per create with a value and per change of value or
// valueAsOf (written by the entity use cases, in the entity write's transaction), read newest first.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface ValuationsJson {
  /** JSON text: an array of Valuation, newest first. */
  body: string
  version: number
}

export async function recordValuation(
  trx: Kysely<Database>,
  householdId: string,
  entityId: string,
  valuation: { value: number | null; valueAsOf: string | null },
): Promise<void> {
  await trx
    .insertInto('entity_valuations')
    .values({
      household_id: householdId,
      entity_id: entityId,
      value: valuation.value,
      value_as_of: valuation.valueAsOf,
    })
    .execute()
}

/** The entity's valuations (JSON array text) with its household's version, or undefined when either is not found. */
export async function readValuationsJson(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
  entityId: string,
): Promise<ValuationsJson | undefined> {
  const result = await sql<ValuationsJson>`
    SELECT h.version, coalesce((
      SELECT json_agg(json_build_object(
        'value', v.value::float8,
        'valueAsOf', to_char(v.value_as_of, 'YYYY-MM-DD'),
        'recordedAt', to_char(v.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) ORDER BY v.recorded_at DESC, v.id DESC)
      FROM entity_valuations v WHERE v.entity_id = e.id
    ), '[]'::json)::text AS body
    FROM households h JOIN entities e ON e.household_id = h.id
    WHERE h.org_id = ${orgId} AND h.id = ${householdId} AND e.id = ${entityId}
  `.execute(db)
  return result.rows[0]
}
