// The view shell's print/PDF layout. A host cannot print an iframe well, so the chart prints itself:
// a print-only block (hidden on screen, print.css) with a title block (the household, "As of" its
// date, a disclaimer), then every view one after another, each from a new page: the drawings cut
// into page-sized tiles, the legend, the Estate view's totals table and the Flow view's columns (with
// its assumptions line and disclaimer) copied as they are. The block is built from the drawn views
// when printing starts (the Print button, or the browser's own menu: beforeprint) and removed after,
// so the page carries no second copy of the chart meanwhile.
//
// Wide drawings are shrunk a little, then tiled: the drawings' smallest text (the secondary lines:
// role, years) is 11 px and 7 pt is 9.33 px, so a drawing may shrink to 85 % before that text drops
// under 7 pt (names, at 13 px, stay above 8 pt). A drawing that fits a page at that scale is printed
// whole, fitted to the page; a larger one is cut into equal tiles, a page each, at that scale. 8 pt
// was the first floor, and it split the example's 1,126 px family into two half-page tiles: a family
// read across two sheets is harder to follow than its secondary lines at 7 pt.
import { TEXT_SIZE } from '../structure/structure-cards.ts'
import { htmlElement } from './dom.ts'
import { LINE_SIZE } from './genogram-view.ts'
import type { ViewHousehold, ViewName } from './view-types.ts'

const DISCLAIMER = 'For discussion only; not legal or tax advice.'

/**
 * The most a tile takes on paper, in CSS px (96 to the inch). A landscape page less 12 mm margins is
 * at least 255.4 mm wide (US Letter: 279.4 − 24; A4: 297 − 24 = 273) and 186 mm high (A4: 210 − 24;
 * Letter: 215.9 − 24 = 191.9), so 965 × 703 px; a tile keeps under that with room above it for the
 * title block, the view's heading and its caption.
 */
export const TILE_BOX = { width: 960, height: 540 } as const
/** 7 pt in CSS px: 7 × 96 / 72 = 9.33. */
export const MIN_PRINT_TEXT_PX = (7 * 96) / 72
/** The smallest text the drawings set: the genogram's sub-lines and fold buttons, Structure's lines (structure-cards.ts). */
const SMALLEST_TEXT_PX = Math.min(LINE_SIZE, TEXT_SIZE)
/** Room kept around a drawing's content, in its own units, so strokes at the edge are not cut. */
const MARGIN = 8

/**
 * The drawings a view shows (the Family view's genogram and its estate strip, the Structure view) and
 * what is copied whole (the Family view's legends, the Estate table, the Flow view's columns and words).
 */
const DRAWINGS = 'svg.hv-gn-svg, svg.hv-gn-strip, svg.hv-st-svg'
/** The Flow view's columns (wrapped to the page's width on paper, print.css), warnings, assumptions line and disclaimer. */
const FLOW = '.hv-flow-columns, .hv-flow-warnings, .hv-flow-assumptions, .hv-flow-disclaimer'
const PRINTED = `${DRAWINGS}, .hv-gn-legend, table.hv-estate, ${FLOW}`
/** Attributes a printed copy drops: ids (they would be duplicated), focus and the shell's selection hooks. */
const DROPPED = ['id', 'tabindex', 'role', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'data-id']

export interface Rect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface Tiling {
  /** Paper px per drawing unit. */
  readonly scale: number
  readonly columns: number
  readonly rows: number
  /** Row by row, in the drawing's own units. */
  readonly tiles: readonly Rect[]
}

/** A view as the print layout reads it: the panel it is drawn in. */
export interface PrintedView {
  readonly view: ViewName
  readonly label: string
  readonly panel: HTMLElement
}

/**
 * How a drawing of `content` (its own units, 1 unit = 1 CSS px on screen) goes on paper: fitted to
 * `box` when its text stays at least 7 pt, else in equal tiles of at most `box` at the scale that
 * keeps its smallest text at 7 pt. Never enlarged.
 */
export function tileDrawing(content: Rect, box: { width: number; height: number } = TILE_BOX): Tiling {
  const fit = Math.min(1, box.width / content.width, box.height / content.height)
  const scale = Math.max(fit, MIN_PRINT_TEXT_PX / SMALLEST_TEXT_PX)
  // A hair of tolerance, so a drawing that fits exactly is not cut into a sliver.
  const columns = Math.max(1, Math.ceil((content.width * scale) / box.width - 1e-9))
  const rows = Math.max(1, Math.ceil((content.height * scale) / box.height - 1e-9))
  const width = content.width / columns
  const height = content.height / rows
  const tiles: Rect[] = []
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      tiles.push({ x: content.x + column * width, y: content.y + row * height, width, height })
    }
  }
  return { scale, columns, rows, tiles }
}

