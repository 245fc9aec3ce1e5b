// Renders a validated payload into `host`: a toolbar, the SVG chart (pan, zoom, keyboard
// navigation) and a text version. All text goes in through textContent; no inline styles (CSP):
// geometry is set with SVG attributes and looks come from styles.css.
import type { Payload, Theme } from '../payload.ts'
import { layoutChart, type NodeBox, type Pt } from './layout.ts'
import { textAlternative } from './text-alternative.ts'

export interface DrawOptions {
  theme: Theme
  onSelect(id: string, kind: 'person' | 'entity'): void
}

export interface DrawnChart {
  setTheme(theme: Theme): void
  destroy(): void
}

const NS = 'http://www.w3.org/2000/svg'
const MAX_SCALE = 3
/**
 * The smallest first-view scale: box names (13 units) at 7 CSS px or more. Lower than comfortable
 * reading on purpose: a household is read as a whole first (the example fits whole from a ~1050 px
 * host), and zoom is one key away.
 */
export const READABLE = 0.55
/** The tallest first view, in CSS px, when the chart is shown through a window. */
export const MAX_VIEW_H = 720
const live = new WeakMap<HTMLElement, DrawnChart>()
let serial = 0

function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag)
  for (const k in attrs) e.setAttribute(k, String(attrs[k]))
  parent.append(e)
  return e
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls: string,
  parent: Element,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  e.className = cls
  if (text !== undefined) e.textContent = text
  parent.append(e)
  return e
}

function title(parent: Element, text: string): void {
  s('title', {}, parent).textContent = text
}

const r = (v: number) => Math.round(v * 2) / 2
const d = (paths: Pt[][]) => paths.map((p) => 'M' + p.map(([x, y]) => `${r(x)} ${r(y)}`).join('L')).join('')

