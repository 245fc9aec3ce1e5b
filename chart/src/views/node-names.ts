// The accessible name of a selectable node (a person or an entity, in any view): what the node shows,
// then what it holds and does in the estate, from the same summaries as the summary panel, e.g.
// "Elizabeth Whitfield, Client: trustee of 2, beneficiary of 5, owns 50% of the residence". The
// visible text comes first and whole, so the name contains what is on screen (speech input can say
// it; axe's label-content-name-mismatch) and a screen reader hears the interests without selecting.
import { entityLines, summarizeEntity } from '../estate/summary-entity.ts'
import { personSentence, summarizePerson } from '../estate/summary-person.ts'
import type { SelectedKind } from './selection.ts'
import type { ViewHousehold } from './view-types.ts'

/** `visible` followed by the node's interests in the estate; `visible` alone when it has none to say. */
export function nodeName(household: ViewHousehold, id: string, kind: SelectedKind, visible: string): string {
  if (kind === 'person') {
    const person = summarizePerson(household, id)
    // personSentence writes "<label>: <interests>"; the visible text stands in for the label.
    return person === undefined ? visible : personSentence({ ...person, label: visible })
  }
  const entity = summarizeEntity(household, id)
  // The headline repeats the card's own name and kind: the lines after it are the interests.
  const interests = entity === undefined ? [] : entityLines(entity).slice(1)
  return interests.length === 0 ? visible : `${visible}: ${interests.join('; ')}`
}
