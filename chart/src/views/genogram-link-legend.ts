// The legend of the Family view's selection lines: the colour of each link type the household's
// people hold (only those), named, so a line's meaning never rests on its colour alone. The samples
// carry the same classes as the lines (genogram.css), so the legend cannot disagree with them.
import type { LinkType } from '../../../src/domain/estate-vocabulary.ts'
import { htmlElement, svgElement } from './dom.ts'
import type { ViewHousehold } from './view-types.ts'

/** Each link type's words in the legend, in the order the legend lists them. */
const LINK_LEGEND: readonly { readonly type: LinkType; readonly text: string }[] = [
  { type: 'owner', text: 'owner' },
  { type: 'generalPartner', text: 'general partner' },
  { type: 'limitedPartner', text: 'limited partner' },
  { type: 'beneficiary', text: 'beneficiary' },
  { type: 'trustee', text: 'trustee' },
  { type: 'successorTrustee', text: 'successor trustee (dashed)' },
  { type: 'grantor', text: 'grantor' },
  { type: 'insured', text: 'insured' },
]

/** The legend of the link types from a person of `household` to an entity; nothing when there are none. */
export function drawLinkLegend(parent: HTMLElement, household: ViewHousehold): void {
  const people = new Set(household.people.map((person) => person.id))
  const used = new Set((household.links ?? []).filter((link) => people.has(link.from)).map((link) => link.type))
  const entries = LINK_LEGEND.filter((entry) => used.has(entry.type))
  if (entries.length === 0) return
  const list = htmlElement('ul', 'hv-gn-legend hv-gn-link-legend', parent)
  list.setAttribute('aria-label', 'Lines of the selection')
  for (const entry of entries) {
    const item = htmlElement('li', 'hv-gn-legend-item', list)
    const sample = svgElement('svg', { width: 36, height: 12, 'aria-hidden': 'true' }, item)
    svgElement('path', { class: `hv-gn-link hv-gn-link-${entry.type}`, d: 'M2 6L34 6' }, sample)
    htmlElement('span', '', item, entry.text)
  }
}
