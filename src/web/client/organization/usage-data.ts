// The usage report as the page shows it: the period (last 7, 30 or 90 days, from the URL), every
// UTC day of it, and the API's rows summed per frame origin, per key and per day.
import type { ApiCallsRow, ChartUsageRow } from '../../../schemas/organization.ts'

export const PERIODS = [7, 30, 90] as const
export type Period = (typeof PERIODS)[number]
const DEFAULT_PERIOD: Period = 30

/** The period the URL asks for (?days=7|30|90); anything else is the default. */
export function periodOf(query: URLSearchParams): Period {
  const days = Number(query.get('days'))
  return (PERIODS as readonly number[]).includes(days) ? (days as Period) : DEFAULT_PERIOD
}

/** The URL of the usage page for a period; the default stays out of it. */
export function usageUrl(period: Period): string {
  return period === DEFAULT_PERIOD ? '/admin/usage' : `/admin/usage?days=${period}`
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The UTC days of the last `period` days, today included, oldest first. */
export function daysOf(period: Period, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return Array.from({ length: period }, (_, i) => utcDay(new Date(today - (period - 1 - i) * 86_400_000)))
}

export interface OriginUsage {
  origin: string
  mints: number
  renders: number
  /** Per day of the period, in order. */
  mintsPerDay: number[]
  rendersPerDay: number[]
  rows: ChartUsageRow[]
}

/** Chart usage per frame origin, the busiest first. */
export function chartByOrigin(rows: ChartUsageRow[], days: string[]): OriginUsage[] {
  const index = new Map(days.map((day, i) => [day, i]))
  const byOrigin = new Map<string, OriginUsage>()
  for (const row of rows) {
    let usage = byOrigin.get(row.frameOrigin)
    if (!usage) {
      usage = {
        origin: row.frameOrigin,
        mints: 0,
        renders: 0,
        mintsPerDay: days.map(() => 0),
        rendersPerDay: days.map(() => 0),
        rows: [],
      }
      byOrigin.set(row.frameOrigin, usage)
    }
    usage.mints += row.mints
    usage.renders += row.renders
    usage.rows.push(row)
    const i = index.get(row.day)
    if (i !== undefined) {
      usage.mintsPerDay[i] = (usage.mintsPerDay[i] ?? 0) + row.mints
      usage.rendersPerDay[i] = (usage.rendersPerDay[i] ?? 0) + row.renders
    }
  }
  return [...byOrigin.values()].sort(
    (a, b) => b.mints + b.renders - (a.mints + a.renders) || a.origin.localeCompare(b.origin),
  )
}

export interface KeyUsage {
  keyId: string
  keyName: string
  keyPrefix: string
  calls: number
  legacyCalls: number
}

/** API calls per key over the period, the busiest first. */
export function callsByKey(rows: ApiCallsRow[]): KeyUsage[] {
  const byKey = new Map<string, KeyUsage>()
  for (const row of rows) {
    const usage = byKey.get(row.keyId) ?? {
      keyId: row.keyId,
      keyName: row.keyName,
      keyPrefix: row.keyPrefix,
      calls: 0,
      legacyCalls: 0,
    }
    usage.calls += row.calls
    usage.legacyCalls += row.legacyCalls
    byKey.set(row.keyId, usage)
  }
  return [...byKey.values()].sort((a, b) => b.calls - a.calls || a.keyName.localeCompare(b.keyName))
}

/** All keys' calls and legacy calls per day of the period. */
export function callsPerDay(rows: ApiCallsRow[], days: string[]): { calls: number[]; legacy: number[] } {
  const index = new Map(days.map((day, i) => [day, i]))
  const calls = days.map(() => 0)
  const legacy = days.map(() => 0)
  for (const row of rows) {
    const i = index.get(row.day)
    if (i === undefined) continue
    calls[i] = (calls[i] ?? 0) + row.calls
    legacy[i] = (legacy[i] ?? 0) + row.legacyCalls
  }
  return { calls, legacy }
}

/** The day with the most of `values` (the first of equals), or null when all are 0. */
export function busiest(days: string[], values: number[]): { day: string; value: number } | null {
  let best: { day: string; value: number } | null = null
  for (const [i, value] of values.entries()) {
    const day = days[i]
    if (day !== undefined && value > 0 && (!best || value > best.value)) best = { day, value }
  }
  return best
}
