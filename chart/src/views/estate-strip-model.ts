// What the Family view's estate strip says and where each piece goes, as pure functions: the strip
// under the genogram that keeps the estate on screen at open (issue 15 item 2). One card per entity
// that holds value (every kind but the parties): its label (short name, else name), its kind, its
// value in the household's currency and its estate side, and its owners and beneficiaries as chips
// with their shares ("David 40% · Sarah 40% · Emily 20%", estate/chips.ts). The cards flow left to
// right and wrap at the frame's width. Parties (corporate trustee, attorney's firm, other party)
// hold nothing and are never counted, so they are not cards: they follow the cards, under a label
// saying so, as pills that say what they do ("Greenwich Fiduciary · trustee of 3").
//
// The name is the only text that is cut (with an ellipsis, in its own direction when drawn); the
// kind, the value and the side widen the card instead, and chips keep their shares whole or fold
// into "+N more" (chips-layout.ts). No DOM: widths come in as measures, so the fitting is tested
// with hand-counted widths.
import { effectiveEstateSide, entityKindLabel, type EstateSide } from '../../../src/domain/estate-vocabulary.ts'
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { estateSideWords } from '../estate/estate-side-words.ts'
import { entityChipGroups } from '../estate/chips.ts'
import { layoutChips, type ChipGroup } from '../estate/chips-layout.ts'
import { isPartyKind } from '../estate/entity-kinds.ts'
import { householdLabeller } from '../estate/summary-names.ts'
import { rolePhrase, rolesOf, type ShareRef } from '../estate/summary-roles.ts'
import { fitText, fitWithTail, type MeasureText } from '../text/fit-text.ts'
import { amountFormatter } from './amount-format.ts'
import type { ViewEntity, ViewHousehold } from './view-types.ts'

/** The two faces the strip sets: names (13 px bold) and every other line (11 px regular). */
export interface StripMeasures {
  readonly name: MeasureText
  readonly line: MeasureText
}

export const STRIP_NAME_SIZE = 13
export const STRIP_LINE_SIZE = 11
export const CARD_PADDING = 10
/** A card's width before its name asks for more; the kind and value lines may widen it further. */
const MIN_CARD_WIDTH = 232
/** The most a long name widens a card; beyond it the name is cut. */
const MAX_NAME_CARD_WIDTH = 264
const GAP = 12
/** Chip lines a card shows before the rest fold into "+N more". */
const CHIP_LINES = 3
const NAME_BASELINE = 19
const LINE_PITCH = 15
/** Room under the last baseline (the descenders and the card's padding). */
const BOTTOM = 9
const PILL_HEIGHT = 22
export const PILL_PADDING = 8
export const PILL_BASELINE = 15
/** The widest a party pill grows before its name is cut (its roles never are). */
const MAX_PILL_WIDTH = 480
export const PARTIES_LABEL = 'Parties (they act for the estate; never counted):'
/** The parties' label line: its height and its baseline from its top. */
const LABEL_HEIGHT = 20
const LABEL_BASELINE = 13
const CHIP_SEPARATOR = ' · '
/** LEFT-TO-RIGHT MARK: zero width, a strong left-to-right character. */
const LRM = '\u200e'

/**
 * The groups with a left-to-right mark before each share. Without it, the bidirectional algorithm
 * takes the digits after an Arabic name for Arabic numbers and moves them into the name's run:
 * "يوسف 50%" in a left-to-right line showed as "%50 يوسف". After the mark the share is a
 * left-to-right run of its own, on the name's far side in either direction, and a cut name (the
 * only part chips-layout.ts cuts) never takes the mark with it.
 */
function withIsolatedShares(groups: readonly ChipGroup[]): ChipGroup[] {
  return groups.map((group) => ({
    prefix: group.prefix,
    chips: group.chips.map((chip) =>
      chip.shareText === undefined ? chip : { ...chip, shareText: LRM + chip.shareText },
    ),
  }))
}

export type StripTextRole = 'name' | 'kind' | 'value' | 'chips'

export interface StripText {
  readonly text: string
  readonly role: StripTextRole
  readonly size: number
  readonly bold: boolean
  /** Offset of the baseline from the card's top. */
  readonly baseline: number
}

export interface StripCard {
  readonly id: string
  readonly side: EstateSide
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  readonly texts: readonly StripText[]
  /** The chips in order, shown or folded into "+N more": every owner and beneficiary. */
  readonly chips: readonly ShareRef[]
  /** Everything the card says, nothing cut or folded: its description and tooltip. */
  readonly title: string
}

export interface StripParty {
  readonly id: string
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
  /** Name and roles as drawn: the name may be cut, the roles never. */
  readonly text: string
  readonly title: string
}

export interface EstateStripLayout {
  readonly cards: readonly StripCard[]
  readonly parties: readonly StripParty[]
  /** Where the parties' label goes (its baseline); undefined when there are no parties. */
  readonly partiesLabel?: { readonly x: number; readonly y: number }
  readonly width: number
  readonly height: number
}

/** "$18,500,000 · in estate" (where: estate-side-words.ts), or where alone when no value is given. */
export function valueSideLine(entity: ViewEntity, where: string, format: (amount: number) => string): string {
  return entity.value === undefined ? where : `${format(entity.value)}${CHIP_SEPARATOR}${where}`
}

const groupWords = (group: ChipGroup) =>
  group.prefix +
  group.chips.map((chip) => (chip.shareText === undefined ? chip.label : `${chip.label} ${chip.shareText}`)).join(', ')

