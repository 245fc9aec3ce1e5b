// Orthogonal routes for the Structure view's focus lines (structure-focus.ts), pure: a line leaves
// its card from the middle of a side, runs only along free channels — the room around every card
// (OFFSET px out from each side), the gaps between rows and columns and the drawing's margins — and
// enters the other card from the middle of one of its sides. Routes are found on the grid those
// channels make (a shortest path, Dijkstra): a grid piece that would pass through a card is not
// there at all, so no route passes through one; crossing an ownership line, or a focus line already
// routed, costs far more than any detour, so a line crosses one only when no detour exists, and
// running along a line already routed costs no crossing (it crosses at the same points), so the
// lines of one card bundle where they must cross; running on top of an ownership line costs more
// than crossing one (it would read as that line); a bend costs a little, so of equal routes the
// straighter wins.
import type { Point, StructureBox } from './structure-layout.ts'

/** How far out from a card's side its channel runs: inside every gap the layout leaves (≥ 14 px). */
const OFFSET = 6
/** Room kept from a margin's edge: the layout's margin is 24 px. */
const EDGE = 12
const CROSSING_COST = 10_000
/** Running on top of an ownership line would read as that line: worse than crossing one. */
const OVERLAP_COST = 2 * CROSSING_COST
const BEND_COST = 24
/** Closer than this counts as touching, not crossing. */
const EPS = 0.5

type Segment = readonly [Point, Point]
type Side = 0 | 1 | 2 | 3 // left, right, top, bottom

const sortedUnique = (values: number[]) => [...new Set(values.map((v) => Math.round(v * 2) / 2))].sort((a, b) => a - b)

/** The number of values strictly between low and high in a sorted array. */
function countBetween(sorted: readonly number[], low: number, high: number): number {
  const firstAbove = (v: number) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sorted[mid]! <= v) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return Math.max(0, firstAbove(high - EPS) - firstAbove(low + EPS))
}

/** Where each non-parallel segment meets the line coordinate `axis` = `at`, strictly inside it. */
function meetings(segments: readonly Segment[], axis: 0 | 1, at: number): number[] {
  const other = axis === 0 ? 1 : 0
  const out: number[] = []
  for (const [a, b] of segments) {
    const low = Math.min(a[axis], b[axis])
    const high = Math.max(a[axis], b[axis])
    if (!(low + EPS < at && at < high - EPS)) continue
    const t = (at - a[axis]) / (b[axis] - a[axis])
    out.push(a[other] + t * (b[other] - a[other]))
  }
  return out.sort((p, q) => p - q)
}

export interface FocusRouter {
  /** An orthogonal route from `from`'s border to `to`'s border; it is then an obstacle to cross for later routes. */
  route(from: StructureBox, to: StructureBox): Point[]
}

/**
 * A router over `boxes` (the cards, none to pass through), `lines` (the ownership lines' points,
 * to cross as little as possible) in a drawing `width` × `height`. `ends` are the cards routes
 * will join: their sides' middles are added to the grid.
 */
