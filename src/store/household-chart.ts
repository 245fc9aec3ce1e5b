// What the chart payload of a household is made of (domain/chart-payload.ts maps it): the household's
// estate settings, members, kinships, entities and links, every fact of each, read in one statement
// so that the version (the ETag) and the content come from one snapshot.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type {
  ChartEntity,
  ChartEstateSettings,
  ChartLink,
  ChartMember,
  ChartMemberRelationship,
  ChartRecord,
} from '../domain/chart-payload.ts'

type Json<T> = T | string

interface Row {
  version: number
  name: string
  deceased_spouse_name: string | null
  dsue_date_of_death: string | null
  settings: Json<ChartEstateSettings>
  members: Json<ChartMember[]>
  relationships: Json<ChartMemberRelationship[]>
  entities: Json<ChartEntity[]>
  links: Json<ChartLink[]>
}

/** The household's chart record with its version, or undefined when the org has no household with this id. */
export async function readHouseholdChart(
  db: Kysely<Database>,
  orgId: string,
  id: string,
): Promise<{ version: number; record: ChartRecord } | undefined> {
  const result = await sql<Row>`
    SELECT h.version, h.name, h.deceased_spouse_name, to_char(h.dsue_date_of_death, 'YYYY-MM-DD') AS dsue_date_of_death,
      json_build_object(
        'currency', h.currency, 'dsueReceived', h.dsue_received, 'portabilityElected', h.portability_elected,
        'primaryClientAsDonor', h.primary_client_as_donor, 'coClientAsDonor', h.co_client_as_donor,
        'primaryClientLifetimeGifts', h.primary_client_lifetime_gifts, 'coClientLifetimeGifts', h.co_client_lifetime_gifts,
        'primaryClientExemptionUsed', h.primary_client_exemption_used, 'coClientExemptionUsed', h.co_client_exemption_used,
        'primaryClientUsCitizen', h.primary_client_us_citizen, 'coClientUsCitizen', h.co_client_us_citizen
      ) AS settings,
      coalesce((
        SELECT json_agg(json_build_object(
          'id', m.id, 'name', m.name, 'role', m.role,
          'birthDate', to_char(m.birth_date, 'YYYY-MM-DD'),
          'deathDate', to_char(m.death_date, 'YYYY-MM-DD'),
          'externalId', m.external_id
        ) ORDER BY m.position, m.id)
        FROM members m WHERE m.household_id = h.id), '[]'::json) AS members,
      coalesce((
        SELECT json_agg(json_build_object(
          'from', r.from_member_id, 'to', r.to_member_id, 'type', r.type, 'parentKind', r.parent_kind,
          'since', to_char(r.since, 'YYYY-MM-DD'), 'until', to_char(r.until, 'YYYY-MM-DD')
        ) ORDER BY r.created_at, r.from_member_id, r.to_member_id)
        FROM member_relationships r WHERE r.household_id = h.id), '[]'::json) AS relationships,
      coalesce((
        SELECT json_agg(json_build_object(
          'id', e.id, 'name', e.name, 'shortName', e.short_name, 'kind', e.kind, 'value', e.value,
          'valueAsOf', to_char(e.value_as_of, 'YYYY-MM-DD'), 'estate', e.estate, 'externalId', e.external_id
        ) ORDER BY e.position, e.id)
        FROM entities e WHERE e.household_id = h.id), '[]'::json) AS entities,
      coalesce((
        SELECT json_agg(json_build_object(
          'from', coalesce(l.from_member_id, l.from_entity_id), 'to', l.to_entity_id, 'type', l.type,
          'share', l.share, 'beneficiaryType', l.beneficiary_type
        ) ORDER BY l.seq)
        FROM entity_links l WHERE l.household_id = h.id), '[]'::json) AS links
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${id}
  `.execute(db)
  const row = result.rows[0]
  if (!row) return undefined
  const parsed = <T>(value: Json<T>): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value)
  return {
    version: row.version,
    record: {
      name: row.name,
      deceasedSpouseName: row.deceased_spouse_name,
      dsueDateOfDeath: row.dsue_date_of_death,
      settings: parsed(row.settings),
      members: parsed(row.members),
      relationships: parsed(row.relationships),
      entities: parsed(row.entities),
      links: parsed(row.links),
    },
  }
}
