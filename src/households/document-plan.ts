// A household document (schemas/household-document.ts) as a write: which members and entities of
// the household to update (matched by externalId: their ids are kept), create and delete, the
// kinships and links to store, and the household's fields, with every rule of the records applied
// on the way: the household's fields (household-fields.ts), each member's (member-input.ts) and its
// kinship set's, one primaryClient and one coClient, each entity's (entity-fields.ts, a party holds
// no value), and each link through the links API's own checkLinkAgainst. The first problem is
// thrown as a RuleViolation with the same code the records API answers, and a JSON Pointer into
// the document. Pure but for the links' rules being async; nothing is read or written here.
import { randomUUID } from 'node:crypto'
import type { HouseholdDocument } from '../schemas/household-document.ts'
import type { Kinship } from '../schemas/member.ts'
import type { CreateLinkBody } from '../schemas/entity-link.ts'
import type { EntityKind } from '../domain/estate-vocabulary.ts'
import { ONE_PER_HOUSEHOLD_ROLES } from '../domain/household-roles.ts'
import { checkKinshipSet, checkMemberFields, type KinshipEntry, type MemberFields } from '../domain/member-input.ts'
import type { LinkRow } from '../store/entity-links.ts'
import { checkCreateBody, HOUSEHOLD_FIELD_NAMES, type HouseholdFields } from './household-fields.ts'
import { checkEntityCreate, type EntityFields } from './entity-fields.ts'
import { partyValue } from './entities.ts'
import { checkLinkAgainst } from './entity-links.ts'
import { DocumentLinkFacts } from './document-links.ts'
import { RuleViolation } from './rule-violation.ts'

/** What the household holds now, as a document is matched against it (nothing, for a new household). */
export interface DocumentTarget {
  members: readonly { id: string; externalId: string | null }[]
  entities: readonly { id: string; externalId: string | null; value: number | null; valueAsOf: string | null }[]
}

export interface PlannedMember {
  id: string
  isNew: boolean
  fields: MemberFields
  position: number
}

export interface PlannedEntity {
  id: string
  isNew: boolean
  fields: EntityFields
  position: number
  /** A new value or valueAsOf (or a new entity with a value): a valuation is recorded, as the entities API does. */
  valued: boolean
}

/** A kinship as stored: spouse, partner and exSpouse with the smaller id first; parent from the parent to the child. */
export interface PlannedKinship {
  from: string
  to: string
  type: KinshipEntry['type']
  parentKind: KinshipEntry['parentKind']
  since: string | null
  until: string | null
}

export interface DocumentPlan {
  household: HouseholdFields
  members: PlannedMember[]
  entities: PlannedEntity[]
  deleteMemberIds: string[]
  deleteEntityIds: string[]
  kinships: PlannedKinship[]
  /** In document order. */
  links: LinkRow[]
}

const refuse = (code: RuleViolation['code'], message: string, field: string) => new RuleViolation(code, message, field)

/** The household's own fields of a document: every key but the lists. */
function householdFieldsOf(document: HouseholdDocument): Parameters<typeof checkCreateBody>[0] {
  return Object.fromEntries(
    HOUSEHOLD_FIELD_NAMES.filter((name) => name in document).map((name) => [name, document[name]]),
  ) as Parameters<typeof checkCreateBody>[0]
}

function checkHousehold(document: HouseholdDocument): HouseholdFields {
  const checked = checkCreateBody(householdFieldsOf(document))
  if (!checked.ok) throw refuse('invalid_body', checked.message, `/${checked.field}`)
  return checked.fields
}

function planMembers(document: HouseholdDocument, target: DocumentTarget, newId: () => string): PlannedMember[] {
  const existing = new Map(target.members.flatMap((m) => (m.externalId === null ? [] : [[m.externalId, m.id]])))
  const seen = new Map<string, number>()
  const roles = new Map<string, number>()
  return (document.members ?? []).map((m, i) => {
    const at = `/members/${i}`
    const earlier = seen.get(m.externalId)
    if (earlier !== undefined)
      throw refuse(
        'member_external_id_taken',
        `members[${earlier}] already has externalId ${m.externalId}; an externalId names one member.`,
        `${at}/externalId`,
      )
    seen.set(m.externalId, i)
    const checked = checkMemberFields({
      name: m.name,
      role: m.role,
      birthDate: m.birthDate ?? null,
      deathDate: m.deathDate ?? null,
      email: m.email ?? null,
      externalId: m.externalId,
    })
    if (!checked.ok) throw refuse(checked.code, checked.message, `${at}${checked.field}`)
    if (ONE_PER_HOUSEHOLD_ROLES.has(m.role)) {
      const holder = roles.get(m.role)
      if (holder !== undefined)
        throw refuse(
          'member_role_taken',
          `members[${holder}] is already the ${m.role}; a household has one. Give one of them another role.`,
          `${at}/role`,
        )
      roles.set(m.role, i)
    }
    const id = existing.get(m.externalId)
    return { id: id ?? newId(), isNew: id === undefined, fields: checked.fields, position: i }
  })
}

