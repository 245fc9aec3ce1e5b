// A chart payload (0.2.0, or 0.1.x, which is a part of it: chart/payload.ts) as an import into a
// household's records: which members and entities to update, create and delete, the kinships to
// store, and the links to add, with every rule that the payload alone can break refused at the JSON
// Pointer of its first problem. Pure: the store reads what the household holds (ExistingRecord),
// this decides, the use case (src/households/chart-import.ts) writes and checks the links' rules
// against the stored rows.
//
// Matching: a payload person (entity) whose id equals an existing member (entity) id, or else
// equals its externalId, updates that row; any other is created with externalId = the payload id;
// existing members and non-party entities the payload does not name are deleted, with their
// kinships and links. A fact the payload states is stored as stated: 0.2.0's parentKind, since and
// until, shortName and valueAsOf, parties and their links, every link type, beneficiaryType. A fact
// it leaves out that a 0.1.x payload cannot say is kept where its subject stays (so a payload of
// either release read with GET …/chart and sent back changes nothing): a member's email; a
// kinship's parentKind, since and until; an entity's shortName and notes, and its valueAsOf while
// its value is unchanged. An estate equal to the kind's default on an entity that had none set
// stays "not set".
//
// Which vocabulary a payload speaks decides the rest. A payload speaks 0.2.0 when it uses anything
// only 0.2.0 or later has (speaksPayload020): 0.3.0's estate facts (gifts, dispositions, assumptions,
// a person's usCitizen or dsueReceived); household currency or asOf; a relationship's parentKind, since
// or until; an entity's shortName or valueAsOf, or a kind 0.1.x does not know (a party among them);
// a link's beneficiaryType, or a link type 0.1.x does not know (successorTrustee, insured,
// generalPartner, limitedPartner). Its links, parties, kinds and beneficiary types are then exactly
// what it states: an owner is an owner, a beneficiary without beneficiaryType is primary (the
// schema's "absent means primary"), `other` is other, and parties and links it leaves out are
// deleted. A payload that uses none of them is read in 0.1.x's vocabulary, which cannot say those
// facts, so the household's are kept: parties the payload does not name, and their links;
// successorTrustee and insured links; a partner's link (generalPartner, limitedPartner), which 0.1.x
// draws as owner (one owner per pair, the shares added); a beneficiary's beneficiaryType; an
// entity's kind when the payload says `other` for a kind 0.1.x does not know.
import type { Link, Payload } from '../../chart/payload.ts'
import { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_0_1_LINK_TYPES } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import type { RuleCode } from '../households/rule-violation.ts'
import { cleanName, hasAtMostTwoDecimals, isPastCalendarDate } from './household-input.ts'
import { MEMBER_ROLES, ONE_PER_HOUSEHOLD_ROLES } from './household-roles.ts'
import { isUuid } from './ids.ts'
import {
  defaultEstateSide,
  ESTATE_LIMITS,
  isParty,
  type BeneficiaryType,
  type EntityKind,
  type EstateSide,
  type LinkType,
  type ParentKind,
} from './estate-vocabulary.ts'

type MemberRole = (typeof MEMBER_ROLES)[number]
type KinshipType = 'spouse' | 'partner' | 'exSpouse' | 'parent'

/** A refusal: the API's code, a sentence that says what to do, and the JSON Pointer into the payload. */
export interface ImportProblem {
  code: RuleCode
  message: string
  field: string
}

export class ImportRefused extends Error {
  constructor(readonly problem: ImportProblem) {
    super(problem.message)
    this.name = 'ImportRefused'
  }
}

function refuse(code: RuleCode, field: string, message: string): never {
  throw new ImportRefused({ code, field, message })
}

/** The most an entity is worth (as the entities API takes it). */
const ENTITY_VALUE_MAX = 1e12

