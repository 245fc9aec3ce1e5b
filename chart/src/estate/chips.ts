// The chips under an entity card's name ("David 40% · Sarah 40% · Emily 20%"): who they are and in
// which order. Owners and partners come first, then primary beneficiaries, each largest share first
// so that when space runs out it is the smallest stakes that fold into "+N more"; the other
// beneficiary types follow, each group on its own line behind its type ("contingent: …").
// chips-layout.ts fits them to the card.
import { BENEFICIARY_TYPES } from '../../../src/domain/estate-vocabulary.ts'
import { layoutChips, type ChipGroup, type ChipLayout } from './chips-layout.ts'
import type { SummaryHousehold } from './summary-input.ts'
import { summarizeEntity } from './summary-entity.ts'
import { byShareDescending } from './summary-roles.ts'

/** The chip groups of an entity, empty groups left out; none for an id that is not an entity. */
export function entityChipGroups(household: SummaryHousehold, entityId: string): ChipGroup[] {
  const summary = summarizeEntity(household, entityId)
  if (!summary) return []
  const holders = [...summary.owners, ...summary.generalPartners, ...summary.limitedPartners].sort(byShareDescending)
  const groups: ChipGroup[] = [{ prefix: '', chips: [...holders, ...summary.beneficiaries.primary] }]
  for (const type of BENEFICIARY_TYPES) {
    if (type !== 'primary') groups.push({ prefix: `${type}: `, chips: summary.beneficiaries[type] })
  }
  return groups.filter((g) => g.chips.length > 0)
}

/**
 * The chip lines to draw on an entity's card: at most `maxLines` lines, none wider than `width`
 * as `measure` (CSS px) reports it.
 */
export function entityChips(
  household: SummaryHousehold,
  entityId: string,
  width: number,
  measure: (text: string) => number,
  maxLines: number,
): ChipLayout {
  return layoutChips(entityChipGroups(household, entityId), width, measure, maxLines)
}
