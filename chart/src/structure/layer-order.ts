// The order of nodes within each layer, chosen to keep the arcs between adjacent layers from
// crossing: barycenter sweeps (each node sorted by the mean position of its neighbours in the layer
// just placed, a few passes down and up), the best order seen kept, then adjacent swaps while a swap
// removes crossings. Arcs join adjacent layers only (longer ones go through a dummy node per layer),
// and two arcs cross exactly when their ends are in opposite orders above and below; arcs that share
// a node do not cross (the drawing gives each its own port, in order). Every loop here is bounded:
// the sweeps by a fixed count, the swaps by the crossings, which each swap lowers.

/** An arc from a node in layer i (upper) to a node in layer i + 1 (lower); nodes are numbered. */
export interface LayerArc {
  readonly upper: number
  readonly lower: number
}

import { listed } from './listed.ts'

const SWEEPS = 8

/**
 * Crossings among arcs between two adjacent layers, given each node's position in its layer: with the
 * arcs sorted by upper then lower position, the pairs whose lower positions are strictly out of order,
 * counted with a Fenwick tree (arcs sharing an end are never out of order, so never counted).
 */
function stripCrossings(arcs: readonly LayerArc[], position: readonly number[]): number {
  const ends = arcs
    .map((arc) => ({ upper: position[arc.upper]!, lower: position[arc.lower]! }))
    .sort((a, b) => a.upper - b.upper || a.lower - b.lower)
  const size = Math.max(0, ...ends.map((end) => end.lower)) + 1
  const tree = new Array<number>(size + 1).fill(0)
  let crossings = 0
  ends.forEach(({ lower }, seen) => {
    // Arcs seen so far whose lower end is at or left of this one's: the rest cross it.
    let atOrLeft = 0
    for (let i = lower + 1; i > 0; i -= i & -i) atOrLeft += tree[i]!
    crossings += seen - atOrLeft
    for (let i = lower + 1; i <= size; i += i & -i) tree[i]! += 1
  })
  return crossings
}

/** Crossings of the arcs of every strip (strip i joins layer i and layer i + 1). */
function layeredCrossings(order: readonly (readonly number[])[], strips: readonly (readonly LayerArc[])[]): number {
  const position = positionsOf(order)
  return strips.reduce((sum, arcs) => sum + stripCrossings(arcs, position), 0)
}

function positionsOf(order: readonly (readonly number[])[]): number[] {
  const position: number[] = []
  for (const layer of order) layer.forEach((node, k) => (position[node] = k))
  return position
}

/**
 * The order of each layer (`layers[i]`: the nodes of layer i in their starting order) that the sweeps
 * and swaps reach; `strips[i]` are the arcs between layer i and layer i + 1.
 */
export function orderLayers(
  layers: readonly (readonly number[])[],
  strips: readonly (readonly LayerArc[])[],
): number[][] {
  const above = new Map<number, number[]>()
  const below = new Map<number, number[]>()
  for (const arcs of strips) {
    for (const { upper, lower } of arcs) {
      listed(below, upper).push(lower)
      listed(above, lower).push(upper)
    }
  }
  let order = layers.map((layer) => [...layer])
  let best = order.map((layer) => [...layer])
  let bestCrossings = layeredCrossings(best, strips)
  for (let sweep = 0; sweep < SWEEPS && bestCrossings > 0; sweep++) {
    const down = sweep % 2 === 0
    for (let step = 1; step < order.length; step++) {
      const i = down ? step : order.length - 1 - step
      const fixed = down ? i - 1 : i + 1
      order[i] = byBarycenter(order[i]!, positionsOf([order[fixed]!]), down ? above : below)
    }
    const crossings = layeredCrossings(order, strips)
    if (crossings < bestCrossings) {
      bestCrossings = crossings
      best = order.map((layer) => [...layer])
    }
  }
  order = best
  swapWhileBetter(order, above, below)
  return order
}

/** The layer sorted by the mean position of each node's neighbours; a node without any keeps its place. */
function byBarycenter(
  layer: readonly number[],
  fixedPosition: readonly number[],
  neighbours: ReadonlyMap<number, number[]>,
): number[] {
  const key = layer.map((node, k) => {
    const around = neighbours.get(node) ?? []
    return around.length === 0 ? k : around.reduce((sum, n) => sum + fixedPosition[n]!, 0) / around.length
  })
  return layer
    .map((node, k) => ({ node, key: key[k]!, k }))
    .sort((a, b) => a.key - b.key || a.k - b.k)
    .map((e) => e.node)
}

/** Crossings between the arcs of `left` and those of `right` (left placed first), with neighbours on one side. */
function pairCrossings(
  left: number,
  right: number,
  neighbours: ReadonlyMap<number, number[]>,
  position: readonly number[],
): number {
  let crossings = 0
  for (const a of neighbours.get(left) ?? [])
    for (const b of neighbours.get(right) ?? []) if (position[a]! > position[b]!) crossings++
  return crossings
}

/** Swaps adjacent nodes while a swap lowers the crossings with the layers above and below. */
function swapWhileBetter(
  order: number[][],
  above: ReadonlyMap<number, number[]>,
  below: ReadonlyMap<number, number[]>,
): void {
  let improved = true
  while (improved) {
    improved = false
    const position = positionsOf(order)
    for (const layer of order) {
      for (let k = 0; k + 1 < layer.length; k++) {
        const left = layer[k]!
        const right = layer[k + 1]!
        const kept = pairCrossings(left, right, above, position) + pairCrossings(left, right, below, position)
        const swapped = pairCrossings(right, left, above, position) + pairCrossings(right, left, below, position)
        if (swapped < kept) {
          layer[k] = right
          layer[k + 1] = left
          position[left] = k + 1
          position[right] = k
          improved = true
        }
      }
    }
  }
}
