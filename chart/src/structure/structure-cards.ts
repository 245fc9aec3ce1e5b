// What each box of the Structure view says, and how wide and tall that makes it. An entity card: its
// name (short name when given), kind and estate side, value (direct, and carried when the chain adds
// to it), control as role rows ("Trustee: First Fiduciary · Grantor: Robert") and benefit as chips
// ("Beneficiaries: David 40% · Sarah 40% · Emily 20%"): control and benefit are not drawn as lines.
// A person's card: name and role. A party's: name, kind, and what it acts for ("Trustee of ILIT").
// A card grows to fit its name up to MAX_CARD_WIDTH, then the name is cut; the kind, value and
// shares are never cut (the card widens for them instead). No text is under 11 px at zoom 1.
import { entityKindLabel, effectiveEstateSide } from '../../../src/domain/estate-vocabulary.ts'
import { estateSideWords } from '../estate/estate-side-words.ts'
import { layoutChips, type ChipGroup } from '../estate/chips-layout.ts'
import type { EntityLookThrough } from '../estate/estate-lookthrough.ts'
import { summarizeEntity } from '../estate/summary-entity.ts'
import { rolesOf, type RoleCount, type ShareRef } from '../estate/summary-roles.ts'
import { ROLE_LABEL } from '../format.ts'
import { fitText } from '../text/fit-text.ts'
import type { StructureEntity, StructureInput, StructurePerson } from './structure-input.ts'
import { valueLine } from './structure-values.ts'

/** Width of `text` in CSS px at `sizePx`, bold or not (the browser passes a canvas measurer). */
export type MeasureStyled = (text: string, sizePx: number, bold: boolean) => number

const NAME_SIZE = 13
export const TEXT_SIZE = 11
export const CARD_PADDING = 10
const MIN_CARD_WIDTH = 150
export const MAX_CARD_WIDTH = 250
const LINE_HEIGHT: Record<number, number> = { [NAME_SIZE]: 18, [TEXT_SIZE]: 15 }
const CARD_PADDING_Y = 8
const CHIP_LINES = 3
const SEPARATOR = ' · '

export type CardLineRole = 'name' | 'kind' | 'value' | 'control' | 'benefit'

export interface CardLine {
  readonly text: string
  readonly sizePx: number
  readonly bold: boolean
  readonly role: CardLineRole
  /** Offset of the baseline from the card's top. */
  readonly baseline: number
}

export interface Card {
  readonly id: string
  readonly is: 'person' | 'entity' | 'party'
  readonly width: number
  readonly height: number
  readonly lines: readonly CardLine[]
  /** The full words for a tooltip or a screen reader: nothing in them is cut. */
  readonly title: string
}

/** A line whose text is fixed before the width is known: never cut. */
interface WholeLine {
  readonly text: string
  readonly role: CardLineRole
}

interface CardContext {
  readonly input: StructureInput
  readonly measure: MeasureStyled
  readonly label: (id: string) => string
}

export function personCard(person: StructurePerson, context: CardContext, minWidth: number): Card {
  const role = (ROLE_LABEL as Record<string, string | undefined>)[person.role] ?? person.role
  const whole: WholeLine[] = [{ text: role, role: 'kind' }]
  const width = cardWidth([person.name], whole, context.measure, minWidth)
  const title = `${person.name}, ${role}${person.deathDate === undefined ? '' : ' (deceased)'}`
  return assemble(person.id, 'person', width, person.name, whole, [], context.measure, title)
}

export function entityCard(
  entity: StructureEntity,
  look: EntityLookThrough,
  prefix: string,
  context: CardContext,
  minWidth: number,
): Card {
  const summary = summarizeEntity(context.input, entity.id)!
  const side = effectiveEstateSide(entity.kind, entity.estate ?? null) ?? 'in'
  const kind = `${entityKindLabel(entity.kind)} · ${estateSideWords(look, side)}`
  const value = valueLine(look.directValue, look.carriedValue, entity.value !== undefined, prefix)
  const whole: WholeLine[] = [
    { text: kind, role: 'kind' },
    ...(value === undefined ? [] : [{ text: value, role: 'value' as const }]),
  ]
  const name = entity.shortName ?? entity.name
  const phrases = [
    rolePhrase(
      'Grantor',
      'Grantors',
      summary.grantors.map((g) => g.label),
    ),
    rolePhrase(
      'Trustee',
      'Trustees',
      summary.trustees.map((t) => t.label),
    ),
    rolePhrase(
      'Successor trustee',
      'Successor trustees',
      summary.successorTrustees.map((t) => t.label),
    ),
  ].filter((phrase) => phrase !== '')
  const groups: ChipGroup[] = [
    { prefix: 'Beneficiaries: ', chips: summary.beneficiaries.primary },
    { prefix: 'Contingent: ', chips: summary.beneficiaries.contingent },
    { prefix: 'Income: ', chips: summary.beneficiaries.income },
    { prefix: 'Remainder: ', chips: summary.beneficiaries.remainder },
    { prefix: 'Insured: ', chips: summary.insured },
  ].filter((group) => group.chips.length > 0)
  const groupLines = groups.map((g) => g.prefix + g.chips.map(chipWords).join(SEPARATOR))
  const width = cardWidth([name, ...phrases, ...groupLines], whole, context.measure, minWidth)
  const inner = width - 2 * CARD_PADDING
  const control = packPhrases(phrases, inner, context.measure).map((text): FittedLine => ({ text, role: 'control' }))
  const chips = layoutChips(groups, inner, (text) => context.measure(text, TEXT_SIZE, false), CHIP_LINES)
  const benefit = chips.lines.map((text): FittedLine => ({ text, role: 'benefit' }))
  const title = [entity.name, kind, value, ...phrases, ...groupLines].filter((part) => part !== undefined).join('. ')
  return assemble(entity.id, 'entity', width, name, whole, [...control, ...benefit], context.measure, title)
}

