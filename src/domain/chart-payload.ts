// A household record as chart payload 0.1.x (chart/payload.ts, DESIGN §4): what a partner posts
// into the embedded chart. Pure: the store reads the record, this maps it.
//
// The record (ChartRecord) carries every fact Hearth holds that a chart could draw — member
// external ids, parent kinds and couples' dates, every entity kind with its short name, value date
// and estate setting, parties, every link type with its beneficiaryType, and the household's estate
// settings — so that the next payload release changes only toChartPayload, not the store. Payload
// 0.1.x (CHART_VERSION) can say less, and this is how each fact maps:
//
// - household.name is the household's name; people are its members, in member order, with their
//   member ids as payload ids (UUIDs fit the payload's id rule) and the same role names.
// - relationships are the members' kinships. Both sides use one convention: spouse, partner and
//   exSpouse are symmetric; for parent, `from` is a parent of `to`. parentKind, since and until
//   have no place in 0.1.x and are left out.
// - A deceased spouse recorded on the household (deceasedSpouseName, with dsueDateOfDeath as the
//   death date when known) becomes a person with role spouse, joined as spouse to the primary client
//   when there is one — unless a member already bears that name (then the member is that person).
// - entities are the household's entities in entity order, with their entity ids as payload ids. A
//   kind 0.1.x does not know (clt, qprt, qtip, the other trusts, corporation, publicCharity, the
//   holdings) is `other`; estate is always written, as the side the entity is counted on (set, or
//   its kind's default), so `other` never moves an entity across the estate line. Parties
//   (corporateTrustee, lawFirm, otherParty) are left out, with every link to or from them: 0.1.x has
//   no party. value is kept; shortName, valueAsOf, notes and externalId are left out.
// - links: grantor, trustee, beneficiary (with its share; beneficiaryType is left out) and owner
//   (with its share) as they are; generalPartner and limitedPartner become owner with their share
//   (a partner who is also an owner of the same entity is one owner link, the shares added);
//   successorTrustee and insured are left out.
// - A relationship or link the chart would refuse (checkPayloadRules) is left out, so the payload
//   always renders; the API refuses such data, so this is a safety net, not a path data normally takes.
import type { Entity, Link, Payload, Person, Relationship } from '../../chart/payload.ts'
import { ENTITY_KINDS as PAYLOAD_ENTITY_KINDS, PAYLOAD_LIMITS } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { MEMBER_ROLES } from './household-roles.ts'
import { KINSHIP_TYPES } from '../schemas/member.ts'
import {
  effectiveEstateSide,
  isParty,
  type BeneficiaryType,
  type EntityKind,
  type EstateSide,
  type LinkType,
} from './estate-vocabulary.ts'

export interface ChartMember {
  id: string
  name: string
  role: string
  birthDate: string | null
  deathDate: string | null
  externalId: string | null
}

export type ParentKind = 'biological' | 'adopted' | 'step' | 'foster'

export interface ChartMemberRelationship {
  from: string
  to: string
  type: string
  /** Only on parent kinships; null = not stated. */
  parentKind: ParentKind | null
  /** Only on spouse, partner and exSpouse kinships. */
  since: string | null
  until: string | null
}

export interface ChartEntity {
  id: string
  name: string
  shortName: string | null
  kind: EntityKind
  value: number | null
  valueAsOf: string | null
  /** As the advisor set it; null = the kind's default. */
  estate: EstateSide | null
  externalId: string | null
}

export interface ChartLink {
  /** A member id or an entity id of the household. */
  from: string
  /** An entity id of the household. */
  to: string
  type: LinkType
  share: number | null
  beneficiaryType: BeneficiaryType | null
}

/** The household's estate settings, as stored (undefined fields are not recorded). */
export interface ChartEstateSettings {
  currency: string
  portabilityElected: 'yes' | 'no' | 'unknown' | null
  primaryClientLifetimeGifts: number | null
  coClientLifetimeGifts: number | null
  primaryClientExemptionUsed: number | null
  coClientExemptionUsed: number | null
  primaryClientUsCitizen: boolean | null
  coClientUsCitizen: boolean | null
}

export interface ChartRecord {
  name: string
  deceasedSpouseName: string | null
  dsueDateOfDeath: string | null
  /** Null when the store holds none yet (payload 0.1.x draws none of them). */
  settings: ChartEstateSettings | null
  members: readonly ChartMember[]
  relationships: readonly ChartMemberRelationship[]
  entities: readonly ChartEntity[]
  links: readonly ChartLink[]
}

/** The id of the deceased spouse recorded on the household; never a member id (those are UUIDs). */
export const DECEASED_SPOUSE_ID = 'deceased-spouse'

// Member roles and relationship types are payload roles and types of the same names.
const ROLES: ReadonlySet<string> = new Set(MEMBER_ROLES)
const TYPES: ReadonlySet<string> = new Set(KINSHIP_TYPES)
const KINDS: ReadonlySet<string> = new Set(PAYLOAD_ENTITY_KINDS)
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/** How each link type is drawn by payload 0.1.x: as itself, as owner, or not at all. */
const LINK_TYPE_IN_PAYLOAD: Record<LinkType, Link['type'] | null> = {
  grantor: 'grantor',
  trustee: 'trustee',
  successorTrustee: null,
  beneficiary: 'beneficiary',
  owner: 'owner',
  insured: null,
  generalPartner: 'owner',
  limitedPartner: 'owner',
}

