// The geometry measurements of bench/chart/geometry.ts on hand-made segments, boxes and layouts
// whose answers can be read off the coordinates, and its copy of draw.ts's first-view constants; and
// bench/chart/drawn-geometry.ts's measures of a drawn chart on hand-made DOM readings.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import {
  layoutChart,
  type ChartLayout,
  type Edge,
  type EdgeKind,
  type NodeBox,
  type Pt,
} from '../../chart/src/layout.ts'
import {
  countCrossings,
  crossingPoint,
  cutTexts,
  DRAW_MAX_VIEW_H,
  DRAW_READABLE,
  drawnTextSizes,
  estateColumnAtOpen,
  firstView,
  linesThroughBoxes,
  pathPolylines,
  segmentThroughBox,
  type Segment,
} from '../../bench/chart/geometry.ts'
import { figuresLostByCuts, measureDrawn, type DrawnChart } from '../../bench/chart/drawn-geometry.ts'

const seg = (a: Pt, b: Pt): Segment => ({ a, b })
const box = { x: 100, y: 100, w: 50, h: 40 } // spans x 100..150, y 100..140

function edge(kind: EdgeKind, ...paths: Pt[][]): Edge {
  return { kind, ids: [], paths, title: '' }
}

function nodeBox(id: string, kind: NodeBox['kind'], x: number, y: number, more: Partial<NodeBox> = {}): NodeBox {
  return {
    id,
    kind,
    x,
    y,
    w: 100,
    h: 50,
    lines: [],
    label: id,
    deceased: false,
    client: false,
    estate: kind === 'entity' ? 'in' : null,
    row: kind === 'entity' ? -1 : 0,
    ...more,
  }
}

function layoutOf(more: Partial<ChartLayout>): ChartLayout {
  return {
    width: 1000,
    height: 600,
    tree: { x: 0, y: 0, w: 0, h: 0 },
    boxes: [],
    edges: [],
    labels: [],
    headings: [],
    dots: [],
    strokes: [],
    ...more,
  }
}

describe('crossingPoint', () => {
  it('finds where a horizontal and a vertical segment cross', () => {
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([5, 0], [5, 30]))).toEqual([5, 10])
  })

  it('finds where two diagonals cross', () => {
    // (0,0)–(10,10) and (0,10)–(10,0) meet half-way along both.
    expect(crossingPoint(seg([0, 0], [10, 10]), seg([0, 10], [10, 0]))).toEqual([5, 5])
  })

  it('does not count a T-junction, a shared corner or a touch within 0.5 of an end', () => {
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([5, 10], [5, 30]))).toBeNull()
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([20, 10], [20, 30]))).toBeNull()
    // The vertical ends 0.4 below the horizontal line: they touch, to within 0.5.
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([5, 9.6], [5, 30]))).toBeNull()
  })

  it('does not count parallel or collinear overlapping segments, or segments apart', () => {
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([0, 12], [20, 12]))).toBeNull()
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([5, 10], [30, 10]))).toBeNull()
    expect(crossingPoint(seg([0, 10], [20, 10]), seg([25, 0], [25, 30]))).toBeNull()
  })
})

describe('segmentThroughBox', () => {
  it('sees a line straight through the box, and one that ends inside it', () => {
    expect(segmentThroughBox(seg([50, 120], [200, 120]), box)).toBe(true)
    expect(segmentThroughBox(seg([125, 50], [125, 120]), box)).toBe(true)
  })

  it('sees a diagonal across a corner, and not one that passes the corner outside', () => {
    // Through (100,110) and (110,100): it cuts the top-left corner's inside.
    expect(segmentThroughBox(seg([90, 120], [120, 90]), box)).toBe(true)
    // Through (90,100) and (100,90): it passes above-left of the corner.
    expect(segmentThroughBox(seg([80, 110], [110, 80]), box)).toBe(false)
  })

  it('does not count a line along an edge, one ending on an edge, or one outside', () => {
    expect(segmentThroughBox(seg([50, 100], [200, 100]), box)).toBe(false)
    expect(segmentThroughBox(seg([20, 120], [100, 120]), box)).toBe(false)
    expect(segmentThroughBox(seg([20, 150], [200, 150]), box)).toBe(false)
  })
})