function planEntities(
  document: HouseholdDocument,
  target: DocumentTarget,
  memberExternalIds: ReadonlySet<string>,
  newId: () => string,
): PlannedEntity[] {
  const existing = new Map(target.entities.flatMap((e) => (e.externalId === null ? [] : [[e.externalId, e]])))
  const seen = new Map<string, number>()
  return (document.entities ?? []).map((e, i) => {
    const at = `/entities/${i}`
    const earlier = seen.get(e.externalId)
    if (earlier !== undefined)
      throw refuse(
        'entity_external_id_taken',
        `entities[${earlier}] already has externalId ${e.externalId}; an externalId names one entity.`,
        `${at}/externalId`,
      )
    seen.set(e.externalId, i)
    if (memberExternalIds.has(e.externalId))
      throw refuse(
        'invalid_body',
        `A member of this document already has externalId ${e.externalId}: links name members and entities by it, so give the entity another.`,
        `${at}/externalId`,
      )
    const checked = checkEntityCreate(e)
    if (!checked.ok) throw refuse('invalid_body', checked.message, `${at}/${checked.field}`)
    const party = partyValue(checked.fields, Object.keys(e))
    if (party) throw refuse(party.code, party.message, `${at}${party.field ?? ''}`)
    const row = existing.get(e.externalId)
    const { value, valueAsOf } = checked.fields
    const valued = row ? value !== row.value || valueAsOf !== row.valueAsOf : value !== null
    return { id: row?.id ?? newId(), isNew: row === undefined, fields: checked.fields, position: i, valued }
  })
}

/**
 * Each member's relationships by id, checked as the members API checks one member's set, then
 * merged into the household's kinships: a pair of members has one relationship, stated on either
 * member or on both the same way, and parent links make no one their own ancestor.
 */
function planKinships(document: HouseholdDocument, members: readonly PlannedMember[]): PlannedKinship[] {
  const idOf = new Map(members.map((m) => [m.fields.externalId, m.id]))
  const byPair = new Map<string, { kinship: PlannedKinship; at: string }>()
  for (const [i, m] of (document.members ?? []).entries()) {
    const memberId = members[i]?.id ?? ''
    const sent: Kinship[] = (m.relationships ?? []).map((r, k) => {
      const other = idOf.get(r.externalId)
      if (other === undefined)
        throw refuse(
          'relationship_member_unknown',
          `externalId ${r.externalId} names no member of this document.`,
          `/members/${i}/relationships/${k}/externalId`,
        )
      return {
        memberId: other,
        type: r.type,
        ...(r.parentKind === undefined ? {} : { parentKind: r.parentKind }),
        ...(r.since === undefined ? {} : { since: r.since }),
        ...(r.until === undefined ? {} : { until: r.until }),
      }
    })
    const checked = checkKinshipSet(memberId, sent)
    if (!checked.ok)
      throw refuse(checked.code, checked.message, `/members/${i}${checked.field.replace(/\/memberId$/, '/externalId')}`)
    for (const entry of checked.relationships) {
      const k = sent.findIndex((r) => r.memberId === entry.memberId)
      const at = `/members/${i}/relationships/${k}`
      const [from, to] =
        entry.type === 'parent'
          ? [entry.memberId, memberId]
          : memberId < entry.memberId
            ? [memberId, entry.memberId]
            : [entry.memberId, memberId]
      const kinship: PlannedKinship = { from, to, ...entry }
      const pair = from < to ? `${from} ${to}` : `${to} ${from}`
      const earlier = byPair.get(pair)
      if (earlier?.kinship.type === 'parent' && kinship.type === 'parent' && earlier.kinship.from !== from)
        throw refuse(
          'relationship_cycle',
          `${earlier.at} makes this member a parent of the other, so the other cannot also be their parent.`,
          at,
        )
      if (earlier && !sameKinship(earlier.kinship, kinship))
        throw refuse(
          'relationship_conflict',
          `${earlier.at} already relates these two members differently; two members have one relationship: state it once, or the same way on both.`,
          at,
        )
      if (!earlier) byPair.set(pair, { kinship, at })
    }
  }
  const kinships = [...byPair.values()]
  const inCycle = cycleMembers(kinships.filter((k) => k.kinship.type === 'parent').map((k) => k.kinship))
  const closing = kinships.find(
    (k) => k.kinship.type === 'parent' && inCycle.has(k.kinship.from) && inCycle.has(k.kinship.to),
  )
  if (closing)
    throw refuse('relationship_cycle', 'These parent links would make someone their own ancestor.', closing.at)
  return kinships.map((k) => k.kinship)
}

