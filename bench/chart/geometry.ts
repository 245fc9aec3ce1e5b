// Geometry measurements of a chart layout (chart/src/layout.ts) as a reader meets it: where lines
// cross, whether a line runs through a box, how large the text is drawn in a frame of a given width,
// which labels were cut in a share or a year, and whether the estate column is in the first view.
// The baseline chart 0.2.0 must beat (bench/chart/geometry-report.ts prints it); pure, no DOM.
import type { Payload } from '../../chart/payload.ts'
import type { ChartLayout, Edge, EdgeKind, Pt } from '../../chart/src/layout.ts'

/**
 * draw.ts's READABLE (the smallest first-view scale) and MAX_VIEW_H (the tallest windowed first
 * view, CSS px) in chart 0.1.1. draw.ts is browser code (DOM types), so it is not imported here;
 * test/chart/geometry.test.ts holds these equal to its source.
 */
export const DRAW_READABLE = 0.55
export const DRAW_MAX_VIEW_H = 720

/** Lines closer than this to a box's edge, or to another line's end, touch rather than cross. */
const EPS = 0.5

export interface Segment {
  a: Pt
  b: Pt
}

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/**
 * Where two segments cross, each through the other's inside (more than EPS from either end), or
 * null. Segments that only touch (a T-junction, a shared end) or run along each other do not cross.
 */
export function crossingPoint(s: Segment, t: Segment): Pt | null {
  const [x1, y1] = s.a
  const [x3, y3] = t.a
  const dx1 = s.b[0] - x1
  const dy1 = s.b[1] - y1
  const dx2 = t.b[0] - x3
  const dy2 = t.b[1] - y3
  const det = dx1 * dy2 - dy1 * dx2
  if (Math.abs(det) < 1e-9) return null // parallel or collinear
  const wx = x3 - x1
  const wy = y3 - y1
  const along = (wx * dy2 - wy * dx2) / det // 0..1 along s
  const alongT = (wx * dy1 - wy * dx1) / det // 0..1 along t
  const lengthS = Math.hypot(dx1, dy1)
  const lengthT = Math.hypot(dx2, dy2)
  const inside = (f: number, length: number) => f * length > EPS && (1 - f) * length > EPS
  return inside(along, lengthS) && inside(alongT, lengthT) ? [x1 + along * dx1, y1 + along * dy1] : null
}

/** Whether the segment runs through the box's inside (more than EPS in from its edges): Liang–Barsky clipping. */
export function segmentThroughBox(s: Segment, box: Rect): boolean {
  const left = box.x + EPS
  const right = box.x + box.w - EPS
  const top = box.y + EPS
  const bottom = box.y + box.h - EPS
  if (left >= right || top >= bottom) return false
  const [ax, ay] = s.a
  const dx = s.b[0] - ax
  const dy = s.b[1] - ay
  let enter = 0
  let leave = 1
  for (const [p, q] of [
    [-dx, ax - left],
    [dx, right - ax],
    [-dy, ay - top],
    [dy, bottom - ay],
  ] as const) {
    if (p === 0) {
      if (q < 0) return false // parallel to this side and outside it
    } else if (p < 0) enter = Math.max(enter, q / p)
    else leave = Math.min(leave, q / p)
  }
  return leave - enter > 1e-9
}

/** The straight pieces of an edge's paths. */
export function segmentsOf(edge: Edge): Segment[] {
  return segmentsOfPolylines(edge.paths)
}

/** The chords a Bézier curve is measured as: at 16, a curve across a chart is within a fraction of a px of them. */
const CURVE_CHORDS = 16

/**
 * The polylines of an SVG path's data: the move, line, horizontal, vertical and close commands, and
 * cubic and quadratic Bézier curves as CURVE_CHORDS chords each, absolute and relative, which are all
 * the charts draw lines with. Any other command (arcs, smooth curves) throws rather than be measured
 * wrong.
 */
