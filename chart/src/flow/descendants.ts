// Who takes "equally to the children, the share of a child who died before passing to that child's
// children" (per stirpes): each child of the decedent who is living, or who died leaving descendants,
// is one branch with an equal share; a branch whose child died splits the same way among that child's
// children, down the generations. Children are by parent relationships that are biological, adopted
// or of unstated kind: step and foster children do not inherit by default. A child who died leaving
// no one takes nothing, so the others' shares grow.
import type { Payload } from '../../payload.ts'

export interface Taker {
  readonly id: string
  /** The taker's share of the whole, in (0, 1]; the takers' shares add up to 1. */
  readonly share: number
}

const INHERITING_KINDS: ReadonlySet<string | undefined> = new Set([undefined, 'biological', 'adopted'])

/** The decedent's descendants by branch (none when they have no living descendant). */
export function descendantsByBranch(payload: Payload, decedentId: string): Taker[] {
  const living = new Set(payload.people.filter((person) => person.deathDate === undefined).map((person) => person.id))
  const childrenOf = new Map<string, string[]>()
  for (const relationship of payload.relationships ?? []) {
    if (relationship.type !== 'parent' || !INHERITING_KINDS.has(relationship.parentKind)) continue
    const children = childrenOf.get(relationship.from) ?? []
    children.push(relationship.to)
    childrenOf.set(relationship.from, children)
  }
  // The payload rules refuse parent cycles, so the descent ends; `seen` guards a payload that skipped them.
  const seen = new Set<string>([decedentId])
  const branch = (personId: string): Taker[] => {
    const branches: Taker[][] = []
    for (const child of childrenOf.get(personId) ?? []) {
      if (seen.has(child)) continue
      seen.add(child)
      const takers = living.has(child) ? [{ id: child, share: 1 }] : branch(child)
      if (takers.length > 0) branches.push(takers)
    }
    return branches.flatMap((takers) => takers.map((taker) => ({ id: taker.id, share: taker.share / branches.length })))
  }
  return branch(decedentId)
}
