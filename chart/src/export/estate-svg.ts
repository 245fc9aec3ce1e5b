// The Estate view as a drawing, for PNG and SVG export: the view itself is an HTML table, which
// standaloneSvg cannot copy, so its rows are drawn again as SVG text and bars, the same numbers in
// the same order (estateTable on the look-through): each bucket with its amount and bar, the
// entities under it, then the estate total and the grand total. It is drawn into the page only for
// the moment of the export (standaloneSvg reads the computed styles: views.css colours the text and
// the bars by the theme) and removed after.
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { estateTable } from '../estate/estate-table.ts'
import { canvasMeasure, cssFont } from '../text/measure.ts'
import { amountFormatter } from '../views/amount-format.ts'
import { svgElement } from '../views/dom.ts'
import { BAR_WIDTH } from '../views/estate-view.ts'
import type { ViewHousehold } from '../views/view-types.ts'

const TEXT_SIZE = 13
const BOLD = 650
const REGULAR = 400
const ROW_HEIGHT = 24
const MARGIN = 16
const INDENT = 18
const GAP = 24
const BAR_HEIGHT = 12

interface DrawnRow {
  readonly label: string
  readonly amount: number
  readonly bold: boolean
  readonly indent: number
  /** The bucket whose bar the row carries; entries and totals carry none. */
  readonly bar?: string
}

/** Draws the Estate view's table as an SVG appended to `parent` (the caller removes it). */
export function drawEstateSvg(parent: Element, household: ViewHousehold, fontFamily: string): SVGSVGElement {
  const format = amountFormatter(household.household.currency)
  const table = estateTable(household, lookThroughEstate(household))
  const rows: DrawnRow[] = table.rows.flatMap((row) => [
    { label: row.label, amount: row.amount, bold: true, indent: 0, bar: row.bucket },
    ...row.entries.map((entry) => ({ label: entry.label, amount: entry.amount, bold: false, indent: INDENT })),
  ])
  rows.push(
    { label: 'Estate total', amount: table.estateTotal, bold: true, indent: 0 },
    { label: 'All holdings', amount: table.grandTotal, bold: true, indent: 0 },
  )
  const measure = (text: string, bold: boolean) =>
    canvasMeasure(cssFont(TEXT_SIZE, bold ? BOLD : REGULAR, fontFamily))(text)
  const labelWidth = Math.ceil(Math.max(0, ...rows.map((row) => row.indent + measure(row.label, row.bold))))
  const amountWidth = Math.ceil(Math.max(0, ...rows.map((row) => measure(format(row.amount), row.bold))))
  const amountEnd = MARGIN + labelWidth + GAP + amountWidth
  const barX = amountEnd + GAP
  const largest = Math.max(0, ...table.rows.map((row) => row.amount))
  const width = barX + BAR_WIDTH + MARGIN
  const top = MARGIN + ROW_HEIGHT
  const height = top + rows.length * ROW_HEIGHT + MARGIN

  const svg = svgElement(
    'svg',
    {
      class: 'hv-estate-svg',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      'font-family': fontFamily,
      'font-size': TEXT_SIZE,
    },
    parent,
  )
  svgElement(
    'text',
    { class: 'hv-estate-svg-caption', x: MARGIN, y: MARGIN + 14, 'font-weight': BOLD },
    svg,
  ).textContent = `${household.household.name}: the estate by look-through`
  rows.forEach((row, k) => {
    const baseline = top + k * ROW_HEIGHT + 16
    const weight = row.bold ? BOLD : REGULAR
    const text = (x: number, anchor: string, content: string, className: string) => {
      svgElement(
        'text',
        { class: className, x, y: baseline, 'text-anchor': anchor, 'font-weight': weight },
        svg,
      ).textContent = content
    }
    text(MARGIN + row.indent, 'start', row.label, 'hv-estate-svg-label')
    text(amountEnd, 'end', format(row.amount), row.bold ? 'hv-estate-svg-label' : 'hv-estate-svg-muted')
    if (row.bar === undefined) return
    const barWidth = largest > 0 ? (row.amount / largest) * BAR_WIDTH : 0
    svgElement(
      'rect',
      {
        class: `hv-bar hv-bar-${row.bar}`,
        x: barX,
        y: baseline - BAR_HEIGHT + 2,
        width: barWidth.toFixed(2),
        height: BAR_HEIGHT,
        rx: 2,
      },
      svg,
    )
  })
  return svg
}