export function pathPolylines(d: string): Pt[][] {
  const tokens = d.match(/[a-zA-Z]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g) ?? []
  const polylines: Pt[][] = []
  let current: Pt[] = []
  let at: Pt = [0, 0]
  let command = ''
  let k = 0
  const number = () => {
    const token = tokens[k++]
    const value = Number(token)
    if (token === undefined || Number.isNaN(value)) throw new Error(`path data "${d}": a number is missing`)
    return value
  }
  const lineTo = (point: Pt) => {
    current.push(point)
    at = point
  }
  while (k < tokens.length) {
    if (/[a-zA-Z]/.test(tokens[k]!)) command = tokens[k++]!
    const relative = command === command.toLowerCase()
    const [ox, oy] = relative ? at : [0, 0]
    switch (command.toUpperCase()) {
      case 'M': {
        if (current.length > 1) polylines.push(current)
        at = [ox + number(), oy + number()]
        current = [at]
        // Further pairs after a move are lines (SVG 1.1 §8.3.2).
        command = relative ? 'l' : 'L'
        break
      }
      case 'L':
        lineTo([ox + number(), oy + number()])
        break
      case 'H':
        lineTo([(relative ? at[0] : 0) + number(), at[1]])
        break
      case 'V':
        lineTo([at[0], (relative ? at[1] : 0) + number()])
        break
      case 'C':
      case 'Q': {
        const controls: Pt[] = []
        for (let n = command.toUpperCase() === 'C' ? 3 : 2; n > 0; n--) controls.push([ox + number(), oy + number()])
        const from = at
        for (let step = 1; step <= CURVE_CHORDS; step++) lineTo(bezierPoint([from, ...controls], step / CURVE_CHORDS))
        break
      }
      case 'Z': {
        const start = current[0]
        if (start !== undefined) lineTo(start)
        if (current.length > 1) polylines.push(current)
        current = start === undefined ? [] : [start]
        break
      }
      default:
        throw new Error(`path data "${d}": command ${command} is not a straight line`)
    }
  }
  if (current.length > 1) polylines.push(current)
  return polylines
}

/** The point at `t` (0..1) of the Bézier curve with these control points (de Casteljau). */
function bezierPoint(points: readonly Pt[], t: number): Pt {
  let level = [...points]
  while (level.length > 1) {
    level = level.slice(1).map((point, k): Pt => {
      const previous = level[k]!
      return [previous[0] + (point[0] - previous[0]) * t, previous[1] + (point[1] - previous[1]) * t]
    })
  }
  return level[0]!
}

/** The straight pieces of polylines. */
export function segmentsOfPolylines(polylines: readonly (readonly Pt[])[]): Segment[] {
  const out: Segment[] = []
  for (const points of polylines) for (let k = 1; k < points.length; k++) out.push({ a: points[k - 1]!, b: points[k]! })
  return out
}

const LINK_KINDS: ReadonlySet<EdgeKind> = new Set<EdgeKind>(['link', 'own'])

export interface Crossings {
  /** Points where two estate link lines (person→entity and entity→entity) cross. */
  linkLink: number
  /**
   * Pairs of crossing pieces of two estate link lines: a line across a bundle's shared stretch
   * counts once per line of the bundle (the count a per-edge tally gives).
   */
  linkLinkPairs: number
  /** Points where a family line (partner, former spouse, family, parent) crosses an estate link line. */
  familyLink: number
}

/** One drawn line (a layout's edge, or a line element read from a drawn chart): its straight pieces. */
export interface DrawnLine {
  /** What the line is: an estate link line, or a family line (partner, former spouse, family, parent). */
  kind: 'family' | 'link'
  segments: Segment[]
}

/**
 * Crossings as a reader sees them: distinct points (to 0.5 px) where lines of two different edges
 * cross. The lines of one person's bundle share their first stretch, so another line crossing that
 * stretch crosses several edges at one point: it counts once.
 */
export function countCrossings(layout: ChartLayout): Crossings {
  return countLineCrossings(
    layout.edges.map((edge) => ({ kind: LINK_KINDS.has(edge.kind) ? 'link' : 'family', segments: segmentsOf(edge) })),
  )
}

