// The selected node's lines between the genogram and the estate strip, drawn on a layer that spans
// the Family view's frame (genogram-links.ts says which). A line never enters the genogram: a curve
// from a person's card down through the generations would pass behind other cards and cross family
// lines wherever the family is more than a row deep, and no route through a genogram avoids both in
// general. So the selected person stays marked in the tree (its card's selected style) and each of
// its lines starts at the genogram frame's bottom edge under the person's column (clamped into the
// frame when the person is scrolled out of it), where nothing of the family is drawn; it runs down to
// a bus along the top of the strip's frame, along it, and drops into the top of its entity card.
// A card in a lower row of the wrapped strip is reached down a channel just left of the strip (in
// its padding) and along the gap above that card's row. Every line runs only on these shared
// tracks, turning at right angles, so two lines meet only end to side (a drop leaving the bus, a
// trunk joining it) or run together; none crosses another, a family line or a card. The entity
// cards at the lines' ends are also marked (outlined in the link type's colour, genogram.css), so
// which cards the selection holds reads even where lines run together. The genogram and the strip
// scroll in their own frames, so the ends are read from where the boxes are on screen each time the
// lines are drawn (a selection, a fold, a scroll, a resize).
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

/** Room between two lines that reach the same card. */
const FAN_STEP = 8
/** Half the strip's gap between rows of cards (estate-strip-model.ts GAP): a line runs in the middle of it. */
const ROW_GAP_MIDDLE = 6
/** How far left of the strip's frame the channel down to a lower row of cards runs (inside its 16 px padding). */
const CHANNEL_INSET = 8
/** A card this near the top of the strip's frame is in its first row. */
const FIRST_ROW = 12
const MARKED = 'hv-gn-marked'
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
  readonly card: Element
}

/**
 * Draws `links` into `layer`, emptied first, in the coordinates of `container` (the element the
 * layer covers), and marks each linked entity card with its links' types (classes on the card, for
 * genogram.css to outline it). Links whose person is folded away are left out.
 */
export function drawLinkLines(
  layer: SVGSVGElement,
  container: Element,
  links: readonly FamilyLink[],
  ends: LineEnds,
): void {
  layer.replaceChildren()
  for (const marked of container.querySelectorAll(`.${MARKED}`)) {
    marked.classList.remove(...[...marked.classList].filter((name) => name.startsWith(MARKED)))
  }
  const origin = container.getBoundingClientRect()
  layer.setAttribute('width', String(Math.ceil(origin.width)))
  layer.setAttribute('height', String(Math.ceil(origin.height)))
  const centreX = (rect: DOMRect) => rect.left + rect.width / 2
  const placed: Placed[] = []
  for (const link of links) {
    const person = ends.person(link.person)?.getBoundingClientRect()
    const card = ends.entity(link.entity)
    if (person !== undefined && card !== undefined)
      placed.push({ link, person, entity: card.getBoundingClientRect(), card })
  }
  const personFrame = visibleRect(ends.personFrame)
  const entityFrame = visibleRect(ends.entityFrame)
  // The bus every line runs along: the top of the strip's frame, above its first row of cards.
  const bus = entityFrame.top - origin.top
  const channel = entityFrame.left - CHANNEL_INSET - origin.left
  /** How many lines reach each card so far: each gets its own drop into it. */
  const intoCard = new Map<string, number>()
  const perCard = new Map<string, number>()
  // Drops into one card in the order of the lines' people, left to right, so they read apart.
  placed.sort((a, b) => centreX(a.person) - centreX(b.person))
  for (const { link } of placed) perCard.set(link.entity, (perCard.get(link.entity) ?? 0) + 1)
  for (const { link, person, entity, card } of placed) {
    card.classList.add(MARKED, `${MARKED}-${link.type}`)
    const k = intoCard.get(link.entity) ?? 0
    intoCard.set(link.entity, k + 1)
    const count = perCard.get(link.entity)!
    const fan = (k - (count - 1) / 2) * Math.min(FAN_STEP, (entity.width * 0.8) / Math.max(1, count - 1))
    const x1 = clamp(centreX(person), personFrame.left, personFrame.right) - origin.left
    const y1 = personFrame.bottom - origin.top
    const x2 = clamp(centreX(entity) + fan, entityFrame.left, entityFrame.right) - origin.left
    const y2 = entity.top - origin.top
    const points: [number, number][] = [
      [x1, y1],
      [x1, bus],
    ]
    if (entity.top - entityFrame.top < FIRST_ROW) points.push([x2, bus], [x2, y2])
    else points.push([channel, bus], [channel, y2 - ROW_GAP_MIDDLE], [x2, y2 - ROW_GAP_MIDDLE], [x2, y2])
    const d = 'M' + points.map(([x, y]) => `${rounded(x)} ${rounded(y)}`).join('L')
    const path = svgElement(
      'path',
      { class: `hv-gn-link hv-gn-link-${link.type}`, d, 'data-person': link.person, 'data-entity': link.entity },
      layer,
    )
    svgElement('title', {}, path).textContent = link.title
  }
}
