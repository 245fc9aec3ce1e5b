// The Structure view's graph: who owns what. Its arcs are the ownership links (owner, generalPartner,
// limitedPartner) between drawn records: members who own, and entities that are not parties (a party
// holds nothing, so it is never owned and never owns; the view draws it apart). Layers go top-down by
// ownership depth: members on layer 0, an entity one layer below its deepest owner (an entity nobody
// owns: layer 1). A partner's payload may loop (A owns B owns A); a depth-first walk finds the links
// that close a loop and draws each reversed, from the held entity down to its holder, which makes the
// graph acyclic so that the layering ends. A link from an entity to itself joins no two boxes and is
// not drawn; nor is a link that names an unknown id or a party.
import { isParty, OWNING_LINK_TYPES } from '../../../src/domain/estate-vocabulary.ts'
import { listed } from './listed.ts'
import type { StructureInput } from './structure-input.ts'

export interface OwnershipArc {
  /** The link's index in the input's links. */
  readonly linkIndex: number
  /** The holder (a member or an entity). */
  readonly from: string
  /** The entity held. */
  readonly to: string
  readonly type: string
  readonly share?: number
  /** The link closes an ownership loop: it is drawn from `to` (above) down to `from`. */
  readonly reversed: boolean
}

export interface OwnershipGraph {
  /** People who own part of an entity, in payload order. */
  readonly owners: readonly string[]
  /** Entities that are not parties, in payload order. */
  readonly entities: readonly string[]
  readonly arcs: readonly OwnershipArc[]
  /** Layer of every owner (0) and entity (1 and below). */
  readonly layerOf: ReadonlyMap<string, number>
}

/** The record drawn above: the holder, or for a reversed arc the entity held. */
export function upperEnd(arc: OwnershipArc): string {
  return arc.reversed ? arc.to : arc.from
}

/** The record drawn below. */
export function lowerEnd(arc: OwnershipArc): string {
  return arc.reversed ? arc.from : arc.to
}

export function ownershipGraph(input: StructureInput): OwnershipGraph {
  const personIds = new Set(input.people.map((p) => p.id))
  const entities = (input.entities ?? []).filter((e) => !isParty(e.kind) && !personIds.has(e.id)).map((e) => e.id)
  const entityIds = new Set(entities)
  const candidates: Omit<OwnershipArc, 'reversed'>[] = []
  ;(input.links ?? []).forEach((link, linkIndex) => {
    if (!OWNING_LINK_TYPES.has(link.type) || link.from === link.to || !entityIds.has(link.to)) return
    if (!personIds.has(link.from) && !entityIds.has(link.from)) return
    candidates.push({
      linkIndex,
      from: link.from,
      to: link.to,
      type: link.type,
      ...(link.share === undefined ? {} : { share: link.share }),
    })
  })
  const closing = loopClosingArcs(entities, candidates)
  const arcs = candidates.map((arc, k) => ({ ...arc, reversed: closing.has(k) }))
  const ownerSet = new Set(arcs.filter((arc) => personIds.has(arc.from)).map((arc) => arc.from))
  const owners = input.people.map((p) => p.id).filter((id) => ownerSet.has(id))
  return { owners, entities, arcs, layerOf: layers(owners, entities, arcs) }
}

/**
 * Indexes of the entity-to-entity arcs that a depth-first walk from holder to held finds leading back
 * to an entity still being walked (back edges). Reversing them leaves no cycle. Iterative, so a long
 * chain cannot overflow the stack.
 */
function loopClosingArcs(entities: readonly string[], arcs: readonly Omit<OwnershipArc, 'reversed'>[]): Set<number> {
  const entityIds = new Set(entities)
  const heldBy = new Map<string, number[]>(entities.map((id) => [id, []]))
  arcs.forEach((arc, k) => {
    if (entityIds.has(arc.from)) heldBy.get(arc.from)!.push(k)
  })
  const walking = new Set<string>()
  const finished = new Set<string>()
  const closing = new Set<number>()
  for (const start of entities) {
    if (finished.has(start)) continue
    const path = [{ id: start, next: 0 }]
    walking.add(start)
    while (path.length > 0) {
      const step = path[path.length - 1]!
      const arcIndex = heldBy.get(step.id)![step.next]
      if (arcIndex === undefined) {
        walking.delete(step.id)
        finished.add(step.id)
        path.pop()
        continue
      }
      step.next += 1
      const held = arcs[arcIndex]!.to
      if (walking.has(held)) closing.add(arcIndex)
      else if (!finished.has(held)) {
        walking.add(held)
        path.push({ id: held, next: 0 })
      }
    }
  }
  return closing
}

/** Longest-path layers over the acyclic drawn direction (Kahn's order): one below the deepest record above. */
function layers(
  owners: readonly string[],
  entities: readonly string[],
  arcs: readonly OwnershipArc[],
): Map<string, number> {
  const layerOf = new Map<string, number>(owners.map((id) => [id, 0]))
  for (const id of entities) layerOf.set(id, 1)
  const below = new Map<string, string[]>()
  const waitingOn = new Map<string, number>(entities.map((id) => [id, 0]))
  for (const arc of arcs) {
    const upper = upperEnd(arc)
    listed(below, upper).push(lowerEnd(arc))
    waitingOn.set(lowerEnd(arc), waitingOn.get(lowerEnd(arc))! + 1)
  }
  const ready = [...owners, ...entities.filter((id) => waitingOn.get(id) === 0)]
  // The array grows while it is walked: for…of reads its length at every step.
  for (const upper of ready) {
    for (const lower of below.get(upper) ?? []) {
      layerOf.set(lower, Math.max(layerOf.get(lower)!, layerOf.get(upper)! + 1))
      const left = waitingOn.get(lower)! - 1
      waitingOn.set(lower, left)
      if (left === 0) ready.push(lower)
    }
  }
  return layerOf
}
