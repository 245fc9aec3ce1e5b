// The household in words, under the views (issue 15 item 7): a <details> "Text version" grouped as
// the views are. Family: each person with their role, dates and kinship ("spouse of Robert
// Chen; parent of Emily Chen"); Structure: each entity with its kind, value and side, then who made
// it, runs it, benefits from and owns it, with shares (the summary panel's lines, entityLines);
// Totals: the Estate view's table (each bucket and what lands in it, the estate and grand totals);
// Flow: each death in a sentence (gross estate, taxable estate, tax, DSUE passed), who ends with what,
// the assumptions and the disclaimer, for the projection the Flow view shows (it follows the reader's
// order and years).
// Everything the drawings show is here as text a screen reader can browse and a reader can copy.
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { estateTable } from '../estate/estate-table.ts'
import { entityLines, summarizeEntity } from '../estate/summary-entity.ts'
import type { EstateProjection } from '../flow/projection-types.ts'
import { ROLE_LABEL } from '../format.ts'
import { amountFormatter } from './amount-format.ts'
import { htmlElement } from './dom.ts'
import { assumptionsLine } from './flow-assumptions.ts'
import type { ViewHousehold, ViewPerson, ViewRelationship } from './view-types.ts'

/** A kinship as seen from `from`'s side ("spouse of"), and from `to`'s side ("child of"). */
const KINSHIP: Record<string, readonly [fromSide: string, toSide: string]> = {
  spouse: ['spouse of', 'spouse of'],
  partner: ['partner of', 'partner of'],
  exSpouse: ['former spouse of', 'former spouse of'],
  parent: ['parent of', 'child of'],
}

/** "born 1952, died 2019", "born 1980", or "" from ISO dates. */
function lifeWords(person: ViewPerson): string {
  const words = []
  if (person.birthDate !== undefined) words.push(`born ${person.birthDate.slice(0, 4)}`)
  if (person.deathDate !== undefined) words.push(`died ${person.deathDate.slice(0, 4)}`)
  return words.join(', ')
}

/** "child of" for a biological parent link, "adopted child of" when the payload says so. */
function phraseOf(relationship: ViewRelationship, fromSide: boolean): string | undefined {
  const phrases = KINSHIP[relationship.type]
  if (phrases === undefined) return undefined
  const phrase = fromSide ? phrases[0] : phrases[1]
  const kind = relationship.parentKind
  return relationship.type === 'parent' && kind !== undefined && kind !== 'biological' ? `${kind} ${phrase}` : phrase
}

/** A couple's years as the Family view shows them: " (since 1991)", " (2004–2010)", " (until 2010)", or "". */
function coupleYears(relationship: ViewRelationship): string {
  if (relationship.type === 'parent') return ''
  const since = relationship.since?.slice(0, 4)
  const until = relationship.until?.slice(0, 4)
  if (since !== undefined && until !== undefined) return ` (${since}–${until})`
  if (since !== undefined) return ` (since ${since})`
  return until === undefined ? '' : ` (until ${until})`
}

