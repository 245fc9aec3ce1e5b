// The geometry of a chart as Chromium drew it (chart 0.2.0's views), measured with geometry.ts's pure
// functions: what test/browser/fixtures/geometry-reader.ts reads from the DOM of the view shown, in
// CSS px of the page, and the figures the issue sets targets for. Pure: no DOM here.
import type { Pt } from '../../chart/src/layout.ts'
import {
  countLineCrossings,
  crossingPoint,
  lostFigures,
  segmentsOfPolylines,
  segmentThroughBox,
  type Crossings,
  type Rect,
} from './geometry.ts'

/** The smallest text the issue allows at the default frame width, in CSS px. */
export const MIN_TEXT_PX = 11

/** One line element as drawn: a family line or an estate link line, its pieces in page CSS px. */
export interface ReadLine {
  kind: 'family' | 'link'
  /** The element's classes and <title>, to name it in a report. */
  name: string
  polylines: Pt[][]
}

/** A selectable node's card (an element with data-id) and its text. */
export interface ReadBox extends Rect {
  id: string
  /** Each line of text the card shows, as drawn. */
  shown: string[]
  /** The card's whole words, nothing cut (its <title>, its description): where a cut text came from. */
  full: string
}

/** A run of visible text and the size it is drawn at, in CSS px (font size × the drawing's scale). */
export interface ReadText {
  text: string
  px: number
  /** The element's tag and classes. */
  element: string
}

/** What the geometry reader returns for the view shown. */
export interface DrawnChart {
  lines: ReadLine[]
  /** Line elements in the view that are neither a family line nor a link line: a new kind of line to classify. */
  unclassified: string[]
  boxes: ReadBox[]
  texts: ReadText[]
}

export interface LineThroughBox {
  line: string
  box: string
}

export interface CutFigure {
  box: string
  shown: string
  lost: string[]
}

/** Two lines that cross (at least once), named. */
export interface CrossingLines {
  kind: 'link×link' | 'family×link'
  a: string
  b: string
}

export interface DrawnFigures {
  lines: number
  linkLines: number
  boxes: number
  crossings: Crossings
  linesThroughBoxes: LineThroughBox[]
  smallestPx: number
  /** Texts drawn smaller than MIN_TEXT_PX. */
  smallTexts: ReadText[]
  /** Cards with a text cut with "…" that lost a share or a year their whole words have. */
  cutFigures: CutFigure[]
  /** Which lines the crossings are on: each crossing pair of lines once. */
  crossingLines: CrossingLines[]
}

export function measureDrawn(chart: DrawnChart): DrawnFigures {
  const linesThroughBoxes: LineThroughBox[] = []
  for (const line of chart.lines) {
    for (const box of chart.boxes) {
      if (segmentsOfPolylines(line.polylines).some((segment) => segmentThroughBox(segment, box)))
        linesThroughBoxes.push({ line: line.name, box: box.id })
    }
  }
  const cutFigures: CutFigure[] = []
  for (const box of chart.boxes) {
    const lost = figuresLostByCuts(box)
    if (lost.length > 0) cutFigures.push({ box: box.id, shown: box.shown.join(' '), lost })
  }
  return {
    lines: chart.lines.length,
    linkLines: chart.lines.filter((line) => line.kind === 'link').length,
    boxes: chart.boxes.length,
    crossings: countLineCrossings(
      chart.lines.map((line) => ({ kind: line.kind, segments: segmentsOfPolylines(line.polylines) })),
    ),
    linesThroughBoxes,
    smallestPx: Math.min(...chart.texts.map((text) => text.px)),
    smallTexts: chart.texts.filter((text) => text.px < MIN_TEXT_PX - 0.01),
    cutFigures,
    crossingLines: crossingLines(chart.lines),
  }
}

/** Where one phrase of a card's whole words ends: its sentences, list items and "·"-separated parts. */
const PHRASE_END = /\. |, | · |: | — /

/**
 * The shares and years a card's cut lines lost. A cut line's words before the "…" are found in the
 * card's whole words, and the phrase they begin there is what the cut shortened: its figures that
 * the line does not show were lost to the cut. (A card that folds whole chips into "+2 more" is not
 * cut in a share: those shares are in other phrases.) A cut line whose words are not the whole
 * words' own (shortened or reworded) loses every figure the card does not show anywhere.
 */
export function figuresLostByCuts(box: Pick<ReadBox, 'shown' | 'full'>): string[] {
  const lost: string[] = []
  for (const line of box.shown) {
    const cut = line.indexOf('…')
    if (cut < 0) continue
    const before = line.slice(0, cut)
    const start = before === '' ? -1 : box.full.indexOf(before)
    if (start < 0) return lostFigures(box.full, box.shown.join(' '))
    const rest = box.full.slice(start + before.length)
    const end = rest.search(PHRASE_END)
    lost.push(...lostFigures(box.full.slice(start, start + before.length + (end < 0 ? rest.length : end)), line))
  }
  return lost
}

function crossingLines(lines: readonly ReadLine[]): CrossingLines[] {
  const pieces = lines.map((line) => segmentsOfPolylines(line.polylines))
  const out: CrossingLines[] = []
  lines.forEach((line, i) => {
    for (let j = i + 1; j < lines.length; j++) {
      const other = lines[j]!
      if (line.kind === 'family' && other.kind === 'family') continue
      if (!pieces[i]!.some((s) => pieces[j]!.some((t) => crossingPoint(s, t) !== null))) continue
      const kind = line.kind === 'link' && other.kind === 'link' ? 'link×link' : 'family×link'
      out.push({ kind, a: line.name, b: other.name })
    }
  })
  return out
}
