// A household record as a chart payload (chart/payload.ts, DESIGN §4): what a partner posts into
// the embedded chart. Pure: the store reads the record (ChartRecord), this maps it, in three shapes
// (PAYLOAD_OF_RELEASE says which answers which chart release), and maps a payload's estate facts
// back to the household's settings for PUT …/chart (estateSettingsOf).
//
// toChartPayload answers payload 0.3.0 (CHART_VERSION): exactly what toChartPayload02 answers, plus
// the household's estate settings as the facts the chart's estate projection reads:
// - the primary client (the first member with that role) carries usCitizen when
//   primaryClientUsCitizen is recorded (not null); the first co-client likewise from
//   coClientUsCitizen.
// - the primary client carries dsueReceived when the household's dsueReceived is more than 0: its
//   amount; from, the deceased spouse's payload id (DECEASED_SPOUSE_ID, the person drawn for
//   deceasedSpouseName, or else the member bearing that name), when there is one; portabilityElected
//   true for 'yes', false for 'no', and left out for 'unknown' or not recorded (the chart then
//   assumes it was elected, and says so). Without a primary client no one carries it.
// - gifts holds one entry per client who gave: donor, taxableGifts from *LifetimeGifts and
//   exclusionUsed from *ExemptionUsed when recorded; a client whose *AsDonor is true with no amount
//   recorded gets an entry with neither (gifts whose amount is not known: the chart counts 0 and
//   says so); a client with no amount and *AsDonor not true gets none. gifts is left out when no one
//   has an entry. An exemption used above 0 recorded without a gifts amount is sent as both
//   taxableGifts and exclusionUsed: only taxable gifts use the exemption, so gifts of at least that
//   amount were made, and the chart counts them rather than 0 of an unknown amount (an exemption
//   used of 0 implies no amount, and exclusionUsed is a part of taxableGifts: {donor} alone). The
//   chart refuses an exclusionUsed above taxableGifts (absent, 0), and the records keep the two as
//   separate settings: an exemption used recorded above the gifts is written as the gifts' amount.
//   This is the one clamp, made only to keep the payload valid.
// - No dispositions or assumptions: the records hold none.
//
// toChartPayload02 answers payload 0.2.0, frozen as chart 0.2.0 shipped it, for partners pinned to
// that release (GET …/chart?chartVersion=0.2.0); it carries every fact of the record a chart draws:
// - household.name is the household's name, with its currency when the record has one (the records
//   hold no as-of date for the household, so asOf is never written); people are its members, in
//   member order, with their member ids as payload ids (UUIDs fit the payload's id rule) and the
//   same role names, birthDate and deathDate (email and externalId are not chart facts).
// - relationships are the members' kinships (spouse, partner and exSpouse symmetric; for parent,
//   `from` is a parent of `to`), with parentKind on a parent kinship and since and until on a
//   couple's when they are recorded.
// - A deceased spouse recorded on the household (deceasedSpouseName, with dsueDateOfDeath as the
//   death date when known) becomes a person with role spouse, joined as spouse to the primary client
//   when there is one — unless a member already bears that name (then the member is that person).
// - entities are all the household's entities, parties included, in entity order, with their
//   entity ids as payload ids, their own kind, shortName, value and valueAsOf, and estate only when
//   the advisor set it (absent, the chart applies the kind's default from the same table as the
//   records). A party carries no value, valueAsOf or estate. notes and externalId are left out.
// - links are all the household's links, every type, with share on the types that have one and
//   beneficiaryType on beneficiaries.
//
// toChartPayload01 answers payload 0.1.x, frozen as chart 0.1.x shipped it, for partners pinned to
// that release (GET …/chart?chartVersion=0.1.1). 0.1.x says less:
// - parentKind, since, until and the household's currency are left out.
// - A kind 0.1.x does not know (clt, qprt, qtip, the other trusts, corporation, publicCharity, the
//   holdings) is `other`; estate is always written, as the side the entity is counted on (set, or
//   its kind's default), so `other` never moves an entity across the estate line. Parties
//   (corporateTrustee, lawFirm, otherParty) are left out, with every link to or from them: 0.1.x has
//   no party. value is kept; shortName and valueAsOf are left out.
// - links: grantor, trustee, beneficiary (with its share; beneficiaryType is left out) and owner
//   (with its share) as they are; generalPartner and limitedPartner become owner with their share
//   (a partner who is also an owner of the same entity is one owner link, the shares added);
//   successorTrustee and insured are left out.
//
// In all three, a relationship, link or estate fact the chart would refuse (checkPayloadRules) is
// left out, so the payload always renders; the API refuses such data, so this is a safety net, not
// a path data normally takes.
//
// estateSettingsOf is the inverse of 0.3.0's facts, for PUT …/chart: what a payload states is stored,
// what it leaves out is kept (as the import keeps a kinship's parentKind it leaves out; PATCH the
// household to clear a setting):
// - usCitizen of the primaryClient → primaryClientUsCitizen, of the coClient → coClientUsCitizen;
// - dsueReceived of the primaryClient → dsueReceived (its amount) and portabilityElected ('yes' for
//   true, 'no' for false; left out, kept); its from → deceasedSpouseName (that person's name) and,
//   when that person has a deathDate, dsueDateOfDeath;
// - a gift entry of the primaryClient (coClient) → primaryClientAsDonor (coClientAsDonor) true, and
//   taxableGifts → primaryClientLifetimeGifts, exclusionUsed → primaryClientExemptionUsed when stated;
//   except that an entry which is exactly the one GET derives from the client's current settings
//   states nothing, and those settings are all kept. GET's derived amounts sent back are GET's
//   reading of the records, not new facts: storing them would invent a lifetime-gifts amount never
//   recorded (GET sends an exemption used alone as taxableGifts too), lower an exemption used the
//   clamp wrote as the gifts' amount, or mark a client as a donor, although the chart reads the same
//   either way. Keeping them loses nothing (GET then derives the same entry again), and any other
//   entry is stored as stated. The import reads the settings first and, when an entry was kept so,
//   claims the version it read them at (412 if the household moved in between, even under If-Match *).
// It refuses (invalid_body, at the fact's JSON Pointer) what the records cannot keep, rather than
// drop it: usCitizen, dsueReceived or gifts on a person who is not a client (the records keep them
// per client), dsueReceived on the coClient (the household's DSUE is the primary client's, received
// from the deceased spouse drawn beside them), and dispositions or assumptions (not stored by the
// records API; an empty list or object states nothing and is accepted).
import type { Entity, Gift, Link, Payload, Person, Relationship } from '../../chart/payload.ts'
import { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_LIMITS, type EntityKind01, type LinkType01 } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { MEMBER_ROLES } from './household-roles.ts'
import { KINSHIP_TYPES } from '../schemas/member.ts'
import type { HouseholdFields } from '../households/household-fields.ts'
import { ImportRefused } from './chart-import.ts'
import {
  effectiveEstateSide,
  isParty,
  SHARED_LINK_TYPES,
  type BeneficiaryType,
  type EntityKind,
  type EstateSide,
  type LinkType,
  type ParentKind,
} from './estate-vocabulary.ts'