export function drawChart(host: HTMLElement, payload: Payload, options: DrawOptions): DrawnChart {
  live.get(host)?.destroy()
  host.replaceChildren()
  const layout = layoutChart(payload)
  const ac = new AbortController()
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- each call names its handler's event type
  const on = <E extends Event>(t: EventTarget, type: string, fn: (e: E) => void, extra?: AddEventListenerOptions) =>
    t.addEventListener(type, fn as EventListener, { ...extra, signal: ac.signal })
  const id = `hc${++serial}`
  host.classList.add('hc')
  host.dataset.theme = options.theme

  // ---- toolbar ----
  const bar = h('div', 'hc-bar', host)
  h('h2', 'hc-title', bar, payload.household.name)
  legend(bar)
  const tools = h('div', 'hc-tools', bar)
  tools.setAttribute('role', 'toolbar')
  tools.setAttribute('aria-label', 'Chart view')
  const button = (label: string, text: string, fn: () => void) => {
    const b = h('button', 'hc-btn', tools, text)
    b.type = 'button'
    b.setAttribute('aria-label', label)
    b.title = label
    on(b, 'click', fn)
  }
  button('Zoom out', '−', () => zoom(1 / 1.25))
  button('Zoom in', '+', () => zoom(1.25))
  button('Fit the whole chart', 'Fit', () => fit())

  // ---- svg ----
  const frame = h('div', 'hc-frame', host)
  const svg = s(
    'svg',
    {
      class: 'hc-svg',
      tabindex: -1,
      role: 'group',
      'aria-labelledby': id + 't',
      'aria-roledescription': 'household chart',
    },
    frame,
  )
  const people = payload.people.length
  const entities = layout.boxes.length - people
  s('title', { id: id + 't' }, svg).textContent =
    `${payload.household.name}: household chart of ${people} ${people === 1 ? 'person' : 'people'}` +
    (entities ? ` and ${entities} ${entities === 1 ? 'entity' : 'entities'}` : '') +
    '. Tab or arrow keys move between them; Enter selects. A text version follows the chart.'
  const gEdges = s('g', { class: 'hc-edges' }, svg)
  const gLabels = s('g', { class: 'hc-labels' }, svg)
  const gNodes = s('g', { class: 'hc-nodes' }, svg)
  const related = new Map<string, Element[]>()
  const relate = (ids: string[], e: Element) => {
    for (const i of ids) {
      const list = related.get(i)
      if (list) list.push(e)
      else related.set(i, [e])
    }
  }
  for (const e of layout.edges) {
    const p = s('path', { class: `hc-e hc-e-${e.kind}`, d: d(e.paths) }, gEdges)
    title(p, e.title)
    relate(e.ids, p)
  }
  if (layout.strokes.length) s('path', { class: 'hc-e hc-strokes', d: d(layout.strokes) }, gEdges)
  for (const [x, y] of layout.dots) s('circle', { class: 'hc-dot', cx: r(x), cy: r(y), r: 2.5 }, gEdges)
  for (const l of layout.labels) {
    const t = s('text', { class: 'hc-lbl', x: r(l.x), y: r(l.y), 'text-anchor': l.anchor }, gLabels)
    s('tspan', { class: 'hc-who' }, t).textContent = l.who
    t.append(' ' + l.text)
    title(t, l.title)
    relate(l.ids, t)
  }
  for (const hd of layout.headings) {
    s('text', { class: `hc-hd hc-hd-${hd.estate}`, x: hd.x, y: hd.y }, gLabels).textContent = hd.text
    s('path', { class: `hc-rule hc-hd-${hd.estate}`, d: `M${hd.x} ${hd.y + 7}H${hd.x + hd.w}` }, gLabels)
  }
  // Reading order for Tab: people row by row, then entities.
  const boxes = layout.boxes
    .slice()
    .sort((a, b) =>
      a.kind === b.kind ? (a.kind === 'person' ? a.row - b.row || a.x - b.x : a.y - b.y) : a.kind === 'person' ? -1 : 1,
    )
  const nodeOf = new Map<Element, NodeBox>()
  const elOf = new Map<string, SVGGElement>()
  for (const b of boxes) {
    const cls = ['hc-n', `hc-${b.kind}`]
    if (b.deceased) cls.push('hc-deceased')
    if (b.client) cls.push('hc-client')
    if (b.estate) cls.push(`hc-${b.estate}`)
    const g = s(
      'g',
      {
        class: cls.join(' '),
        tabindex: 0,
        role: 'button',
        'aria-label': b.label,
        transform: `translate(${r(b.x)} ${r(b.y)})`,
      },
      gNodes,
    )
    title(g, b.label)
    const rx = b.kind === 'entity' ? 14 : 6
    s('rect', { class: 'hc-ring', x: -4, y: -4, width: b.w + 8, height: b.h + 8, rx: rx + 4 }, g)
    s('rect', { class: 'hc-box', width: b.w, height: b.h, rx }, g)
    for (const line of b.lines) {
      s(
        'text',
        { class: `hc-${line.cls}`, x: r(line.x - b.x), y: r(line.y - b.y), 'text-anchor': 'middle' },
        g,
      ).textContent = line.text
    }
    nodeOf.set(g, b)
    elOf.set(b.id, g)
  }

  host.append(textAlternative(payload))

  // ---- highlighting: the lines and labels of the hovered or focused node ----
  let lit: Element[] = []
  const highlight = (b: NodeBox | null) => {
    for (const e of lit) e.classList.remove('hc-hl')
    lit = b ? [...(related.get(b.id) ?? [])] : []
    for (const e of lit) e.classList.add('hc-hl')
    svg.classList.toggle('hc-dim', lit.length > 0)
  }
  const nodeAt = (t: EventTarget | null): [SVGGElement, NodeBox] | null => {
    const g = t instanceof Element ? t.closest('.hc-n') : null
    const b = g ? nodeOf.get(g) : undefined
    return g && b ? [g as SVGGElement, b] : null
  }
  on<FocusEvent>(svg, 'focusin', (e) => {
    const n = nodeAt(e.target)
    if (!n) return
    highlight(n[1])
    reveal(n[1])
  })
  on<FocusEvent>(svg, 'focusout', () => highlight(null))
  on<PointerEvent>(svg, 'pointerover', (e) => {
    const n = nodeAt(e.target)
    if (n && e.pointerType === 'mouse') highlight(n[1])
  })
  on<PointerEvent>(svg, 'pointerout', (e) => {
    const n = nodeAt(e.target)
    if (n && !n[0].contains(e.relatedTarget as Node | null)) highlight(null)
  })

  // ---- selection and keyboard ----
  let dragged = false
  on<MouseEvent>(svg, 'click', (e) => {
    const n = nodeAt(e.target)
    if (n && !dragged) options.onSelect(n[1].id, n[1].kind)
  })
  on<KeyboardEvent>(svg, 'keydown', (e) => {
    const n = nodeAt(e.target)
    if (!n) return
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      options.onSelect(n[1].id, n[1].kind)
    } else if (e.key.startsWith('Arrow')) {
      const next = neighbour(n[1], e.key)
      if (next) {
        e.preventDefault()
        elOf.get(next.id)?.focus()
      }
    }
  })
  on<KeyboardEvent>(host, 'keydown', (e) => {
    if (
      e.ctrlKey ||
      e.metaKey ||
      e.altKey ||
      !(e.target instanceof Node) ||
      !(frame.contains(e.target) || bar.contains(e.target))
    )
      return
    if (e.key === '+' || e.key === '=') zoom(1.25)
    else if (e.key === '-' || e.key === '_') zoom(1 / 1.25)
    else if (e.key === '0') fit()
    else return
    e.preventDefault()
  })
  /** The nearest node in the arrow's direction, preferring nodes in the same row or column. */
  function neighbour(from: NodeBox, key: string): NodeBox | undefined {
    const fx = from.x + from.w / 2
    const fy = from.y + from.h / 2
    const horizontal = key === 'ArrowLeft' || key === 'ArrowRight'
    let best: NodeBox | undefined
    let bestScore = Infinity
    for (const b of layout.boxes) {
      const dx = b.x + b.w / 2 - fx
      const dy = b.y + b.h / 2 - fy
      const main = key === 'ArrowRight' ? dx : key === 'ArrowLeft' ? -dx : key === 'ArrowDown' ? dy : -dy
      if (main <= 8) continue
      const cross = Math.abs(horizontal ? dy : dx)
      const inBand = cross < (horizontal ? (from.h + b.h) / 2 : (from.w + b.w) / 2)
      const score = (inBand ? 0 : 1e6) + main + (horizontal ? 3 : 1) * cross
      if (score < bestScore) {
        bestScore = score
        best = b
      }
    }
    return best
  }

  // ---- view: the viewBox is the camera; the element keeps the size of the first view ----
  // First view: fitted to the width (never above 1:1), unless that makes box names smaller than
  // READABLE allows; then a window at READABLE, at most MAX_VIEW_H tall, centred on the clients.
  let vx = 0
  let vy = 0
  let vw = layout.width
  let vh = layout.height
  let ew = 0
  let eh = 0
  let minScale = 0.1
  const scale = () => ew / vw
  const apply = () => svg.setAttribute('viewBox', `${r(vx)} ${r(vy)} ${r(vw)} ${r(vh)}`)
  const setSize = (w: number, hgt: number) => {
    svg.setAttribute('width', String(w))
    svg.setAttribute('height', String(hgt))
  }
  const view = (k: number, cx: number, cy: number) => {
    vw = ew / k
    vh = eh / k
    vx = cx - vw / 2
    vy = cy - vh / 2
  }
  const focusBox = clientsBox(payload, layout.boxes)
  /** The first view for the frame's current width; sets the element's size for good. */
  function home() {
    ew = Math.max(1, frame.clientWidth || host.clientWidth || 800)
    const fitW = Math.min(1, ew / layout.width)
    const windowed = fitW < READABLE
    const k = windowed ? READABLE : fitW
    eh = Math.max(96, Math.ceil(windowed ? Math.min(MAX_VIEW_H, layout.height * k) : layout.height * k))
    setSize(ew, eh)
    minScale = Math.min(k, ew / layout.width, eh / layout.height) / 2
    if (!windowed) {
      fit()
      return
    }
    view(k, focusBox.x + focusBox.w / 2, focusBox.y + focusBox.h / 2)
    // Inside the chart where it is larger than the window, centred where it is not.
    vx = vw < layout.width ? Math.min(Math.max(vx, 0), layout.width - vw) : (layout.width - vw) / 2
    vy = vh < layout.height ? Math.min(Math.max(vy, 0), layout.height - vh) : (layout.height - vh) / 2
    apply()
  }
  /** The whole chart in the element, centred (the "Fit" button and the 0 key). */
  function fit() {
    view(Math.min(1, ew / layout.width, eh / layout.height), layout.width / 2, layout.height / 2)
    apply()
  }
  function zoom(factor: number, clientX?: number, clientY?: number) {
    const rect = svg.getBoundingClientRect()
    const ox = clientX === undefined ? rect.width / 2 : clientX - rect.left
    const oy = clientY === undefined ? rect.height / 2 : clientY - rect.top
    const k = scale()
    const nk = Math.min(MAX_SCALE, Math.max(minScale, k * factor))
    const px = vx + ox / k
    const py = vy + oy / k
    vw = ew / nk
    vh = (vh * k) / nk
    vx = px - ox / nk
    vy = py - oy / nk
    clamp()
    apply()
  }
  function clamp() {
    vx = Math.min(Math.max(vx, -vw * 0.75), layout.width - vw * 0.25)
    vy = Math.min(Math.max(vy, -vh * 0.75), layout.height - vh * 0.25)
  }
  function reveal(b: NodeBox) {
    if (b.x >= vx && b.y >= vy && b.x + b.w <= vx + vw && b.y + b.h <= vy + vh) return
    vx = b.x + b.w / 2 - vw / 2
    vy = b.y + b.h / 2 - vh / 2
    clamp()
    apply()
  }

  // Drag to pan (mouse, pen, one finger sideways); two fingers pinch; ctrl/⌘ + wheel zooms.
  const pointers = new Map<number, { x: number; y: number }>()
  let start = { x: 0, y: 0, vx: 0, vy: 0 }
  let pinch = 0
  on<PointerEvent>(svg, 'pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
    dragged = false
    start = { x: e.clientX, y: e.clientY, vx, vy }
    pinch = 0
  })
  on<PointerEvent>(svg, 'pointermove', (e) => {
    const p = pointers.get(e.pointerId)
    if (!p) return
    p.x = e.clientX
    p.y = e.clientY
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()] as [{ x: number; y: number }, { x: number; y: number }]
      const dist = Math.hypot(a.x - b.x, a.y - b.y)
      if (pinch) zoom(dist / pinch, (a.x + b.x) / 2, (a.y + b.y) / 2)
      pinch = dist
      dragged = true
      return
    }
    const dx = e.clientX - start.x
    const dy = e.clientY - start.y
    if (!dragged && Math.hypot(dx, dy) > 4) {
      dragged = true
      svg.setPointerCapture(e.pointerId)
      svg.classList.add('hc-panning')
    }
    if (dragged) {
      const k = scale()
      vx = start.vx - dx / k
      vy = start.vy - dy / k
      clamp()
      apply()
    }
  })
  const release = (e: PointerEvent) => {
    pointers.delete(e.pointerId)
    pinch = 0
    if (!pointers.size) svg.classList.remove('hc-panning')
    else {
      const [p] = [...pointers.values()] as [{ x: number; y: number }]
      start = { x: p.x, y: p.y, vx, vy }
    }
  }
  on(svg, 'pointerup', release)
  on(svg, 'pointercancel', release)
  on<WheelEvent>(
    svg,
    'wheel',
    (e) => {
      if (!e.ctrlKey && !e.metaKey) return // plain wheel scrolls the host page
      e.preventDefault()
      zoom(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0025)), e.clientX, e.clientY)
    },
    { passive: false },
  )

  // A width change starts over from the first view (the element's height follows from it).
  let lastWidth = -1
  const ro = new ResizeObserver(() => {
    const w = frame.clientWidth
    if (w !== lastWidth) {
      lastWidth = w
      home()
    }
  })
  ro.observe(frame)
  // Print: the whole chart, fitted to the width, with the text version open; then back.
  const details = host.querySelector('details')
  let wasOpen = false
  let saved: number[] = []
  on(window, 'beforeprint', () => {
    wasOpen = details?.open ?? false
    if (details) details.open = true
    saved = [vx, vy, vw, vh]
    const k = Math.min(1, ew / layout.width)
    setSize(ew, Math.max(1, Math.ceil(layout.height * k)))
    vx = vy = 0
    vw = layout.width
    vh = layout.height
    apply()
  })
  on(window, 'afterprint', () => {
    if (details) details.open = wasOpen
    if (saved.length !== 4) return
    ;[vx, vy, vw, vh] = saved as [number, number, number, number]
    setSize(ew, eh)
    apply()
  })
  lastWidth = frame.clientWidth
  home()

  const chart: DrawnChart = {
    setTheme(theme) {
      host.dataset.theme = theme
    },
    destroy() {
      ac.abort()
      ro.disconnect()
      if (live.get(host) === chart) live.delete(host)
      host.replaceChildren()
      host.classList.remove('hc')
      delete host.dataset.theme
    },
  }
  live.set(host, chart)
  return chart
}

