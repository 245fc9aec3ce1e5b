// The Flow view (chart 0.3.0): what happens to the estate at the first and the second death with the
// federal estate tax, from projectEstate (chart/src/flow/project-estate.ts). Columns, left to right:
// Today (each client's estate, joint, outside, charity), each death as a statement (flow-statement.ts:
// gross estate and its lines, deductions, taxable estate, gifts, the exclusion and its basis, the tax
// worked out (tentative tax − gift tax paid − credit = estate tax), the DSUE passed on, where it passes), and who ends with what, with what is outside both estates.
// They keep their width and the row scrolls sideways in a narrow frame rather than squeezing them.
// Under them: the projection's warnings, the assumptions line (flow-assumptions.ts) and the
// disclaimer. Every figure is a focus stop described by what it is made of (flow-explain.ts), and
// the explanation line under the controls shows those words for the figure focused or hovered. The
// controls (flow-controls.ts) change who dies first and the years: the projection is made again and
// only this view is drawn again; onChange hands the new projection to the shell. It opens on the
// payload's assumptions, or on `initial` (the choices the reader made before the shell was redrawn).
// The warnings are listed as the projection gives them, each with its message, whatever its code.
import type { Payload } from '../../payload.ts'
import { projectEstate, type ProjectionChoices } from '../flow/project-estate.ts'
import type { EstateProjection } from '../flow/projection-types.ts'
import { amountFormatter } from './amount-format.ts'
import { htmlElement } from './dom.ts'
import { assumptionsLine } from './flow-assumptions.ts'
import { createFlowControls, type FlowChoices, type FlowClient } from './flow-controls.ts'
import { clientNamesOf, flowColumns, livingClients, type FlowColumn, type FlowRow } from './flow-statement.ts'
import type { DrawnView } from './view-types.ts'

type Format = (amount: number) => string

export interface DrawnFlowView extends DrawnView {
  /** The projection drawn now; null when it could not be made. */
  projection(): EstateProjection | null
}

/** The words under the controls while no figure is focused or hovered. */
export const WHY_HINT = 'Focus or point at a figure to see what it is made of.'

/**
 * Each row's figure is a focus stop described by its explanation (a hidden element, for assistive
 * technology; the view shows the same words in its explanation line when it is focused or hovered).
 */
function drawRows(parent: Element, rows: readonly FlowRow[], format: Format, describe: (row: FlowRow) => string): void {
  const table = htmlElement('table', 'hv-flow-table', parent)
  const body = htmlElement('tbody', '', table)
  for (const row of rows) {
    const tr = htmlElement('tr', `hv-flow-row hv-flow-${row.kind}`, body)
    tr.dataset.figure = row.key
    const label = htmlElement('th', 'hv-flow-label-cell', tr)
    label.scope = 'row'
    htmlElement('span', 'hv-flow-row-label', label, row.label)
    if (row.note !== undefined) htmlElement('span', 'hv-flow-note', label, row.note)
    const cell = htmlElement('td', 'hv-flow-amount', tr)
    if (row.sign !== undefined) htmlElement('span', 'hv-flow-sign', cell, row.sign)
    const figure = htmlElement('span', 'hv-flow-figure', cell, format(row.amount))
    figure.tabIndex = 0
    const description = htmlElement('span', 'hv-flow-desc', cell, row.explanation)
    description.hidden = true
    description.id = describe(row)
    figure.setAttribute('aria-describedby', description.id)
  }
}

function drawColumn(
  parent: Element,
  column: FlowColumn,
  idPrefix: string,
  format: Format,
  describe: (row: FlowRow) => string,
): void {
  const section = htmlElement('section', `hv-flow-col hv-flow-col-${column.key.replace(/-\d+$/, '')}`, parent)
  section.dataset.column = column.key
  const heading = htmlElement('h3', 'hv-flow-col-title', section, column.title)
  heading.id = `${idPrefix}-flow-${column.key}`
  section.setAttribute('aria-labelledby', heading.id)
  if (column.subtitle !== undefined) htmlElement('p', 'hv-flow-col-subtitle', section, column.subtitle)
  drawRows(section, column.rows, format, describe)
  if (column.more !== undefined && column.more.rows.length > 0) {
    const block = htmlElement('div', 'hv-flow-more', section)
    block.dataset.block = column.key === 'recipients' ? 'outside' : 'passes'
    htmlElement('h4', 'hv-flow-more-title', block, column.more.title)
    drawRows(block, column.more.rows, format, describe)
  }
}

