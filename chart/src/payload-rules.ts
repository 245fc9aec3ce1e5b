// The payload rules a JSON Schema cannot say (payload v1, DESIGN §4): ids unique across people and
// entities, relationships and links naming what they must, no one their own ancestor, and no
// partners who are each other's ancestor and descendant. Payload 0.2.0's fields add the rules the
// records API applies to the same facts (src/households/entity-links.ts, entities.ts), so a payload
// the chart draws is one the API would store: parentKind only on parent relationships, since and
// until only on couples and in order, a party holding nothing and linked only as it may be, a link
// type going to the kinds it fits, beneficiaryType only on beneficiaries. Those rules never refuse a
// payload written in 0.1.x's words (its kinds and link types): every valid 0.1.x payload stays valid.
// Pure: runs on a payload that already passed the schema, in the browser and in Node tests. Messages
// name no id or name from the payload (errors go to whatever page is the parent); the path says
// where the problem is, the message what to do.
import type { EntityKind, LinkType, Payload } from '../payload.ts'
import { PAYLOAD_0_1_ENTITY_KINDS, PAYLOAD_0_1_LINK_TYPES } from '../payload-0-1.ts'
import {
  isParty,
  linkTargetMismatch,
  PARTY_REFUSED_FROM_LINK_TYPES,
  PARTY_REFUSED_LINK_TYPES,
  SHARED_LINK_TYPES,
} from '../../src/domain/estate-vocabulary.ts'
import { checkEstateFacts } from './estate-fact-rules.ts'

export interface PayloadProblem {
  /** JSON Pointer of the first problem, e.g. `/relationships/2/to`. */
  path: string
  /** `"<path>: <what is wrong>"`. */
  message: string
}

const PARTNER_TYPES: ReadonlySet<string> = new Set(['spouse', 'partner', 'exSpouse'])
const KINDS_0_1: ReadonlySet<EntityKind> = new Set(PAYLOAD_0_1_ENTITY_KINDS)
const LINK_TYPES_0_1: ReadonlySet<LinkType> = new Set(PAYLOAD_0_1_LINK_TYPES)
/** The fields a party may not carry, in the order they are checked. */
const PARTY_HELD = ['value', 'valueAsOf', 'estate'] as const

/**
 * The first problem, or null. Checks run in this order, each over the payload in document order:
 * ids (people, then entities, with a party's value, valueAsOf and estate); relationships (from, to,
 * from ≠ to, parentKind, since and until); links (from, to, from ≠ to, a party at either end, the
 * kinds the type goes to, share, beneficiaryType); parent cycles; partner edges between a person and
 * their own ancestor or descendant; then 0.3.0's estate facts (estate-fact-rules.ts).
 *
 * Cost: one pass per array, an iterative depth-first search over the parent edges (no recursion,
 * so no stack limit), and for the partner rule ancestor sets as bit sets filled in topological
 * order: O(n + e) plus (n + e)·n/32 word operations, about 200,000 at the schema's 1000 people and
 * 5000 relationships.
 */
export function checkPayloadRules(payload: Payload): PayloadProblem | null {
  return checkPeopleAndLinks(payload) ?? checkEstateFacts(payload)
}