export function focusRouter(
  boxes: readonly StructureBox[],
  lines: readonly (readonly Point[])[],
  width: number,
  height: number,
  ends: readonly StructureBox[],
): FocusRouter {
  const xs = sortedUnique([
    EDGE,
    width - EDGE,
    ...boxes.flatMap((b) => [b.x - OFFSET, b.x + b.w + OFFSET]),
    ...ends.map((b) => b.x + b.w / 2),
  ])
  const ys = sortedUnique([
    EDGE,
    height - EDGE,
    ...boxes.flatMap((b) => [b.y - OFFSET, b.y + b.h + OFFSET]),
    ...ends.map((b) => b.y + b.h / 2),
  ])
  const ny = ys.length
  const ownership: Segment[] = lines.flatMap((points) => points.slice(1).map((p, k): Segment => [points[k]!, p]))
  const rowMeetings = ys.map((y) => meetings(ownership, 1, y))
  const columnMeetings = xs.map((x) => meetings(ownership, 0, x))
  // The ownership lines' straight runs along each grid line, as [low, high] ranges on it.
  const runs = (axis: 0 | 1, at: number) =>
    ownership
      .filter(([p, q]) => p[axis] === q[axis] && Math.abs(p[axis] - at) <= EPS)
      .map(([p, q]): [number, number] => [Math.min(p[1 - axis]!, q[1 - axis]!), Math.max(p[1 - axis]!, q[1 - axis]!)])
  const rowRuns = ys.map((y) => runs(1, y))
  const columnRuns = xs.map((x) => runs(0, x))
  const overlapping = (ranges: readonly [number, number][], low: number, high: number) =>
    ranges.some(([from, to]) => Math.min(to, high) - Math.max(from, low) > EPS)
  const inside = (b: StructureBox, axis: 0 | 1, at: number) =>
    axis === 0 ? b.x + EPS < at && at < b.x + b.w - EPS : b.y + EPS < at && at < b.y + b.h - EPS
  const rowBoxes = ys.map((y) => boxes.filter((b) => inside(b, 1, y)))
  const columnBoxes = xs.map((x) => boxes.filter((b) => inside(b, 0, x)))
  const routed: Segment[] = []

  /** Whether the piece along row j from xs[i] to xs[i+1] (or column i from ys[j] to ys[j+1]) is free of cards. */
  const freeAlong = (axis: 0 | 1, line: number, low: number, high: number) => {
    const blockers = axis === 0 ? rowBoxes[line]! : columnBoxes[line]!
    return !blockers.some((b) =>
      axis === 0 ? b.x < high - EPS && b.x + b.w > low + EPS : b.y < high - EPS && b.y + b.h > low + EPS,
    )
  }
  const focusCrossings = (a: Point, b: Point) => {
    let count = 0
    for (const [p, q] of routed) {
      const horizontal = a[1] === b[1]
      if (horizontal === (p[1] === q[1])) continue
      const [h1, h2, v1, v2] = horizontal ? [a, b, p, q] : [p, q, a, b]
      const x = v1[0]
      const y = h1[1]
      const inH = Math.min(h1[0], h2[0]) + EPS < x && x < Math.max(h1[0], h2[0]) - EPS
      const inV = Math.min(v1[1], v2[1]) + EPS < y && y < Math.max(v1[1], v2[1]) - EPS
      if (inH && inV) count++
    }
    return count
  }

  /** Whether the grid piece from a to b lies on a line already routed. */
  const alongRouted = (a: Point, b: Point) =>
    routed.some(([p, q]) =>
      a[1] === b[1]
        ? p[1] === q[1] &&
          p[1] === a[1] &&
          Math.min(p[0], q[0]) <= Math.min(a[0], b[0]) &&
          Math.max(a[0], b[0]) <= Math.max(p[0], q[0])
        : p[0] === q[0] &&
          p[0] === a[0] &&
          Math.min(p[1], q[1]) <= Math.min(a[1], b[1]) &&
          Math.max(a[1], b[1]) <= Math.max(p[1], q[1]),
    )

  /**
   * What a route going straight through grid node (i, j) crosses there: the lines the grid pieces
   * either side of it do not count, as the node is an end of both. (A route that turns at a node
   * only meets what passes through it, or runs on with it.)
   */
  const crossingsAt = (i: number, j: number, horizontal: boolean) => {
    const [x, y] = [xs[i]!, ys[j]!]
    const meetingsThere = (horizontal ? rowMeetings[j]! : columnMeetings[i]!).filter(
      (at) => Math.abs(at - (horizontal ? x : y)) <= EPS,
    ).length
    const routedThere = routed.filter(([p, q]) =>
      horizontal
        ? p[0] === q[0] && Math.abs(p[0] - x) <= EPS && Math.min(p[1], q[1]) + EPS < y && y < Math.max(p[1], q[1]) - EPS
        : p[1] === q[1] &&
          Math.abs(p[1] - y) <= EPS &&
          Math.min(p[0], q[0]) + EPS < x &&
          x < Math.max(p[0], q[0]) - EPS,
    ).length
    return meetingsThere + routedThere
  }

  const indexOf = (values: readonly number[], v: number) => values.indexOf(Math.round(v * 2) / 2)
  /** The middle of each side of a card, and the grid node just out from it. */
  const ports = (b: StructureBox): { side: Side; port: Point; node: number }[] => {
    const cx = b.x + b.w / 2
    const cy = b.y + b.h / 2
    const out: [Side, Point, number, number][] = [
      [0, [b.x, cy], indexOf(xs, b.x - OFFSET), indexOf(ys, cy)],
      [1, [b.x + b.w, cy], indexOf(xs, b.x + b.w + OFFSET), indexOf(ys, cy)],
      [2, [cx, b.y], indexOf(xs, cx), indexOf(ys, b.y - OFFSET)],
      [3, [cx, b.y + b.h], indexOf(xs, cx), indexOf(ys, b.y + b.h + OFFSET)],
    ]
    return out.filter(([, , i, j]) => i >= 0 && j >= 0).map(([side, port, i, j]) => ({ side, port, node: i * ny + j }))
  }

  function route(from: StructureBox, to: StructureBox): Point[] {
    const states = xs.length * ny * 4
    const cost = new Float64Array(states).fill(Infinity)
    const previous = new Int32Array(states).fill(-1)
    const heap = new MinHeap()
    for (const { side, node } of ports(from)) {
      const state = node * 4 + sideDirection(side)
      cost[state] = OFFSET
      heap.push(state, OFFSET)
    }
    const targets = new Map(ports(to).map((p) => [p.node, p]))
    let reached = -1
    while (heap.size > 0) {
      const [state, c] = heap.pop()
      if (c > cost[state]!) continue
      const node = state >> 2
      if (targets.has(node)) {
        reached = state
        break
      }
      const direction = state & 3
      const i = Math.floor(node / ny)
      const j = node % ny
      for (let d = 0; d < 4; d++) {
        const [ni, nj] = [i + STEP[d]![0], j + STEP[d]![1]]
        if (ni < 0 || nj < 0 || ni >= xs.length || nj >= ny) continue
        const a: Point = [xs[i]!, ys[j]!]
        const b: Point = [xs[ni]!, ys[nj]!]
        const horizontal = d < 2
        const free = horizontal
          ? freeAlong(0, j, Math.min(a[0], b[0]), Math.max(a[0], b[0]))
          : freeAlong(1, i, Math.min(a[1], b[1]), Math.max(a[1], b[1]))
        if (!free) continue
        // Along a line already routed, what it crosses is crossed there already: the same points.
        const along = alongRouted(a, b)
        const straight = d === direction
        const before: Point = straight ? [xs[i - STEP[d]![0]]!, ys[j - STEP[d]![1]]!] : a
        const crossings =
          (along
            ? 0
            : (horizontal
                ? countBetween(rowMeetings[j]!, Math.min(a[0], b[0]), Math.max(a[0], b[0]))
                : countBetween(columnMeetings[i]!, Math.min(a[1], b[1]), Math.max(a[1], b[1]))) +
              focusCrossings(a, b)) +
          (straight && !(along && alongRouted(before, a)) ? crossingsAt(i, j, horizontal) : 0)
        const overlaps = horizontal
          ? overlapping(rowRuns[j]!, Math.min(a[0], b[0]), Math.max(a[0], b[0]))
          : overlapping(columnRuns[i]!, Math.min(a[1], b[1]), Math.max(a[1], b[1]))
        const next = (ni * ny + nj) * 4 + d
        const total =
          c +
          Math.abs(b[0] - a[0]) +
          Math.abs(b[1] - a[1]) +
          crossings * CROSSING_COST +
          (overlaps ? OVERLAP_COST : 0) +
          (straight ? 0 : BEND_COST)
        if (total < cost[next]!) {
          cost[next] = total
          previous[next] = state
          heap.push(next, total)
        }
      }
    }
    if (reached < 0) return []
    const nodes: Point[] = []
    for (let s = reached; s >= 0; s = previous[s]!) {
      const node = s >> 2
      nodes.push([xs[Math.floor(node / ny)]!, ys[node % ny]!])
    }
    nodes.reverse()
    const start = ports(from).find((p) => p.node === reachedStart(reached, previous))!
    const end = targets.get(reached >> 2)!
    const points = corners([start.port, ...nodes, end.port])
    points.slice(1).forEach((p, k) => routed.push([points[k]!, p]))
    return points
  }

  return { route }
}

