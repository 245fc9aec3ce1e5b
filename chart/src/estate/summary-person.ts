// The panel a selected person opens: "Elizabeth: trustee of 2, beneficiary of 5, owns 50% of the
// residence". The structured form (counts and holdings) is what the panel and the text alternative
// render from; the sentence is built from it, never parsed back.
import type { SummaryHousehold } from './summary-input.ts'
import { householdLabeller } from './summary-names.ts'
import { holdingInWords, listInWords, rolePhrase, rolesOf, type RoleCount, type ShareRef } from './summary-roles.ts'

/** Holdings a sentence names before "and N more": enough for a family's usual few, short enough to read. */
export const HOLDINGS_NAMED = 3

export interface PersonSummary {
  readonly id: string
  readonly label: string
  readonly roles: readonly RoleCount[]
  readonly owns: readonly ShareRef[]
  readonly partnerIn: readonly ShareRef[]
}

/** The summary of a person of the household, or undefined when no person has this id. */
export function summarizePerson(household: SummaryHousehold, personId: string): PersonSummary | undefined {
  if (!household.people.some((p) => p.id === personId)) return undefined
  const label = householdLabeller(household)
  const { counts, owns, partnerIn } = rolesOf(household, personId, label)
  return { id: personId, label: label(personId), roles: counts, owns, partnerIn }
}

/** The one-line summary of what a person (or an entity acting as one) is in the estate. */
export function personSentence(summary: Pick<PersonSummary, 'label' | 'roles' | 'owns'>): string {
  const parts = summary.roles.map(rolePhrase)
  if (summary.owns.length > 0) parts.push('owns ' + listInWords(summary.owns.map(holdingInWords), HOLDINGS_NAMED))
  return `${summary.label}: ${parts.length > 0 ? parts.join(', ') : 'no part in the estate’s entities'}`
}