/** What the household holds now, as the import needs it. */
export interface ExistingRecord {
  members: readonly { id: string; externalId: string | null }[]
  entities: readonly {
    id: string
    externalId: string | null
    kind: EntityKind
    value: number | null
    estate: EstateSide | null
  }[]
  kinships: readonly {
    from: string
    to: string
    type: KinshipType
    parentKind: ParentKind | null
    since: string | null
    until: string | null
  }[]
  links: readonly {
    from: string
    to: string
    type: LinkType
    share: number | null
    beneficiaryType: BeneficiaryType | null
  }[]
}

export interface MemberWrite {
  id: string
  /** Created by this import (else an existing member, updated). */
  isNew: boolean
  /** Set on created members only: the payload id. */
  externalId: string | null
  name: string
  role: MemberRole
  birthDate: string | null
  deathDate: string | null
  position: number
}

export interface EntityWrite {
  id: string
  isNew: boolean
  externalId: string | null
  name: string
  /** As the payload states it; null = not stated: an updated entity keeps its own, a created one has none. */
  shortName: string | null
  kind: EntityKind
  value: number | null
  /**
   * As the payload states it (the date of value, recorded with the valuation when valueChanged);
   * null = not stated: kept while the value is unchanged, cleared when it changed.
   */
  valueAsOf: string | null
  /** As stored: null = the kind's default. */
  estate: EstateSide | null
  /** A new value (or a new entity with a value): the write records a valuation. */
  valueChanged: boolean
  position: number
}

export interface KinshipWrite {
  from: string
  to: string
  type: KinshipType
  parentKind: ParentKind | null
  since: string | null
  until: string | null
}

/** A link as the links API's create body takes it (ids resolved), with where it is in the payload. */
export interface LinkWrite {
  /** The JSON Pointer of the payload link, or null for a link kept from the household. */
  at: string | null
  from: string
  to: string
  type: LinkType
  share?: number
  beneficiaryType?: BeneficiaryType
}

export interface ImportPlan {
  members: MemberWrite[]
  entities: EntityWrite[]
  deleteMemberIds: string[]
  deleteEntityIds: string[]
  kinships: KinshipWrite[]
  /** The payload's links first (in payload order), then the household's links it keeps. */
  links: LinkWrite[]
  /** The audit's `changed`: which parts of the household the import touches. */
  changed: ('members' | 'relationships' | 'entities' | 'links')[]
}

const PAYLOAD_0_1_KINDS: ReadonlySet<string> = new Set(PAYLOAD_0_1_ENTITY_KINDS)
const PAYLOAD_0_1_LINKS: ReadonlySet<string> = new Set(PAYLOAD_0_1_LINK_TYPES)
/**
 * The link types payload 0.1.x speaks of (a partner's link is drawn as owner): an import of a
 * payload in 0.1.x's vocabulary replaces these; the household's others are kept unless the payload
 * states them again (see planChartImport).
 */
const REPLACED_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>([
  'grantor',
  'trustee',
  'beneficiary',
  'owner',
  'generalPartner',
  'limitedPartner',
])
const PARTNER_LINK_TYPES: ReadonlySet<LinkType> = new Set<LinkType>(['generalPartner', 'limitedPartner'])

/**
 * Whether the payload uses anything only payload 0.2.0 (or a later release, which says all 0.2.0
 * says) has (see the header): then it can state every fact the import would otherwise keep, and
 * what it leaves out is not there. 0.3.0's estate facts count: a payload with gifts, a citizenship
 * or a DSUE received was written for a release that knows parties and the records' kinds.
 */
export function speaksPayload020(payload: Payload): boolean {
  const { household } = payload
  return (
    household.currency !== undefined ||
    payload.gifts !== undefined ||
    payload.dispositions !== undefined ||
    payload.assumptions !== undefined ||
    payload.people.some((p) => p.usCitizen !== undefined || p.dsueReceived !== undefined) ||
    household.asOf !== undefined ||
    (payload.relationships ?? []).some(
      (r) => r.parentKind !== undefined || r.since !== undefined || r.until !== undefined,
    ) ||
    (payload.entities ?? []).some(
      (e) => e.shortName !== undefined || e.valueAsOf !== undefined || !PAYLOAD_0_1_KINDS.has(e.kind),
    ) ||
    (payload.links ?? []).some((l) => l.beneficiaryType !== undefined || !PAYLOAD_0_1_LINKS.has(l.type))
  )
}