function sameKinship(a: PlannedKinship, b: PlannedKinship): boolean {
  return (
    a.from === b.from &&
    a.to === b.to &&
    a.type === b.type &&
    a.parentKind === b.parentKind &&
    a.since === b.since &&
    a.until === b.until
  )
}

/** The members on or below a cycle of parent links (Kahn's algorithm: what is never freed); empty when there is none. */
function cycleMembers(edges: readonly PlannedKinship[]): Set<string> {
  const children = new Map<string, string[]>()
  const incoming = new Map<string, number>()
  for (const { from, to } of edges) {
    children.set(from, [...(children.get(from) ?? []), to])
    incoming.set(to, (incoming.get(to) ?? 0) + 1)
    if (!incoming.has(from)) incoming.set(from, 0)
  }
  const ready = [...incoming].filter(([, count]) => count === 0).map(([node]) => node)
  while (ready.length > 0) {
    const node = ready.pop()!
    incoming.delete(node)
    for (const child of children.get(node) ?? []) {
      const left = (incoming.get(child) ?? 0) - 1
      incoming.set(child, left)
      if (left === 0) ready.push(child)
    }
  }
  return new Set(incoming.keys())
}

async function planLinks(
  document: HouseholdDocument,
  members: readonly PlannedMember[],
  entities: readonly PlannedEntity[],
): Promise<LinkRow[]> {
  const idOf = new Map<string, string>([
    ...members.map((m): [string, string] => [m.fields.externalId ?? '', m.id]),
    ...entities.map((e): [string, string] => [e.fields.externalId ?? '', e.id]),
  ])
  const facts = new DocumentLinkFacts(
    new Set(members.map((m) => m.id)),
    new Map<string, EntityKind>(entities.map((e) => [e.id, e.fields.kind])),
  )
  const rows: LinkRow[] = []
  for (const [i, l] of (document.links ?? []).entries()) {
    const at = `/links/${i}`
    const ends = { from: idOf.get(l.from), to: idOf.get(l.to) }
    for (const end of ['from', 'to'] as const)
      if (ends[end] === undefined)
        throw refuse(
          'invalid_body',
          `${end} (${l[end]}) is the externalId of no ${end === 'from' ? 'member or entity' : 'entity'} of this document.`,
          `${at}/${end}`,
        )
    const body: CreateLinkBody = { ...l, from: ends.from ?? '', to: ends.to ?? '' }
    const row = await checkLinkAgainst(facts, body, at)
    facts.accept(row)
    rows.push(row)
  }
  return rows
}

/** The write of `document` (valid against HouseholdDocument) into a household holding `target`; or the first RuleViolation. */
export async function planDocument(
  document: HouseholdDocument,
  target: DocumentTarget,
  newId: () => string = randomUUID,
): Promise<DocumentPlan> {
  const household = checkHousehold(document)
  const members = planMembers(document, target, newId)
  const entities = planEntities(document, target, new Set(members.map((m) => m.fields.externalId ?? '')), newId)
  const kinships = planKinships(document, members)
  const links = await planLinks(document, members, entities)
  const keptMembers = new Set(members.map((m) => m.id))
  const keptEntities = new Set(entities.map((e) => e.id))
  return {
    household,
    members,
    entities,
    deleteMemberIds: target.members.filter((m) => !keptMembers.has(m.id)).map((m) => m.id),
    deleteEntityIds: target.entities.filter((e) => !keptEntities.has(e.id)).map((e) => e.id),
    kinships,
    links,
  }
}
