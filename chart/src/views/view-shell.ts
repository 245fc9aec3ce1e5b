// The 0.2.0 chart's three linked views of one household: Family (the genogram), Structure (who owns
// and runs what) and Estate (the totals by look-through), switched by a tab list, with one selection
// shared by all of them: selecting in one view marks the same id in the others (class hv-selected on
// every node that carries its data-id) and the summary panel says what it is. Not yet the released
// chart's entry point (main.ts draws 0.1.x); the SDK will forward onSelect and onViewChange as events.
// The head also offers Print (print-layout.ts: the chart prints itself, title block and all views)
// and Present (present-mode.ts: full screen, larger type, the views as slides).
import type { Theme } from '../../payload.ts'
import { drawEstateView } from './estate-view.ts'
import { htmlElement } from './dom.ts'
import { drawGenogramView } from './genogram-view.ts'
import { createPresentMode } from './present-mode.ts'
import { printHousehold, watchPrinting, type PrintedView } from './print-layout.ts'
import { createSelection, type Selected, type SelectedKind } from './selection.ts'
import { drawStructureView } from './structure-view.ts'
import { createSummaryPanel } from './summary-panel.ts'
import { createViewTabs, type ViewTab } from './view-tabs.ts'
import type { DrawnView, ViewHousehold, ViewName } from './view-types.ts'

export interface HouseholdOptions {
  theme: Theme
  /** The view shown first; Family when absent or not offered. */
  view?: ViewName
  /** The selection changed to a person or an entity (not called when it is cleared). */
  onSelect?(id: string, kind: SelectedKind): void
  /** The view shown changed, by the reader or by setView. */
  onViewChange?(view: ViewName): void
}

export interface DrawnHousehold {
  setView(view: ViewName): void
  /** Selects the person or entity `id` and brings its node in the current view into view and focus. */
  focus(id: string): void
  setTheme(theme: Theme): void
  /** Prints every view on landscape pages under a title block (the browser's print dialog, or PDF). */
  print(): void
  /** Enters Present mode (full screen, larger type, the views stepped through), or leaves it when on. */
  present(): void
  destroy(): void
}

const TABS: readonly ViewTab[] = [
  { view: 'family', label: 'Family' },
  { view: 'structure', label: 'Structure' },
  { view: 'estate', label: 'Estate' },
]
const SELECTED_CLASS = 'hv-selected'
const live = new WeakMap<HTMLElement, DrawnHousehold>()
let serial = 0

export function drawHousehold(host: HTMLElement, household: ViewHousehold, options: HouseholdOptions): DrawnHousehold {
  live.get(host)?.destroy()
  host.replaceChildren()
  const controller = new AbortController()
  const idPrefix = `hv${++serial}`
  host.classList.add('hc', 'hv')
  host.dataset.theme = options.theme

  const head = htmlElement('div', 'hv-head', host)
  htmlElement('h2', 'hv-title', head, household.household.name)
  const body = htmlElement('div', 'hv-body', host)
  const panelsParent = htmlElement('div', 'hv-panels', body)
  const summary = createSummaryPanel(body, household, `${idPrefix}-summary`)
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
  const printButton = htmlElement('button', 'hc-btn hv-action', actions, 'Print')
  const presentButton = htmlElement('button', 'hc-btn hv-action', actions, 'Present')
  const presenting = createPresentMode(host, presentButton, actions, TABS, () => current, setView)
  const printed: PrintedView[] = TABS.map(({ view, label }) => ({ view, label, panel: tabs.panels.get(view)! }))
  const print = () => printHousehold(host, household, printed)
  watchPrinting(host, household, printed, controller.signal)
  for (const [button, action] of [
    [printButton, print],
    [presentButton, () => presenting.toggle()],
  ] as const) {
    button.type = 'button'
    button.addEventListener('click', action, { signal: controller.signal })
  }
  const family = drawGenogramView(tabs.panels.get('family')!, household, options.theme, select)
  const views = new Map<ViewName, DrawnView>([
    ['family', family],
    ['structure', drawStructureView(tabs.panels.get('structure')!, household, select)],
    ['estate', drawEstateView(tabs.panels.get('estate')!, household, select)],
  ])

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
      host.classList.remove('hc', 'hv')
      delete host.dataset.theme
    },
  }
  live.set(host, drawn)
  return drawn
}