/**
 * The share GET (0.1.x) draws for the owner and partner links of one pair, folded into one owner:
 * the shares added, or none when none of them has one (src/domain/chart-payload.ts, links01).
 */
function foldedShare(held: readonly { share: number | null }[]): number | undefined {
  const shares = held.flatMap((k) => (k.share === null ? [] : [k.share]))
  return shares.length === 0 ? undefined : shares.reduce((sum, share) => sum + share, 0)
}

/** The chart's own rules (ids, names, ancestry, and 0.2.0's field and link rules), with the API's code for each. */
function checkChartRules(payload: Payload): void {
  const problem = checkPayloadRules(payload)
  if (!problem) return
  const what = problem.message.slice(problem.path.length + 2)
  refuse(
    codeOfChartProblem(problem.path, what),
    problem.path,
    `The chart refuses this payload: ${problem.path} ${what}. Correct it and send the payload again.`,
  )
}

/** The API's code for a rule of the chart, as the members, entities and links APIs answer the same rule. */
function codeOfChartProblem(path: string, what: string): RuleCode {
  if (what.includes('own ancestor (')) return 'relationship_cycle'
  if (what.includes('ancestor or descendant')) return 'relationship_conflict'
  if (what.includes('a party that holds nothing'))
    return path.startsWith('/entities/') ? 'entity_party_value' : 'link_party_owned'
  if (/^\/links\/\d+\/type$/.test(path) && what.includes(' only, not to kind ')) return 'link_kind_mismatch'
  if (/^\/links\/\d+\/(share|beneficiaryType)$/.test(path)) return 'link_share_not_allowed'
  return 'invalid_body'
}

/**
 * Matches payload ids to existing rows: by id first, then by externalId among rows not matched yet.
 * Ids are matched case-insensitively (a UUID is one id in any case), while the chart's own rules
 * compare payload ids exactly: two payload ids that differ only in case would both take one row, so
 * the second is refused at `${at}/<index>/id`.
 */
function matchRows<Row extends { id: string; externalId: string | null }>(
  ids: readonly string[],
  rows: readonly Row[],
  at: '/people' | '/entities',
): (Row | undefined)[] {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const byExternal = new Map(rows.filter((row) => row.externalId !== null).map((row) => [row.externalId, row]))
  const taken = new Set<string>()
  const matched: (Row | undefined)[] = ids.map((id, i) => {
    const row = isUuid(id) ? byId.get(id.toLowerCase()) : undefined
    if (row && taken.has(row.id))
      refuse(
        'invalid_body',
        `${at}/${i}/id`,
        `${at.slice(1)}[${i}].id names the same record as an earlier id that differs only in case: send each person or entity once.`,
      )
    if (row) taken.add(row.id)
    return row
  })
  return matched.map((row, i) => {
    if (row) return row
    const byExternalId = byExternal.get(ids[i] ?? '')
    if (!byExternalId || taken.has(byExternalId.id)) return undefined
    taken.add(byExternalId.id)
    return byExternalId
  })
}

function checkPeople(payload: Payload): void {
  const holder = new Map<string, number>()
  for (const [i, p] of payload.people.entries()) {
    const name = cleanName('name', p.name)
    if (!name.ok) refuse('invalid_body', `/people/${i}/name`, `people[${i}].${name.message}.`)
    for (const field of ['birthDate', 'deathDate'] as const) {
      const date = p[field]
      if (date !== undefined && !isPastCalendarDate(date))
        refuse(
          'invalid_body',
          `/people/${i}/${field}`,
          `${field} must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${date}.`,
        )
    }
    if (p.birthDate !== undefined && p.deathDate !== undefined && p.deathDate < p.birthDate)
      refuse(
        'invalid_body',
        `/people/${i}/deathDate`,
        `deathDate (${p.deathDate}) must not be before birthDate (${p.birthDate}).`,
      )
    if (!ONE_PER_HOUSEHOLD_ROLES.has(p.role)) continue
    const earlier = holder.get(p.role)
    if (earlier !== undefined)
      refuse(
        'member_role_taken',
        `/people/${i}/role`,
        `people[${earlier}] is already the ${p.role}; a household has one. Give one of them another role.`,
      )
    holder.set(p.role, i)
  }
}

