// The Structure view's focus lines: with a person or entity selected, the links focusOn gives that
// the ownership lines do not already show (grantor, trustee, successor trustee, beneficiary,
// insured) are drawn for it alone, box edge to box edge, each labelled with its type (and share);
// the ownership lines of its chain stay lit and everything else is dimmed. Only the selection's
// links are ever drawn, so the parallel bundles of every control link at once never appear.
import { OWNING_LINK_TYPES } from '../../../src/domain/estate-vocabulary.ts'
import { focusOn } from '../estate/focus.ts'
import type { SummaryLink } from '../estate/summary-input.ts'
import { shareText } from '../estate/summary-percent.ts'
import type { StructureBox } from '../structure/structure-layout.ts'
import { svgElement } from './dom.ts'
import type { ViewHousehold } from './view-types.ts'

type Point = readonly [number, number]

/** Where the ray from a box's centre towards `toward` leaves the box. */
function borderPoint(box: StructureBox, toward: Point): Point {
  const cx = box.x + box.w / 2
  const cy = box.y + box.h / 2
  const dx = toward[0] - cx
  const dy = toward[1] - cy
  if (dx === 0 && dy === 0) return [cx, cy]
  const scale = Math.min(dx === 0 ? Infinity : box.w / 2 / Math.abs(dx), dy === 0 ? Infinity : box.h / 2 / Math.abs(dy))
  return [cx + dx * scale, cy + dy * scale]
}

/** A link's type in words: "successor trustee", "contingent beneficiary 25%". */
function linkWords(link: SummaryLink): string {
  const type = link.type === 'successorTrustee' ? 'successor trustee' : link.type
  const kind = link.type === 'beneficiary' && link.beneficiaryType !== undefined && link.beneficiaryType !== 'primary'
  const words = kind ? `${link.beneficiaryType} ${type}` : type
  return link.share === undefined ? words : `${words} ${shareText(link.share)}`
}

const centreOf = (box: StructureBox): Point => [box.x + box.w / 2, box.y + box.h / 2]
const rounded = (value: number) => Math.round(value * 2) / 2

export interface FocusedStructure {
  /** The ids to keep lit: the focused one and every id at either end of its links. */
  readonly highlighted: ReadonlySet<string>
  /** The indexes, in the household's links, of the links focusOn draws. */
  readonly linkIndexes: ReadonlySet<number>
}

/** Draws `focusId`'s non-ownership links into `layer` (emptied first) and says what stays lit. */
export function drawFocusLines(
  layer: SVGGElement,
  household: ViewHousehold,
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
  for (const link of focus.links) {
    const from = boxes.get(link.from)
    const to = boxes.get(link.to)
    if (OWNING_LINK_TYPES.has(link.type) || from === undefined || to === undefined || from === to) continue
    const [x1, y1] = borderPoint(from, centreOf(to))
    const [x2, y2] = borderPoint(to, centreOf(from))
    const line = svgElement(
      'line',
      {
        class: `hv-st-focus hv-st-focus-${link.type}`,
        x1: rounded(x1),
        y1: rounded(y1),
        x2: rounded(x2),
        y2: rounded(y2),
      },
      layer,
    )
    const words = linkWords(link)
    svgElement('title', {}, line).textContent = words
    const label = svgElement(
      'text',
      { class: 'hv-st-focus-label', x: rounded((x1 + x2) / 2), y: rounded((y1 + y2) / 2), 'text-anchor': 'middle' },
      layer,
    )
    label.textContent = words
  }
  return { highlighted: focus.highlighted, linkIndexes }
}