export type { ParentKind }

export interface ChartMember {
  id: string
  name: string
  role: string
  birthDate: string | null
  deathDate: string | null
  externalId: string | null
}

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
  /** The deceased spousal unused exclusion the primary client received. */
  dsueReceived: number | null
  /** Whether portability was elected on the deceased spouse's estate (whether dsueReceived really passed). */
  portabilityElected: 'yes' | 'no' | 'unknown' | null
  primaryClientAsDonor: boolean | null
  coClientAsDonor: boolean | null
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
const KINDS_0_1: ReadonlySet<EntityKind> = new Set(PAYLOAD_0_1_ENTITY_KINDS)
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const CURRENCY = /^[A-Z]{3}$/
const SHORT_NAME_MAX = 40

/** How each link type is drawn by payload 0.1.x: as itself, as owner, or not at all. */
const LINK_TYPE_IN_PAYLOAD_0_1: Record<LinkType, LinkType01 | null> = {
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
export function payloadEntityKind(kind: EntityKind): EntityKind01 {
  return isKind01(kind) ? kind : 'other'
}

function isKind01(kind: EntityKind): kind is EntityKind01 {
  return KINDS_0_1.has(kind)
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

/** A short name as the payload takes it: trimmed, 1 to 40 code points; undefined when blank or none. */
function payloadShortName(shortName: string | null): string | undefined {
  const trimmed = shortName?.trim() ?? ''
  if (trimmed === '') return undefined
  // eslint-disable-next-line @typescript-eslint/no-misused-spread -- the payload's limit is in code points, which spreading gives
  const points = [...trimmed]
  return points.length <= SHORT_NAME_MAX ? trimmed : points.slice(0, SHORT_NAME_MAX).join('').trimEnd()
}

function validValue(value: number | null): value is number {
  return value !== null && Number.isFinite(value) && value >= 0 && value <= PAYLOAD_LIMITS.value
}

function validShare(share: number | null): share is number {
  return share !== null && Number.isFinite(share) && share > 0 && share <= 100
}

/**
 * The deceased spouse recorded on the household (deceasedSpouseName, trimmed), with the first member
 * bearing that name (case aside) when there is one: that member is the deceased spouse.
 */
function deceasedSpouse(record: ChartRecord): { name: string; member: ChartMember | undefined } | undefined {
  const name = record.deceasedSpouseName?.trim()
  if (!name) return undefined
  const key = name.toLowerCase()
  return { name, member: record.members.find((m) => m.name.trim().toLowerCase() === key) }
}

/**
 * The people (members, then the deceased spouse drawn for the household) and their relationships,
 * each kinship mapped by `relationship`, within the payload's limits; undefined when there is no one.
 */
function family(
  record: ChartRecord,
  relationship: (kinship: ChartMemberRelationship) => Relationship,
): { people: Person[]; relationships: Relationship[] } | undefined {
  const people: Person[] = record.members.map((m) =>
    person(m.id, m.name, (ROLES.has(m.role) ? m.role : 'other') as Person['role'], m.birthDate, m.deathDate),
  )
  const memberIds = new Set(people.map((p) => p.id))
  const relationships: Relationship[] = record.relationships
    .filter((r) => TYPES.has(r.type) && memberIds.has(r.from) && memberIds.has(r.to) && r.from !== r.to)
    .map(relationship)

  const spouse = deceasedSpouse(record)
  if (spouse) {
    if (!spouse.member) {
      people.push(person(DECEASED_SPOUSE_ID, spouse.name, 'spouse', null, record.dsueDateOfDeath))
      const primary = record.members.find((m) => m.role === 'primaryClient')
      if (primary) relationships.push({ from: primary.id, to: DECEASED_SPOUSE_ID, type: 'spouse' })
    }
  }
  if (people.length === 0) return undefined

  const kept = people.slice(0, PAYLOAD_LIMITS.people)
  const keptIds = new Set(kept.map((p) => p.id))
  return {
    people: kept,
    relationships: relationships
      .filter((r) => keptIds.has(r.from) && keptIds.has(r.to))
      .slice(0, PAYLOAD_LIMITS.relationships),
  }
}

/** A kinship as payload 0.2.0 says it: with its parent kind, or its couple's dates, when recorded. */
function relationship(kinship: ChartMemberRelationship): Relationship {
  const type = kinship.type as Relationship['type']
  const couple = type !== 'parent'
  return {
    from: kinship.from,
    to: kinship.to,
    type,
    ...(!couple && kinship.parentKind !== null ? { parentKind: kinship.parentKind } : {}),
    ...(couple && kinship.since !== null && DATE.test(kinship.since) ? { since: kinship.since } : {}),
    ...(couple && kinship.until !== null && DATE.test(kinship.until) ? { until: kinship.until } : {}),
  }
}

/** An entity as payload 0.2.0 says it: its own kind and short name; a party with no value, date or estate. */
function entity(record: ChartEntity): Entity {
  const party = isParty(record.kind)
  const shortName = payloadShortName(record.shortName)
  const { value, valueAsOf, estate } = record
  return {
    id: record.id,
    name: payloadName(record.name, 'Unnamed'),
    ...(shortName === undefined ? {} : { shortName }),
    kind: record.kind,
    ...(!party && validValue(value) ? { value } : {}),
    ...(!party && valueAsOf !== null && DATE.test(valueAsOf) ? { valueAsOf } : {}),
    // Only as the advisor set it: absent, the chart applies the kind's default (the records' table).
    ...(!party && estate !== null ? { estate } : {}),
  }
}

/** The record's links between the people and entities kept, every type, share and beneficiaryType where they belong. */
function links(records: readonly ChartLink[], ids: ReadonlySet<string>, entityIds: ReadonlySet<string>): Link[] {
  return records
    .filter((l) => ids.has(l.from) && entityIds.has(l.to) && l.from !== l.to)
    .map((l) => ({
      from: l.from,
      to: l.to,
      type: l.type,
      ...(SHARED_LINK_TYPES.has(l.type) && validShare(l.share) ? { share: l.share } : {}),
      ...(l.type === 'beneficiary' && l.beneficiaryType !== null ? { beneficiaryType: l.beneficiaryType } : {}),
    }))
}

/**
 * The payload 0.2.0 (frozen: exactly what chart 0.2.0's GET answered), or undefined when there is no
 * one to draw (the payload needs at least one person).
 */
export function toChartPayload02(record: ChartRecord): Payload | undefined {
  const drawn = family(record, relationship)
  if (!drawn) return undefined
  const keptIds = new Set(drawn.people.map((p) => p.id))
  const entities = record.entities
    .filter((e) => !keptIds.has(e.id))
    .slice(0, PAYLOAD_LIMITS.entities)
    .map(entity)
  const entityIds = new Set(entities.map((e) => e.id))
  const currency = record.settings?.currency
  return withoutRefused({
    household: {
      name: payloadName(record.name, 'Household'),
      ...(currency !== undefined && CURRENCY.test(currency) ? { currency } : {}),
    },
    people: drawn.people,
    relationships: drawn.relationships,
    entities,
    links: links(record.links, new Set([...keptIds, ...entityIds]), entityIds).slice(0, PAYLOAD_LIMITS.links),
  })
}

/** The payload 0.3.0: 0.2.0's, with the estate facts of the household's settings; undefined when there is no one to draw. */
export function toChartPayload(record: ChartRecord): Payload | undefined {
  const payload = toChartPayload02(record)
  const settings = record.settings
  if (!payload || !settings) return payload
  const kept = new Set(payload.people.map((p) => p.id))
  // The first member with the role (the records have at most one), when the payload kept them.
  const clientId = (role: 'primaryClient' | 'coClient') => {
    const id = record.members.find((m) => m.role === role)?.id
    return id !== undefined && kept.has(id) ? id : undefined
  }
  const primary = clientId('primaryClient')
  const co = clientId('coClient')
  const people = payload.people.map((p) => {
    if (p.id === primary)
      return withFacts(p, settings.primaryClientUsCitizen, dsueReceived(record, settings, payload.people, p.id))
    if (p.id === co) return withFacts(p, settings.coClientUsCitizen, undefined)
    return p
  })
  const gifts = [
    gift(
      primary,
      settings.primaryClientAsDonor,
      settings.primaryClientLifetimeGifts,
      settings.primaryClientExemptionUsed,
    ),
    gift(co, settings.coClientAsDonor, settings.coClientLifetimeGifts, settings.coClientExemptionUsed),
  ].filter((g) => g !== undefined)
  return withoutRefused({ ...payload, people, ...(gifts.length > 0 ? { gifts } : {}) })
}

/** A client with their citizenship when recorded, and the DSUE they received when there is one. */
function withFacts(p: Person, usCitizen: boolean | null, dsue: Person['dsueReceived']): Person {
  return {
    ...p,
    ...(typeof usCitizen === 'boolean' ? { usCitizen } : {}),
    ...(dsue === undefined ? {} : { dsueReceived: dsue }),
  }
}

/** The household's DSUE as the primary client's (`holder`) dsueReceived, or undefined when there is none. */
function dsueReceived(
  record: ChartRecord,
  settings: ChartEstateSettings,
  people: readonly Person[],
  holder: string,
): Person['dsueReceived'] {
  const amount = settings.dsueReceived
  if (!validValue(amount) || amount === 0) return undefined
  const spouse = deceasedSpouse(record)
  const from = spouse && (spouse.member?.id ?? DECEASED_SPOUSE_ID)
  const drawn = from !== undefined && from !== holder && people.some((p) => p.id === from)
  const elected = settings.portabilityElected
  return {
    amount,
    ...(drawn ? { from } : {}),
    // 'unknown' or not recorded: left out (the chart assumes it was elected, and says so).
    ...(elected === 'yes' || elected === 'no' ? { portabilityElected: elected === 'yes' } : {}),
  }
}

/** A client's gifts entry, or undefined when they have no amount recorded and are not marked as a donor. */
function gift(
  donor: string | undefined,
  asDonor: boolean | null,
  lifetimeGifts: number | null,
  exemptionUsed: number | null,
): Gift | undefined {
  if (donor === undefined) return undefined
  const taxableGifts = validValue(lifetimeGifts) ? lifetimeGifts : undefined
  const used = validValue(exemptionUsed) ? exemptionUsed : undefined
  if (taxableGifts === undefined && used === undefined && asDonor !== true) return undefined
  // An exemption used above 0 with no gifts amount recorded: only taxable gifts use the exemption,
  // so gifts of at least that amount were made. Sent as both, the least the records say, rather than
  // as {donor} (which the chart would count as 0 gifts of an amount not known).
  if (taxableGifts === undefined && used !== undefined && used > 0)
    return { donor, taxableGifts: used, exclusionUsed: used }
  // The chart refuses an exclusionUsed above taxableGifts (absent, 0): gifts cannot use more exclusion
  // than their own amount. The records keep the two as separate settings, so an exemption used
  // recorded above the gifts is written as the gifts' amount. Clamped only then, so that the payload
  // stays valid; any other amount is as recorded. An exemption used of 0 without a gifts amount
  // implies no amount, and exclusionUsed is a part of taxableGifts: {donor} alone then.
  const exclusionUsed = used === undefined || taxableGifts === undefined ? undefined : Math.min(used, taxableGifts)
  return {
    donor,
    ...(taxableGifts === undefined ? {} : { taxableGifts }),
    ...(exclusionUsed === undefined ? {} : { exclusionUsed }),
  }
}

/** A kinship as payload 0.1.x says it: its type only. */
function relationship01(kinship: ChartMemberRelationship): Relationship {
  return { from: kinship.from, to: kinship.to, type: kinship.type as Relationship['type'] }
}

/** An entity as payload 0.1.x says it: a kind it knows (else other), its value and the side it is counted on. */
function entity01(record: ChartEntity): Entity {
  const { value } = record
  const estate = effectiveEstateSide(record.kind, record.estate)
  return {
    id: record.id,
    name: payloadName(record.name, 'Unnamed'),
    kind: payloadEntityKind(record.kind),
    ...(validValue(value) ? { value } : {}),
    ...(estate === null ? {} : { estate }),
  }
}

/** The record's links as 0.1.x draws them, between the people and entities it kept. */
function links01(records: readonly ChartLink[], ids: ReadonlySet<string>, entityIds: ReadonlySet<string>): Link[] {
  const drawn: Link[] = []
  // An owner link per (from, to): a partner who is also an owner is one owner, the shares added.
  const owners = new Map<string, Link>()
  for (const link of records) {
    const type = LINK_TYPE_IN_PAYLOAD_0_1[link.type]
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

/** The payload 0.1.x (frozen: exactly what chart 0.1.x's GET answered), or undefined when there is no one to draw. */
export function toChartPayload01(record: ChartRecord): Payload | undefined {
  const drawn = family(record, relationship01)
  if (!drawn) return undefined
  const keptIds = new Set(drawn.people.map((p) => p.id))
  const entities = record.entities
    .filter((e) => !isParty(e.kind) && !keptIds.has(e.id))
    .slice(0, PAYLOAD_LIMITS.entities)
    .map(entity01)
  const entityIds = new Set(entities.map((e) => e.id))
  return withoutRefused({
    household: { name: payloadName(record.name, 'Household') },
    people: drawn.people,
    relationships: drawn.relationships,
    entities,
    links: links01(record.links, new Set([...keptIds, ...entityIds]), entityIds).slice(0, PAYLOAD_LIMITS.links),
  })
}

/**
 * Leaves out, one at a time, each relationship, link or estate fact the chart's rules refuse, until
 * none is refused: the relationship or link; a dsueReceived's from (or the dsueReceived); a gift's
 * exclusionUsed (or the gift).
 */
function withoutRefused(payload: Payload): Payload {
  // Each step leaves something out, so this ends.
  let current: Payload = { ...payload, relationships: payload.relationships ?? [], links: payload.links ?? [] }
  for (;;) {
    const problem = checkPayloadRules(current)
    const next = problem && withoutProblem(current, problem.path)
    if (!next) return current
    current = next
  }
}

/** The payload without what the chart refuses at `path`, or undefined when that is nothing this can leave out. */
function withoutProblem(payload: Payload, path: string): Payload | undefined {
  const listed = /^\/(relationships|links)\/(\d+)/.exec(path)
  if (listed) {
    const index = Number(listed[2])
    return listed[1] === 'links'
      ? { ...payload, links: (payload.links ?? []).filter((_, i) => i !== index) }
      : { ...payload, relationships: (payload.relationships ?? []).filter((_, i) => i !== index) }
  }
  const dsue = /^\/people\/(\d+)\/dsueReceived(\/from)?/.exec(path)
  if (dsue) {
    const index = Number(dsue[1])
    if (payload.people[index]?.dsueReceived === undefined) return undefined
    const people = payload.people.map((p, i) => {
      if (i !== index || p.dsueReceived === undefined) return p
      const { dsueReceived: received, ...rest } = p
      if (dsue[2] === undefined) return rest
      const { amount, portabilityElected } = received
      return { ...rest, dsueReceived: { amount, ...(portabilityElected === undefined ? {} : { portabilityElected }) } }
    })
    return { ...payload, people }
  }
  const given = /^\/gifts\/(\d+)(\/exclusionUsed)?/.exec(path)
  if (given) {
    const index = Number(given[1])
    const { gifts: all = [], ...rest } = payload
    if (index >= all.length) return undefined
    const gifts = all.flatMap((g, i) => {
      if (i !== index) return [g]
      if (given[2] === undefined) return []
      return [{ donor: g.donor, ...(g.taxableGifts === undefined ? {} : { taxableGifts: g.taxableGifts }) }]
    })
    return gifts.length > 0 ? { ...rest, gifts } : rest
  }
  return undefined
}

/**
 * The chart releases whose payload GET …/chart answers in, newest first (the first is CHART_VERSION,
 * the default), each with its mapping: the one list of accepted chartVersion values.
 */
export const PAYLOAD_OF_RELEASE: ReadonlyMap<string, (record: ChartRecord) => Payload | undefined> = new Map([
  // 0.3.1 mends 0.3.0's drawing and reads the same payload.
  ['0.3.1', toChartPayload],
  ['0.3.0', toChartPayload],
  ['0.2.0', toChartPayload02],
  ['0.1.1', toChartPayload01],
  ['0.1.0', toChartPayload01],
])

/** The household settings a payload's estate facts state (estateSettingsOf). */
export type StatedSetting =
  | 'primaryClientUsCitizen'
  | 'coClientUsCitizen'
  | 'dsueReceived'
  | 'portabilityElected'
  | 'deceasedSpouseName'
  | 'dsueDateOfDeath'
  | 'primaryClientAsDonor'
  | 'coClientAsDonor'
  | 'primaryClientLifetimeGifts'
  | 'coClientLifetimeGifts'
  | 'primaryClientExemptionUsed'
  | 'coClientExemptionUsed'

export interface StatedSettings {
  /** The settings the payload states, as the household stores them; the others are kept. */
  changes: Partial<Pick<HouseholdFields, StatedSetting>>
  /** Where the payload states each of them (a JSON Pointer), for a refusal by the setting's own rules. */
  at: Partial<Record<StatedSetting, string>>
  /**
   * Whether a gifts entry was the one GET derives from the current settings, so stated nothing: what
   * is kept then holds for those settings only (the import claims the version they were read at).
   */
  echoed: boolean
}

/** A household's gift settings, as stored: what GET derives each client's gifts entry from. */
export type GiftSettings = Pick<
  ChartEstateSettings,
  | 'primaryClientAsDonor'
  | 'coClientAsDonor'
  | 'primaryClientLifetimeGifts'
  | 'coClientLifetimeGifts'
  | 'primaryClientExemptionUsed'
  | 'coClientExemptionUsed'
>

type Client = 'primaryClient' | 'coClient'

function clientRole(role: Person['role'] | undefined): Client | undefined {
  return role === 'primaryClient' || role === 'coClient' ? role : undefined
}

function refuse(field: string, message: string): never {
  throw new ImportRefused({ code: 'invalid_body', field, message })
}

/**
 * The household settings a payload (already valid against the schema and the chart's rules) states
 * with its 0.3.0 estate facts, the inverse of toChartPayload's (see the header); ImportRefused for
 * a fact the records cannot keep. With the household's `current` gift settings, a gifts entry that
 * is the one GET derives from them states nothing (they are kept).
 */
export function estateSettingsOf(payload: Payload, current?: GiftSettings | null): StatedSettings {
  const notStored = (field: 'dispositions' | 'assumptions', what: string) =>
    refuse(
      `/${field}`,
      `${field} (${what}) are not stored by the records API, so this import would lose them: remove ${field} from the payload (the chart still takes them in the render message).`,
    )
  if ((payload.dispositions ?? []).length > 0)
    notStored('dispositions', "where each client's estate goes at their death")
  if (Object.keys(payload.assumptions ?? {}).length > 0) notStored('assumptions', "the estate projection's assumptions")

  const changes: StatedSettings['changes'] = {}
  const at: StatedSettings['at'] = {}
  let echoed = false
  const set = <K extends StatedSetting>(name: K, value: HouseholdFields[K], pointer: string) => {
    changes[name] = value
    at[name] = pointer
  }
  const byId = new Map(payload.people.map((p, i) => [p.id, { person: p, index: i }]))
  for (const [i, p] of payload.people.entries()) {
    const client = clientRole(p.role)
    if (p.usCitizen !== undefined) {
      if (!client)
        refuse(
          `/people/${i}/usCitizen`,
          `people[${i}] is a ${p.role}, not a client: the records keep citizenship for the primaryClient and the coClient only. Leave usCitizen out for this person.`,
        )
      set(`${client}UsCitizen`, p.usCitizen, `/people/${i}/usCitizen`)
    }
    const received = p.dsueReceived
    if (received === undefined) continue
    if (client !== 'primaryClient')
      refuse(
        `/people/${i}/dsueReceived`,
        `people[${i}] is a ${p.role}: the records keep the DSUE received for the primaryClient only (the household's dsueReceived, from its deceased spouse). Put dsueReceived on the primaryClient, or leave it out.`,
      )
    set('dsueReceived', received.amount, `/people/${i}/dsueReceived/amount`)
    if (received.portabilityElected !== undefined)
      set(
        'portabilityElected',
        received.portabilityElected ? 'yes' : 'no',
        `/people/${i}/dsueReceived/portabilityElected`,
      )
    const spouse = received.from === undefined ? undefined : byId.get(received.from)
    if (spouse) {
      set('deceasedSpouseName', spouse.person.name.trim(), `/people/${i}/dsueReceived/from`)
      if (spouse.person.deathDate !== undefined)
        set('dsueDateOfDeath', spouse.person.deathDate, `/people/${spouse.index}/deathDate`)
    }
  }
  for (const [k, g] of (payload.gifts ?? []).entries()) {
    const donor = byId.get(g.donor)?.person
    const client = clientRole(donor?.role)
    if (!client)
      refuse(
        `/gifts/${k}/donor`,
        `gifts[${k}].donor is ${donor ? `a ${donor.role}, not a client` : 'no person of the payload'}: the records keep lifetime gifts for the primaryClient and the coClient only. Leave this entry out.`,
      )
    const drawn =
      current &&
      gift(
        g.donor,
        current[`${client}AsDonor` as const],
        current[`${client}LifetimeGifts` as const],
        current[`${client}ExemptionUsed` as const],
      )
    if (drawn && drawn.taxableGifts === g.taxableGifts && drawn.exclusionUsed === g.exclusionUsed) {
      echoed = true
      continue
    }
    set(`${client}AsDonor`, true, `/gifts/${k}/donor`)
    if (g.taxableGifts !== undefined) set(`${client}LifetimeGifts`, g.taxableGifts, `/gifts/${k}/taxableGifts`)
    if (g.exclusionUsed !== undefined) set(`${client}ExemptionUsed`, g.exclusionUsed, `/gifts/${k}/exclusionUsed`)
  }
  return { changes, at, echoed }
}