function checkPeopleAndLinks(payload: Payload): PayloadProblem | null {
  const people = payload.people
  const entities = payload.entities ?? []
  const relationships = payload.relationships ?? []
  const links = payload.links ?? []

  // Ids: people and entities share one namespace. A person's value is their index.
  const personIndex = new Map<string, number>()
  const entityKinds = new Map<string, EntityKind>()
  for (let i = 0; i < people.length; i++) {
    const id = people[i]!.id
    if (personIndex.has(id)) return problem(`/people/${i}/id`, 'repeats the id of an earlier person')
    personIndex.set(id, i)
  }
  for (let i = 0; i < entities.length; i++) {
    const id = entities[i]!.id
    if (personIndex.has(id))
      return problem(`/entities/${i}/id`, 'repeats the id of a person (people and entities share ids)')
    if (entityKinds.has(id)) return problem(`/entities/${i}/id`, 'repeats the id of an earlier entity')
    const entity = entities[i]!
    if (isParty(entity.kind)) {
      const held = PARTY_HELD.find((field) => entity[field] !== undefined)
      if (held !== undefined)
        return problem(
          `/entities/${i}/${held}`,
          `is set on an entity of kind ${entity.kind}, a party that holds nothing and is never counted: leave value, valueAsOf and estate out, or choose a kind that holds value`,
        )
    }
    entityKinds.set(id, entity.kind)
  }

  // Relationships join two different people. Kept as index pairs for the graph below.
  const from = new Int32Array(relationships.length)
  const to = new Int32Array(relationships.length)
  for (let i = 0; i < relationships.length; i++) {
    const relationship = relationships[i]!
    const a = personIndex.get(relationship.from)
    if (a === undefined) return problem(`/relationships/${i}/from`, notAPerson(entityKinds.has(relationship.from)))
    const b = personIndex.get(relationship.to)
    if (b === undefined) return problem(`/relationships/${i}/to`, notAPerson(entityKinds.has(relationship.to)))
    if (a === b) return problem(`/relationships/${i}/to`, 'is the same person as from; a relationship joins two people')
    const dates = relationshipFieldProblem(relationship, `/relationships/${i}`)
    if (dates) return dates
    from[i] = a
    to[i] = b
  }

  // Links go from a person or an entity to another entity.
  for (let i = 0; i < links.length; i++) {
    const link = links[i]!
    if (!personIndex.has(link.from) && !entityKinds.has(link.from))
      return problem(`/links/${i}/from`, 'names no person or entity of the payload')
    const toKind = entityKinds.get(link.to)
    if (toKind === undefined) {
      return problem(
        `/links/${i}/to`,
        personIndex.has(link.to) ? 'names a person; a link goes to an entity' : 'names no entity of the payload',
      )
    }
    if (link.from === link.to)
      return problem(`/links/${i}/to`, 'is the same entity as from; an entity cannot link to itself')
    const fits = linkFieldProblem(link, entityKinds.get(link.from), toKind, `/links/${i}`)
    if (fits) return fits
  }

  // The parent graph in compressed rows: the children edges of person p are
  // edgeOf[start[p] .. start[p + 1]), in document order.
  const n = people.length
  const start = new Int32Array(n + 1)
  let parentEdges = 0
  for (let i = 0; i < relationships.length; i++) {
    if (relationships[i]!.type !== 'parent') continue
    start[from[i]! + 1]!++
    parentEdges++
  }
  for (let p = 0; p < n; p++) start[p + 1] = start[p + 1]! + start[p]!
  const edgeOf = new Int32Array(parentEdges)
  const fill = start.slice(0, n)
  for (let i = 0; i < relationships.length; i++) {
    if (relationships[i]!.type !== 'parent') continue
    const p = from[i]!
    edgeOf[fill[p]!] = i
    fill[p] = fill[p]! + 1
  }

  // Iterative depth-first search from each person in document order: an edge to a person still on
  // the path closes a cycle (a person their own ancestor); that edge is the problem. The finishing
  // order, reversed, puts every parent before their children.
  const WHITE = 0
  const ON_PATH = 1
  const DONE = 2
  const state = new Uint8Array(n)
  const cursor = start.slice(0, n)
  const stack = new Int32Array(n)
  const finished = new Int32Array(n)
  let finishedCount = 0
  for (let root = 0; root < n; root++) {
    if (state[root] !== WHITE) continue
    let depth = 0
    stack[depth++] = root
    state[root] = ON_PATH
    while (depth > 0) {
      const p = stack[depth - 1]!
      const next = cursor[p]!
      if (next < start[p + 1]!) {
        cursor[p] = next + 1
        const edge = edgeOf[next]!
        const child = to[edge]!
        if (state[child] === ON_PATH)
          return problem(
            `/relationships/${edge}`,
            'makes a person their own ancestor (a cycle of parent relationships)',
          )
        if (state[child] === WHITE) {
          state[child] = ON_PATH
          stack[depth++] = child
        }
      } else {
        state[p] = DONE
        finished[finishedCount++] = p
        depth--
      }
    }
  }

  // Partners may not be each other's ancestor and descendant.
  const partnerEdges: number[] = []
  for (let i = 0; i < relationships.length; i++) {
    if (PARTNER_TYPES.has(relationships[i]!.type)) partnerEdges.push(i)
  }
  if (partnerEdges.length === 0 || parentEdges === 0) return null
  const words = (n + 31) >>> 5
  const ancestors = new Uint32Array(n * words)
  for (let k = n - 1; k >= 0; k--) {
    const p = finished[k]!
    for (let e = start[p]!; e < start[p + 1]!; e++) {
      const child = to[edgeOf[e]!]!
      const childRow = child * words
      const parentRow = p * words
      for (let w = 0; w < words; w++) ancestors[childRow + w] = ancestors[childRow + w]! | ancestors[parentRow + w]!
      ancestors[childRow + (p >>> 5)] = ancestors[childRow + (p >>> 5)]! | (1 << (p & 31))
    }
  }
  const isAncestor = (ancestor: number, of: number): boolean =>
    ((ancestors[of * words + (ancestor >>> 5)]! >>> (ancestor & 31)) & 1) === 1
  for (const i of partnerEdges) {
    const a = from[i]!
    const b = to[i]!
    if (isAncestor(a, b) || isAncestor(b, a))
      return problem(`/relationships/${i}`, 'joins as partners a person and their own ancestor or descendant')
  }
  return null
}

