// The payload rules a JSON Schema cannot say (payload v1, DESIGN §4): ids unique across people and
// entities, relationships and links naming what they must, no one their own ancestor, and no
// partners who are each other's ancestor and descendant. Pure: runs on a payload that already
// passed the schema, in the browser and in Node tests. Messages name no id or name from the payload
// (errors go to whatever page is the parent); the path says where the problem is.
import type { Payload } from '../payload.ts'

export interface PayloadProblem {
  /** JSON Pointer of the first problem, e.g. `/relationships/2/to`. */
  path: string
  /** `"<path>: <what is wrong>"`. */
  message: string
}

const PARTNER_TYPES: ReadonlySet<string> = new Set(['spouse', 'partner', 'exSpouse'])

/**
 * The first problem, or null. Checks run in this order, each over the payload in document order:
 * ids (people, then entities); relationships (from, to, from ≠ to); links (from, to, from ≠ to);
 * parent cycles; partner edges between a person and their own ancestor or descendant.
 *
 * Cost: one pass per array, an iterative depth-first search over the parent edges (no recursion,
 * so no stack limit), and for the partner rule ancestor sets as bit sets filled in topological
 * order: O(n + e) plus (n + e)·n/32 word operations, about 200,000 at the schema's 1000 people and
 * 5000 relationships.
 */
export function checkPayloadRules(payload: Payload): PayloadProblem | null {
  const people = payload.people
  const entities = payload.entities ?? []
  const relationships = payload.relationships ?? []
  const links = payload.links ?? []

  // Ids: people and entities share one namespace. A person's value is their index.
  const personIndex = new Map<string, number>()
  const entityIds = new Set<string>()
  for (let i = 0; i < people.length; i++) {
    const id = (people[i] as Payload['people'][number]).id
    if (personIndex.has(id)) return problem(`/people/${i}/id`, 'repeats the id of an earlier person')
    personIndex.set(id, i)
  }
  for (let i = 0; i < entities.length; i++) {
    const id = (entities[i] as NonNullable<Payload['entities']>[number]).id
    if (personIndex.has(id))
      return problem(`/entities/${i}/id`, 'repeats the id of a person (people and entities share ids)')
    if (entityIds.has(id)) return problem(`/entities/${i}/id`, 'repeats the id of an earlier entity')
    entityIds.add(id)
  }

  // Relationships join two different people. Kept as index pairs for the graph below.
  const from = new Int32Array(relationships.length)
  const to = new Int32Array(relationships.length)
  for (let i = 0; i < relationships.length; i++) {
    const relationship = relationships[i] as NonNullable<Payload['relationships']>[number]
    const a = personIndex.get(relationship.from)
    if (a === undefined) return problem(`/relationships/${i}/from`, notAPerson(entityIds.has(relationship.from)))
    const b = personIndex.get(relationship.to)
    if (b === undefined) return problem(`/relationships/${i}/to`, notAPerson(entityIds.has(relationship.to)))
    if (a === b) return problem(`/relationships/${i}/to`, 'is the same person as from; a relationship joins two people')
    from[i] = a
    to[i] = b
  }

  // Links go from a person or an entity to another entity.
  for (let i = 0; i < links.length; i++) {
    const link = links[i] as NonNullable<Payload['links']>[number]
    if (!personIndex.has(link.from) && !entityIds.has(link.from))
      return problem(`/links/${i}/from`, 'names no person or entity of the payload')
    if (!entityIds.has(link.to)) {
      return problem(
        `/links/${i}/to`,
        personIndex.has(link.to) ? 'names a person; a link goes to an entity' : 'names no entity of the payload',
      )
    }
    if (link.from === link.to)
      return problem(`/links/${i}/to`, 'is the same entity as from; an entity cannot link to itself')
  }

  // The parent graph in compressed rows: the children edges of person p are
  // edgeOf[start[p] .. start[p + 1]), in document order.
  const n = people.length
  const start = new Int32Array(n + 1)
  let parentEdges = 0
  for (let i = 0; i < relationships.length; i++) {
    if ((relationships[i] as NonNullable<Payload['relationships']>[number]).type !== 'parent') continue
    ;(start[(from[i] as number) + 1] as number)++
    parentEdges++
  }
  for (let p = 0; p < n; p++) start[p + 1] = (start[p + 1] as number) + (start[p] as number)
  const edgeOf = new Int32Array(parentEdges)
  const fill = start.slice(0, n)
  for (let i = 0; i < relationships.length; i++) {
    if ((relationships[i] as NonNullable<Payload['relationships']>[number]).type !== 'parent') continue
    const p = from[i] as number
    edgeOf[fill[p] as number] = i
    fill[p] = (fill[p] as number) + 1
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
      const p = stack[depth - 1] as number
      const next = cursor[p] as number
      if (next < (start[p + 1] as number)) {
        cursor[p] = next + 1
        const edge = edgeOf[next] as number
        const child = to[edge] as number
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
    if (PARTNER_TYPES.has((relationships[i] as NonNullable<Payload['relationships']>[number]).type))
      partnerEdges.push(i)
  }
  if (partnerEdges.length === 0 || parentEdges === 0) return null
  const words = (n + 31) >>> 5
  const ancestors = new Uint32Array(n * words)
  for (let k = n - 1; k >= 0; k--) {
    const p = finished[k] as number
    for (let e = start[p] as number; e < (start[p + 1] as number); e++) {
      const child = to[edgeOf[e] as number] as number
      const childRow = child * words
      const parentRow = p * words
      for (let w = 0; w < words; w++)
        ancestors[childRow + w] = (ancestors[childRow + w] as number) | (ancestors[parentRow + w] as number)
      ancestors[childRow + (p >>> 5)] = (ancestors[childRow + (p >>> 5)] as number) | (1 << (p & 31))
    }
  }
  const isAncestor = (ancestor: number, of: number): boolean =>
    (((ancestors[of * words + (ancestor >>> 5)] as number) >>> (ancestor & 31)) & 1) === 1
  for (const i of partnerEdges) {
    const a = from[i] as number
    const b = to[i] as number
    if (isAncestor(a, b) || isAncestor(b, a))
      return problem(`/relationships/${i}`, 'joins as partners a person and their own ancestor or descendant')
  }
  return null
}

function notAPerson(isEntity: boolean): string {
  return isEntity ? 'names an entity; a relationship joins two people' : 'names no person of the payload'
}

function problem(path: string, what: string): PayloadProblem {
  return { path, message: `${path}: ${what}` }
}
