// What the 0.2.0 Family view (views/genogram-view.ts) draws, as pure functions: the 0.1.x layout of
// the people a set of folds leaves shown, the line style of a child's descent from the kinds of its
// parent kinships, the words a box says about its person (their kinship, their years, the dates of
// a marriage, the estate roles that fit) and which folds hide a person. No DOM: text widths come in
// as a measure, so the fitting is tested with hand-counted widths.
import type { ParentKind } from '../../../src/domain/chart-payload.ts'
import type { Payload, Person } from '../../payload.ts'
import { layoutChart, PERSON_W, type ChartLayout } from '../layout.ts'
import type { MeasureText } from '../text/fit-text.ts'
import type { ViewPerson, ViewRelationship } from '../views/view-types.ts'
import { foldFamily } from './collapse.ts'

export interface GenogramHousehold {
  readonly household: { readonly name: string }
  readonly people: readonly ViewPerson[]
  readonly relationships?: readonly ViewRelationship[]
}

const PAYLOAD_ROLES: ReadonlySet<string> = new Set<Person['role']>([
  'primaryClient',
  'coClient',
  'spouse',
  'child',
  'grandchild',
  'greatGrandchild',
  'parent',
  'sibling',
  'inLaw',
  'other',
])
const isPayloadRole = (role: string): role is Person['role'] => PAYLOAD_ROLES.has(role)

/**
 * layoutChart's geometry for the `shown` people: a people-only payload 0.1.x of them and the
 * kinships between them (a role 0.1.x does not know is placed as `other`; the box text is the
 * view's own, so the role only orders partners).
 */
export function layoutShown(household: GenogramHousehold, shown: ReadonlySet<string>): ChartLayout {
  const payload: Payload = {
    household: { name: household.household.name },
    people: household.people
      .filter((person) => shown.has(person.id))
      .map((person) => ({
        id: person.id,
        name: person.name,
        role: isPayloadRole(person.role) ? person.role : 'other',
      })),
    relationships: (household.relationships ?? [])
      .filter((r) => shown.has(r.from) && shown.has(r.to))
      .map((r) => ({ from: r.from, to: r.to, type: r.type === 'parent' ? 'parent' : partnerType(r.type) })),
  }
  return layoutChart(payload)
}

const partnerType = (type: string): 'spouse' | 'partner' | 'exSpouse' =>
  type === 'exSpouse' ? 'exSpouse' : type === 'partner' ? 'partner' : 'spouse'

// Layout's gap between sibling boxes (layout.ts SGAP), for how many boxes a frame shows across.
const BOX_PITCH = PERSON_W + 32
/** Generations a first view shows before the reader pans down. */
const FIRST_VIEW_ROWS = 4
/** Frame widths a first view may span before the reader pans across. */
const FIRST_VIEW_SCREENS = 2

/**
 * How many people the first view shows before generations are folded (collapse.ts foldToFit's
 * budget): the boxes a frame holds across, times four generations, times two frame widths. At the
 * 1,100 px frame: floor(1100 / 196) = 5 across, 5 × 4 × 2 = 40 people.
 */
export function firstViewBudget(frameWidth: number): number {
  return Math.max(1, Math.floor(frameWidth / BOX_PITCH)) * FIRST_VIEW_ROWS * FIRST_VIEW_SCREENS
}

const NOT_BY_BIRTH: readonly ParentKind[] = ['adopted', 'foster', 'step']

/**
 * The style of the line down to `child` from its `parents` (one or a couple): the kind of its parent
 * kinships when they agree (absent means biological, as in payload 0.1.x); when they differ (a
 * mother by birth and her husband a step-father), the kind that is not by birth, because the line
 * says what the child is to the couple it hangs from.
 */
export function descentKind(
  child: string,
  parents: readonly string[],
  relationships: readonly ViewRelationship[],
): ParentKind {
  const kinds = parents.map(
    (parent) =>
      relationships.find((r) => r.type === 'parent' && r.from === parent && r.to === child)?.parentKind ?? 'biological',
  )
  return NOT_BY_BIRTH.find((kind) => kinds.includes(kind)) ?? 'biological'
}

const year = (date: string | undefined) => date?.slice(0, 4)

/** "1948–2020", "b. 1948", "d. 2020" or ''. */
export function lifeYears(person: Pick<ViewPerson, 'birthDate' | 'deathDate'>): string {
  const born = year(person.birthDate)
  const died = year(person.deathDate)
  if (born !== undefined && died !== undefined) return `${born}–${died}`
  if (born !== undefined) return `b. ${born}`
  return died === undefined ? '' : `d. ${died}`
}

const PARTNER_KINSHIPS: ReadonlySet<string> = new Set(['spouse', 'partner', 'exSpouse'])
const isPartnerKinship = (r: ViewRelationship) => PARTNER_KINSHIPS.has(r.type) && r.from !== r.to
const otherOf = (r: ViewRelationship, id: string) => (r.from === id ? r.to : r.from)

const ROLE_WORDS: Readonly<Record<string, string>> = {
  primaryClient: 'Client',
  coClient: 'Co-client',
  spouse: 'Spouse',
  child: 'Child',
  grandchild: 'Grandchild',
  greatGrandchild: 'Great-grandchild',
  parent: 'Parent',
  sibling: 'Sibling',
  inLaw: 'In-law',
}
const CLIENT_ROLES: ReadonlySet<string> = new Set(['primaryClient', 'coClient'])

