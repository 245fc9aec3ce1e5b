// What the chart payload of a household is made of (domain/chart-payload.ts maps it), read in one
// statement so that the version (the ETag) and the content come from one snapshot.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { ChartMember, ChartMemberRelationship, ChartRecord } from '../domain/chart-payload.ts'

interface Row {
  version: number
  name: string
  deceased_spouse_name: string | null
  dsue_date_of_death: string | null
  members: ChartMember[] | string
  relationships: ChartMemberRelationship[] | string
}

/** The household's chart record with its version, or undefined when the org has no household with this id. */
export async function readHouseholdChart(db: Kysely<Database>, orgId: string, id: string): Promise<{ version: number; record: ChartRecord } | undefined> {
  const result = await sql<Row>`
    SELECT h.version, h.name, h.deceased_spouse_name, to_char(h.dsue_date_of_death, 'YYYY-MM-DD') AS dsue_date_of_death,
      coalesce((
        SELECT json_agg(json_build_object(
          'id', m.id, 'name', m.name, 'role', m.role,
          'birthDate', to_char(m.birth_date, 'YYYY-MM-DD'),
          'deathDate', to_char(m.death_date, 'YYYY-MM-DD')
        ) ORDER BY m.position, m.id)
        FROM members m WHERE m.household_id = h.id), '[]'::json) AS members,
      coalesce((
        SELECT json_agg(json_build_object('from', r.from_member_id, 'to', r.to_member_id, 'type', r.type)
          ORDER BY r.created_at, r.from_member_id, r.to_member_id)
        FROM member_relationships r WHERE r.household_id = h.id), '[]'::json) AS relationships
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${id}
  `.execute(db)
  const row = result.rows[0]
  if (!row) return undefined
  const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value)
  return {
    version: row.version,
    record: {
      name: row.name,
      deceasedSpouseName: row.deceased_spouse_name,
      dsueDateOfDeath: row.dsue_date_of_death,
      members: parsed(row.members),
      relationships: parsed(row.relationships),
    },
  }
}