/** The members API takes real dates from 1800 to today, for a couple's since and until too. */
function checkRelationshipDates(payload: Payload): void {
  for (const [i, r] of (payload.relationships ?? []).entries()) {
    for (const field of ['since', 'until'] as const) {
      const date = r[field]
      if (date !== undefined && !isPastCalendarDate(date))
        refuse(
          'invalid_body',
          `/relationships/${i}/${field}`,
          `${field} must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${date}.`,
        )
    }
  }
}

function checkEntities(payload: Payload): void {
  for (const [i, e] of (payload.entities ?? []).entries()) {
    const name = cleanName('name', e.name)
    if (!name.ok) refuse('invalid_body', `/entities/${i}/name`, `entities[${i}].${name.message}.`)
    if (e.valueAsOf !== undefined && !isPastCalendarDate(e.valueAsOf))
      refuse(
        'invalid_body',
        `/entities/${i}/valueAsOf`,
        `valueAsOf must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${e.valueAsOf}.`,
      )
    if (e.value !== undefined && (e.value > ENTITY_VALUE_MAX || !hasAtMostTwoDecimals(e.value)))
      refuse(
        'invalid_body',
        `/entities/${i}/value`,
        `value is an amount from 0 to ${ENTITY_VALUE_MAX} with at most 2 decimals (cents), got ${e.value}.`,
      )
  }
}

/** The kinships of the payload as stored (spouse, partner, exSpouse with the smaller id first); exact repeats dropped. */
function kinshipsOf(
  payload: Payload,
  memberIdOf: (payloadId: string) => string,
  existing: ExistingRecord['kinships'],
): KinshipWrite[] {
  const kept = new Map(existing.map((k) => [`${k.from} ${k.to}`, k]))
  const pairs = new Map<string, { index: number; key: string }>()
  const kinships: KinshipWrite[] = []
  for (const [i, r] of (payload.relationships ?? []).entries()) {
    const a = memberIdOf(r.from)
    const b = memberIdOf(r.to)
    const [from, to] = r.type === 'parent' || a < b ? [a, b] : [b, a]
    const key = `${from} ${to} ${r.type}`
    const pair = a < b ? `${a} ${b}` : `${b} ${a}`
    const earlier = pairs.get(pair)
    if (earlier?.key === key) continue
    if (earlier)
      refuse(
        'relationship_conflict',
        `/relationships/${i}`,
        `relationships[${earlier.index}] already joins these two people; two people have one relationship. Keep one of the two.`,
      )
    pairs.set(pair, { index: i, key })
    // A detail the payload leaves out is kept from the same kinship (a 0.1.x payload cannot say it).
    const before = kept.get(`${from} ${to}`)
    const same = before?.type === r.type ? before : undefined
    const kinship: KinshipWrite = {
      from,
      to,
      type: r.type,
      parentKind: r.parentKind ?? same?.parentKind ?? null,
      since: r.since ?? same?.since ?? null,
      until: r.until ?? same?.until ?? null,
    }
    if (kinship.since !== null && kinship.until !== null && kinship.until < kinship.since)
      refuse(
        'invalid_body',
        `/relationships/${i}/${r.until === undefined ? 'since' : 'until'}`,
        `until (${kinship.until}) must not be before since (${kinship.since}); the household records these two people's ${r.type} with the other date. Send both dates.`,
      )
    kinships.push(kinship)
  }
  return kinships
}

/**
 * The import of `payload` (already valid against the Payload schema) into a household holding
 * `existing`: what to write, or ImportRefused with the first problem. `newId` names created rows.
 */
