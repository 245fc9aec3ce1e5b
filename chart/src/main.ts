// The chart page's protocol side (spec §4.4, §6; DESIGN §4 "Chart protocol v1"; the messages are
// listed in protocol.ts): says `ready`, accepts `render` only from the parent window with protocol
// v1, a verified token minted for the sender's origin, a valid payload and a valid appearance, then
// draws the household's four views (views/view-shell.ts) and talks only to that origin. A refused
// render answers `error` and leaves any chart already shown as it was. theme, setView, focus, print
// and appearance act on the drawn chart and are accepted only from the parent, at the origin that
// rendered, after a render; an appearance redraws the chart on the view, theme and Flow order and
// years shown, and posts no `estate` (the host holds that projection already). Downloads and print documents go to that origin too, when its render
// said the host handles them (`handles`). No cookies, no storage, and one request per new token id
// (the key set, which meters the render).
//
// The release's one stylesheet: esbuild bundles these imports, in this order (each later sheet
// builds on the earlier ones: the base palette, the shell and its views, the genogram, print and
// Present). The view modules import no CSS themselves, so this is where all of it comes in.
import './styles.css'
import './views/views.css'
import './views/genogram.css'
import './views/print.css'
import type { Payload, Theme } from '../payload.ts'
import { PROTOCOL_VERSION } from '../version.ts'
import {
  errorMessage,
  isTheme,
  isViewName,
  readHandles,
  readHostRequest,
  readyMessage,
  type ChartMessage,
  type ChartRequest,
  type ErrorMessage,
  type HostHandle,
  type RenderRequest,
} from './protocol.ts'
import { validatePayload } from './validate.ts'
import { createTokenVerifier, fetchChartKeys } from './verify.ts'
import { readAppearance, type Appearance } from './views/appearance.ts'
import { flowChoicesOf, type FlowChoices } from './views/flow-controls.ts'
import type { HostHandlers } from './views/host-handlers.ts'
import { drawHousehold, type DrawnHousehold } from './views/view-shell.ts'
import type { ViewName } from './views/view-types.ts'

const host = document.getElementById('chart') ?? document.body
const verifier = createTokenVerifier({ audience: location.origin, fetchKeys: fetchChartKeys })

/** What the chart shown was drawn from: an appearance message draws the same again. */
interface Drawing {
  readonly payload: Payload
  readonly appearance: Appearance
  readonly handled: ReadonlySet<HostHandle>
  /** The origin of the render: every message about this drawing goes there only. */
  readonly origin: string
}

let chart: DrawnHousehold | null = null
let drawing: Drawing | null = null
/** The origin of the last accepted render: every message but `ready` and `error` goes there only. */
let hostOrigin: string | null = null
/** The view the reader (or the host) chose last: a new render (an update) opens on it again. */
let shownView: ViewName | undefined
/** The theme shown: the render's, or the last theme message's (a redraw keeps it). */
let shownTheme: Theme = 'system'
/**
 * Who dies first and the years of the Flow view's projection shown (the last one posted as
 * `estate`): an appearance redraw opens on them again. A render starts from its payload's assumptions.
 */
let shownFlow: FlowChoices | undefined
/**
 * True while an appearance redraw draws: the projection it makes is the one the host already
 * holds (the same payload and the same choices), so it is not posted again.
 */
let redrawing = false
let lastHeight = -1
let resizeObserver: ResizeObserver | null = null
/**
 * Messages are handled one after another, in the order they came: the last render sent is the one
 * shown, and a request sent after a render (a theme, an appearance) acts on that render's chart,
 * not on the one its token check is still replacing.
 */
let handling: Promise<void> = Promise.resolve()

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = readHostRequest(event.data)
  if (!request) return
  const { source, origin } = event
  if (request.type === 'render') {
    handling = handling
      .then(() => handleRender(request, source, origin))
      // Every render gets an answer, even one that failed in a way nothing above foresaw.
      .catch(() => refuse(errorMessage('payload_invalid', 'payload: the chart could not process this render.', '')))
  } else {
    handling = handling
      .then(() => {
        // An extension: only from the parent, at the origin that rendered, after a render. Otherwise ignored.
        if (source !== window.parent || hostOrigin === null || origin !== hostOrigin || !chart) return
        if (request.v === PROTOCOL_VERSION) act(chart, request)
      })
      // Reported as an uncaught error would be, and the messages after it are still handled.
      .catch(reportError)
  }
})

// Holds no secret: any page that frames the chart may learn that it loaded.
window.parent.postMessage(readyMessage(), '*')

/** Carries out a request on the drawn chart; one with a value outside its rules is ignored. */
function act(drawn: DrawnHousehold, request: ChartRequest): void {
  switch (request.type) {
    case 'theme':
      if (!isTheme(request.theme)) return
      shownTheme = request.theme
      drawn.setTheme(request.theme)
      return
    case 'setView':
      if (isViewName(request.view)) drawn.setView(request.view)
      return
    case 'focus':
      if (typeof request.id === 'string') drawn.focus(request.id)
      return
    case 'print':
      drawn.print()
      return
    case 'appearance':
      restyle(request.appearance)
      return
  }
}

