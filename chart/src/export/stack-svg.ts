// Several standalone SVG documents (standalone-svg.ts) as one, stacked top to bottom: the Family
// view is two drawings (the genogram, then the estate strip under it) and its file shows both, as
// the view does. Each part keeps its own viewBox and background as a nested <svg> placed at its
// offset; the whole gets the first part's background behind everything, so a narrower part leaves
// no transparent margin, and one <title>.

const SVG_NS = 'http://www.w3.org/2000/svg'

export function stackSvgDocuments(documents: readonly string[], title: string): string {
  const parser = new DOMParser()
  const parts = documents.map((text) => parser.parseFromString(text, 'image/svg+xml').documentElement)
  const root = document.createElementNS(SVG_NS, 'svg')
  const heading = document.createElementNS(SVG_NS, 'title')
  heading.textContent = title
  const background = document.createElementNS(SVG_NS, 'rect')
  // standaloneSvg draws a part's background as its first rect.
  background.setAttribute('fill', parts[0]?.querySelector(':scope > rect')?.getAttribute('fill') ?? '#ffffff')
  root.append(heading, background)
  let width = 0
  let height = 0
  for (const part of parts) {
    part.querySelector(':scope > title')?.remove()
    part.setAttribute('x', '0')
    part.setAttribute('y', String(height))
    root.append(document.importNode(part, true))
    width = Math.max(width, Number(part.getAttribute('width')))
    height += Number(part.getAttribute('height'))
  }
  for (const [name, value] of Object.entries({ width, height, viewBox: `0 0 ${width} ${height}` }))
    root.setAttribute(name, String(value))
  for (const [name, value] of Object.entries({ x: 0, y: 0, width, height }))
    background.setAttribute(name, String(value))
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(root)
}
