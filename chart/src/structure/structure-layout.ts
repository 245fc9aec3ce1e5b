// The Structure view's geometry: entities and holdings as an ownership graph, pure (no DOM), in CSS px
// at zoom 1. Ownership links (owner and partner) are the only lines: top-down from holder to held,
// layered by ownership depth (ownership-graph.ts), ordered against crossings (layer-order.ts) and
// placed (layer-positions.ts), each labelled with its share. Control and benefit are listed on the
// cards (structure-cards.ts). People who only control or benefit, and parties (a corporate trustee,
// an attorney's firm), stand apart to the right, in columns: they hold nothing that a line could show.
//
// Routing: rows are separated by a gap whose lower STUB_HEIGHT px is a band of vertical stubs into
// the boxes below, with each share label beside its stub; above that band arcs run straight. An arc
// spanning several layers goes through a dummy slot in each layer between, where it runs vertically;
// slots and boxes never overlap, so no line passes through a box, and two arcs can cross only in the
// straight part of a gap, which is what the ordering counts.
import { isParty } from '../../../src/domain/estate-vocabulary.ts'
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { householdLabeller } from '../estate/summary-names.ts'
import { shareText } from '../estate/summary-percent.ts'
import { placeLayers } from './layer-positions.ts'
import { orderLayers, type LayerArc } from './layer-order.ts'
import { listed } from './listed.ts'
import { lowerEnd, ownershipGraph, upperEnd, type OwnershipArc } from './ownership-graph.ts'
import {
  CARD_PADDING,
  entityCard,
  partyCard,
  personCard,
  TEXT_SIZE,
  type Card,
  type CardLine,
  type MeasureStyled,
} from './structure-cards.ts'
import type { StructureInput } from './structure-input.ts'
import { currencyPrefix } from './structure-values.ts'

export type Point = readonly [number, number]

export interface StructureOptions {
  readonly measure: MeasureStyled
}

export interface StructureText extends CardLine {
  readonly x: number
  /** Baseline, from the top of the layout. */
  readonly y: number
  /** The room the text has: its measured width is at most this. */
  readonly maxWidth: number
}

export interface StructureBox {
  readonly id: string
  readonly is: Card['is']
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  /** Ownership layer (0: people who own); null for a box drawn apart. */
  readonly layer: number | null
  readonly texts: readonly StructureText[]
  readonly title: string
}

export interface StructureEdge {
  /** The ownership link's index in the input's links. */
  readonly linkIndex: number
  /** The holder. */
  readonly from: string
  /** The entity held. */
  readonly to: string
  readonly type: string
  readonly share?: number
  /** The link closes an ownership loop and is drawn upward: the points run from `to` to `from`. */
  readonly reversed: boolean
  /** From the upper box's bottom to the lower box's top. */
  readonly points: readonly Point[]
}

export interface StructureLabel {
  /** The edge's index in `edges`. */
  readonly edge: number
  readonly text: string
  readonly sizePx: number
  /** The label's box: left, top, width and height; its baseline is at y + BASELINE. */
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  readonly baseline: number
}

export interface StructureLayout {
  readonly width: number
  readonly height: number
  readonly boxes: readonly StructureBox[]
  readonly edges: readonly StructureEdge[]
  readonly labels: readonly StructureLabel[]
}

const MARGIN = 24
const BOX_GAP = 32
const SLOT_GAP = 14
const STUB_HEIGHT = 20
const STRAIGHT_HEIGHT = 44
const LABEL_GAP = 4
const LABEL_HEIGHT = 15
const APART_GAP = 64
const APART_ROW_GAP = 16
/** Columns of the apart region grow down to at least this many px before a new one starts. */
const APART_MIN_HEIGHT = 360

/** "unstated" for a link that gives no share: the look-through splits what the others leave, but the link does not say. */
function shareLabel(share: number | undefined): string {
  return share === undefined ? 'unstated' : shareText(share)
}

