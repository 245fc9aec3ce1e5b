// The chart page's protocol side (spec §4.4, §6; DESIGN §4 "Chart protocol v1"): says `ready`,
// accepts `render` only from the parent window with protocol v1, a verified token minted for the
// sender's origin and a valid payload, then draws and talks only to that origin. A refused render
// answers `error` and leaves any chart already shown as it was. No cookies, no storage, and one
// request per new token id (the key set, which meters the render).
import './styles.css'
import type { Payload, Theme } from '../payload.ts'
import { PROTOCOL_VERSION } from '../version.ts'
import { drawChart } from './draw.ts'
import {
  errorMessage,
  isTheme,
  readHostRequest,
  readyMessage,
  type ChartMessage,
  type ErrorMessage,
  type RenderRequest,
} from './protocol.ts'
import { validatePayload } from './validate.ts'
import { createTokenVerifier, fetchChartKeys } from './verify.ts'

const host = document.getElementById('chart') ?? document.body
const verifier = createTokenVerifier({ audience: location.origin, fetchKeys: fetchChartKeys })

let chart: ReturnType<typeof drawChart> | null = null
/** The origin of the last accepted render: every message but `ready` and `error` goes there only. */
let hostOrigin: string | null = null
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
  } else if (request.type === 'theme') {
    // An extension: only from the parent, at the origin that rendered, after a render. Otherwise ignored.
    if (event.source !== window.parent || hostOrigin === null || event.origin !== hostOrigin || !chart) return
    if (request.v === PROTOCOL_VERSION && isTheme(request.theme)) chart.setTheme(request.theme)
  }
})

// Holds no secret: any page that frames the chart may learn that it loaded.
window.parent.postMessage(readyMessage(), '*')

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
  try {
    show(payload.payload, origin)
  } catch {
    // A payload the schema and rules accept should always draw; if it does not, say so.
    chart = null
    host.replaceChildren()
    refuse(errorMessage('payload_invalid', 'payload: the chart could not draw this payload.', ''))
  }
}

function show(payload: Payload, origin: string): void {
  chart?.destroy()
  chart = null
  host.replaceChildren()
  hostOrigin = origin
  const theme: Theme = payload.options?.theme ?? 'system'
  chart = drawChart(host, payload, {
    theme,
    onSelect(id, kind) {
      // The origin of the render that drew this chart.
      post({ type: 'select', id, kind }, origin)
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