/** parentKind only on a parent relationship; since and until only on a couple, until not before since. */
function relationshipFieldProblem(
  relationship: NonNullable<Payload['relationships']>[number],
  at: string,
): PayloadProblem | null {
  if (relationship.type !== 'parent' && relationship.parentKind !== undefined)
    return problem(
      `${at}/parentKind`,
      `is set on this ${relationship.type} relationship; parentKind is for parent relationships only: leave it out or make the type parent`,
    )
  if (relationship.type === 'parent') {
    const dated = relationship.since !== undefined ? 'since' : relationship.until !== undefined ? 'until' : undefined
    if (dated !== undefined)
      return problem(
        `${at}/${dated}`,
        'is set on a parent relationship; since and until date a marriage or partnership (spouse, partner, exSpouse): leave it out',
      )
  }
  // Calendar dates in YYYY-MM-DD order as strings.
  if (relationship.since !== undefined && relationship.until !== undefined && relationship.until < relationship.since)
    return problem(
      `${at}/until`,
      'is before since; a marriage or partnership ends after it begins: correct one of the two dates',
    )
  return null
}

/**
 * The records API's link rules that the payload alone can break (checkLink): a party is never owned,
 * a beneficiary's entity or insured, and never owns or benefits; a type goes to the kinds it fits;
 * share and beneficiaryType only where the type has them. Links in 0.1.x's words (its link types to
 * its kinds) are exempt from the kind and share rules, which 0.1.x did not have.
 */
function linkFieldProblem(
  link: NonNullable<Payload['links']>[number],
  fromKind: EntityKind | undefined,
  toKind: EntityKind,
  at: string,
): PayloadProblem | null {
  const { type } = link
  if (isParty(toKind) && PARTY_REFUSED_LINK_TYPES.has(type))
    return problem(
      `${at}/to`,
      `is of kind ${toKind}, a party that holds nothing, so it cannot have a ${type}: link the entity that holds the value instead`,
    )
  if (fromKind !== undefined && isParty(fromKind) && PARTY_REFUSED_FROM_LINK_TYPES.has(type))
    return problem(
      `${at}/from`,
      `is of kind ${fromKind}, a party that holds nothing, so it cannot be a ${type}: name the person or entity that is, or make the party a trustee or successorTrustee`,
    )
  const in01 = LINK_TYPES_0_1.has(type) && KINDS_0_1.has(toKind)
  const targets = linkTargetMismatch(type, toKind)
  if (targets !== undefined && !in01)
    return problem(
      `${at}/type`,
      `is ${type}, which goes to ${targets} only, not to kind ${toKind}: choose the type that fits (owner for a holding or a business entity)`,
    )
  if (link.share !== undefined && !SHARED_LINK_TYPES.has(type) && !LINK_TYPES_0_1.has(type))
    return problem(
      `${at}/share`,
      `is set on this ${type} link, which has no share; shares are for beneficiary, owner, generalPartner and limitedPartner links: leave it out`,
    )
  if (link.beneficiaryType !== undefined && type !== 'beneficiary')
    return problem(
      `${at}/beneficiaryType`,
      `is set on this ${type} link; beneficiaryType is for beneficiary links only: leave it out or make the type beneficiary`,
    )
  return null
}

function notAPerson(isEntity: boolean): string {
  return isEntity ? 'names an entity; a relationship joins two people' : 'names no person of the payload'
}

function problem(path: string, what: string): PayloadProblem {
  return { path, message: `${path}: ${what}` }
}
