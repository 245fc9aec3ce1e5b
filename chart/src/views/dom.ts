// Element helpers for the 0.2.0 views. Every view builds its DOM with these so that text only ever
// goes in through textContent (names are untrusted) and no element gets a style attribute (the
// chart's CSP forbids inline styles): geometry goes in SVG attributes, looks in views.css classes.

const SVG_NS = 'http://www.w3.org/2000/svg'

/** An HTML element with a class (and text), appended to `parent`. */
export function htmlElement<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  parent: Element,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (className !== '') element.className = className
  if (text !== undefined) element.textContent = text
  parent.append(element)
  return element
}

/** An SVG element with attributes, appended to `parent`. */
export function svgElement<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | number>>,
  parent: Element,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value))
  parent.append(element)
  return element
}
