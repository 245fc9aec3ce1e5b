// The summary panel: what the selection is in the estate, in words. A person gets one sentence
// ("Elizabeth: trustee of 2, beneficiary of 5, owns 50 % of the residence"), an entity a headline
// and a line per list (grantors, trustees, beneficiaries by type, owners…), both from the pure
// summaries of chart/src/estate. The panel is a polite live region, so a screen reader hears the
// new summary after a selection without losing its place.
import { personSentence, summarizePerson } from '../estate/summary-person.ts'
import { entityLines, summarizeEntity } from '../estate/summary-entity.ts'
import { htmlElement } from './dom.ts'
import type { Selected } from './selection.ts'
import type { ViewHousehold } from './view-types.ts'

export interface SummaryPanel {
  show(selected: Selected | null): void
}

const NOTHING_SELECTED = 'Select a person or an entity to see what they hold and do in the estate.'

export function createSummaryPanel(parent: Element, household: ViewHousehold, headingId: string): SummaryPanel {
  const panel = htmlElement('section', 'hv-summary', parent)
  panel.setAttribute('aria-labelledby', headingId)
  htmlElement('h3', 'hv-summary-title', panel, 'Selection').id = headingId
  const body = htmlElement('div', 'hv-summary-body', panel)
  body.setAttribute('aria-live', 'polite')

  const show = (selected: Selected | null) => {
    body.replaceChildren()
    const person = selected?.kind === 'person' ? summarizePerson(household, selected.id) : undefined
    const entity = selected?.kind === 'entity' ? summarizeEntity(household, selected.id) : undefined
    if (person !== undefined) {
      htmlElement('p', 'hv-summary-person', body, personSentence(person))
    } else if (entity !== undefined) {
      const list = htmlElement('ul', 'hv-summary-entity', body)
      for (const line of entityLines(entity)) htmlElement('li', '', list, line)
    } else {
      htmlElement('p', 'hv-summary-none', body, NOTHING_SELECTED)
    }
  }
  show(null)
  return { show }
}