export function partyCard(entity: StructureEntity, context: CardContext, minWidth: number): Card {
  const whole: WholeLine[] = [{ text: `${entityKindLabel(entity.kind)} · party`, role: 'kind' }]
  const name = entity.shortName ?? entity.name
  const counts = rolesOf(context.input, entity.id, context.label).counts
  const phrases = counts.map((count) => actsFor(count, context.label))
  const width = cardWidth([name, ...phrases], whole, context.measure, minWidth)
  const control = packPhrases(phrases, width - 2 * CARD_PADDING, context.measure).map((text): FittedLine => ({
    text,
    role: 'control',
  }))
  const title = [entity.name, whole[0]!.text, ...phrases].join('. ')
  return assemble(entity.id, 'party', width, name, whole, control, context.measure, title)
}

/** "Trustee of ILIT, William's SLAT": what a party does, and for which entities. */
function actsFor(count: RoleCount, label: (id: string) => string): string {
  const role = {
    grantor: 'Grantor',
    trustee: 'Trustee',
    successorTrustee: 'Successor trustee',
    beneficiary: 'Beneficiary',
    insured: 'Insured',
    partner: 'Partner',
  }[count.role]
  return `${role} of ${count.entityIds.map(label).join(', ')}`
}

function rolePhrase(one: string, many: string, names: readonly string[]): string {
  if (names.length === 0) return ''
  return `${names.length === 1 ? one : many}: ${names.join(', ')}`
}

function chipWords(chip: ShareRef): string {
  return chip.shareText === undefined ? chip.label : `${chip.label} ${chip.shareText}`
}

/** Phrases joined by " · " on as few rows as fit; a phrase too long for a row of its own is cut at its end. */
function packPhrases(phrases: readonly string[], width: number, measure: MeasureStyled): string[] {
  const fits = (text: string) => measure(text, TEXT_SIZE, false) <= width
  const rows: string[] = []
  for (const phrase of phrases) {
    const last = rows[rows.length - 1]
    if (last !== undefined && fits(last + SEPARATOR + phrase)) rows[rows.length - 1] = last + SEPARATOR + phrase
    else rows.push(fitText(phrase, width, (text) => measure(text, TEXT_SIZE, false)).text)
  }
  return rows
}

/**
 * Wide enough for the longest of `grow` (the name, then rows that may be cut) up to the maximum, for
 * every whole line whatever its width, and at least `minWidth`.
 */
function cardWidth(
  grow: readonly string[],
  whole: readonly WholeLine[],
  measure: MeasureStyled,
  minWidth: number,
): number {
  const [name = '', ...rows] = grow
  const wanted = Math.max(measure(name, NAME_SIZE, true), ...rows.map((row) => measure(row, TEXT_SIZE, false)))
  const wholeWidth = Math.max(...whole.map((line) => measure(line.text, TEXT_SIZE, false)))
  return Math.ceil(
    Math.max(
      MIN_CARD_WIDTH,
      minWidth,
      Math.min(wanted + 2 * CARD_PADDING, MAX_CARD_WIDTH),
      wholeWidth + 2 * CARD_PADDING,
    ),
  )
}

interface FittedLine {
  readonly text: string
  readonly role: CardLineRole
}

function assemble(
  id: string,
  is: Card['is'],
  width: number,
  name: string,
  whole: readonly WholeLine[],
  fitted: readonly FittedLine[],
  measure: MeasureStyled,
  title: string,
): Card {
  const nameText = fitText(name, width - 2 * CARD_PADDING, (text) => measure(text, NAME_SIZE, true)).text
  const rows: { text: string; role: CardLineRole; sizePx: number }[] = [
    { text: nameText, role: 'name', sizePx: NAME_SIZE },
    ...[...whole, ...fitted].map((line) => ({ ...line, sizePx: TEXT_SIZE })),
  ]
  let y = CARD_PADDING_Y
  const lines = rows.map((row): CardLine => {
    const lineHeight = LINE_HEIGHT[row.sizePx]!
    y += lineHeight
    // The baseline sits a quarter of the line height above the line's bottom (room for descenders).
    return {
      text: row.text,
      sizePx: row.sizePx,
      bold: row.role === 'name',
      role: row.role,
      baseline: y - Math.round(lineHeight / 4),
    }
  })
  return { id, is, width, height: y + CARD_PADDING_Y, lines, title }
}