export function layoutStructure(input: StructureInput, options: StructureOptions): StructureLayout {
  const { measure } = options
  const graph = ownershipGraph(input)
  const look = lookThroughEstate(input)
  const context = { input, measure, label: householdLabeller(input) }
  const prefix = currencyPrefix(input.household?.currency)
  const labelWidth = (arc: OwnershipArc) => Math.ceil(measure(shareLabel(arc.share), TEXT_SIZE, false))

  // Each lower box gives every arc into it a slot wide enough for its label beside the stub.
  const intoBox = new Map<string, OwnershipArc[]>()
  for (const arc of graph.arcs) listed(intoBox, lowerEnd(arc)).push(arc)
  const slotWidth = (id: string) =>
    Math.max(0, ...(intoBox.get(id) ?? []).map((arc) => labelWidth(arc) + 2 * LABEL_GAP))
  const portsWidth = (id: string) => slotWidth(id) * (intoBox.get(id)?.length ?? 0) + 2 * CARD_PADDING

  const people = new Map(input.people.map((p) => [p.id, p]))
  const entities = new Map((input.entities ?? []).map((e) => [e.id, e]))
  const cards = new Map<string, Card>()
  for (const id of graph.owners) cards.set(id, personCard(people.get(id)!, context, 0))
  for (const id of graph.entities)
    cards.set(id, entityCard(entities.get(id)!, look.entities.get(id)!, prefix, context, portsWidth(id)))

  // Nodes: the graph's records, then one dummy per arc and layer it passes through.
  const records = [...graph.owners, ...graph.entities]
  const layerCount = Math.max(0, ...records.map((id) => graph.layerOf.get(id)! + 1))
  const nodeOf = new Map(records.map((id, k) => [id, k]))
  const nodeWidth: number[] = records.map((id) => cards.get(id)!.width)
  const layers: number[][] = Array.from({ length: layerCount }, () => [])
  records.forEach((id, k) => layers[graph.layerOf.get(id)!]!.push(k))
  const strips: LayerArc[][] = Array.from({ length: Math.max(0, layerCount - 1) }, () => [])
  const chains = graph.arcs.map((arc) => {
    const top = graph.layerOf.get(upperEnd(arc))!
    const bottom = graph.layerOf.get(lowerEnd(arc))!
    const chain = [nodeOf.get(upperEnd(arc))!]
    for (let layer = top + 1; layer < bottom; layer++) {
      const dummy = nodeWidth.length
      nodeWidth.push(0)
      layers[layer]!.push(dummy)
      chain.push(dummy)
    }
    chain.push(nodeOf.get(lowerEnd(arc))!)
    chain.slice(1).forEach((lower, k) => strips[top + k]!.push({ upper: chain[k]!, lower }))
    return chain
  })
  const order = orderLayers(layers, strips)
  const above = new Map<number, number[]>()
  const below = new Map<number, number[]>()
  for (const { upper, lower } of strips.flat()) {
    listed(below, upper).push(lower)
    listed(above, lower).push(upper)
  }
  const isDummy = (node: number) => node >= records.length
  const left = placeLayers({
    order,
    width: (node) => nodeWidth[node]!,
    separation: (a, b) => (isDummy(a) || isDummy(b) ? SLOT_GAP : BOX_GAP),
    above,
    below,
  })
  const x = (node: number) => MARGIN + left[node]!

  // Rows: each as tall as its tallest card; an empty top row (nobody owns directly) takes no room.
  const rowTop: number[] = []
  const rowBottom: number[] = []
  let y = MARGIN
  for (const layer of order) {
    const height = Math.max(0, ...layer.filter((n) => !isDummy(n)).map((n) => cards.get(records[n]!)!.height))
    if (y > MARGIN) y += STRAIGHT_HEIGHT + STUB_HEIGHT
    rowTop.push(y)
    rowBottom.push(y + height)
    y += height
  }

  const boxes: StructureBox[] = records.map((id, node) =>
    placedBox(cards.get(id)!, x(node), rowTop[graph.layerOf.get(id)!]!, graph.layerOf.get(id)!),
  )

  // Ports: out of a box's bottom spread evenly, into a box's top one label slot each, both in the
  // order of the arcs' other ends, so that arcs sharing a box never cross each other.
  const centre = (node: number) => x(node) + nodeWidth[node]! / 2
  const outPort = new Map<number, number>()
  const inPort = new Map<number, number>()
  const arcsAt = (end: 'first' | 'last') => {
    const byNode = new Map<number, number[]>()
    chains.forEach((chain, k) => {
      const node = end === 'first' ? chain[0]! : chain[chain.length - 1]!
      listed(byNode, node).push(k)
    })
    return byNode
  }
  for (const [node, ks] of arcsAt('first')) {
    ks.sort((a, b) => centre(chains[a]![1]!) - centre(chains[b]![1]!) || a - b)
    ks.forEach((k, i) => outPort.set(k, x(node) + (nodeWidth[node]! * (i + 1)) / (ks.length + 1)))
  }
  for (const [node, ks] of arcsAt('last')) {
    ks.sort((a, b) => centre(chains[a]!.at(-2)!) - centre(chains[b]!.at(-2)!) || a - b)
    const slot = slotWidth(records[node]!)
    const start = x(node) + (nodeWidth[node]! - slot * ks.length) / 2
    ks.forEach((k, i) => inPort.set(k, start + slot * i + LABEL_GAP))
  }

  const edges: StructureEdge[] = []
  const labels: StructureLabel[] = []
  graph.arcs.forEach((arc, k) => {
    const chain = chains[k]!
    const top = graph.layerOf.get(upperEnd(arc))!
    const upperBox = boxes[chain[0]!]!
    const from = outPort.get(k)!
    const into = inPort.get(k)!
    const points: Point[] = [
      [from, upperBox.y + upperBox.h],
      [from, rowBottom[top]!],
    ]
    chain.slice(1, -1).forEach((dummy, d) => {
      points.push([centre(dummy), rowTop[top + 1 + d]! - STUB_HEIGHT], [centre(dummy), rowBottom[top + 1 + d]!])
    })
    const bottom = top + chain.length - 1
    points.push([into, rowTop[bottom]! - STUB_HEIGHT], [into, rowTop[bottom]!])
    edges.push({
      linkIndex: arc.linkIndex,
      from: arc.from,
      to: arc.to,
      type: arc.type,
      ...(arc.share === undefined ? {} : { share: arc.share }),
      reversed: arc.reversed,
      points: withoutRepeats(points),
    })
    labels.push({
      edge: k,
      text: shareLabel(arc.share),
      sizePx: TEXT_SIZE,
      x: into + LABEL_GAP,
      y: rowTop[bottom]! - STUB_HEIGHT + (STUB_HEIGHT - LABEL_HEIGHT) / 2,
      w: labelWidth(arc),
      h: LABEL_HEIGHT,
      baseline: LABEL_HEIGHT - 4,
    })
  })

  const graphRight = Math.max(MARGIN, ...boxes.map((b) => b.x + b.w))
  const graphBottom = Math.max(MARGIN, ...boxes.map((b) => b.y + b.h))
  boxes.push(
    ...apartBoxes(
      input,
      graph.owners,
      context,
      graphRight + (boxes.length > 0 ? APART_GAP : 0),
      Math.max(graphBottom, MARGIN + APART_MIN_HEIGHT),
    ),
  )
  return {
    width: Math.ceil(Math.max(MARGIN, ...boxes.map((b) => b.x + b.w), ...labels.map((l) => l.x + l.w)) + MARGIN),
    height: Math.ceil(Math.max(MARGIN, ...boxes.map((b) => b.y + b.h)) + MARGIN),
    boxes,
    edges,
    labels,
  }
}

