// The link lines the 0.2.0 chart draws: only the focused node's, so that the parallel bundles of
// every link at once go away. For a person, the links they are part of; for an entity, those and
// its whole ownership chain, up (who owns it, who owns them…) and down (what it owns, and what that
// owns…). Also the ids the other views highlight. Cycle-safe: a partner's payload may hold an
// ownership loop (payload 0.1.x does not refuse one), and each entity is walked at most once.
import { OWNING_LINK_TYPES } from '../../../src/domain/estate-vocabulary.ts'
import type { SummaryHousehold, SummaryLink } from './summary-input.ts'

export interface Focus<L extends SummaryLink> {
  /** The links to draw, in the payload's order, each once. */
  readonly links: readonly L[]
  /** The focused id and every id at either end of a drawn link. */
  readonly highlighted: ReadonlySet<string>
}

/** The owning links' indexes by the id at one end: `to` for walking up, `from` for walking down. */
function owningLinksBy(links: readonly SummaryLink[], end: 'from' | 'to'): Map<string, number[]> {
  const index = new Map<string, number[]>()
  links.forEach((l, i) => {
    if (!OWNING_LINK_TYPES.has(l.type)) return
    const list = index.get(l[end])
    if (list) list.push(i)
    else index.set(l[end], [i])
  })
  return index
}

/** Follows owning links from `start` (up: to → from; down: from → to), adding each link met to `drawn`. */
function walkOwnership(links: readonly SummaryLink[], start: string, direction: 'up' | 'down', drawn: Set<number>) {
  const [near, far] = direction === 'up' ? (['to', 'from'] as const) : (['from', 'to'] as const)
  const byNear = owningLinksBy(links, near)
  const visited = new Set<string>([start])
  const pending = [start]
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const i of byNear.get(id) ?? []) {
      drawn.add(i)
      const next = links[i]![far]
      if (!visited.has(next)) {
        visited.add(next)
        pending.push(next)
      }
    }
  }
}

/** What to draw and highlight when `focusId` is focused; nothing for an id the household does not have. */
export function focusOn<L extends SummaryLink>(
  household: SummaryHousehold & { readonly links?: readonly L[] },
  focusId: string,
): Focus<L> {
  const links = household.links ?? []
  const isEntity = household.entities?.some((e) => e.id === focusId) ?? false
  const isPerson = household.people.some((p) => p.id === focusId)
  if (!isEntity && !isPerson) return { links: [], highlighted: new Set() }
  const drawn = new Set<number>()
  links.forEach((l, index) => {
    if (l.from === focusId || l.to === focusId) drawn.add(index)
  })
  if (isEntity) {
    walkOwnership(links, focusId, 'up', drawn)
    walkOwnership(links, focusId, 'down', drawn)
  }
  const shown = [...drawn].sort((a, b) => a - b).map((index) => links[index]!)
  const highlighted = new Set<string>([focusId])
  for (const l of shown) {
    highlighted.add(l.from)
    highlighted.add(l.to)
  }
  return { links: shown, highlighted }
}
