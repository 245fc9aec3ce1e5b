// The tab list that switches the views (the WAI-ARIA Authoring Practices' tabs pattern, with
// automatic activation): one tab in the Tab sequence, the selected one; Left and Right move to the
// previous and next tab and wrap, Home and End go to the first and last, and moving selects.
// Each tab controls a tabpanel; the panels of the other tabs are hidden.
import { htmlElement } from './dom.ts'
import type { ViewName } from './view-types.ts'

export interface ViewTab {
  readonly view: ViewName
  readonly label: string
}

export interface ViewTabs {
  /** The panel each view draws into. */
  readonly panels: ReadonlyMap<ViewName, HTMLElement>
  /** Shows `view`'s tab and panel as selected (it does not call onChoose). */
  show(view: ViewName): void
}

/** The tab a key moves to from tab `at` of `count`; undefined for a key the tab list does not take. */
function tabIndexAfter(key: string, at: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
      return (at + 1) % count
    case 'ArrowLeft':
      return (at + count - 1) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return undefined
  }
}

export function createViewTabs(
  tabParent: Element,
  panelParent: Element,
  tabs: readonly ViewTab[],
  idPrefix: string,
  onChoose: (view: ViewName) => void,
  signal: AbortSignal,
): ViewTabs {
  const list = htmlElement('div', 'hv-tabs', tabParent)
  list.setAttribute('role', 'tablist')
  list.setAttribute('aria-label', 'Views of the household')
  const buttons = new Map<ViewName, HTMLButtonElement>()
  const panels = new Map<ViewName, HTMLElement>()
  for (const { view, label } of tabs) {
    const tab = htmlElement('button', 'hv-tab', list, label)
    tab.type = 'button'
    tab.id = `${idPrefix}-tab-${view}`
    tab.setAttribute('role', 'tab')
    tab.setAttribute('aria-controls', `${idPrefix}-panel-${view}`)
    tab.addEventListener('click', () => onChoose(view), { signal })
    buttons.set(view, tab)
    const panel = htmlElement('div', `hv-panel hv-panel-${view}`, panelParent)
    panel.id = `${idPrefix}-panel-${view}`
    panel.setAttribute('role', 'tabpanel')
    panel.setAttribute('aria-labelledby', tab.id)
    panels.set(view, panel)
  }

  list.addEventListener(
    'keydown',
    (event) => {
      const at = tabs.findIndex(({ view }) => buttons.get(view) === event.target)
      if (at < 0) return
      const to = tabIndexAfter(event.key, at, tabs.length)
      if (to === undefined) return
      event.preventDefault()
      const { view } = tabs[to]!
      buttons.get(view)?.focus()
      onChoose(view)
    },
    { signal },
  )

  return {
    panels,
    show(view) {
      for (const [name, tab] of buttons) {
        const selected = name === view
        tab.setAttribute('aria-selected', String(selected))
        tab.tabIndex = selected ? 0 : -1
        panels.get(name)!.hidden = !selected
      }
    },
  }
}
