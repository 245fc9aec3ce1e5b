// The Structure view's focus lines: with a person or entity selected, the links focusOn gives that
// the ownership lines do not already show (grantor, trustee, successor trustee, beneficiary,
// insured) are drawn for it alone, each labelled with its type (and share) and routed at right
// angles around the cards along the layout's free channels (structure/focus-route.ts), so no focus
// line passes through a card and it crosses an ownership line only where no detour exists;
// the ownership lines of its chain stay lit and everything else is dimmed. Only the selection's
// links are ever drawn, so the parallel bundles of every control link at once never appear.
import { OWNING_LINK_TYPES } from '../../../src/domain/estate-vocabulary.ts'
import { focusOn } from '../estate/focus.ts'
import type { SummaryLink } from '../estate/summary-input.ts'
import { shareText } from '../estate/summary-percent.ts'
import { focusRouter } from '../structure/focus-route.ts'
import type { Point, StructureBox, StructureLayout } from '../structure/structure-layout.ts'
import { svgElement } from './dom.ts'
import type { ViewHousehold } from './view-types.ts'

/** A link's type in words: "successor trustee", "contingent beneficiary 25%". */
function linkWords(link: SummaryLink): string {
  const type = link.type === 'successorTrustee' ? 'successor trustee' : link.type
  const kind = link.type === 'beneficiary' && link.beneficiaryType !== undefined && link.beneficiaryType !== 'primary'
  const words = kind ? `${link.beneficiaryType} ${type}` : type
  return link.share === undefined ? words : `${words} ${shareText(link.share)}`
}

const rounded = (value: number) => Math.round(value * 2) / 2

export interface FocusedStructure {
  /** The ids to keep lit: the focused one and every id at either end of its links. */
  readonly highlighted: ReadonlySet<string>
  /** The indexes, in the household's links, of the links focusOn draws. */
  readonly linkIndexes: ReadonlySet<number>
}

/** The longest piece of a route: where its label goes. */
function longestPiece(points: readonly Point[]): readonly [Point, Point] {
  const pieces = points.slice(1).map((p, k) => [points[k]!, p] as const)
  const length = ([a, b]: readonly [Point, Point]) => Math.abs(b[0] - a[0]) + Math.abs(b[1] - a[1])
  return pieces.reduce((best, piece) => (length(piece) > length(best) ? piece : best))
}

/** Draws `focusId`'s non-ownership links into `layer` (emptied first) and says what stays lit. */
export function drawFocusLines(
  layer: SVGGElement,
  household: ViewHousehold,
  layout: StructureLayout,
  boxes: ReadonlyMap<string, StructureBox>,
  focusId: string,
): FocusedStructure {
  layer.replaceChildren()
  const links = household.links ?? []
  const focus = focusOn(household, focusId)
  const drawn = new Set(focus.links)
  const linkIndexes = new Set<number>()
  links.forEach((link, index) => {
    if (drawn.has(link)) linkIndexes.add(index)
  })
  const drawnLinks = focus.links.filter((link) => {
    const from = boxes.get(link.from)
    const to = boxes.get(link.to)
    return !OWNING_LINK_TYPES.has(link.type) && from !== undefined && to !== undefined && from !== to
  })
  const ends = [...new Set(drawnLinks.flatMap((link) => [boxes.get(link.from)!, boxes.get(link.to)!]))]
  const router = focusRouter(
    layout.boxes,
    layout.edges.map((edge) => edge.points),
    layout.width,
    layout.height,
    ends,
  )
  for (const link of drawnLinks) {
    const points = router.route(boxes.get(link.from)!, boxes.get(link.to)!)
    if (points.length < 2) continue
    const line = svgElement(
      'polyline',
      {
        class: `hv-st-focus hv-st-focus-${link.type}`,
        points: points.map(([x, y]) => `${rounded(x)},${rounded(y)}`).join(' '),
      },
      layer,
    )
    const words = linkWords(link)
    svgElement('title', {}, line).textContent = words
    const [[x1, y1], [x2, y2]] = longestPiece(points)
    const label = svgElement(
      'text',
      { class: 'hv-st-focus-label', x: rounded((x1 + x2) / 2), y: rounded((y1 + y2) / 2 - 3), 'text-anchor': 'middle' },
      layer,
    )
    label.textContent = words
  }
  return { highlighted: focus.highlighted, linkIndexes }
}
