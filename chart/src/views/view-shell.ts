// The chart's linked views of one household: Family (the genogram), Structure (who owns and runs
// what), Estate (the totals by look-through) and, from 0.3.0, Flow (the estate at the first and the
// second death with the federal estate tax, flow-view.ts), switched by a tab list, with one selection
// shared by all of them: selecting in one view marks the same id in the others (class hv-selected on
// every node that carries its data-id) and the summary bar says what it is. main.ts draws it in the
// embed iframe and forwards onSelect and onViewChange to the host as `select` and `viewchange`.
// The head also offers Download PNG / SVG (download-control.ts: the view shown, made in the
// browser), Print (print-layout.ts: title block and all views) and Present (present-mode.ts: full
// screen, larger type, the views as slides). Under the views, the household in words (text-version.ts).
// The Flow view's projection goes to onEstate once the shell is drawn and again whenever the reader
// changes who dies first or a year (main.ts posts it to the host as `estate`). The Flow view opens
// on `flowChoices` when given (main.ts carries the reader's across an appearance redraw, as it
// carries the view shown).
//
// Where files and printing go (host-handlers.ts): with no `handlers` (a page drawing the chart
// itself) the chart saves and prints in its own page; with `handlers` (the embed iframe, whose
// sandbox may neither download nor open a print dialog) the files and the print document are handed
// to them, and a control whose handler is missing is not offered at all.
import type { Payload, Theme } from '../../payload.ts'
import { saveFile } from '../export/download.ts'
import type { EstateProjection } from '../flow/projection-types.ts'
import type { Appearance } from './appearance.ts'
import { createDownloadControl } from './download-control.ts'
import { drawEstateView } from './estate-view.ts'
import { htmlElement } from './dom.ts'
import type { FlowChoices } from './flow-controls.ts'
import { drawFlowView } from './flow-view.ts'
import { drawGenogramView } from './genogram-view.ts'
import { applyAppearance, fontFamilyOf } from './host-appearance.ts'
import type { ExportedFile, HostHandlers } from './host-handlers.ts'
import { createPresentMode } from './present-mode.ts'
import { printDocumentOf } from './print-document.ts'
import { buildPrintBlock, printHousehold, watchPrinting, type PrintedView } from './print-layout.ts'
import { createSelection, type Selected, type SelectedKind } from './selection.ts'
import { drawStructureView } from './structure-view.ts'
import { createSummaryPanel } from './summary-panel.ts'
import { drawTextVersion } from './text-version.ts'
import { createViewTabs, type ViewTab } from './view-tabs.ts'
import type { DrawnView, ViewName } from './view-types.ts'

export interface HouseholdOptions {
  theme: Theme
  /** The view shown first; Family when absent or not offered. */
  view?: ViewName
  /** The selection changed to a person or an entity (not called when it is cleared). */
  onSelect?(id: string, kind: SelectedKind): void
  /** The view shown changed, by the reader or by setView. */
  onViewChange?(view: ViewName): void
  /**
   * The Flow view's estate projection: once the shell is drawn, and again whenever the reader changes
   * who dies first or a year of death (not called when the projection could not be made).
   */
  onEstate?(projection: EstateProjection): void
  /**
   * Who dies first and the years the Flow view opens on, over the payload's assumptions: a redraw
   * passes the choices of the projection onEstate heard last (flowChoicesOf), so the reader's keep.
   */
  flowChoices?: FlowChoices
  /** The host's font family, accent colour and corner radius (read and checked by appearance.ts). */
  appearance?: Appearance
  /** Where downloads and printing go; absent: this page saves and prints itself. */
  handlers?: HostHandlers
}

export interface DrawnHousehold {
  setView(view: ViewName): void
  /** Selects the person or entity `id` and brings its node in the current view into view and focus. */
  focus(id: string): void
  setTheme(theme: Theme): void
  /**
   * Prints every view on landscape pages under a title block: the browser's print dialog, or the
   * host's print handler given the print document; nothing when the host handles no printing.
   */
  print(): void
  /** Enters Present mode (full screen, larger type, the views stepped through), or leaves it when on. */
  present(): void
  destroy(): void
}

const TABS: readonly ViewTab[] = [
  { view: 'family', label: 'Family' },
  { view: 'structure', label: 'Structure' },
  { view: 'estate', label: 'Estate' },
  { view: 'flow', label: 'Flow' },
]
const SELECTED_CLASS = 'hv-selected'
const live = new WeakMap<HTMLElement, DrawnHousehold>()
let serial = 0

