// The view shell's Present mode: the household on the whole screen in larger type, stepped through
// Family → Structure → Estate → Flow like slides. Full screen is the Fullscreen API on the shell's host; a
// browser refuses it inside an iframe without allow="fullscreen" (document.fullscreenEnabled is
// false, or the request is rejected), and then the host fills the viewport instead (a class). The
// Right and Down arrows, PageDown and Space go to the next view, Left, Up, PageUp and Shift+Space to
// the previous one; the step indicator says where ("2 of 3 · Structure"); Escape leaves. Keys the
// shell's own controls take (the tab list's arrows, Space on a button, the Flow view's fields) are
// left to them.
import { htmlElement } from './dom.ts'
import type { ViewName } from './view-types.ts'

export interface PresentStep {
  readonly view: ViewName
  readonly label: string
}

export interface PresentMode {
  /** Enters Present mode, or leaves it when on (the Present button). */
  toggle(): void
  leave(): void
  /** The shell shows `view` now: the indicator follows. */
  viewShown(view: ViewName): void
}

/** On the host while presenting: larger type (print.css). */
const PRESENTING = 'hv-presenting'
/** On the host while presenting without the Fullscreen API: it fills the viewport instead. */
const FILLING = 'hv-present-fill'
const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown', 'PageDown'])
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp', 'PageUp'])
/** Elements on which Space already means something (press, type, open). */
const TAKES_SPACE = 'button, input, select, textarea, summary, a[href], [role="button"], [role="tab"]'

/** Fields whose arrows and Space are their own (the Flow view's years, its who-dies-first radios). */
const TAKES_KEYS = 'input, select, textarea'

/** +1, −1 or 0 for a key in Present mode. */
function stepOf(event: KeyboardEvent): number {
  if (event.target instanceof Element && event.target.closest(TAKES_KEYS) !== null) return 0
  if (NEXT_KEYS.has(event.key)) return 1
  if (PREVIOUS_KEYS.has(event.key)) return -1
  if (event.key !== ' ') return 0
  const target = event.target instanceof Element ? event.target : null
  if (target?.closest(TAKES_SPACE)) return 0
  return event.shiftKey ? -1 : 1
}

export function createPresentMode(
  host: HTMLElement,
  button: HTMLButtonElement,
  indicatorParent: Element,
  steps: readonly PresentStep[],
  current: () => ViewName,
  show: (view: ViewName) => void,
): PresentMode {
  const indicator = htmlElement('p', 'hv-step', indicatorParent)
  indicator.setAttribute('role', 'status')
  indicator.hidden = true
  button.setAttribute('aria-pressed', 'false')
  let session: AbortController | null = null

  const viewShown = (view: ViewName) => {
    const at = steps.findIndex((step) => step.view === view)
    if (at >= 0) indicator.textContent = `${at + 1} of ${steps.length} · ${steps[at]!.label}`
  }
  const fill = () => {
    if (session !== null) host.classList.add(FILLING)
  }

  const leave = () => {
    if (session === null) return
    session.abort()
    session = null
    host.classList.remove(PRESENTING, FILLING)
    indicator.hidden = true
    button.setAttribute('aria-pressed', 'false')
    if (document.fullscreenElement === host) document.exitFullscreen().catch(() => undefined)
  }

  const enter = () => {
    if (session !== null) return
    const signal = (session = new AbortController()).signal
    host.classList.add(PRESENTING)
    indicator.hidden = false
    button.setAttribute('aria-pressed', 'true')
    viewShown(current())
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
        if (event.key === 'Escape') {
          event.preventDefault()
          leave()
          return
        }
        const step = stepOf(event)
        if (step === 0) return
        event.preventDefault()
        const at = steps.findIndex((s) => s.view === current())
        const next = steps[Math.min(steps.length - 1, Math.max(0, at + step))]
        if (next !== undefined) show(next.view)
      },
      { signal },
    )
    // Leaving full screen by the browser's own means (its Escape, its menu) leaves Present mode too.
    document.addEventListener(
      'fullscreenchange',
      () => {
        if (document.fullscreenElement !== host && !host.classList.contains(FILLING)) leave()
      },
      { signal },
    )
    if (document.fullscreenEnabled) host.requestFullscreen().catch(fill)
    else fill()
  }

  return {
    toggle: () => (session === null ? enter() : leave()),
    leave,
    viewShown,
  }
}