/** countCrossings of any drawn lines: family lines among themselves are not counted. */
export function countLineCrossings(lines: readonly DrawnLine[]): Crossings {
  interface Piece {
    segment: Segment
    line: number
    link: boolean
    minX: number
    maxX: number
    minY: number
    maxY: number
  }
  const pieces: Piece[] = []
  lines.forEach((line, index) => {
    for (const segment of line.segments) {
      pieces.push({
        segment,
        line: index,
        link: line.kind === 'link',
        minX: Math.min(segment.a[0], segment.b[0]),
        maxX: Math.max(segment.a[0], segment.b[0]),
        minY: Math.min(segment.a[1], segment.b[1]),
        maxY: Math.max(segment.a[1], segment.b[1]),
      })
    }
  })
  pieces.sort((p, q) => p.minX - q.minX)
  const linkLink = new Set<string>()
  const familyLink = new Set<string>()
  let linkLinkPairs = 0
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!
    for (let j = i + 1; j < pieces.length && pieces[j]!.minX <= p.maxX; j++) {
      const q = pieces[j]!
      if (q.line === p.line || (!p.link && !q.link) || q.minY > p.maxY || q.maxY < p.minY) continue
      const at = crossingPoint(p.segment, q.segment)
      if (!at) continue
      const key = `${Math.round(at[0] * 2) / 2},${Math.round(at[1] * 2) / 2}`
      if (p.link && q.link) {
        linkLink.add(key)
        linkLinkPairs++
      } else familyLink.add(key)
    }
  }
  return { linkLink: linkLink.size, linkLinkPairs, familyLink: familyLink.size }
}

/** Line pieces that run through a box (layout.ts promises none). */
export function linesThroughBoxes(layout: ChartLayout): number {
  let count = 0
  for (const edge of layout.edges)
    for (const segment of segmentsOf(edge)) for (const box of layout.boxes) if (segmentThroughBox(segment, box)) count++
  return count
}

export interface FirstView {
  /** The frame width divided by the layout width, at most 1: the scale of a fit to the width. */
  fitScale: number
  /** The scale draw.ts opens at: fitScale, or DRAW_READABLE in a window when fitScale is below it. */
  scale: number
  windowed: boolean
  /** The part of the layout the first view shows, in layout units. */
  view: Rect
}

/** The first view draw.ts's home() opens in a frame `frameWidth` CSS px wide (chart 0.1.1). */
export function firstView(layout: ChartLayout, payload: Payload, frameWidth: number): FirstView {
  const fitScale = Math.min(1, frameWidth / layout.width)
  const windowed = fitScale < DRAW_READABLE
  if (!windowed) {
    // draw.ts's fit(): the whole chart, centred (its frame is as tall as the chart at this scale).
    return { fitScale, scale: fitScale, windowed, view: { x: 0, y: 0, w: layout.width, h: layout.height } }
  }
  const scale = DRAW_READABLE
  const frameHeight = Math.max(96, Math.ceil(Math.min(DRAW_MAX_VIEW_H, layout.height * scale)))
  const w = frameWidth / scale
  const h = frameHeight / scale
  const focus = clientsBox(layout, payload)
  const x = focus.x + focus.w / 2 - w / 2
  const y = focus.y + focus.h / 2 - h / 2
  // Inside the chart where it is larger than the window, centred where it is not (as draw.ts).
  const clampTo = (v: number, size: number, total: number) =>
    size < total ? Math.min(Math.max(v, 0), total - size) : (total - size) / 2
  return {
    fitScale,
    scale,
    windowed,
    view: { x: clampTo(x, w, layout.width), y: clampTo(y, h, layout.height), w, h },
  }
}

/** The primary client (else the first person) with their current partners in the same row: draw.ts's clientsBox. */
function clientsBox(layout: ChartLayout, payload: Payload): Rect {
  const first = payload.people.find((p) => p.role === 'primaryClient') ?? payload.people[0]
  const ids = new Set(first ? [first.id] : [])
  for (const r of payload.relationships ?? []) {
    if (r.type !== 'spouse' && r.type !== 'partner') continue
    if (r.from === first?.id) ids.add(r.to)
    if (r.to === first?.id) ids.add(r.from)
  }
  const own = layout.boxes.find((b) => b.id === first?.id)
  const row = layout.boxes.filter((b) => b.kind === 'person' && ids.has(b.id) && (!own || b.row === own.row))
  if (!own || row.length === 0) return layout.boxes[0] ?? { x: 0, y: 0, w: 0, h: 0 }
  const x0 = Math.min(...row.map((b) => b.x))
  const x1 = Math.max(...row.map((b) => b.x + b.w))
  return { x: x0, y: own.y, w: x1 - x0, h: own.h }
}

