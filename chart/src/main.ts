// The chart page's protocol side (spec §4.4, §6; DESIGN §4 "Chart protocol v1"; the messages are
// listed in protocol.ts): says `ready`, accepts `render` only from the parent window with protocol
// v1, a verified token minted for the sender's origin, a valid payload and a valid appearance, then
// draws the household's three views (views/view-shell.ts) and talks only to that origin. A refused
// render answers `error` and leaves any chart already shown as it was. theme, setView, focus and
// print act on the drawn chart and are accepted only from the parent, at the origin that rendered,
// after a render. No cookies, no storage, and one request per new token id (the key set, which
// meters the render).
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
  readHostRequest,
  readyMessage,
  type ChartMessage,
  type ChartRequest,
  type ErrorMessage,
  type RenderRequest,
} from './protocol.ts'
import { validatePayload } from './validate.ts'
import { createTokenVerifier, fetchChartKeys } from './verify.ts'
import { readAppearance, type Appearance } from './views/appearance.ts'
import { drawHousehold, type DrawnHousehold } from './views/view-shell.ts'
import type { ViewName } from './views/view-types.ts'

const host = document.getElementById('chart') ?? document.body
const verifier = createTokenVerifier({ audience: location.origin, fetchKeys: fetchChartKeys })

let chart: DrawnHousehold | null = null
/** The origin of the last accepted render: every message but `ready` and `error` goes there only. */
let hostOrigin: string | null = null
/** The view the reader (or the host) chose last: a new render (an update) opens on it again. */
let shownView: ViewName | undefined
let lastHeight = -1
let resizeObserver: ResizeObserver | null = null
/** Renders are handled one after another, so the last one sent is the one shown. */
let renders: Promise<void> = Promise.resolve()

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = readHostRequest(event.data)
  if (!request) return
  if (request.type === 'render') {
    const { source, origin } = event
    renders = renders
      .then(() => handleRender(request, source, origin))
      // Every render gets an answer, even one that failed in a way nothing above foresaw.
      .catch(() => refuse(errorMessage('payload_invalid', 'payload: the chart could not process this render.', '')))
  } else {
    // An extension: only from the parent, at the origin that rendered, after a render. Otherwise ignored.
    if (event.source !== window.parent || hostOrigin === null || event.origin !== hostOrigin || !chart) return
    if (request.v === PROTOCOL_VERSION) act(chart, request)
  }
})

// Holds no secret: any page that frames the chart may learn that it loaded.
window.parent.postMessage(readyMessage(), '*')

/** Carries out a request on the drawn chart; one with a value outside its rules is ignored. */
function act(drawn: DrawnHousehold, request: ChartRequest): void {
  switch (request.type) {
    case 'theme':
      if (isTheme(request.theme)) drawn.setTheme(request.theme)
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
  }
}

async function handleRender(request: RenderRequest, source: MessageEventSource | null, origin: string): Promise<void> {
  if (source !== window.parent)
    return refuse(errorMessage('origin_mismatch', 'Render messages are accepted from the parent window only.'))
  if (request.v !== PROTOCOL_VERSION) {
    return refuse(
      errorMessage(
        'version_unsupported',
        `This chart speaks protocol version ${PROTOCOL_VERSION}; send v: ${PROTOCOL_VERSION}.`,
      ),
    )
  }
  const token = await verifier.verify(request.token, origin)
  if (!token.ok) return refuse(errorMessage(token.code, token.message))
  const payload = validatePayload(request.payload)
  if (!payload.ok) return refuse(errorMessage('payload_invalid', payload.message, payload.path))
  const appearance = readAppearance(request.appearance)
  if (!appearance.ok) return refuse(errorMessage('appearance_invalid', appearance.message))
  try {
    show(payload.payload, appearance.appearance, origin)
  } catch {
    // A payload the schema and rules accept should always draw; if it does not, say so.
    chart = null
    host.replaceChildren()
    refuse(errorMessage('payload_invalid', 'payload: the chart could not draw this payload.', ''))
  }
}

function show(payload: Payload, appearance: Appearance, origin: string): void {
  chart?.destroy()
  chart = null
  host.replaceChildren()
  hostOrigin = origin
  const theme: Theme = payload.options?.theme ?? 'system'
  chart = drawHousehold(host, payload, {
    theme,
    appearance,
    ...(shownView === undefined ? {} : { view: shownView }),
    onSelect(id, kind) {
      // The origin of the render that drew this chart.
      post({ type: 'select', id, kind }, origin)
    },
    onViewChange(view) {
      shownView = view
      post({ type: 'viewchange', view }, origin)
    },
  })
  lastHeight = contentHeight()
  post({ type: 'rendered', height: lastHeight }, origin)
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

function refuse(message: ErrorMessage): void {
  // Once a render was accepted, to its origin only; before that the host is unknown, and errors
  // hold no secrets and name nothing from the payload, so they go to whatever page is the parent.
  window.parent.postMessage(message, hostOrigin ?? '*')
}

function post(message: ChartMessage, origin: string): void {
  window.parent.postMessage(message, origin)
}