/** "As of" the household's date (an ISO date, shown in the reader's locale), else today's. */
function asOfText(asOf: string | undefined, today: Date): string {
  const iso = asOf === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(asOf)
  if (asOf !== undefined && iso === null) return `As of ${asOf}`
  // An ISO date names a calendar day, not an instant: read and shown in UTC, it stays that day.
  const date = iso === null ? today : new Date(Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])))
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', ...(iso === null ? {} : { timeZone: 'UTC' }) })
  return `As of ${format.format(date)}`
}

/** A copy for paper: no ids, no focus stops, nothing the shell finds a live node by. */
function inertCopy<T extends Element>(element: T): T {
  const copy = element.cloneNode(true) as T
  for (const node of [copy, ...copy.querySelectorAll('*')]) {
    for (const name of DROPPED) node.removeAttribute(name)
  }
  return copy
}

/** The drawing's content in its own units, with a margin; measured with its panel shown for the moment. */
function contentOf(svg: SVGSVGElement): Rect | null {
  const box = svg.getBBox()
  if (box.width <= 0 || box.height <= 0) return null
  return {
    x: box.x - MARGIN,
    y: box.y - MARGIN,
    width: box.width + 2 * MARGIN,
    height: box.height + 2 * MARGIN,
  }
}

function printTiles(section: HTMLElement, svg: SVGSVGElement, content: Rect, label: string): void {
  const { scale, columns, rows, tiles } = tileDrawing(content)
  tiles.forEach((tile, k) => {
    const figure = htmlElement('figure', 'hv-print-tile', section)
    const copy = inertCopy(svg)
    copy.classList.add('hv-print-svg')
    copy.setAttribute('viewBox', `${tile.x} ${tile.y} ${tile.width} ${tile.height}`)
    copy.setAttribute('width', (tile.width * scale).toFixed(2))
    copy.setAttribute('height', (tile.height * scale).toFixed(2))
    copy.setAttribute('role', 'img')
    copy.setAttribute('aria-label', label)
    figure.append(copy)
    if (tiles.length > 1) {
      const row = Math.floor(k / columns) + 1
      const column = (k % columns) + 1
      const where = `row ${row} of ${rows}, column ${column} of ${columns}`
      htmlElement('figcaption', 'hv-print-caption', figure, `${label}, part ${k + 1} of ${tiles.length} (${where})`)
    }
  })
}

function printView(block: HTMLElement, { view, label, panel }: PrintedView): void {
  const section = htmlElement('section', `hv-print-view hv-print-view-${view}`, block)
  htmlElement('h3', 'hv-print-view-title', section, label)
  const wasHidden = panel.hidden
  // getBBox needs a laid-out drawing: the panel is shown while it is read, and hidden again before
  // anything is painted.
  panel.hidden = false
  for (const element of panel.querySelectorAll(PRINTED)) {
    const content = element instanceof SVGSVGElement && element.matches(DRAWINGS) ? contentOf(element) : null
    if (element instanceof SVGSVGElement && content !== null) printTiles(section, element, content, label)
    else section.append(inertCopy(element))
  }
  panel.hidden = wasHidden
}

/** Replaces the host's print block with one built from the views as they are drawn now, and returns it. */
export function buildPrintBlock(
  host: HTMLElement,
  household: ViewHousehold,
  views: readonly PrintedView[],
): HTMLElement {
  host.querySelector(':scope > .hv-print')?.remove()
  const block = htmlElement('div', 'hv-print', host)
  const title = htmlElement('header', 'hv-print-title', block)
  htmlElement('h2', 'hv-print-name', title, household.household.name)
  htmlElement('p', 'hv-print-as-of', title, asOfText(household.household.asOf, new Date()))
  htmlElement('p', 'hv-print-disclaimer', title, DISCLAIMER)
  for (const view of views) printView(block, view)
  return block
}

/** Builds the print block and opens the browser's print dialog (what DrawnHousehold.print() does). */
export function printHousehold(host: HTMLElement, household: ViewHousehold, views: readonly PrintedView[]): void {
  buildPrintBlock(host, household, views)
  window.print()
}

/**
 * Builds the print block when the reader prints from the browser's menu (printHousehold has built it
 * already when the Print button did), and removes it once printing is over.
 */
export function watchPrinting(
  host: HTMLElement,
  household: ViewHousehold,
  views: readonly PrintedView[],
  signal: AbortSignal,
): void {
  window.addEventListener(
    'beforeprint',
    () => {
      if (host.querySelector(':scope > .hv-print') === null) buildPrintBlock(host, household, views)
    },
    { signal },
  )
  window.addEventListener('afterprint', () => host.querySelector(':scope > .hv-print')?.remove(), { signal })
}
