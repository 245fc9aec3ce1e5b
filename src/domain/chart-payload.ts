// A household record as chart payload v1 (chart/payload.ts, DESIGN §4): what a partner posts into the
// embedded chart. Pure: the store reads the record, this maps it.
//
// - household.name is the household's name; people are its members, in member order, with their
//   member ids as payload ids (UUIDs fit the payload's id rule) and the same role names.
// - relationships are the members' relationships. Both sides use one convention: spouse, partner and
//   exSpouse are symmetric; for parent, `from` is a parent of `to`.
// - A deceased spouse recorded on the household (deceasedSpouseName, with dsueDateOfDeath as the
//   death date when known) becomes a person with role spouse, joined as spouse to the primary client
//   when there is one — unless a member already bears that name (then the member is that person).
// - entities and links are empty: Hearth holds no trusts or other entities yet.
// - A relationship the chart would refuse (checkPayloadRules: a parent cycle, or partners who are
//   each other's ancestor and descendant) is left out, so the payload always renders; the members
//   API refuses cycles, so this is a safety net, not a path data normally takes.
import type { Payload, Person, Relationship } from '../../chart/payload.ts'
import { PAYLOAD_LIMITS } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { MEMBER_ROLES } from './household-roles.ts'
import { RELATIONSHIP_TYPES } from '../schemas/member.ts'

export interface ChartMember {
  id: string
  name: string
  role: string
  birthDate: string | null
  deathDate: string | null
}

export interface ChartMemberRelationship {
  from: string
  to: string
  type: string
}

export interface ChartRecord {
  name: string
  deceasedSpouseName: string | null
  dsueDateOfDeath: string | null
  members: readonly ChartMember[]
  relationships: readonly ChartMemberRelationship[]
}

/** The id of the deceased spouse recorded on the household; never a member id (those are UUIDs). */
export const DECEASED_SPOUSE_ID = 'deceased-spouse'

// Member roles and relationship types are payload roles and types of the same names.
const ROLES: ReadonlySet<string> = new Set(MEMBER_ROLES)
const TYPES: ReadonlySet<string> = new Set(RELATIONSHIP_TYPES)
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/** A name as the payload takes it: trimmed, at most the payload's length (in code points), never blank. */
function payloadName(name: string, fallback: string): string {
  const trimmed = name.trim()
  if (trimmed === '') return fallback
  const points = [...trimmed]
  return points.length <= PAYLOAD_LIMITS.nameLength ? trimmed : points.slice(0, PAYLOAD_LIMITS.nameLength).join('').trimEnd()
}

function person(id: string, name: string, role: Person['role'], birthDate: string | null, deathDate: string | null): Person {
  return {
    id,
    name: payloadName(name, 'Unnamed'),
    role,
    ...(birthDate !== null && DATE.test(birthDate) ? { birthDate } : {}),
    ...(deathDate !== null && DATE.test(deathDate) ? { deathDate } : {}),
  }
}

/** The payload, or undefined when there is no one to draw (the payload needs at least one person). */
export function toChartPayload(record: ChartRecord): Payload | undefined {
  const people: Person[] = record.members.map((m) =>
    person(m.id, m.name, (ROLES.has(m.role) ? m.role : 'other') as Person['role'], m.birthDate, m.deathDate),
  )
  const ids = new Set(people.map((p) => p.id))
  const relationships: Relationship[] = record.relationships
    .filter((r) => TYPES.has(r.type) && ids.has(r.from) && ids.has(r.to) && r.from !== r.to)
    .map((r) => ({ from: r.from, to: r.to, type: r.type as Relationship['type'] }))

  const spouseName = record.deceasedSpouseName?.trim()
  if (spouseName) {
    const key = spouseName.toLowerCase()
    const alreadyMember = record.members.some((m) => m.name.trim().toLowerCase() === key)
    if (!alreadyMember) {
      people.push(person(DECEASED_SPOUSE_ID, spouseName, 'spouse', null, record.dsueDateOfDeath))
      const primary = record.members.find((m) => m.role === 'primaryClient')
      if (primary) relationships.push({ from: primary.id, to: DECEASED_SPOUSE_ID, type: 'spouse' })
    }
  }
  if (people.length === 0) return undefined

  const kept = people.slice(0, PAYLOAD_LIMITS.people)
  const keptIds = new Set(kept.map((p) => p.id))
  const payload: Payload = {
    household: { name: payloadName(record.name, 'Household') },
    people: kept,
    relationships: relationships.filter((r) => keptIds.has(r.from) && keptIds.has(r.to)).slice(0, PAYLOAD_LIMITS.relationships),
    entities: [],
    links: [],
  }
  return withoutRefusedRelationships(payload)
}

/** Leaves out, one at a time, each relationship the chart's rules refuse, until none is refused. */
function withoutRefusedRelationships(payload: Payload): Payload {
  let relationships = payload.relationships ?? []
  for (;;) {
    const problem = checkPayloadRules({ ...payload, relationships })
    const index = problem && /^\/relationships\/(\d+)/.exec(problem.path)?.[1]
    if (!index) return { ...payload, relationships }
    relationships = relationships.filter((_, i) => i !== Number(index))
  }
}