/** "David", "David and Sarah", "David, Sarah and Emily". */
function namesInWords(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`
}

/** "Robert Chen, Client, born 1951: spouse of Margaret Chen (since 1991) and Eleanor Chen (since 1977); parent of David Chen, Sarah Whitfield and Emily Chen". */
function familyLine(household: ViewHousehold, person: ViewPerson): string {
  const name = new Map(household.people.map((p) => [p.id, p.name]))
  const role = (ROLE_LABEL as Record<string, string | undefined>)[person.role] ?? person.role
  const head = [person.name, role, lifeWords(person)].filter((part) => part !== '').join(', ')
  // Kin grouped by phrase, in the order the payload first gives each phrase.
  const kin = new Map<string, string[]>()
  for (const relationship of household.relationships ?? []) {
    const fromSide = relationship.from === person.id
    if (!fromSide && relationship.to !== person.id) continue
    const phrase = phraseOf(relationship, fromSide)
    const other = name.get(fromSide ? relationship.to : relationship.from)
    if (phrase === undefined || other === undefined) continue
    kin.set(phrase, [...(kin.get(phrase) ?? []), `${other}${coupleYears(relationship)}`])
  }
  const parts = [...kin].map(([phrase, names]) => `${phrase} ${namesInWords(names)}`)
  return parts.length === 0 ? head : `${head}: ${parts.join('; ')}`
}

function fill(section: Element, lines: readonly string[]): void {
  section.querySelector(':scope > .hv-text-list, :scope > .hv-text-none')?.remove()
  if (lines.length === 0) {
    htmlElement('p', 'hv-text-none', section, 'None.')
    return
  }
  const list = htmlElement('ul', 'hv-text-list', section)
  for (const line of lines) htmlElement('li', '', list, line)
}

function group(parent: Element, title: string, lines: readonly string[]): HTMLElement {
  const section = htmlElement('section', 'hv-text-group', parent)
  htmlElement('h3', 'hv-text-title', section, title)
  fill(section, lines)
  return section
}

/**
 * "At Robert Chen's death in 2026 (the first): gross estate $21,000,000, taxable estate $15,000,000,
 * estate tax $0, DSUE passed to Margaret Chen $0", each death; then who ends with what, the
 * assumptions and the disclaimer.
 */
export function flowLines(projection: EstateProjection, format: (amount: number) => string): string[] {
  const { deaths } = projection
  const ordinal = ['first', 'second']
  const deathLines = deaths.map((death, k) => {
    const survivor = deaths.find((each) => each.decedentId === death.survivingSpouseId)?.decedentName
    const which = deaths.length > 1 ? ` (the ${ordinal[k] ?? String(k + 1)})` : ''
    const figures = [
      `gross estate ${format(death.grossEstate.total)}`,
      `taxable estate ${format(death.taxableEstate)}`,
      `estate tax ${format(death.estateTax)}`,
      ...(survivor === undefined ? [] : [`DSUE passed to ${survivor} ${format(death.dsuePassed)}`]),
    ]
    return `At ${death.decedentName}'s death in ${death.year}${which}: ${figures.join(', ')}`
  })
  const received = projection.recipients.map((recipient) => `${recipient.name} ${format(recipient.amount)}`)
  return [
    ...deathLines,
    ...(received.length === 0 ? [] : [`Who ends with what: ${received.join(', ')}`]),
    // What the view lists as warnings (an assumption made, a bequest that lapsed), in the same words.
    ...projection.warnings.map((warning) => `Note: ${warning.message}`),
    assumptionsLine(projection, format),
    projection.disclaimer,
  ]
}

export interface TextVersion {
  readonly element: HTMLDetailsElement
  /** The Flow view shows `projection` now: the Flow group says it. */
  showEstate(projection: EstateProjection | null): void
}

export function drawTextVersion(
  parent: Element,
  household: ViewHousehold,
  estate: EstateProjection | null,
): TextVersion {
  const details = htmlElement('details', 'hv-text', parent)
  htmlElement('summary', 'hv-text-summary', details, 'Text version')
  group(
    details,
    'Family',
    household.people.map((person) => familyLine(household, person)),
  )
  group(
    details,
    'Structure',
    (household.entities ?? []).flatMap((entity) => {
      const summary = summarizeEntity(household, entity.id)
      return summary === undefined ? [] : [entityLines(summary).join('. ')]
    }),
  )
  const format = amountFormatter(household.household.currency)
  const table = estateTable(household, lookThroughEstate(household))
  group(details, 'Totals', [
    ...table.rows.map((row) => {
      const entries = row.entries.map((entry) => `${entry.label} ${format(entry.amount)}`)
      const head = `${row.label}: ${format(row.amount)}`
      return entries.length === 0 ? head : `${head} (${entries.join(', ')})`
    }),
    `Estate total: ${format(table.estateTotal)}`,
    `All holdings: ${format(table.grandTotal)}`,
  ])
  const flow = group(details, 'Flow', estate === null ? [] : flowLines(estate, format))
  return {
    element: details,
    showEstate: (projection) => fill(flow, projection === null ? [] : flowLines(projection, format)),
  }
}
