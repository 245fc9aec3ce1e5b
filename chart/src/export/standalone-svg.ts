// The drawn chart as a standalone SVG document: a file that looks the same opened on its own, in an
// image viewer, an editor or another page, as it does in the chart.
//
// The chart's looks come from styles.css through classes and theme custom properties (light-dark()
// colours switched by data-theme). Outside the page neither would resolve (a viewer has no
// stylesheet, and a copied `<style>` with var(--link) would not know the theme), and lines would
// turn black, which is what printing did to link lines. So each element's computed style, the
// properties that change how it looks, is written on a copy as presentation attributes.
//
// The copy keeps only drawing elements and geometry attributes (an allow-list), so nothing
// interactive or executable can come along: no scripts, event handlers, foreignObject, classes,
// ids, tabindex or ARIA of the live chart. Focus rings and hover or highlight states are left out:
// styles are computed on an unhovered, unfocused copy without the highlight classes. Names stay
// text nodes, which the serializer escapes. The chart's text version is HTML outside the SVG and
// is not part of it.

const SVG_NS = 'http://www.w3.org/2000/svg'

/** The elements a drawing is made of; anything else is left out with its content. */
const DRAWING_ELEMENTS: ReadonlySet<string> = new Set([
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'title',
])

/** Geometry the chart sets as attributes; copied as they are. */
const GEOMETRY_ATTRIBUTES = [
  'd',
  'x',
  'y',
  'dx',
  'dy',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'x1',
  'y1',
  'x2',
  'y2',
  'width',
  'height',
  'points',
  'transform',
] as const

/**
 * The computed properties written as presentation attributes. Beyond colours, strokes and fonts:
 * paint-order and stroke-linejoin, without which an edge label's halo (a stroke in the background
 * colour) is painted over its letters; letter-spacing, which the estate headings use.
 */
const INHERITED_LOOKS = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linejoin',
  'paint-order',
  'font-family',
  'font-size',
  'font-weight',
  'letter-spacing',
  'text-anchor',
  'direction',
] as const
/** Not inherited: written only where it is not the initial value. */
const OPACITY = 'opacity'

/** Lengths the computed style gives in px; SVG attributes take user units, so the unit goes. */
const LENGTHS: ReadonlySet<string> = new Set(['stroke-width', 'stroke-dasharray', 'font-size', 'letter-spacing'])

/**
 * Classes that show a hover, focus, search or selection state (the 0.1.x chart's, then the 0.2.0
 * views'); the export shows the chart at rest.
 */
const STATE_CLASSES = ['hc-hl', 'hc-dim', 'hc-panning', 'hv-selected', 'hv-st-dim', 'hv-st-lit', 'hv-gn-found']
/** Elements drawn only for interaction: the focus ring around a node, the Structure view's selection lines. */
const INTERACTIVE_ONLY = '.hc-ring, .hv-st-focus-lines'

/** Room around the content's bounding box for strokes and label halos, in user units. */
const STROKE_ALLOWANCE = 4

export interface StandaloneSvgOptions {
  /** The document's `<title>`: the household's name. */
  readonly title: string
  /**
   * The drawing's area in user units, from (0, 0): the layout's width and height. The document
   * covers it and anything drawn beyond it, whatever part the chart's pan and zoom show.
   */
  readonly width: number
  readonly height: number
}

interface Box {
  x: number
  y: number
  width: number
  height: number
}

function plainLength(value: string): string {
  return value.replace(/(\d)px\b/g, '$1').replace(/,\s*/g, ' ')
}

