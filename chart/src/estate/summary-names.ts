// How the summaries and chips name people and entities. A person goes by the first word of their
// name ("David"), unless that would be ambiguous in the household or would cut a name that is not
// written given-name-first with spaces; an entity by its short name when it has one.
import type { SummaryEntity, SummaryHousehold, SummaryPerson } from './summary-input.ts'

/**
 * Han, kana and Hangul names are written family name first and usually without spaces ("王小明",
 * "山田 太郎"), so their first word is a family name or the whole name: these keep the whole name.
 */
const FAMILY_NAME_FIRST = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

function tidy(name: string): string {
  return name.trim().replace(/\s+/gu, ' ')
}

/** The word a person would go by, before the household is checked for a second one. */
function firstWord(name: string): string {
  const full = tidy(name)
  if (FAMILY_NAME_FIRST.test(full)) return full
  return full.split(' ')[0] ?? full
}

/** Compared without case and Unicode composition differences, so "José" and "JOSE\u0301" collide. */
function collisionKey(word: string): string {
  return word.normalize('NFC').toLowerCase()
}

/**
 * Each person's short label by id: the first word of the name, or the whole name when another
 * person in the household has the same first word, when the name has one word, or when it is
 * written in a family-name-first script.
 */
export function personShortLabels(people: readonly SummaryPerson[]): Map<string, string> {
  const holders = new Map<string, number>()
  for (const p of people) {
    const key = collisionKey(firstWord(p.name))
    holders.set(key, (holders.get(key) ?? 0) + 1)
  }
  const labels = new Map<string, string>()
  for (const p of people) {
    const word = firstWord(p.name)
    labels.set(p.id, holders.get(collisionKey(word)) === 1 ? word : tidy(p.name))
  }
  return labels
}

/** An entity's label: its short name when given, else its name, as written (never re-cased). */
export function entityLabel(entity: SummaryEntity): string {
  return tidy(entity.shortName ?? entity.name)
}

/**
 * The labeller of each household drawn, kept while the household is: every summary, chip and node
 * name asks for it, and building it reads every person (a 500-person household spent 675 of its
 * 1,034 ms drawing here when it was built per call). A payload is never changed after it is
 * validated, so the labels cannot go stale.
 */
const labellers = new WeakMap<SummaryHousehold, (id: string) => string>()

/** A function naming any id of the household: people by short label, entities by label, else the id. */
export function householdLabeller(household: SummaryHousehold): (id: string) => string {
  const known = labellers.get(household)
  if (known !== undefined) return known
  const labels = personShortLabels(household.people)
  for (const e of household.entities ?? []) labels.set(e.id, entityLabel(e))
  const labeller = (id: string) => labels.get(id) ?? id
  labellers.set(household, labeller)
  return labeller
}
