// Where each node of an ordered layer sits across: every node pulled toward the mean centre of its
// neighbours in the layer above (going down) or below (going up), a few rounds each way, while the
// layer keeps its order and each pair its separation. A layer's placement is the least-squares fit
// to those wishes under the order (isotonic regression by pooling adjacent violators), so a node
// moves only as far as its neighbours in the layer let it.

export interface PlacementInput {
  /** Node numbers, layer by layer, in their drawing order. */
  readonly order: readonly (readonly number[])[]
  readonly width: (node: number) => number
  /** Least room between the right side of `left` and the left side of `right`. */
  readonly separation: (left: number, right: number) => number
  readonly above: ReadonlyMap<number, readonly number[]>
  readonly below: ReadonlyMap<number, readonly number[]>
}

const ROUNDS = 6

/** The left side of every node; the leftmost node of all is at 0. */
export function placeLayers(input: PlacementInput): number[] {
  const { order, width, above, below } = input
  const left: number[] = []
  for (const layer of order)
    placeLayer(
      layer,
      input,
      layer.map(() => 0),
      left,
    )
  const centre = (node: number) => left[node]! + width(node) / 2
  for (let round = 0; round < ROUNDS; round++) {
    const down = round % 2 === 0
    for (let step = 1; step < order.length; step++) {
      const layer = order[down ? step : order.length - 1 - step]!
      const wished = layer.map((node) => {
        const around = (down ? above : below).get(node) ?? []
        const target =
          around.length === 0 ? centre(node) : around.reduce((sum, n) => sum + centre(n), 0) / around.length
        return target - width(node) / 2
      })
      placeLayer(layer, input, wished, left)
    }
  }
  const leftmost = Math.min(...order.flat().map((node) => left[node]!))
  return left.map((x) => x - leftmost)
}

/** Sets `left` for the layer's nodes: as near their wished left sides as order and separation allow. */
function placeLayer(layer: readonly number[], input: PlacementInput, wished: readonly number[], left: number[]): void {
  // With offset[k] the least distance from the first node's left side to node k's, x[k] − offset[k]
  // must not decrease along the layer: pool adjacent blocks whose means are out of order.
  const offset: number[] = []
  layer.forEach((node, k) => {
    offset.push(k === 0 ? 0 : offset[k - 1]! + input.width(layer[k - 1]!) + input.separation(layer[k - 1]!, node))
  })
  const blocks: { sum: number; count: number }[] = []
  layer.forEach((_, k) => {
    blocks.push({ sum: wished[k]! - offset[k]!, count: 1 })
    while (blocks.length > 1) {
      const last = blocks[blocks.length - 1]!
      const before = blocks[blocks.length - 2]!
      if (before.sum / before.count <= last.sum / last.count) break
      blocks.pop()
      before.sum += last.sum
      before.count += last.count
    }
  })
  let k = 0
  for (const block of blocks) {
    for (let n = 0; n < block.count; n++, k++) left[layer[k]!] = block.sum / block.count + offset[k]!
  }
}