/** The entity kind payload 0.1.x draws for a kind: itself when it knows it, else `other`. */
export function payloadEntityKind(kind: EntityKind): Entity['kind'] {
  return KINDS.has(kind) ? (kind as Entity['kind']) : 'other'
}

/** A name as the payload takes it: trimmed, at most the payload's length (in code points), never blank. */
function payloadName(name: string, fallback: string): string {
  const trimmed = name.trim()
  if (trimmed === '') return fallback
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- the payload's limit is in code points, which spreading gives
  const points = [...trimmed]
  return points.length <= PAYLOAD_LIMITS.nameLength
    ? trimmed
    : points.slice(0, PAYLOAD_LIMITS.nameLength).join('').trimEnd()
}

function person(
  id: string,
  name: string,
  role: Person['role'],
  birthDate: string | null,
  deathDate: string | null,
): Person {
  return {
    id,
    name: payloadName(name, 'Unnamed'),
    role,
    ...(birthDate !== null && DATE.test(birthDate) ? { birthDate } : {}),
    ...(deathDate !== null && DATE.test(deathDate) ? { deathDate } : {}),
  }
}

function entity(record: ChartEntity): Entity {
  const { value } = record
  const estate = effectiveEstateSide(record.kind, record.estate)
  return {
    id: record.id,
    name: payloadName(record.name, 'Unnamed'),
    kind: payloadEntityKind(record.kind),
    ...(value !== null && Number.isFinite(value) && value >= 0 && value <= PAYLOAD_LIMITS.value ? { value } : {}),
    ...(estate === null ? {} : { estate }),
  }
}

function validShare(share: number | null): share is number {
  return share !== null && Number.isFinite(share) && share > 0 && share <= 100
}

/** The record's links as 0.1.x draws them, between the people and entities it kept. */
function payloadLinks(links: readonly ChartLink[], ids: ReadonlySet<string>, entityIds: ReadonlySet<string>): Link[] {
  const drawn: Link[] = []
  // An owner link per (from, to): a partner who is also an owner is one owner, the shares added.
  const owners = new Map<string, Link>()
  for (const link of links) {
    const type = LINK_TYPE_IN_PAYLOAD[link.type]
    if (type === null || !ids.has(link.from) || !entityIds.has(link.to) || link.from === link.to) continue
    const share = validShare(link.share) && (type === 'owner' || type === 'beneficiary') ? link.share : undefined
    if (type !== 'owner') {
      drawn.push({ from: link.from, to: link.to, type, ...(share === undefined ? {} : { share }) })
      continue
    }
    const key = `${link.from} ${link.to}`
    const earlier = owners.get(key)
    if (earlier === undefined) {
      const owner: Link = { from: link.from, to: link.to, type, ...(share === undefined ? {} : { share }) }
      owners.set(key, owner)
      drawn.push(owner)
    } else if (share !== undefined) {
      // Shares are stored with 4 decimals; the sum of one entity's owners is at most 100.
      const sum = Math.min(100, Math.round(((earlier.share ?? 0) + share) * 10_000) / 10_000)
      if (sum > 0) earlier.share = sum
    }
  }
  return drawn
}

/** The payload, or undefined when there is no one to draw (the payload needs at least one person). */
export function toChartPayload(record: ChartRecord): Payload | undefined {
  const people: Person[] = record.members.map((m) =>
    person(m.id, m.name, (ROLES.has(m.role) ? m.role : 'other') as Person['role'], m.birthDate, m.deathDate),
  )
  const memberIds = new Set(people.map((p) => p.id))
  const relationships: Relationship[] = record.relationships
    .filter((r) => TYPES.has(r.type) && memberIds.has(r.from) && memberIds.has(r.to) && r.from !== r.to)
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
  const entities = record.entities
    .filter((e) => !isParty(e.kind) && !keptIds.has(e.id))
    .slice(0, PAYLOAD_LIMITS.entities)
    .map(entity)
  const entityIds = new Set(entities.map((e) => e.id))
  const payload: Payload = {
    household: { name: payloadName(record.name, 'Household') },
    people: kept,
    relationships: relationships
      .filter((r) => keptIds.has(r.from) && keptIds.has(r.to))
      .slice(0, PAYLOAD_LIMITS.relationships),
    entities,
    links: payloadLinks(record.links, new Set([...keptIds, ...entityIds]), entityIds).slice(0, PAYLOAD_LIMITS.links),
  }
  return withoutRefused(payload)
}

/** Leaves out, one at a time, each relationship or link the chart's rules refuse, until none is refused. */
function withoutRefused(payload: Payload): Payload {
  let relationships = payload.relationships ?? []
  let links = payload.links ?? []
  for (;;) {
    const problem = checkPayloadRules({ ...payload, relationships, links })
    const at = problem && /^\/(relationships|links)\/(\d+)/.exec(problem.path)
    if (!at) return { ...payload, relationships, links }
    const index = Number(at[2])
    if (at[1] === 'links') links = links.filter((_, i) => i !== index)
    else relationships = relationships.filter((_, i) => i !== index)
  }
}
