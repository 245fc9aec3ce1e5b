// Which lines the Family view draws between the genogram and the estate strip: only the selected
// node's (issue 15 item 2), so that the parallel bundles of every link at once never appear. A
// selected person gets a line to each entity card they hold an interest in (owner, beneficiary,
// trustee…: one line a link, so two roles in one trust are two lines, each in its type's colour); a
// selected entity gets one to each person linked to it. Lines join people and entity cards only:
// parties are pills, not cards, and the ownership chain between entities is the Structure view's.
// Pure: the DOM side (genogram-link-lines.ts) places them.
import type { LinkType } from '../../../src/domain/estate-vocabulary.ts'
import type { SummaryLink } from '../estate/summary-input.ts'
import { householdLabeller } from '../estate/summary-names.ts'
import { shareText } from '../estate/summary-percent.ts'
import type { ViewHousehold } from './view-types.ts'

export interface FamilyLink {
  readonly person: string
  readonly entity: string
  readonly type: LinkType
  /** The link in words, for the line's <title>: "David: beneficiary 40% of Revocable Trust". */
  readonly title: string
}

/** A link's role in words: "owner 50%", "contingent beneficiary 25%", "successor trustee". */
export function linkRoleWords(link: SummaryLink): string {
  const type =
    link.type === 'successorTrustee'
      ? 'successor trustee'
      : link.type === 'generalPartner'
        ? 'general partner'
        : link.type === 'limitedPartner'
          ? 'limited partner'
          : link.type
  const typed =
    link.type === 'beneficiary' && link.beneficiaryType !== undefined && link.beneficiaryType !== 'primary'
      ? `${link.beneficiaryType} ${type}`
      : type
  return link.share === undefined ? typed : `${typed} ${shareText(link.share)}`
}

/**
 * The person-to-entity links to draw for `selectedId`, in the payload's order: those from the
 * selected person, or those from a person to the selected entity, whose entity is one of `cards`.
 * None for null, an unknown id or a party.
 */
export function familyLinksOf(
  household: ViewHousehold,
  selectedId: string | null,
  cards: ReadonlySet<string>,
): FamilyLink[] {
  if (selectedId === null) return []
  const people = new Set(household.people.map((person) => person.id))
  const label = householdLabeller(household)
  return (household.links ?? [])
    .filter((link) => people.has(link.from) && cards.has(link.to))
    .filter((link) => link.from === selectedId || link.to === selectedId)
    .map((link) => ({
      person: link.from,
      entity: link.to,
      type: link.type,
      title: `${label(link.from)}: ${linkRoleWords(link)} of ${label(link.to)}`,
    }))
}