/** Draws the chart shown again in `value`'s appearance, or answers appearance_invalid and leaves it. */
function restyle(value: unknown): void {
  if (!drawing) return
  const appearance = readAppearance(value)
  if (!appearance.ok) {
    refuse(errorMessage('appearance_invalid', appearance.message))
    return
  }
  const restyled: Drawing = { ...drawing, appearance: appearance.appearance }
  redrawing = true
  try {
    // A new font changes the measured layout: a redraw, not a style change. Not a render: no
    // `rendered` (a changed height is reported by `resize`), no `estate` (the Flow view opens on the
    // reader's order and years again: the projection is the one last posted) and no token, so
    // nothing is metered.
    draw(restyled)
  } catch {
    forget()
    refuse(errorMessage('appearance_invalid', 'appearance: the chart could not draw this household in it.'))
  } finally {
    redrawing = false
  }
}

async function handleRender(request: RenderRequest, source: MessageEventSource | null, origin: string): Promise<void> {
  if (source !== window.parent) {
    refuse(errorMessage('origin_mismatch', 'Render messages are accepted from the parent window only.'))
    return
  }
  if (request.v !== PROTOCOL_VERSION) {
    refuse(
      errorMessage(
        'version_unsupported',
        `This chart speaks protocol version ${PROTOCOL_VERSION}; send v: ${PROTOCOL_VERSION}.`,
      ),
    )
    return
  }
  const token = await verifier.verify(request.token, origin)
  if (!token.ok) {
    refuse(errorMessage(token.code, token.message))
    return
  }
  const payload = validatePayload(request.payload)
  // From here the token has proved the sender's origin: refusals go to it alone.
  if (!payload.ok) {
    refuse(errorMessage('payload_invalid', payload.message, payload.path), origin)
    return
  }
  const appearance = readAppearance(request.appearance)
  if (!appearance.ok) {
    refuse(errorMessage('appearance_invalid', appearance.message), origin)
    return
  }
  shownTheme = payload.payload.options?.theme ?? 'system'
  // A render (an update) may say other assumptions: its Flow view starts from them.
  shownFlow = undefined
  try {
    draw({ payload: payload.payload, appearance: appearance.appearance, handled: readHandles(request.handles), origin })
  } catch {
    // A payload the schema and rules accept should always draw; if it does not, say so.
    forget()
    refuse(errorMessage('payload_invalid', 'payload: the chart could not draw this payload.', ''), origin)
    return
  }
  lastHeight = contentHeight()
  post({ type: 'rendered', height: lastHeight }, origin)
}

/**
 * Draws `next` in place of the chart shown, on the view shown last, in the theme shown and with the
 * Flow view's order and years shown last.
 */
function draw(next: Drawing): void {
  const { origin } = next
  chart?.destroy()
  chart = null
  drawing = null
  host.replaceChildren()
  hostOrigin = origin
  chart = drawHousehold(host, next.payload, {
    theme: shownTheme,
    appearance: next.appearance,
    handlers: hostHandlers(next.handled, origin),
    ...(shownView === undefined ? {} : { view: shownView }),
    ...(shownFlow === undefined ? {} : { flowChoices: shownFlow }),
    onSelect(id, kind) {
      // The origin of the render that drew this chart.
      post({ type: 'select', id, kind }, origin)
    },
    onViewChange(view) {
      shownView = view
      post({ type: 'viewchange', view }, origin)
    },
    onEstate(projection) {
      shownFlow = flowChoicesOf(projection)
      if (redrawing) return
      // Called while the shell draws too: a microtask later, so the host hears `rendered` first.
      queueMicrotask(() => post({ type: 'estate', projection }, origin))
    },
  })
  drawing = next
  observeSize()
}

/** After a drawing failed: nothing is shown, and extensions are ignored until the next render. */
function forget(): void {
  chart = null
  drawing = null
  host.replaceChildren()
}

/**
 * What the chart hands to the host page (views/host-handlers.ts), for what its render said it
 * handles; always an object, so inside this iframe the chart never tries to save or print itself
 * (the sandbox would block it) and offers no control the host does not carry out.
 */
function hostHandlers(handled: ReadonlySet<HostHandle>, origin: string): HostHandlers {
  return {
    ...(handled.has('download')
      ? {
          download(file) {
            post({ type: 'download', fileName: file.fileName, mediaType: file.mediaType, data: file.data }, origin)
          },
        }
      : {}),
    ...(handled.has('print')
      ? {
          print(document) {
            post({ type: 'printdocument', title: document.title, html: document.html, css: document.css }, origin)
          },
        }
      : {}),
  }
}

function observeSize(): void {
  if (!resizeObserver) {
    resizeObserver = new ResizeObserver(reportResize)
    resizeObserver.observe(document.documentElement)
    resizeObserver.observe(host)
  }
}

function reportResize(): void {
  if (hostOrigin === null) return
  const height = contentHeight()
  if (height === lastHeight) return
  lastHeight = height
  post({ type: 'resize', height }, hostOrigin)
}

/**
 * The height the host should give the iframe: that of the content, not of the viewport (the
 * document's scrollHeight never drops below the iframe's own height, so it cannot shrink).
 */
function contentHeight(): number {
  const root = document.documentElement.getBoundingClientRect().height
  const chartBottom = host.getBoundingClientRect().bottom + window.scrollY
  return Math.ceil(Math.max(root, chartBottom))
}

/**
 * Sends a refusal: to `verifiedOrigin` when this render's token proved it; else, once a render was
 * accepted, to that render's origin only; before either the host is unknown, and such errors hold no
 * secrets and name nothing from the payload, so they go to whatever page is the parent.
 */
function refuse(message: ErrorMessage, verifiedOrigin?: string): void {
  window.parent.postMessage(message, verifiedOrigin ?? hostOrigin ?? '*')
}

function post(message: ChartMessage, origin: string): void {
  window.parent.postMessage(message, origin)
}
