// The Flow view as a drawing, for PNG and SVG export, as estate-svg.ts draws the Estate view: the view
// is HTML (columns of tables), which standaloneSvg cannot copy, so its columns are drawn again as SVG
// boxes and text, the same rows in the same order (flow-statement.ts on the projection shown, with
// the reader's order and years): Today, each death's statement and where it passes, who ends with
// what and what is outside. Each column is as wide as its widest row; under them the warnings, the
// assumptions line and the disclaimer, wrapped to the drawing's width. It is drawn into the page only
// for the moment of the export (standaloneSvg reads the computed styles, views.css colours it by the
// theme) and removed after.
import type { EstateProjection } from '../flow/projection-types.ts'
import { canvasMeasure, cssFont } from '../text/measure.ts'
import { amountFormatter } from '../views/amount-format.ts'
import { svgElement } from '../views/dom.ts'
import { assumptionsLine } from '../views/flow-assumptions.ts'
import { clientNamesOf, flowColumns, type FlowColumn, type FlowRow } from '../views/flow-statement.ts'
import type { ViewHousehold } from '../views/view-types.ts'

const TEXT_SIZE = 13
const BOLD = 650
const REGULAR = 400
const ROW_HEIGHT = 20
const MARGIN = 16
const PAD = 12
const INDENT = 12
const GAP = 16
const COLUMN_GAP = 28
/** The narrowest the drawing gets: the words under the columns wrap to its width. */
const MIN_WIDTH = 640

interface Placed {
  readonly column: FlowColumn
  readonly x: number
  readonly width: number
}

/** Draws the Flow view's columns for `projection` as an SVG appended to `parent` (the caller removes it). */
export function drawFlowSvg(
  parent: Element,
  household: ViewHousehold,
  projection: EstateProjection,
  fontFamily: string,
): SVGSVGElement {
  const format = amountFormatter(household.household.currency)
  const columns = flowColumns(projection, clientNamesOf(household.people), format)
  const measure = (text: string, bold = false) =>
    canvasMeasure(cssFont(TEXT_SIZE, bold ? BOLD : REGULAR, fontFamily))(text)
  const amountText = (row: FlowRow) => (row.sign === undefined ? '' : `${row.sign} `) + format(row.amount)
  const rowWidth = (row: FlowRow) =>
    (row.kind === 'part' ? INDENT : 0) +
    Math.max(measure(row.label, row.kind === 'result'), row.note === undefined ? 0 : measure(row.note)) +
    GAP +
    measure(amountText(row), row.kind === 'result')

  let x = MARGIN
  const placed: Placed[] = columns.map((column) => {
    const rows = [...column.rows, ...(column.more?.rows ?? [])]
    const width = Math.ceil(
      2 * PAD +
        Math.max(
          measure(column.title, true),
          column.subtitle === undefined ? 0 : measure(column.subtitle),
          column.more === undefined ? 0 : measure(column.more.title, true),
          ...rows.map(rowWidth),
        ),
    )
    const at = { column, x, width }
    x += width + COLUMN_GAP
    return at
  })
  const width = Math.max(MIN_WIDTH, x - COLUMN_GAP + MARGIN)
  const top = MARGIN + 28

  const svg = svgElement('svg', { class: 'hv-flow-svg', 'font-family': fontFamily, 'font-size': TEXT_SIZE }, parent)
  const text = (tx: number, ty: number, content: string, className: string, bold = false, anchor = 'start') => {
    svgElement(
      'text',
      { class: className, x: tx, y: ty, 'text-anchor': anchor, 'font-weight': bold ? BOLD : REGULAR },
      svg,
    ).textContent = content
  }
  text(MARGIN, MARGIN + 14, `${household.household.name}: the estate at each death`, 'hv-flow-svg-ink', true)

  let bottom = top
  placed.forEach(({ column, x: left, width: columnWidth }, k) => {
    const box = svgElement('rect', { class: 'hv-flow-svg-box', x: left, y: top, width: columnWidth, rx: 6 }, svg)
    let y = top + PAD + 14
    text(left + PAD, y, column.title, 'hv-flow-svg-ink', true)
    if (column.subtitle !== undefined) {
      y += ROW_HEIGHT
      text(left + PAD, y, column.subtitle, 'hv-flow-svg-muted')
    }
    const drawRows = (rows: readonly FlowRow[]) => {
      for (const row of rows) {
        y += ROW_HEIGHT
        const bold = row.kind === 'result'
        const className = row.kind === 'part' ? 'hv-flow-svg-muted' : 'hv-flow-svg-ink'
        text(left + PAD + (row.kind === 'part' ? INDENT : 0), y, row.label, className, bold)
        text(left + columnWidth - PAD, y, amountText(row), className, bold, 'end')
        if (row.note !== undefined) {
          y += ROW_HEIGHT - 4
          text(left + PAD, y, row.note, 'hv-flow-svg-muted')
        }
      }
    }
    drawRows(column.rows)
    if (column.more !== undefined && column.more.rows.length > 0) {
      y += ROW_HEIGHT + 6
      text(left + PAD, y, column.more.title, 'hv-flow-svg-ink', true)
      drawRows(column.more.rows)
    }
    const height = y - top + PAD
    box.setAttribute('height', String(height))
    bottom = Math.max(bottom, top + height)
    if (k > 0) text(left - COLUMN_GAP / 2, top + 40, '→', 'hv-flow-svg-muted', false, 'middle')
  })

  // The words under the columns, each wrapped to the drawing's width.
  let y = bottom + 8
  const paragraph = (content: string, className: string) => {
    y += 8
    for (const line of wrapWords(content, width - 2 * MARGIN, (words) => measure(words))) {
      y += ROW_HEIGHT
      text(MARGIN, y, line, className)
    }
  }
  for (const warning of projection.warnings) paragraph(`Warning: ${warning.message}`, 'hv-flow-svg-ink')
  paragraph(assumptionsLine(projection, format), 'hv-flow-svg-ink')
  paragraph(projection.disclaimer, 'hv-flow-svg-muted')
  const height = y + MARGIN
  svg.setAttribute('width', String(width))
  svg.setAttribute('height', String(height))
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`)
  return svg
}

/** `content` in lines of at most `width` as measured, broken between words (a longer word keeps a line of its own). */
function wrapWords(content: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of content.split(/\s+/).filter((each) => each !== '')) {
    const next = line === '' ? word : `${line} ${word}`
    if (line !== '' && measure(next) > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line !== '') lines.push(line)
  return lines
}
