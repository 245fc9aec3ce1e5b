// The Family view's estate strip, drawn: an SVG of the cards and party pills estate-strip-model.ts
// lays out, under the genogram and outside its scrolling frame, so the estate shows at open however
// wide or deep the family is. Each card and pill is a Tab stop with a data-id, like a person's box:
// the view selects it on click or Enter and the shell marks it. Text is measured in the font it is
// drawn in, and each line's SVG `direction` comes from its own text (SVG text has no dir="auto";
// direction.ts), so a cut right-to-left name ends in its ellipsis on the cut side.
import { baseDirection } from '../text/direction.ts'
import { canvasMeasure, cssFont } from '../text/measure.ts'
import { svgElement } from './dom.ts'
import { nodeName } from './node-names.ts'
import {
  CARD_PADDING,
  layoutEstateStrip,
  PARTIES_LABEL,
  PILL_BASELINE,
  PILL_PADDING,
  STRIP_LINE_SIZE,
  STRIP_NAME_SIZE,
  type StripCard,
  type StripParty,
} from './estate-strip-model.ts'
import type { ViewHousehold } from './view-types.ts'

const BOLD = 600
const REGULAR = 400
/** Room around the drawing so the cards' strokes and focus rings are not cut at its edges. */
const MARGIN = 3
const rounded = (value: number) => Math.round(value * 2) / 2

export interface DrawnStrip {
  /** The entity cards' ids: the ends a focus line may reach. */
  readonly cardIds: ReadonlySet<string>
  /** The card or pill of `id` in the current drawing. */
  node(id: string): SVGGElement | undefined
  /** Lays the strip out again for a frame `width` CSS px wide (it wraps to it). */
  relayout(width: number): void
}

/** Draws the strip of `household` into `svg` (emptied on each layout) for a frame `width` wide. */
export function drawEstateStrip(
  svg: SVGSVGElement,
  household: ViewHousehold,
  fontFamily: string,
  radius: number,
  width: number,
): DrawnStrip {
  const measures = {
    name: canvasMeasure(cssFont(STRIP_NAME_SIZE, BOLD, fontFamily)),
    line: canvasMeasure(cssFont(STRIP_LINE_SIZE, REGULAR, fontFamily)),
  }
  let nodes = new Map<string, SVGGElement>()
  const cardIds = new Set<string>()

  function text(
    group: SVGGElement,
    content: string,
    x: number,
    y: number,
    className: string,
    size: number,
    bold = false,
  ) {
    const direction = baseDirection(content)
    // A space between the lines, as their text reads when copied or read out.
    group.append(' ')
    svgElement(
      'text',
      {
        class: className,
        x,
        y,
        direction,
        'font-size': size,
        'font-weight': bold ? BOLD : REGULAR,
      },
      group,
    ).textContent = content
  }

  function node(item: StripCard | StripParty, className: string, label: string): SVGGElement {
    const group = svgElement(
      'g',
      {
        class: className,
        transform: `translate(${rounded(item.x + MARGIN)} ${rounded(item.y + MARGIN)})`,
        tabindex: 0,
        role: 'button',
        // Named by what it shows, then its interests (node-names.ts); its whole words, nothing cut
        // or folded, are the <title>.
        'aria-label': nodeName(household, item.id, 'entity', label),
        'data-id': item.id,
      },
      svg,
    )
    svgElement('title', {}, group).textContent = item.title
    return group
  }

  function drawCard(card: StripCard): SVGGElement {
    const group = node(card, `hv-gn-entity hv-gn-${card.side}`, card.texts.map((t) => t.text).join(', '))
    svgElement('rect', { class: 'hv-gn-card', width: card.w, height: card.h, rx: Math.min(radius, card.h / 2) }, group)
    for (const line of card.texts) {
      const rtl = baseDirection(line.text) === 'rtl'
      const className = line.role === 'name' ? 'hv-gn-name' : `hv-gn-sub hv-gn-${line.role}`
      text(group, line.text, rtl ? card.w - CARD_PADDING : CARD_PADDING, line.baseline, className, line.size, line.bold)
    }
    return group
  }

  function drawParty(party: StripParty): SVGGElement {
    const group = node(party, 'hv-gn-party', party.text)
    svgElement('rect', { class: 'hv-gn-pill', width: party.w, height: party.h, rx: party.h / 2 }, group)
    const rtl = baseDirection(party.text) === 'rtl'
    text(
      group,
      party.text,
      rtl ? party.w - PILL_PADDING : PILL_PADDING,
      PILL_BASELINE,
      'hv-gn-pill-text',
      STRIP_LINE_SIZE,
    )
    return group
  }

  function relayout(frameWidth: number): void {
    const layout = layoutEstateStrip(household, measures, Math.max(0, frameWidth - 2 * MARGIN))
    const w = layout.width + 2 * MARGIN
    const h = layout.height + 2 * MARGIN
    svg.replaceChildren()
    for (const [name, value] of Object.entries({ width: w, height: h, viewBox: `0 0 ${w} ${h}` }))
      svg.setAttribute(name, String(value))
    nodes = new Map()
    cardIds.clear()
    for (const card of layout.cards) {
      nodes.set(card.id, drawCard(card))
      cardIds.add(card.id)
    }
    if (layout.partiesLabel !== undefined) {
      const { x, y } = layout.partiesLabel
      svgElement(
        'text',
        { class: 'hv-gn-sub', x: x + MARGIN, y: y + MARGIN, direction: 'ltr', 'font-size': STRIP_LINE_SIZE },
        svg,
      ).textContent = PARTIES_LABEL
    }
    for (const party of layout.parties) nodes.set(party.id, drawParty(party))
  }

  svg.setAttribute('font-family', fontFamily)
  relayout(width)
  return { cardIds, node: (id) => nodes.get(id), relayout }
}