describe('countCrossings and linesThroughBoxes on a hand-made layout', () => {
  // A bundle of two link lines sharing their first stretch (x 0..100 at y 100), a third link line
  // running down x = 50 across that stretch, a family line across the third, and a parent line
  // across the family line (family lines among themselves are not counted).
  const layout = layoutOf({
    edges: [
      edge('link', [
        [0, 100],
        [100, 100],
        [100, 200],
      ]),
      edge('link', [
        [0, 100],
        [100, 100],
        [100, 300],
      ]),
      edge('own', [
        [50, 0],
        [50, 400],
      ]),
      edge('family', [
        [20, 350],
        [80, 350],
      ]),
      edge('parent', [
        [30, 330],
        [30, 380],
      ]),
    ],
  })

  it('counts a crossing of a bundle once as a point, and once per line as piece pairs', () => {
    // The own line x = 50 crosses the shared stretch at (50,100): one point, two pairs.
    expect(countCrossings(layout)).toEqual({ linkLink: 1, linkLinkPairs: 2, familyLink: 1 })
  })

  it('counts the pieces that run through a box', () => {
    // A box at x 40..140, y 150..200: the own line (x = 50, y 0..400) and both bundle lines' drops
    // (x = 100, from y 100 to 200 and to 300) run through it: 3 pieces. The family and parent lines
    // (y 330..380) pass below it.
    const withBox = { ...layout, boxes: [nodeBox('a', 'person', 40, 150)] }
    expect(linesThroughBoxes(withBox)).toBe(3)
  })
})

describe('firstView', () => {
  const payload: Payload = {
    household: { name: 'Test' },
    people: [
      { id: 'ann', name: 'Ann Test', role: 'primaryClient' },
      { id: 'bob', name: 'Bob Test', role: 'coClient' },
    ],
    relationships: [{ from: 'ann', to: 'bob', type: 'spouse' }],
  }
  const people = [nodeBox('ann', 'person', 100, 20), nodeBox('bob', 'person', 232, 20)]

  it('fits to the width when that keeps the scale at 0.55 or more', () => {
    // 1100 / 2000 = 0.55: not below READABLE, so the whole chart at 0.55.
    const view = firstView(layoutOf({ width: 2000, height: 500, boxes: people }), payload, 1100)
    expect(view).toEqual({ fitScale: 0.55, scale: 0.55, windowed: false, view: { x: 0, y: 0, w: 2000, h: 500 } })
    // Never above 1:1: 1100 / 800 would be 1.375.
    expect(firstView(layoutOf({ width: 800, height: 500, boxes: people }), payload, 1100).scale).toBe(1)
  })

  it('opens a window at 0.55 on the clients when fitting would go below it', () => {
    // 1100 / 4400 = 0.25 < 0.55: a window 1100 / 0.55 = 2000 units wide and min(720, 3000 × 0.55 = 1650)
    // = 720 px, 720 / 0.55 = 1309.09 units tall, centred on Ann and Bob (x 100..332, y 20..70, centre
    // 216, 45), then pushed inside the chart: x = 216 − 1000 < 0 → 0; y = 45 − 654.5 < 0 → 0.
    const view = firstView(layoutOf({ width: 4400, height: 3000, boxes: people }), payload, 1100)
    expect(view.fitScale).toBe(0.25)
    expect(view.scale).toBe(0.55)
    expect(view.windowed).toBe(true)
    expect(view.view.x).toBe(0)
    expect(view.view.y).toBe(0)
    expect(view.view.w).toBeCloseTo(2000, 9)
    expect(view.view.h).toBeCloseTo(720 / 0.55, 9)
  })

  it('uses draw.ts’s READABLE and MAX_VIEW_H', () => {
    const draw = readFileSync(new URL('../../chart/src/draw.ts', import.meta.url), 'utf8')
    expect(draw).toContain(`export const READABLE = ${DRAW_READABLE}\n`)
    expect(draw).toContain(`export const MAX_VIEW_H = ${DRAW_MAX_VIEW_H}\n`)
  })
})

