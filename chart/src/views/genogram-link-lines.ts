// The selected node's lines between the genogram and the estate strip, drawn on a layer that spans
// the Family view's frame (genogram-links.ts says which). The genogram pans in its own scrolling
// frame and the strip may too, so the ends are read from where the boxes are on screen each time
// the lines are drawn (a selection, a fold, a scroll, a resize), and an end whose box is scrolled
// out of its frame stops at the frame's edge, pointing the way to it. The layer sits under the
// boxes (genogram.css), so a line crossing a row of the genogram passes behind its cards. The lines
// fan out from the selected node, ordered by where their other ends are, so they never cross there.
import { svgElement } from './dom.ts'
import type { FamilyLink } from './genogram-links.ts'

/** Where the lines' ends may be: the box, and the visible part of the frame it scrolls in. */
export interface LineEnds {
  /** The card of a person shown in the genogram; undefined when folded away. */
  person(id: string): Element | undefined
  /** The card of an entity in the strip. */
  entity(id: string): Element | undefined
  readonly personFrame: Element
  readonly entityFrame: Element
}

/** The most room between two lines where they leave the selected node. */
const FAN_STEP = 8
const rounded = (value: number) => Math.round(value * 2) / 2
const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high)

/** The visible inside of a scrolling frame, in viewport px (without its scroll bars). */
function visibleRect(frame: Element): { left: number; top: number; right: number; bottom: number } {
  const rect = frame.getBoundingClientRect()
  const left = rect.left + frame.clientLeft
  const top = rect.top + frame.clientTop
  return { left, top, right: left + frame.clientWidth, bottom: top + frame.clientHeight }
}

interface Placed {
  readonly link: FamilyLink
  readonly person: DOMRect
  readonly entity: DOMRect
}

/**
 * Draws `links` into `layer`, emptied first, in the coordinates of `container` (the element the
 * layer covers): from the bottom of each person's card to the top of each entity's card. Links
 * whose person is folded away are left out. `selectedId` is the node the lines fan out from.
 */
export function drawLinkLines(
  layer: SVGSVGElement,
  container: Element,
  links: readonly FamilyLink[],
  ends: LineEnds,
  selectedId: string | null,
): void {
  layer.replaceChildren()
  const origin = container.getBoundingClientRect()
  layer.setAttribute('width', String(Math.ceil(origin.width)))
  layer.setAttribute('height', String(Math.ceil(origin.height)))
  const placed: Placed[] = []
  for (const link of links) {
    const person = ends.person(link.person)?.getBoundingClientRect()
    const entity = ends.entity(link.entity)?.getBoundingClientRect()
    if (person !== undefined && entity !== undefined) placed.push({ link, person, entity })
  }
  const fromPerson = placed.some(({ link }) => link.person === selectedId)
  const centreX = (rect: DOMRect) => rect.left + rect.width / 2
  // Ordered by the far end's position, so the fan at the selected node does not cross itself.
  placed.sort((a, b) => (fromPerson ? centreX(a.entity) - centreX(b.entity) : centreX(a.person) - centreX(b.person)))
  const personFrame = visibleRect(ends.personFrame)
  const entityFrame = visibleRect(ends.entityFrame)
  placed.forEach(({ link, person, entity }, k) => {
    const selected = fromPerson ? person : entity
    const step = Math.min(FAN_STEP, (selected.width * 0.8) / Math.max(1, placed.length - 1))
    const fan = (k - (placed.length - 1) / 2) * step
    const x1 = clamp(centreX(person) + (fromPerson ? fan : 0), personFrame.left, personFrame.right) - origin.left
    const y1 = clamp(person.bottom, personFrame.top, personFrame.bottom) - origin.top
    const x2 = clamp(centreX(entity) + (fromPerson ? 0 : fan), entityFrame.left, entityFrame.right) - origin.left
    const y2 = clamp(entity.top, entityFrame.top, entityFrame.bottom) - origin.top
    const middle = (y1 + y2) / 2
    const d = [
      `M${rounded(x1)} ${rounded(y1)}`,
      `C${rounded(x1)} ${rounded(middle)} ${rounded(x2)} ${rounded(middle)} ${rounded(x2)} ${rounded(y2)}`,
    ].join('')
    const path = svgElement(
      'path',
      { class: `hv-gn-link hv-gn-link-${link.type}`, d, 'data-person': link.person, 'data-entity': link.entity },
      layer,
    )
    svgElement('title', {}, path).textContent = link.title
  })
}