/**
 * What a person is, as their box says it: "former spouse" when their only partner kinships are
 * exSpouse ones and "widowed" when they are alive and a spouse kinship joins them to a deceased
 * person, whatever role the payload gave them; a client keeps "Client" in front ("Client · widowed").
 * Otherwise the role's word.
 */
export function kinshipWord(person: ViewPerson, household: GenogramHousehold): string {
  const dead = new Set(household.people.filter((p) => p.deathDate !== undefined).map((p) => p.id))
  const kinships = (household.relationships ?? []).filter(
    (r) => isPartnerKinship(r) && (r.from === person.id || r.to === person.id),
  )
  let word: string | undefined
  if (kinships.length > 0 && kinships.every((r) => r.type === 'exSpouse')) word = 'former spouse'
  else if (
    person.deathDate === undefined &&
    kinships.some((r) => r.type === 'spouse' && dead.has(otherOf(r, person.id)))
  )
    word = 'widowed'
  const role = ROLE_WORDS[person.role] ?? 'Other'
  if (word === undefined) return role
  return CLIENT_ROLES.has(person.role) ? `${role} · ${word}` : word.charAt(0).toUpperCase() + word.slice(1)
}

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th']

/** One marriage or partnership as its box line says it, and the person whose box says it. */
export interface MarriageLine {
  /** The partner whose box carries the line. */
  readonly holder: string
  /** "m. 1971 · div. 1984"; "1st m. 1971 · div. 1984" when the other partner married more than once. */
  readonly text: string
  /** The line without the marriage's order, for a box too narrow for the whole. */
  readonly short: string
}

/**
 * The dates of each partner kinship: "m. 1978" for a marriage, "m. 1978 · div. 1990" for a former
 * one ("divorced" without dates), "m. 1969 · widowed 2022" when one partner has died (the year the
 * marriage ended, else the death's), "since 2010" for partners. Each goes in the box of the partner
 * with fewer partner kinships (the one who married in; a client's box keeps its room otherwise),
 * and names its order among the other partner's marriages when there are several, oldest first.
 */
export function marriageLines(household: GenogramHousehold): MarriageLine[] {
  const people = new Map(household.people.map((p) => [p.id, p]))
  const kinships = (household.relationships ?? []).filter(
    (r) => isPartnerKinship(r) && people.has(r.from) && people.has(r.to),
  )
  const of = (id: string) =>
    kinships
      .filter((r) => r.from === id || r.to === id)
      .sort((a, b) => (a.since ?? '9999').localeCompare(b.since ?? '9999'))
  const lines: MarriageLine[] = []
  for (const r of kinships) {
    const [a, b] = [people.get(r.from)!, people.get(r.to)!]
    const holderFirst =
      of(a.id).length - of(b.id).length || Number(CLIENT_ROLES.has(a.role)) - Number(CLIENT_ROLES.has(b.role))
    const holder = holderFirst < 0 ? a : b
    const other = holder === a ? b : a
    const short = kinshipDates(r, a, b)
    const order = of(other.id)
    const ordinal = order.length > 1 ? ORDINALS[order.indexOf(r)] : undefined
    lines.push({ holder: holder.id, text: ordinal === undefined ? short : `${ordinal} ${short}`, short })
  }
  return lines
}

function kinshipDates(r: ViewRelationship, a: ViewPerson, b: ViewPerson): string {
  const since = year(r.since)
  const until = year(r.until)
  if (r.type === 'partner') {
    const together = since === undefined ? 'partners' : `since ${since}`
    return until === undefined ? together : `${together} · parted ${until}`
  }
  const married = since === undefined ? undefined : `m. ${since}`
  if (r.type === 'exSpouse') {
    const ended = until === undefined ? 'divorced' : `div. ${until}`
    return married === undefined ? ended : `${married} · ${ended}`
  }
  const deceased = [a, b].find((p) => p.deathDate !== undefined)
  const widowed = deceased === undefined ? undefined : `widowed ${until ?? year(deceased.deathDate)!}`
  return [married ?? 'married', widowed].filter((part) => part !== undefined).join(' · ')
}

/**
 * A line of whole phrases ("trustee of 2 · beneficiary of 5") that fits in `max` px: as many as fit
 * from the first, and "+N" for the ones left out; no phrase is cut (a count cut reads as another
 * count). '' when not even the first phrase fits with its "+N".
 */
export function phrasesLine(phrases: readonly string[], max: number, measure: MeasureText): string {
  for (let kept = phrases.length; kept > 0; kept--) {
    const left = phrases.length - kept
    const text = [...phrases.slice(0, kept), ...(left > 0 ? [`+${left}`] : [])].join(' · ')
    if (measure(text) <= max) return text
  }
  return ''
}

/**
 * `id` and their partners (spouses, partners, former spouses): the people a fold button opens or
 * closes together. foldToFit folds a generation's couples together, and a couple's children are
 * below both, so opening one partner's fold alone would show none of them.
 */
export function coupleOf(household: GenogramHousehold, id: string): Set<string> {
  const couple = new Set([id])
  for (const r of household.relationships ?? []) {
    if (!isPartnerKinship(r)) continue
    if (r.from === id) couple.add(r.to)
    else if (r.to === id) couple.add(r.from)
  }
  return couple
}

/** The folds in `folded` that hide `id` (each alone would hide them): the ones to open to show them. */
export function foldsHiding(household: GenogramHousehold, folded: ReadonlySet<string>, id: string): Set<string> {
  return new Set([...folded].filter((fold) => !foldFamily(household, new Set([fold])).shown.has(id)))
}