/** People who control or benefit but own nothing, then parties: in columns from `left`, down to `bottom`. */
function apartBoxes(
  input: StructureInput,
  owners: readonly string[],
  context: Parameters<typeof personCard>[1],
  left: number,
  bottom: number,
): StructureBox[] {
  const ownerSet = new Set(owners)
  const entityIds = new Set((input.entities ?? []).map((e) => e.id))
  const linked = new Set((input.links ?? []).filter((l) => entityIds.has(l.to)).map((l) => l.from))
  const cards = [
    ...input.people.filter((p) => linked.has(p.id) && !ownerSet.has(p.id)).map((p) => personCard(p, context, 0)),
    ...(input.entities ?? []).filter((e) => isParty(e.kind)).map((e) => partyCard(e, context, 0)),
  ]
  const boxes: StructureBox[] = []
  let column: Card[] = []
  let columnLeft = left
  let y = MARGIN
  const closeColumn = () => {
    columnLeft += Math.max(0, ...column.map((c) => c.width)) + BOX_GAP
    column = []
    y = MARGIN
  }
  for (const card of cards) {
    if (column.length > 0 && y + card.height > bottom) closeColumn()
    boxes.push(placedBox(card, columnLeft, y, null))
    column.push(card)
    y += card.height + APART_ROW_GAP
  }
  return boxes
}

function placedBox(card: Card, left: number, top: number, layer: number | null): StructureBox {
  return {
    id: card.id,
    is: card.is,
    x: left,
    y: top,
    w: card.width,
    h: card.height,
    layer,
    texts: card.lines.map((line) => ({
      ...line,
      x: left + CARD_PADDING,
      y: top + line.baseline,
      maxWidth: card.width - 2 * CARD_PADDING,
    })),
    title: card.title,
  }
}

function withoutRepeats(points: readonly Point[]): Point[] {
  return points.filter((p, k) => k === 0 || p[0] !== points[k - 1]![0] || p[1] !== points[k - 1]![1])
}
