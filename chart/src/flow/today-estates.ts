// Each living client's gross estate today, line by line, from the estate look-through (DESIGN §5):
// an entity's own value split among the look-through's buckets in whole cents, so every value is
// counted once. A client's lines are their bucket's part of each entity (what they own, directly or
// through a chain; revocable trusts they are sole grantor of; policies they own) and half of the
// joint part (both clients owning it, or both grantors); the other half is the other client's.
// Outside (out of the estate by kind or by the advisor's mark) and charity are in no gross estate.
// Unassigned (in the estate, but no client owns it or is its grantor) is in neither, with a warning.
import type { Payload } from '../../payload.ts'
import { ESTATE_BUCKETS, type EstateBucket } from '../estate/estate-buckets.ts'
import { lookThroughEstate } from '../estate/estate-lookthrough.ts'
import { splitCents } from './money.ts'
import { cents } from './money.ts'

/** A gross-estate line in cents. */
export interface CentsLine {
  readonly label: string
  readonly cents: number
  readonly entityId?: string
  readonly fraction?: number
  readonly fromDeath?: number
  readonly joint?: boolean
}

export interface TodayEstates {
  readonly primaryLines: readonly CentsLine[]
  readonly coLines: readonly CentsLine[]
  /** Each bucket's total (cents). */
  readonly totals: Readonly<Record<EstateBucket, number>>
  /** Lines outside both estates (outside and charity buckets), one per entity. */
  readonly outsideLines: readonly CentsLine[]
}

const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10} %`

function entityLine(name: string, entityId: string, part: number, whole: number, joint: boolean): CentsLine {
  const fraction = part / whole
  const label = joint
    ? `Half of ${fraction * 2 >= 0.9995 ? '' : `${percent(fraction * 2)} of `}${name} (joint)`
    : fraction >= 0.9995
      ? name
      : `${percent(fraction)} of ${name}`
  return { label, cents: part, entityId, fraction, ...(joint ? { joint } : {}) }
}

export function todayEstates(payload: Payload): TodayEstates {
  const look = lookThroughEstate(payload)
  const nameOf = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.shortName ?? entity.name]))
  const totals = Object.fromEntries(ESTATE_BUCKETS.map((bucket) => [bucket, 0])) as Record<EstateBucket, number>
  const primaryLines: CentsLine[] = []
  const coLines: CentsLine[] = []
  const outsideLines: CentsLine[] = []
  for (const [id, entity] of look.entities) {
    const whole = cents(entity.directValue)
    if (whole <= 0) continue
    const parts = splitCents(
      whole,
      ESTATE_BUCKETS.map((bucket) => entity.directBuckets[bucket]),
    )
    const part = (bucket: EstateBucket) => parts[ESTATE_BUCKETS.indexOf(bucket)]!
    for (const bucket of ESTATE_BUCKETS) totals[bucket] += part(bucket)
    const name = nameOf.get(id) ?? id
    const joint = part('joint')
    // The primary client takes the half rounded down, the co-client the rest: the cents add up.
    const primaryHalf = Math.floor(joint / 2)
    if (part('primaryClient') > 0) primaryLines.push(entityLine(name, id, part('primaryClient'), whole, false))
    if (primaryHalf > 0) primaryLines.push(entityLine(name, id, primaryHalf, whole, true))
    if (part('coClient') > 0) coLines.push(entityLine(name, id, part('coClient'), whole, false))
    if (joint - primaryHalf > 0) coLines.push(entityLine(name, id, joint - primaryHalf, whole, true))
    const outside = part('outside') + part('charity')
    if (outside > 0) outsideLines.push(entityLine(name, id, outside, whole, false))
  }
  return { primaryLines, coLines, totals, outsideLines }
}