describe('drawnTextSizes and estateColumnAtOpen', () => {
  const line = (size: number, cls: 'nm' | 'sub') => ({ text: 'x', x: 0, y: 0, size, bold: false, max: 100, cls })
  const layout = layoutOf({
    boxes: [
      nodeBox('p', 'person', 0, 0, { lines: [line(13, 'nm'), line(11, 'sub')] }),
      nodeBox('e1', 'entity', 600, 0),
      nodeBox('e2', 'entity', 600, 400),
    ],
  })

  it('scales the largest name and the smallest text', () => {
    // 13 × 0.5 = 6.5 and 11 × 0.5 = 5.5.
    expect(drawnTextSizes(layout, 0.5)).toEqual({ name: 6.5, smallest: 5.5 })
  })

  it('says how much of the entity column a view shows', () => {
    expect(estateColumnAtOpen(layout, { x: 0, y: 0, w: 1000, h: 600 })).toEqual({
      entities: 2,
      visible: 2,
      column: 'whole',
    })
    // Down to y 300: e2 (y 400..450) is below the view.
    expect(estateColumnAtOpen(layout, { x: 0, y: 0, w: 1000, h: 300 })).toMatchObject({ visible: 1, column: 'whole' })
    // Right edge at 650: the column (600..700) is half in view, no box wholly.
    expect(estateColumnAtOpen(layout, { x: 0, y: 0, w: 650, h: 600 })).toEqual({
      entities: 2,
      visible: 0,
      column: 'part',
    })
    expect(estateColumnAtOpen(layout, { x: 0, y: 0, w: 500, h: 600 }).column).toBe('none')
  })
})

describe('cutTexts', () => {
  it('finds the shares and years a cut took, from the description and the link title', () => {
    const payload: Payload = {
      household: { name: 'Test' },
      people: [{ id: 'ann', name: 'Ann Lee', role: 'greatGrandchild', birthDate: '1990-02-03' }],
      entities: [{ id: 't', name: 'Lee Trust', kind: 'ilit' }],
    }
    const layout = layoutOf({
      boxes: [
        nodeBox('ann', 'person', 0, 0, {
          label: 'Ann Lee, Great-grandchild, born 1990',
          lines: [
            { text: 'Ann Lee', x: 0, y: 0, size: 13, bold: true, max: 144, cls: 'nm' },
            { text: 'Great-grandchild · b. 1…', x: 0, y: 0, size: 11, bold: false, max: 144, cls: 'sub' },
          ],
        }),
        // Cut, but only in words: nothing lost.
        nodeBox('t', 'entity', 600, 0, {
          label: 'Lee Trust, ILIT, out of estate',
          lines: [{ text: 'Lee Tr…', x: 0, y: 0, size: 13, bold: true, max: 30, cls: 'nm' }],
        }),
      ],
      labels: [
        {
          x: 0,
          y: 0,
          who: 'Ann',
          text: 'grantor · beneficiary 3…',
          width: 0,
          anchor: 'end',
          size: 11,
          ids: ['ann', 't'],
          title: 'Ann Lee — grantor, beneficiary 33.3% of — Lee Trust',
        },
      ],
    })
    expect(cutTexts(layout, payload)).toEqual([
      { id: 'ann', shown: 'Ann Lee Great-grandchild · b. 1…', lost: ['1990'] },
      { id: 't', shown: 'Lee Tr…', lost: [] },
      { id: 'ann>t', shown: 'Ann grantor · beneficiary 3…', lost: ['33.3%'] },
    ])
  })

  it('finds none on the 0.1.x example as released, and no line through a box', () => {
    // The 0.1.x layout's own example (chart/example.json shows 0.2.0's fields).
    const example = JSON.parse(
      readFileSync(new URL('../../dist/chart/v0.1.1/example.json', import.meta.url), 'utf8'),
    ) as Payload
    const layout = layoutChart(example)
    expect(cutTexts(layout, example)).toEqual([])
    expect(linesThroughBoxes(layout)).toBe(0)
  })
})

