// The Estate view: the household's totals by look-through (estate-table.ts) as a real table, one
// row per bucket (each client's estate, joint, outside the estate, charity…) with its amount in full
// and a bar as long as its share of the largest bucket, then under it the entities whose own value
// lands there, each a button that selects the entity; the estate total and the grand total close it.
// Bars carry no text and are hidden from assistive technology: the numbers beside them say it all.
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { estateTable, type EstateTableRow } from '../estate/estate-table.ts'
import { amountFormatter } from './amount-format.ts'
import { htmlElement, svgElement } from './dom.ts'
import { nodeName } from './node-names.ts'
import type { SelectedKind } from './selection.ts'
import type { DrawnView, ViewHousehold } from './view-types.ts'

/** The bar column's width in CSS px: the largest bucket's bar fills it. */
export const BAR_WIDTH = 240
const BAR_HEIGHT = 14

function headerRow(head: HTMLTableSectionElement): void {
  const row = htmlElement('tr', '', head)
  for (const [text, className] of [
    ['Held by', 'hv-col-label'],
    ['Amount', 'hv-col-amount'],
    ['Share of the largest', 'hv-col-bar'],
  ] as const) {
    htmlElement('th', className, row, text).scope = 'col'
  }
}

function bar(cell: HTMLElement, row: EstateTableRow, largest: number): void {
  const svg = svgElement(
    'svg',
    { width: BAR_WIDTH, height: BAR_HEIGHT, viewBox: `0 0 ${BAR_WIDTH} ${BAR_HEIGHT}`, 'aria-hidden': 'true' },
    cell,
  )
  const width = largest > 0 ? (row.amount / largest) * BAR_WIDTH : 0
  svgElement(
    'rect',
    { class: `hv-bar hv-bar-${row.bucket}`, x: 0, y: 1, width: width.toFixed(2), height: BAR_HEIGHT - 2, rx: 2 },
    svg,
  )
}

export function drawEstateView(
  panel: HTMLElement,
  household: ViewHousehold,
  onSelect: (id: string, kind: SelectedKind) => void,
): DrawnView {
  const controller = new AbortController()
  const format = amountFormatter(household.household.currency)
  const table = estateTable(household, lookThroughEstate(household))
  const largest = Math.max(0, ...table.rows.map((row) => row.amount))

  const element = htmlElement('table', 'hv-estate', panel)
  htmlElement('caption', '', element, `${household.household.name}: the estate by look-through`)
  headerRow(element.createTHead())
  for (const row of table.rows) {
    const body = htmlElement('tbody', `hv-bucket hv-bucket-${row.bucket}`, element)
    body.dataset.bucket = row.bucket
    const bucketRow = htmlElement('tr', 'hv-bucket-row', body)
    htmlElement('th', 'hv-col-label', bucketRow, row.label).scope = 'row'
    htmlElement('td', 'hv-col-amount', bucketRow, format(row.amount))
    bar(htmlElement('td', 'hv-col-bar', bucketRow), row, largest)
    for (const entry of row.entries) {
      const entryRow = htmlElement('tr', 'hv-entry-row', body)
      const label = htmlElement('th', 'hv-col-label', entryRow)
      label.scope = 'row'
      const button = htmlElement('button', 'hv-entry', label, entry.label)
      button.type = 'button'
      button.dataset.id = entry.entityId
      button.setAttribute('aria-label', nodeName(household, entry.entityId, 'entity', entry.label))
      button.addEventListener('click', () => onSelect(entry.entityId, 'entity'), { signal: controller.signal })
      htmlElement('td', 'hv-col-amount', entryRow, format(entry.amount))
      htmlElement('td', 'hv-col-bar', entryRow)
    }
  }
  if (table.rows.length === 0) {
    const cell = htmlElement('td', 'hv-estate-empty', htmlElement('tr', '', htmlElement('tbody', '', element)))
    cell.colSpan = 3
    cell.textContent = 'No entity holds a value yet.'
  }
  const foot = element.createTFoot()
  for (const [text, amount, className] of [
    ['Estate total', table.estateTotal, 'hv-estate-total'],
    ['All holdings', table.grandTotal, 'hv-grand-total'],
  ] as const) {
    const row = htmlElement('tr', className, foot)
    htmlElement('th', 'hv-col-label', row, text).scope = 'row'
    htmlElement('td', 'hv-col-amount', row, format(amount))
    htmlElement('td', 'hv-col-bar', row)
  }

  return {
    reveal(id) {
      const button = element.querySelector<HTMLButtonElement>(`.hv-entry[data-id="${CSS.escape(id)}"]`)
      if (button === null) return false
      button.focus()
      button.scrollIntoView({ block: 'nearest' })
      return true
    },
    selected: () => undefined,
    destroy() {
      controller.abort()
      element.remove()
    },
  }
}