/** The primary client (else the first person) with their current partners: the first view's centre. */
function clientsBox(payload: Payload, boxes: NodeBox[]): { x: number; y: number; w: number; h: number } {
  const first = payload.people.find((p) => p.role === 'primaryClient') ?? payload.people[0]
  const ids = new Set(first ? [first.id] : [])
  for (const rel of payload.relationships ?? []) {
    if (rel.type !== 'spouse' && rel.type !== 'partner') continue
    if (rel.from === first?.id) ids.add(rel.to)
    if (rel.to === first?.id) ids.add(rel.from)
  }
  const own = boxes.find((b) => b.id === first?.id)
  let x0 = Infinity
  let x1 = -Infinity
  for (const b of boxes) {
    if (b.kind !== 'person' || !ids.has(b.id) || (own && b.row !== own.row)) continue
    x0 = Math.min(x0, b.x)
    x1 = Math.max(x1, b.x + b.w)
  }
  if (!own || x0 > x1) return boxes[0] ?? { x: 0, y: 0, w: 0, h: 0 }
  return { x: x0, y: own.y, w: x1 - x0, h: own.h }
}

/** A compact key to the conventions, so the chart reads without colour. */
function legend(parent: Element): void {
  const ul = h('ul', 'hc-legend', parent)
  ul.setAttribute('aria-label', 'Legend')
  const item = (text: string, draw: (g: SVGSVGElement) => void) => {
    const li = h('li', '', ul)
    const icon = s('svg', { width: 26, height: 14, viewBox: '0 0 26 14', 'aria-hidden': 'true' }, li)
    draw(icon)
    h('span', '', li, text)
  }
  item('Partners', (g) => s('path', { class: 'hc-e hc-e-partner', d: 'M1 7H25' }, g))
  item('Former spouse', (g) => {
    s('path', { class: 'hc-e hc-e-ex', d: 'M1 7H25' }, g)
    s('path', { class: 'hc-e hc-strokes', d: 'M9 12L12 2M13 12L16 2' }, g)
  })
  item('Deceased †', (g) => s('rect', { class: 'hc-key-dead', x: 2, y: 2, width: 22, height: 10, rx: 2 }, g))
  item('In estate', (g) => s('rect', { class: 'hc-key-in', x: 2, y: 2, width: 22, height: 10, rx: 5 }, g))
  item('Out of estate', (g) => s('rect', { class: 'hc-key-out', x: 2, y: 2, width: 22, height: 10, rx: 5 }, g))
}
