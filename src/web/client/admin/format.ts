// Words and numbers for the admin pages: counts, dates and times, and an API failure as a sentence.
import { ApiProblem } from '../api.ts'

const numberFormat = new Intl.NumberFormat()
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })
const shortDayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })

export function formatCount(value: number): string {
  return numberFormat.format(value)
}

/** "1 key", "3 keys". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}

function parsed(iso: string): Date | null {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? null : date
}

/** A moment as a day in the reader's calendar (created, expires). */
export function formatDate(iso: string): string {
  const date = parsed(iso)
  return date ? dateFormat.format(date) : iso
}

/** A moment with its time (last used, last sign-in). */
export function formatDateTime(iso: string): string {
  const date = parsed(iso)
  return date ? dateTimeFormat.format(date) : iso
}

/** A UTC day (YYYY-MM-DD) as the reader writes dates; short: "Jan 5". */
export function formatDay(day: string, short = false): string {
  const date = parsed(`${day}T00:00:00Z`)
  if (!date) return day
  return (short ? shortDayFormat : dayFormat).format(date)
}

/** The API's own sentence for a failure, or the error's message. */
export function problemText(problem: unknown): string {
  if (problem instanceof ApiProblem) return problem.message
  return problem instanceof Error ? problem.message : String(problem)
}

export function problemCode(problem: unknown): string | null {
  return problem instanceof ApiProblem ? problem.code : null
}