/** The area to export: the drawing area and the content's bounding box, with room for strokes. */
function exportBox(svg: SVGSVGElement, options: StandaloneSvgOptions): Box {
  let x0 = 0
  let y0 = 0
  let x1 = options.width
  let y1 = options.height
  // A chart that is not rendered (display: none) has an empty box; the drawing area then stands.
  const content = svg.getBBox()
  if (content.width > 0 || content.height > 0) {
    x0 = Math.min(x0, Math.floor(content.x - STROKE_ALLOWANCE))
    y0 = Math.min(y0, Math.floor(content.y - STROKE_ALLOWANCE))
    x1 = Math.max(x1, Math.ceil(content.x + content.width + STROKE_ALLOWANCE))
    y1 = Math.max(y1, Math.ceil(content.y + content.height + STROKE_ALLOWANCE))
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/** The colour behind the chart: the first ancestor's background that is not transparent. */
function backgroundColour(svg: SVGSVGElement): string {
  for (let e: Element | null = svg; e; e = e.parentElement) {
    const colour = getComputedStyle(e).backgroundColor
    if (colour && colour !== 'transparent' && colour !== 'rgba(0, 0, 0, 0)') return colour
  }
  return '#ffffff'
}

/**
 * A copy of `styled` (an element of the at-rest clone, in the page so its styles compute) made of
 * drawing elements, geometry and presentation attributes only; null when it is left out.
 */
function cleanCopy(styled: Element, parentLooks: CSSStyleDeclaration): Element | null {
  const tag = styled.localName
  if (styled.namespaceURI !== SVG_NS || !DRAWING_ELEMENTS.has(tag) || styled.matches(INTERACTIVE_ONLY)) return null
  const copy = document.createElementNS(SVG_NS, tag)
  if (tag === 'title') {
    copy.textContent = styled.textContent
    return copy
  }
  const looks = getComputedStyle(styled)
  if (looks.display === 'none') return null
  for (const name of GEOMETRY_ATTRIBUTES) {
    const value = styled.getAttribute(name)
    if (value !== null) copy.setAttribute(name, value)
  }
  for (const name of INHERITED_LOOKS) {
    const value = looks.getPropertyValue(name)
    if (!value || parentLooks.getPropertyValue(name) === value) continue
    copy.setAttribute(name, LENGTHS.has(name) ? plainLength(value) : value)
  }
  const opacity = looks.getPropertyValue(OPACITY)
  if (opacity && opacity !== '1') copy.setAttribute(OPACITY, opacity)
  for (const child of styled.childNodes) {
    if (child instanceof Text) copy.append(document.createTextNode(child.data))
    else if (child instanceof Element) {
      const childCopy = cleanCopy(child, looks)
      if (childCopy) copy.append(childCopy)
    }
  }
  return copy
}

/**
 * The chart's drawn `<svg>` (it must be in the page, drawn) as a standalone SVG document: the whole
 * drawing at 1 user unit per pixel, on the theme's background, with a `<title>`.
 */
export function standaloneSvg(svg: SVGSVGElement, options: StandaloneSvgOptions): string {
  if (!svg.isConnected) throw new Error('standaloneSvg: the chart must be in the page to read its styles')
  const box = exportBox(svg, options)

  // The at-rest clone sits, not displayed, next to the chart: inside the chart's host, so the theme's
  // custom properties and the .hc-svg font resolve as they do for the chart; a display: none
  // subtree still has computed styles.
  const atRest = svg.cloneNode(true) as SVGSVGElement
  for (const e of [atRest, ...atRest.querySelectorAll('*')]) e.classList.remove(...STATE_CLASSES)
  const holder = document.createElement('div')
  holder.hidden = true
  holder.append(atRest)
  svg.after(holder)
  try {
    // The serializer writes xmlns for an element in the SVG namespace (setting it as an attribute too
    // would write it twice).
    const root = document.createElementNS(SVG_NS, 'svg')
    root.setAttribute('width', String(box.width))
    root.setAttribute('height', String(box.height))
    root.setAttribute('viewBox', `${String(box.x)} ${String(box.y)} ${String(box.width)} ${String(box.height)}`)
    const rootLooks = getComputedStyle(atRest)
    for (const name of INHERITED_LOOKS) {
      const value = rootLooks.getPropertyValue(name)
      if (value) root.setAttribute(name, LENGTHS.has(name) ? plainLength(value) : value)
    }
    const title = document.createElementNS(SVG_NS, 'title')
    title.textContent = options.title
    const background = document.createElementNS(SVG_NS, 'rect')
    for (const [name, value] of Object.entries({ ...box, fill: backgroundColour(svg), stroke: 'none' })) {
      background.setAttribute(name, String(value))
    }
    root.append(title, background)
    // The live chart's own <title> reads "…Tab or arrow keys move between them": it is for the live chart.
    for (const child of atRest.children) {
      if (child.localName === 'title') continue
      const copy = cleanCopy(child, rootLooks)
      if (copy) root.append(copy)
    }
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(root)
  } finally {
    holder.remove()
  }
}
