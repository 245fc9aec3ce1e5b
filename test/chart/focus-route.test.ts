// The Structure view's focus-line router (chart/src/structure/focus-route.ts) on hand-placed cards:
// a route runs at right angles from a card's side to the other card's, goes around a card in its way
// rather than through it, goes around an ownership line when a way round exists, runs along a line
// already routed rather than crossing it, and never runs on top of an ownership line.
import { describe, expect, it } from 'vitest'
import { crossingPoint, segmentThroughBox, type Segment } from '../../bench/chart/geometry.ts'
import { focusRouter } from '../../chart/src/structure/focus-route.ts'
import type { Point, StructureBox } from '../../chart/src/structure/structure-layout.ts'

const box = (id: string, x: number, y: number, w = 100, h = 50): StructureBox => ({
  id,
  is: 'entity',
  x,
  y,
  w,
  h,
  layer: 0,
  texts: [],
  title: id,
})
const segment = (a: Point, b: Point): Segment => ({ a: [a[0], a[1]], b: [b[0], b[1]] })
const pieces = (points: readonly Point[]): Segment[] => points.slice(1).map((p, k) => segment(points[k]!, p))
const crossings = (route: readonly Point[], line: readonly Point[]) =>
  pieces(route)
    .flatMap((s) => pieces(line).map((t) => crossingPoint(s, t)))
    .filter((p) => p !== null).length

describe('focusRouter', () => {
  // Three cards in a row, 40 px apart, in a 500 × 200 drawing.
  const left = box('left', 24, 75)
  const middle = box('middle', 164, 75)
  const right = box('right', 304, 75)
  const boxes = [left, middle, right]

  it('goes around the card between, at right angles, from side to side', () => {
    const route = focusRouter(boxes, [], 450, 200, [left, right]).route(left, right)
    expect(route.length).toBeGreaterThan(2)
    expect(pieces(route).every(({ a, b }) => a[0] === b[0] || a[1] === b[1])).toBe(true)
    for (const card of boxes) expect(pieces(route).some((s) => segmentThroughBox(s, card))).toBe(false)
    const onBorder = (p: Point, b: StructureBox) =>
      ((p[0] === b.x || p[0] === b.x + b.w) && p[1] >= b.y && p[1] <= b.y + b.h) ||
      ((p[1] === b.y || p[1] === b.y + b.h) && p[0] >= b.x && p[0] <= b.x + b.w)
    expect(onBorder(route[0]!, left) && onBorder(route.at(-1)!, right)).toBe(true)
  })

  it('goes around an ownership line that a way round exists for, and never along one', () => {
    // A line down from the middle card's bottom to the drawing's foot: the way above is free.
    const line: Point[] = [
      [214, 125],
      [214, 200],
    ]
    const route = focusRouter(boxes, [line], 450, 200, [left, right]).route(left, right)
    expect(crossings(route, line)).toBe(0)
    const along = pieces(route).some(({ a, b }) => a[0] === 214 && b[0] === 214)
    expect(along).toBe(false)
  })

  it('crosses an ownership line where it must, once, and a second route runs along the first', () => {
    // A wall from the top margin to the foot between the middle and right cards.
    const wall: Point[] = [
      [284, 0],
      [284, 200],
    ]
    const router = focusRouter(boxes, [wall], 450, 200, [left, middle, right])
    const first = router.route(left, right)
    const second = router.route(middle, right)
    expect(crossings(first, wall)).toBe(1)
    expect(crossings(second, wall)).toBe(1)
    expect(crossings(second, first)).toBe(0)
    // Both cross the wall at the same point: the bundle crosses it once.
    const at = (route: readonly Point[]) =>
      pieces(route)
        .map((s) => crossingPoint(s, segment(wall[0]!, wall[1]!)))
        .find((p) => p !== null)
    expect(at(second)).toEqual(at(first))
  })
})