/** The direction (as STEP indexes it) of leaving a card through `side`. */
const sideDirection = (side: Side) => [1, 0, 3, 2][side]!
/** Grid steps: +x, −x, +y, −y. */
const STEP = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const

function reachedStart(state: number, previous: Int32Array): number {
  let s = state
  while (previous[s]! >= 0) s = previous[s]!
  return s >> 2
}

/** The points where the route turns: the grid nodes it runs straight through are dropped. */
function corners(points: readonly Point[]): Point[] {
  const out: Point[] = []
  for (const p of points) {
    const last = out.at(-1)
    if (last?.[0] === p[0] && last[1] === p[1]) continue
    const before = out.at(-2)
    if (before !== undefined && last !== undefined) {
      const straight = (before[0] === last[0] && last[0] === p[0]) || (before[1] === last[1] && last[1] === p[1])
      if (straight) out.pop()
    }
    out.push(p)
  }
  return out
}

/** A binary min-heap of states by cost. */
class MinHeap {
  private readonly states: number[] = []
  private readonly costs: number[] = []
  get size(): number {
    return this.states.length
  }
  push(state: number, cost: number): void {
    this.states.push(state)
    this.costs.push(cost)
    let k = this.states.length - 1
    while (k > 0) {
      const parent = (k - 1) >> 1
      if (this.costs[parent]! <= this.costs[k]!) break
      this.swap(k, parent)
      k = parent
    }
  }
  pop(): [number, number] {
    const top: [number, number] = [this.states[0]!, this.costs[0]!]
    const lastState = this.states.pop()!
    const lastCost = this.costs.pop()!
    if (this.states.length > 0) {
      this.states[0] = lastState
      this.costs[0] = lastCost
      let k = 0
      for (;;) {
        const l = 2 * k + 1
        const r = l + 1
        let least = k
        if (l < this.states.length && this.costs[l]! < this.costs[least]!) least = l
        if (r < this.states.length && this.costs[r]! < this.costs[least]!) least = r
        if (least === k) break
        this.swap(k, least)
        k = least
      }
    }
    return top
  }
  private swap(a: number, b: number): void {
    ;[this.states[a], this.states[b]] = [this.states[b]!, this.states[a]!]
    ;[this.costs[a], this.costs[b]] = [this.costs[b]!, this.costs[a]!]
  }
}