export function drawHousehold(host: HTMLElement, household: Payload, options: HouseholdOptions): DrawnHousehold {
  live.get(host)?.destroy()
  host.replaceChildren()
  const controller = new AbortController()
  const idPrefix = `hv${++serial}`
  host.classList.add('hc', 'hv')
  host.dataset.theme = options.theme
  const appearance = options.appearance ?? {}
  const removeAppearance = applyAppearance(host, appearance)
  const { handlers } = options

  const head = htmlElement('div', 'hv-head', host)
  htmlElement('h2', 'hv-title', head, household.household.name)
  const body = htmlElement('div', 'hv-body', host)
  // The summary first: it is the bar over the views (views.css).
  const summary = createSummaryPanel(body, household, `${idPrefix}-summary`)
  const panelsParent = htmlElement('div', 'hv-panels', body)
  const selection = createSelection()
  const select = (id: string, kind: SelectedKind) => selection.select(id, kind)

  let current: ViewName = TABS.some((tab) => tab.view === options.view) ? options.view! : 'family'
  const setView = (view: ViewName) => {
    if (view === current || !TABS.some((tab) => tab.view === view)) return
    current = view
    tabs.show(view)
    presenting.viewShown(view)
    options.onViewChange?.(view)
  }
  const tabs = createViewTabs(head, panelsParent, TABS, idPrefix, setView, controller.signal)
  tabs.show(current)
  // After the tab list: the head reads name, views, step (when presenting), then the actions.
  const actions = htmlElement('div', 'hv-actions', head)
  // The host's handlers are called as its methods (bound), as a host that keeps state on `this` expects.
  const save =
    handlers === undefined
      ? (file: ExportedFile) => void saveFile(file.data, file.fileName)
      : handlers.download?.bind(handlers)
  if (save !== undefined) {
    const source = {
      household,
      fontFamily: fontFamilyOf(appearance),
      current: () => ({ view: current, panel: tabs.panels.get(current)! }),
      estate: () => flow.projection(),
      save,
    }
    createDownloadControl(actions, source, controller.signal)
  }
  const printed: PrintedView[] = TABS.map(({ view, label }) => ({ view, label, panel: tabs.panels.get(view)! }))
  const printToHost = handlers?.print?.bind(handlers)
  const print =
    handlers === undefined
      ? () => printHousehold(host, household, printed)
      : printToHost === undefined
        ? () => undefined
        : () => {
            // Built for the host's print document only, then gone: the page keeps no second copy.
            const block = buildPrintBlock(host, household, printed)
            try {
              printToHost(printDocumentOf(block, household.household.name))
            } finally {
              block.remove()
            }
          }
  if (handlers === undefined || printToHost !== undefined) {
    const printButton = htmlElement('button', 'hc-btn hv-action', actions, 'Print')
    printButton.type = 'button'
    printButton.addEventListener('click', print, { signal: controller.signal })
  }
  // The browser's own print menu prints this page as it is: the print block stands in for the views.
  watchPrinting(host, household, printed, controller.signal)
  const presentButton = htmlElement('button', 'hc-btn hv-action', actions, 'Present')
  presentButton.type = 'button'
  const presenting = createPresentMode(host, presentButton, actions, TABS, () => current, setView)
  presentButton.addEventListener('click', () => presenting.toggle(), { signal: controller.signal })
  const family = drawGenogramView(tabs.panels.get('family')!, household, options.theme, select, appearance)
  const views = new Map<ViewName, DrawnView>([
    ['family', family],
    ['structure', drawStructureView(tabs.panels.get('structure')!, household, select, appearance)],
    ['estate', drawEstateView(tabs.panels.get('estate')!, household, select)],
  ])
  const flow = drawFlowView(
    tabs.panels.get('flow')!,
    household,
    idPrefix,
    (projection) => {
      text.showEstate(projection)
      options.onEstate?.(projection)
    },
    options.flowChoices,
  )
  views.set('flow', flow)
  const text = drawTextVersion(host, household, flow.projection())

  const mark = (selected: Selected | null) => {
    for (const node of host.querySelectorAll(`.${SELECTED_CLASS}`)) node.classList.remove(SELECTED_CLASS)
    if (selected === null) return
    for (const node of host.querySelectorAll(`[data-id="${CSS.escape(selected.id)}"]`))
      node.classList.add(SELECTED_CLASS)
  }
  const stopListening = selection.subscribe((selected) => {
    mark(selected)
    summary.show(selected)
    for (const view of views.values()) view.selected(selected?.id ?? null)
    if (selected !== null) options.onSelect?.(selected.id, selected.kind)
  })

  const kindOf = (id: string): SelectedKind | undefined => {
    if (household.people.some((person) => person.id === id)) return 'person'
    return household.entities?.some((entity) => entity.id === id) ? 'entity' : undefined
  }

  const drawn: DrawnHousehold = {
    setView,
    focus(id) {
      const kind = kindOf(id)
      if (kind === undefined) return
      selection.select(id, kind)
      views.get(current)?.reveal(id)
    },
    setTheme(theme) {
      host.dataset.theme = theme
      family.setTheme(theme)
    },
    print,
    present: () => presenting.toggle(),
    destroy() {
      presenting.leave()
      stopListening()
      controller.abort()
      for (const view of views.values()) view.destroy()
      if (live.get(host) === drawn) live.delete(host)
      host.replaceChildren()
      removeAppearance()
      host.classList.remove('hc', 'hv')
      delete host.dataset.theme
    },
  }
  live.set(host, drawn)
  const projection = flow.projection()
  if (projection !== null) options.onEstate?.(projection)
  return drawn
}