export function planChartImport(payload: Payload, existing: ExistingRecord, newId: () => string): ImportPlan {
  checkChartRules(payload)
  checkPeople(payload)
  checkRelationshipDates(payload)
  checkEntities(payload)
  const payloadEntities = payload.entities ?? []

  const memberMatches = matchRows(
    payload.people.map((p) => p.id),
    existing.members,
    '/people',
  )
  const members: MemberWrite[] = payload.people.map((p, i) => {
    const row = memberMatches[i]
    return {
      id: row?.id ?? newId(),
      isNew: row === undefined,
      externalId: row === undefined ? p.id : null,
      name: p.name.trim(),
      role: p.role,
      birthDate: p.birthDate ?? null,
      deathDate: p.deathDate ?? null,
      position: i,
    }
  })
  const entityMatches = matchRows(
    payloadEntities.map((e) => e.id),
    existing.entities,
    '/entities',
  )
  const speaks020 = speaksPayload020(payload)
  const entities: EntityWrite[] = payloadEntities.map((e, i) => {
    const row = entityMatches[i]
    // In 0.1.x's vocabulary, `other` is what GET draws for a kind 0.1.x does not know: keep that kind.
    const kind: EntityKind =
      !speaks020 && e.kind === 'other' && row && !PAYLOAD_0_1_KINDS.has(row.kind) && !isParty(row.kind)
        ? row.kind
        : e.kind
    const estate =
      e.estate === undefined || (e.estate === defaultEstateSide(kind) && (row?.estate ?? null) === null)
        ? null
        : e.estate
    const value = e.value ?? null
    return {
      id: row?.id ?? newId(),
      isNew: row === undefined,
      externalId: row === undefined ? e.id : null,
      name: e.name.trim(),
      shortName: e.shortName?.trim() ?? null,
      kind,
      value,
      valueAsOf: e.valueAsOf ?? null,
      estate,
      valueChanged: row === undefined ? value !== null : value !== row.value,
      position: i,
    }
  })

  // A created row's externalId must be free among the rows that stay.
  checkExternalIds(members, existing.members, '/people', 'member_external_id_taken')
  checkExternalIds(entities, existing.entities, '/entities', 'entity_external_id_taken')

  const keptMembers = new Set(members.map((m) => m.id))
  const finalKinds = new Map<string, EntityKind>(entities.map((e) => [e.id, e.kind]))
  // Parties a payload in 0.1.x's vocabulary does not name stay: it cannot name them.
  if (!speaks020)
    for (const e of existing.entities) if (isParty(e.kind) && !finalKinds.has(e.id)) finalKinds.set(e.id, e.kind)
  if (finalKinds.size > ESTATE_LIMITS.entities)
    refuse(
      'household_entities_limit',
      '/entities',
      `A household has at most ${ESTATE_LIMITS.entities} entities, and its ${finalKinds.size - entities.length} parties that the payload does not name stay: send fewer entities.`,
    )

  const idOf = new Map<string, string>()
  for (const [i, p] of payload.people.entries()) idOf.set(p.id, members[i]?.id ?? '')
  for (const [i, e] of payloadEntities.entries()) idOf.set(e.id, entities[i]?.id ?? '')
  const resolve = (payloadId: string): string => idOf.get(payloadId) ?? ''

  const kinships = kinshipsOf(payload, resolve, existing.kinships)
  const links = speaks020
    ? (payload.links ?? []).map((l, i) => statedLink(l, i, resolve))
    : linksIn01Vocabulary(
        payload,
        existing.links,
        resolve,
        (id) => keptMembers.has(id) || finalKinds.has(id),
        finalKinds,
      )

  const deleteMemberIds = existing.members.filter((m) => !keptMembers.has(m.id)).map((m) => m.id)
  const deleteEntityIds = existing.entities.filter((e) => !finalKinds.has(e.id)).map((e) => e.id)
  const changed: ImportPlan['changed'] = []
  if (members.length > 0 || deleteMemberIds.length > 0) changed.push('members')
  if (kinships.length > 0 || existing.kinships.length > 0) changed.push('relationships')
  if (entities.length > 0 || deleteEntityIds.length > 0) changed.push('entities')
  if (links.length > 0 || existing.links.length > 0) changed.push('links')
  return { members, entities, deleteMemberIds, deleteEntityIds, kinships, links, changed }
}