function entityCard(
  household: ViewHousehold,
  entity: ViewEntity,
  measures: StripMeasures,
  label: (id: string) => string,
  format: (amount: number) => string,
): Omit<StripCard, 'x' | 'y'> {
  const side = effectiveEstateSide(entity.kind, entity.estate ?? null) ?? 'in'
  const kind = entityKindLabel(entity.kind)
  const value = valueSideLine(
    entity,
    estateSideWords(lookThroughEstate(household).entities.get(entity.id), side),
    format,
  )
  const name = label(entity.id)
  const wholeWidth = Math.max(measures.line(kind), measures.line(value))
  const nameWidth = Math.min(MAX_NAME_CARD_WIDTH - 2 * CARD_PADDING, measures.name(name))
  const w = Math.ceil(Math.max(MIN_CARD_WIDTH, wholeWidth + 2 * CARD_PADDING, nameWidth + 2 * CARD_PADDING))
  const inner = w - 2 * CARD_PADDING
  const groups = entityChipGroups(household, entity.id)
  const chips = layoutChips(withIsolatedShares(groups), inner, measures.line, CHIP_LINES)
  const lines: { text: string; role: StripTextRole }[] = [
    { text: kind, role: 'kind' },
    { text: value, role: 'value' },
    ...chips.lines.map((text) => ({ text, role: 'chips' as const })),
  ]
  const texts: StripText[] = [
    {
      text: fitText(name, inner, measures.name).text,
      role: 'name',
      size: STRIP_NAME_SIZE,
      bold: true,
      baseline: NAME_BASELINE,
    },
    ...lines.map((line, k) => ({
      ...line,
      size: STRIP_LINE_SIZE,
      bold: false,
      baseline: NAME_BASELINE + (k + 1) * LINE_PITCH,
    })),
  ]
  const title = [entity.name, kind, value, ...groups.map(groupWords)].join('. ')
  return {
    id: entity.id,
    side,
    w,
    h: texts.at(-1)!.baseline + BOTTOM,
    texts,
    chips: groups.flatMap((group) => group.chips),
    title,
  }
}

function partyPill(
  household: ViewHousehold,
  entity: ViewEntity,
  measures: StripMeasures,
  label: (id: string) => string,
  frameWidth: number,
): Omit<StripParty, 'x' | 'y'> {
  const roles = rolesOf(household, entity.id, label).counts.map(rolePhrase).join(CHIP_SEPARATOR)
  const name = label(entity.id)
  const whole = roles === '' ? name : `${name}${CHIP_SEPARATOR}${roles}`
  const width = Math.min(MAX_PILL_WIDTH, frameWidth, measures.line(whole) + 2 * PILL_PADDING)
  const fitted = fitWithTail(name, roles, width - 2 * PILL_PADDING, measures.line, CHIP_SEPARATOR)
  // Roles wider than the largest pill widen it: a count is never cut.
  const w = Math.ceil(Math.max(width, measures.line(fitted.text) + 2 * PILL_PADDING))
  const title = [entity.name, `${entityKindLabel(entity.kind)}, a party: holds nothing, never counted`, roles]
  return { id: entity.id, w, h: PILL_HEIGHT, text: fitted.text, title: title.filter((t) => t !== '').join('. ') }
}

/** Places boxes of given widths left to right from `x0`, wrapping at `width`; returns their positions. */
function flow(
  sizes: readonly { w: number; h: number }[],
  width: number,
  x0: number,
  y0: number,
): { places: { x: number; y: number }[]; bottom: number; right: number } {
  const places: { x: number; y: number }[] = []
  let x = x0
  let y = y0
  let rowHeight = 0
  let right = 0
  for (const size of sizes) {
    // A box wider than the room left starts the next row, unless it would be alone on its row anyway.
    if (x > x0 && x + size.w > width) {
      x = x0
      y += rowHeight + GAP
      rowHeight = 0
    }
    places.push({ x, y })
    right = Math.max(right, x + size.w)
    x += size.w + GAP
    rowHeight = Math.max(rowHeight, size.h)
  }
  return { places, bottom: sizes.length === 0 ? y0 : y + rowHeight, right }
}

/** The strip for a frame `width` CSS px wide: cards first, then the parties' pills, each wrapping. */
export function layoutEstateStrip(household: ViewHousehold, measures: StripMeasures, width: number): EstateStripLayout {
  const label = householdLabeller(household)
  const format = amountFormatter(household.household.currency)
  const entities = household.entities ?? []
  const cards = entities
    .filter((entity) => !isPartyKind(entity.kind))
    .map((entity) => entityCard(household, entity, measures, label, format))
  const cardFlow = flow(cards, width, 0, 0)
  const placedCards = cards.map((card, k) => ({ ...card, ...cardFlow.places[k]! }))
  const pills = entities
    .filter((entity) => isPartyKind(entity.kind))
    .map((entity) => partyPill(household, entity, measures, label, width))
  if (pills.length === 0) return { cards: placedCards, parties: [], width: cardFlow.right, height: cardFlow.bottom }
  const top = cards.length === 0 ? 0 : cardFlow.bottom + GAP
  // The label on a line of its own, the pills wrapping under it.
  const pillFlow = flow(pills, width, 0, top + LABEL_HEIGHT)
  return {
    cards: placedCards,
    parties: pills.map((pill, k) => ({ ...pill, ...pillFlow.places[k]! })),
    partiesLabel: { x: 0, y: top + LABEL_BASELINE },
    width: Math.max(cardFlow.right, pillFlow.right, measures.line(PARTIES_LABEL)),
    height: pillFlow.bottom,
  }
}
