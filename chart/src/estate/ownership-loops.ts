// Ownership chains that loop (look-through rule 3). The records API refuses an entity that owns itself
// through a chain; a partner's payload might still carry one, and the look-through must neither hang
// nor count a value twice. A depth-first walk from each entity up to its holders, in payload order,
// finds the holder links that lead back to an entity still being walked (the back edges); without them
// the holders form no loop, and the order the walk finishes entities in puts every entity after the
// entities that hold it. Iterative, so a long chain cannot overflow the stack.
import type { EntityOwnership, Holder } from './ownership-shares.ts'

export interface OwnershipOrder {
  /** Every entity, each after all the entities that hold part of it (looping links aside). */
  readonly holdersFirst: readonly string[]
  /** The holder links that would loop back; their part stays with the held entity. */
  readonly looping: ReadonlySet<Holder>
}

export function orderOwnership(ownership: ReadonlyMap<string, EntityOwnership>): OwnershipOrder {
  const entityHolders = (id: string) => ownership.get(id)!.holders.filter((holder) => holder.is === 'entity')
  const walking = new Set<string>()
  const finished = new Set<string>()
  const holdersFirst: string[] = []
  const looping = new Set<Holder>()
  for (const start of ownership.keys()) {
    if (finished.has(start)) continue
    const path = [{ id: start, holders: entityHolders(start), next: 0 }]
    walking.add(start)
    while (path.length > 0) {
      const step = path[path.length - 1]!
      const holder = step.holders[step.next]
      if (holder === undefined) {
        walking.delete(step.id)
        finished.add(step.id)
        holdersFirst.push(step.id)
        path.pop()
        continue
      }
      step.next += 1
      if (walking.has(holder.id)) looping.add(holder)
      else if (!finished.has(holder.id)) {
        walking.add(holder.id)
        path.push({ id: holder.id, holders: entityHolders(holder.id), next: 0 })
      }
    }
  }
  return { holdersFirst, looping }
}