/** A payload link as it states itself (absent beneficiaryType = primary, stored as not set). */
function statedLink(l: Link, i: number, resolve: (payloadId: string) => string): LinkWrite {
  return {
    at: `/links/${i}`,
    from: resolve(l.from),
    to: resolve(l.to),
    type: l.type,
    ...(l.share === undefined ? {} : { share: l.share }),
    ...(l.beneficiaryType === undefined ? {} : { beneficiaryType: l.beneficiaryType }),
  }
}

/**
 * The links of a payload in 0.1.x's vocabulary, then the household's links it cannot say (see the
 * header): a partner's link drawn as owner stays a partner, a beneficiary keeps its beneficiaryType,
 * and the links to parties, successorTrustee and insured links stay between rows that `stays`.
 */
function linksIn01Vocabulary(
  payload: Payload,
  existing: ExistingRecord['links'],
  resolve: (payloadId: string) => string,
  stays: (id: string) => boolean,
  finalKinds: ReadonlyMap<string, EntityKind>,
): LinkWrite[] {
  const links: LinkWrite[] = (payload.links ?? []).flatMap((l, i): LinkWrite[] => {
    const stated = statedLink(l, i, resolve)
    const { from, to } = stated
    const before = existing.filter((k) => k.from === from && k.to === to)
    // GET draws an owner and partner links of one pair as one owner with the shares added
    // (chart-payload.ts): sent back with that sum (or with no share when none had one), all stay as they were.
    const held = before.filter((k) => k.type === 'owner' || PARTNER_LINK_TYPES.has(k.type))
    const heldShare = foldedShare(held)
    const sameShare =
      l.share === undefined || heldShare === undefined ? l.share === heldShare : Math.abs(heldShare - l.share) < 1e-6
    if (l.type === 'owner' && held.length > 1 && sameShare)
      return held.map((k) => ({
        at: stated.at,
        from,
        to,
        type: k.type,
        ...(k.share === null ? {} : { share: k.share }),
      }))
    const type =
      l.type === 'owner' && !before.some((k) => k.type === 'owner')
        ? (before.find((k) => PARTNER_LINK_TYPES.has(k.type))?.type ?? 'owner')
        : l.type
    const beneficiaryType =
      l.type === 'beneficiary' ? before.find((k) => k.type === 'beneficiary')?.beneficiaryType : undefined
    return [{ ...stated, type, ...(beneficiaryType == null ? {} : { beneficiaryType }) }]
  })
  const stated = new Set(links.map((l) => `${l.from} ${l.to} ${l.type}`))
  for (const l of existing) {
    const party = isParty(finalKinds.get(l.to) ?? 'other') || isParty(finalKinds.get(l.from) ?? 'other')
    if ((REPLACED_LINK_TYPES.has(l.type) && !party) || !stays(l.from) || !stays(l.to)) continue
    if (stated.has(`${l.from} ${l.to} ${l.type}`)) continue
    links.push({
      at: null,
      from: l.from,
      to: l.to,
      type: l.type,
      ...(l.share === null ? {} : { share: l.share }),
      ...(l.beneficiaryType === null ? {} : { beneficiaryType: l.beneficiaryType }),
    })
  }
  return links
}

function checkExternalIds(
  writes: readonly { id: string; isNew: boolean; externalId: string | null }[],
  rows: readonly { id: string; externalId: string | null }[],
  base: string,
  code: 'member_external_id_taken' | 'entity_external_id_taken',
): void {
  const staying = new Set(writes.map((w) => w.id))
  const heldBy = new Map(rows.filter((r) => r.externalId !== null && staying.has(r.id)).map((r) => [r.externalId, r]))
  for (const [i, w] of writes.entries()) {
    if (!w.isNew || w.externalId === null || !heldBy.has(w.externalId)) continue
    refuse(
      code,
      `${base}/${i}/id`,
      `This id is the externalId of a record the payload names by its own id; give the two different ids, or send that record under its externalId.`,
    )
  }
}