export interface TextSizes {
  /** Box names (the largest text of the chart's boxes), in CSS px at the first view's scale. */
  name: number
  /** The smallest text drawn (roles, dates, kinds, link labels), in CSS px at that scale. */
  smallest: number
}

export function drawnTextSizes(layout: ChartLayout, scale: number): TextSizes {
  const sizes = [...layout.boxes.flatMap((b) => b.lines.map((l) => l.size)), ...layout.labels.map((l) => l.size)]
  const names = layout.boxes.flatMap((b) => b.lines.filter((l) => l.cls === 'nm').map((l) => l.size))
  return { name: Math.max(...names) * scale, smallest: Math.min(...sizes) * scale }
}

/** Shares ("33.3%", "50 %") and years 1800–2099 standing alone ("1952", "1952–1989", "2019 SLAT"). */
const FIGURE = /\d+(?:\.\d+)?\s?%|\b(?:18|19|20)\d\d\b/g

export interface CutText {
  /** The box's id, or "from>to" for a link label. */
  id: string
  shown: string
  /** The shares and years the full text had that the shown text lost. */
  lost: string[]
}

/**
 * Every box and link label whose text the layout cut with "…", with the shares and years that went
 * with the cut. A box's full text is its accessible description (name, role and dates; name, kind,
 * value and estate); a link label's is the roles its title names (its `who` is a given name, cut on
 * purpose, and holds no figure).
 */
export function cutTexts(layout: ChartLayout, payload: Payload): CutText[] {
  const out: CutText[] = []
  for (const box of layout.boxes) {
    if (!box.lines.some((l) => l.text.endsWith('…'))) continue
    const shown = box.lines.map((l) => l.text).join(' ')
    out.push({ id: box.id, shown, lost: lostFigures(box.label, shown) })
  }
  const names = new Map([...payload.people, ...(payload.entities ?? [])].map((x) => [x.id, x.name]))
  for (const label of layout.labels) {
    if (!label.text.endsWith('…')) continue
    const [from = '', to = ''] = label.ids
    // The title is "<from's name> — <roles, comma-separated> of — <to's name>".
    const roles = label.title.slice((names.get(from) ?? '').length + 3, -((names.get(to) ?? '').length + 6))
    out.push({ id: `${from}>${to}`, shown: `${label.who} ${label.text}`, lost: lostFigures(roles, label.text) })
  }
  return out
}

/** The figures of `full` that `shown` does not have (as many times as full has them). */
export function lostFigures(full: string, shown: string): string[] {
  const left: string[] = shown.match(FIGURE) ?? []
  const lost: string[] = []
  for (const figure of full.match(FIGURE) ?? []) {
    const k = left.indexOf(figure)
    if (k >= 0) left.splice(k, 1)
    else lost.push(figure)
  }
  return lost
}

export interface EstateColumnAtOpen {
  entities: number
  /** Entity boxes wholly inside the first view. */
  visible: number
  /** How much of the column's width the first view shows. */
  column: 'whole' | 'part' | 'none'
}

export function estateColumnAtOpen(layout: ChartLayout, view: Rect): EstateColumnAtOpen {
  const entities = layout.boxes.filter((b) => b.kind === 'entity')
  const visible = entities.filter(
    (b) => b.x >= view.x && b.y >= view.y && b.x + b.w <= view.x + view.w && b.y + b.h <= view.y + view.h,
  ).length
  if (entities.length === 0) return { entities: 0, visible: 0, column: 'whole' }
  const left = Math.min(...entities.map((b) => b.x))
  const right = Math.max(...entities.map((b) => b.x + b.w))
  const column =
    left >= view.x && right <= view.x + view.w ? 'whole' : right <= view.x || left >= view.x + view.w ? 'none' : 'part'
  return { entities: entities.length, visible, column }
}