export function drawFlowView(
  panel: HTMLElement,
  payload: Payload,
  idPrefix: string,
  onChange: (projection: EstateProjection) => void,
  initial: FlowChoices = {},
): DrawnFlowView {
  const controller = new AbortController()
  const format = amountFormatter(payload.household.currency)
  const clients = livingClients(payload.people)
  const names = clientNamesOf(payload.people)

  const element = htmlElement('div', 'hv-flow', panel)
  htmlElement('h3', 'hv-flow-caption', element, `${payload.household.name}: the estate at each death`)
  let projection: EstateProjection | null = null
  const controls = createFlowControls(
    element,
    clients.map((client): FlowClient => ({ id: client.id, name: client.name })),
    idPrefix,
    (choices) => {
      if (draw(choices) && projection !== null) onChange(projection)
    },
    controller.signal,
  )
  // The explanation line: what the figure focused or hovered is made of (hidden from assistive
  // technology, which hears the same words as the figure's description).
  const why = htmlElement('p', 'hv-flow-why', element, WHY_HINT)
  why.setAttribute('aria-hidden', 'true')
  const body = htmlElement('div', 'hv-flow-body', element)
  let focused: Element | null = null
  let hovered: Element | null = null
  const figureOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest('.hv-flow-figure') : null
  const showWhy = () => {
    const figure = hovered ?? focused
    const id = figure?.getAttribute('aria-describedby')
    const text = id == null ? null : (body.querySelector(`#${CSS.escape(id)}`)?.textContent ?? null)
    why.textContent = text ?? WHY_HINT
    why.classList.toggle('hv-flow-why-on', text !== null)
  }
  const { signal } = controller
  const watch = (type: 'focusin' | 'focusout' | 'mouseover' | 'mouseleave', on: (event: Event) => void) =>
    body.addEventListener(
      type,
      (event) => {
        on(event)
        showWhy()
      },
      { signal },
    )
  watch('focusin', (event) => (focused = figureOf(event.target)))
  watch('focusout', () => (focused = null))
  watch('mouseover', (event) => (hovered = figureOf(event.target)))
  watch('mouseleave', () => (hovered = null))

  /** Makes the projection for `choices` and draws it; false when it could not be made. */
  function draw(choices: ProjectionChoices): boolean {
    body.replaceChildren()
    focused = hovered = null
    showWhy()
    let described = 0
    const describe = () => `${idPrefix}-flow-why-${++described}`
    try {
      projection = projectEstate(payload, choices)
    } catch (error) {
      projection = null
      htmlElement(
        'p',
        'hv-flow-error',
        body,
        `The projection could not be made: ${error instanceof Error ? error.message : String(error)}`,
      )
      return false
    }
    controls.show(projection)
    // A region of its own; a keyboard scrolls it by moving through its figures, each a focus stop.
    const row = htmlElement('div', 'hv-flow-columns', body)
    row.setAttribute('role', 'region')
    row.setAttribute('aria-label', 'The estate today, at each death, and who receives it')
    flowColumns(projection, names, format).forEach((column, k) => {
      if (k > 0) htmlElement('span', 'hv-flow-arrow', row, '→').setAttribute('aria-hidden', 'true')
      drawColumn(row, column, idPrefix, format, describe)
    })
    if (projection.warnings.length > 0) {
      const warnings = htmlElement('div', 'hv-flow-warnings', body)
      htmlElement('h4', 'hv-flow-more-title', warnings, 'Warnings')
      const list = htmlElement('ul', 'hv-flow-warning-list', warnings)
      for (const warning of projection.warnings) {
        const item = htmlElement('li', '', list, warning.message)
        item.dataset.code = warning.code
      }
    }
    htmlElement('p', 'hv-flow-assumptions', body, assumptionsLine(projection, format))
    htmlElement('p', 'hv-flow-disclaimer', body, projection.disclaimer)
    return true
  }
  draw(initial)

  return {
    projection: () => projection,
    reveal: () => false,
    selected: () => undefined,
    destroy() {
      controller.abort()
      element.remove()
    },
  }
}
