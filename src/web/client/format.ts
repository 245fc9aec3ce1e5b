// Words and numbers for every page: counts, dates and times as the reader writes them, and a
// failure as a sentence.
import { ApiProblem } from './api.ts'

const numberFormat = new Intl.NumberFormat()
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })
const shortDayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })

export function formatCount(value: number): string {
  return numberFormat.format(value)
}

/** "1 key", "3 members", "2 people". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}

function parsed(iso: string): Date | null {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A moment (createdAt, expiresAt) as a day in the reader's calendar. */
export function formatDate(iso: string): string {
  const date = parsed(iso)
  return date ? dateFormat.format(date) : iso
}

/** A moment with its time (last used, last sign-in). */
export function formatDateTime(iso: string): string {
  const date = parsed(iso)
  return date ? dateTimeFormat.format(date) : iso
}

/**
 * A calendar date without a time zone (YYYY-MM-DD: a birth date, a UTC day of the usage report) as
 * the reader writes dates; short: "Jan 5". Read as UTC so that no time zone moves it a day.
 */
export function formatDay(day: string, short = false): string {
  const date = parsed(`${day}T00:00:00Z`)
  if (!date) return day
  return (short ? shortDayFormat : dayFormat).format(date)
}

/** The API's own sentence for a failure (an ApiProblem's message), or the error's message. */
export function problemText(problem: unknown): string {
  return problem instanceof Error ? problem.message : String(problem)
}

export function problemCode(problem: unknown): string | null {
  return problem instanceof ApiProblem ? problem.code : null
}