describe('pathPolylines', () => {
  it('reads absolute and relative moves, lines, horizontals, verticals and closes', () => {
    expect(pathPolylines('M10 20L30 20L30 50')).toEqual([
      [
        [10, 20],
        [30, 20],
        [30, 50],
      ],
    ])
    // A move's further pairs are lines; h and v are relative to the point reached.
    expect(pathPolylines('m10,20 20,0 h5 v-10 Z M0 0 H4 V3')).toEqual([
      [
        [10, 20],
        [30, 20],
        [35, 20],
        [35, 10],
        [10, 20],
      ],
      [
        [0, 0],
        [4, 0],
        [4, 3],
      ],
    ])
  })

  it('measures a Bézier curve as its chords, through the curve’s own points', () => {
    // A cubic from (0,0) to (30,0) bowing down to y = 30 × 3/4 = 22.5 at its middle.
    const [curve] = pathPolylines('M0 0C0 30 30 30 30 0')
    expect(curve).toHaveLength(17)
    expect(curve![8]).toEqual([15, 22.5])
    expect(curve![16]).toEqual([30, 0])
    // A quadratic, relative: (0,0) to (20,0) through the control (10,20): its middle is at y 10.
    expect(pathPolylines('M0 0q10 20 20 0')[0]![8]).toEqual([10, 10])
  })

  it('refuses a command it cannot measure as straight pieces', () => {
    expect(() => pathPolylines('M0 0A5 5 0 0 1 10 0')).toThrow(/command A/)
  })
})

describe('measureDrawn', () => {
  const card = (id: string, x: number, y: number, shown: string[] = [id], full = id) => ({
    id,
    x,
    y,
    w: 100,
    h: 50,
    shown,
    full,
  })
  // Two cards side by side (x 0..100 and 200..300, y 0..50); a family line under them; a link line
  // down from the first card's bottom that turns right under the family line (no crossing), a link
  // line straight through the second card and across the family line, and one across that.
  const chart: DrawnChart = {
    lines: [
      {
        kind: 'family',
        name: 'family',
        polylines: [
          [
            [0, 80],
            [300, 80],
          ],
        ],
      },
      {
        kind: 'link',
        name: 'down',
        polylines: [
          [
            [50, 50],
            [50, 70],
            [400, 70],
          ],
        ],
      },
      {
        kind: 'link',
        name: 'through',
        polylines: [
          [
            [250, -20],
            [250, 120],
          ],
        ],
      },
    ],
    unclassified: [],
    boxes: [card('a', 0, 0), card('b', 200, 0)],
    texts: [
      { text: 'Name', px: 13, element: 'text.name' },
      { text: 'b. 1990', px: 10.5, element: 'text.sub' },
    ],
  }

  it('finds the line through a card, the crossings and the small text', () => {
    const figures = measureDrawn(chart)
    expect(figures.linesThroughBoxes).toEqual([{ line: 'through', box: 'b' }])
    // "through" crosses "down" at (250,70) and the family line at (250,80).
    expect(figures.crossings).toEqual({ linkLink: 1, linkLinkPairs: 1, familyLink: 1 })
    expect(figures.crossingLines).toEqual([
      { kind: 'family×link', a: 'family', b: 'through' },
      { kind: 'link×link', a: 'down', b: 'through' },
    ])
    expect(figures.smallestPx).toBe(10.5)
    expect(figures.smallTexts).toEqual([{ text: 'b. 1990', px: 10.5, element: 'text.sub' }])
    expect(figures.linkLines).toBe(2)
  })

  it('counts a share or a year lost to a cut, not one folded into "+N more" or a cut name', () => {
    const full = 'Lee Revocable Trust. Beneficiaries: Ann Lee 40%, Bob Lee 40%, Cy Lee 20%. Trustee of Lee Trust 2012'
    // The name cut in words, a chip folded: nothing lost to a cut.
    expect(figuresLostByCuts({ full, shown: ['Lee Revocable…', 'Ann Lee 40% · +2 more'] })).toEqual([])
    // Cut inside a share, and cut before a year of the same phrase.
    expect(figuresLostByCuts({ full, shown: ['Lee Revocable Trust', 'Ann Lee 4…'] })).toEqual(['40%'])
    expect(figuresLostByCuts({ full, shown: ['Trustee of Lee Tru…'] })).toEqual(['2012'])
    // Words shortened, not the whole words' own ("b." for "born"): every figure not shown is lost.
    expect(
      figuresLostByCuts({
        full: 'Ann Lee, Great-grandchild, born 1990',
        shown: ['Ann Lee', 'Great-grandchild · b. 1…'],
      }),
    ).toEqual(['1990'])
    expect(
      figuresLostByCuts({ full: 'Ann Lee, Great-grandchild, born 1990', shown: ['Ann Lee', 'Great-gr… · b. 1990'] }),
    ).toEqual([])
  })
})
