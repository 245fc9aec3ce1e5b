// Each living client's gross estate today, line by line, from the estate look-through (DESIGN §5):
// an entity's own value split among the look-through's buckets in whole cents, so every value is
// counted once. A client's lines are their bucket's part of each entity (what they own, directly or
// through a chain; revocable trusts they are sole grantor of; policies they own) and their part of
// the joint bucket (both clients owning it, or both grantors). Joint property is held equally (both
// owners' shares unstated or equal, or both grantors): half each, marked joint, and it passes to the
// survivor by survivorship. Two clients owning unequal shares (90 % and 10 %) hold it in common:
// each holds their own share, which passes by their dispositions like anything else they own.
// Outside (out of the estate by kind or by the advisor's mark) and charity are in no gross estate.
// Unassigned (in the estate, but no client owns it or is its grantor) is in neither, with a warning.
// Each line also names the entities it is held within (the entity and every entity owning it,
// through the chain), so a disposition `from` a revocable trust takes what the trust holds too.
import type { Payload } from '../../payload.ts'
import { ESTATE_BUCKETS, type EstateBucket } from '../estate/estate-buckets.ts'
import { lookThroughEstate, type EstateLookThrough } from '../estate/estate-lookthrough.ts'
import { cents, splitCents } from './money.ts'

/** A gross-estate line in cents. */
export interface CentsLine {
  readonly label: string
  readonly cents: number
  readonly entityId?: string
  /** The entity and every entity that holds it through an ownership chain. */
  readonly within?: readonly string[]
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
  /** The sum of every value in cents is beyond what a number holds exactly (2^53 cents, about $90 trillion). */
  readonly tooLarge: boolean
}

const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10} %`
/** Two direct shares this close are equal (shares are percentages with a few decimals). */
const EQUAL_SHARES = 1e-9

function entityLine(
  name: string,
  entityId: string,
  within: readonly string[],
  part: number,
  whole: number,
  joint: boolean,
): CentsLine {
  const fraction = part / whole
  const label = joint
    ? `Half of ${fraction * 2 >= 0.9995 ? '' : `${percent(fraction * 2)} of `}${name} (joint)`
    : fraction >= 0.9995
      ? name
      : `${percent(fraction)} of ${name}`
  return { label, cents: part, entityId, within, fraction, ...(joint ? { joint } : {}) }
}

/** Each entity and the entities that hold it, through every level of the chain (loops cut). */
function withinOf(look: EstateLookThrough): Map<string, string[]> {
  const within = new Map<string, string[]>()
  const visit = (id: string, seen: Set<string>): string[] => {
    const known = within.get(id)
    if (known !== undefined) return known
    const owners = [id]
    for (const holder of look.entities.get(id)?.holders ?? []) {
      if (holder.is !== 'entity' || seen.has(holder.id)) continue
      for (const owner of visit(holder.id, new Set([...seen, holder.id])))
        if (!owners.includes(owner)) owners.push(owner)
    }
    within.set(id, owners)
    return owners
  }
  for (const id of look.entities.keys()) visit(id, new Set([id]))
  return within
}

export function todayEstates(
  payload: Payload,
  clients: { readonly primaryId?: string; readonly coId?: string },
): TodayEstates {
  const look = lookThroughEstate(payload)
  const nameOf = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.shortName ?? entity.name]))
  const directShare = (clientId: string | undefined, entityId: string) =>
    clientId === undefined
      ? 0
      : (look.members.get(clientId)?.holdings.find((holding) => holding.entityId === entityId)?.directFraction ?? 0)
  const within = withinOf(look)
  const totals = Object.fromEntries(ESTATE_BUCKETS.map((bucket) => [bucket, 0])) as Record<EstateBucket, number>
  const primaryLines: CentsLine[] = []
  const coLines: CentsLine[] = []
  const outsideLines: CentsLine[] = []
  let sum = 0
  for (const [id, entity] of look.entities) {
    const whole = cents(entity.directValue)
    if (whole <= 0) continue
    sum += whole
    const parts = splitCents(
      whole,
      ESTATE_BUCKETS.map((bucket) => entity.directBuckets[bucket]),
    )
    const part = (bucket: EstateBucket) => parts[ESTATE_BUCKETS.indexOf(bucket)]!
    for (const bucket of ESTATE_BUCKETS) totals[bucket] += part(bucket)
    const name = nameOf.get(id) ?? id
    const chain = within.get(id) ?? [id]
    const line = (into: CentsLine[], amount: number, joint: boolean) => {
      if (amount > 0) into.push(entityLine(name, id, chain, amount, whole, joint))
    }
    line(primaryLines, part('primaryClient'), false)
    line(coLines, part('coClient'), false)
    const joint = part('joint')
    const primaryShare = directShare(clients.primaryId, id)
    const coShare = directShare(clients.coId, id)
    if (primaryShare > 0 && coShare > 0 && Math.abs(primaryShare - coShare) > EQUAL_SHARES) {
      // Held in common in unequal shares: each client's own share, not joint.
      const [primaryPart, coPart] = splitCents(joint, [primaryShare, coShare]) as [number, number]
      line(primaryLines, primaryPart, false)
      line(coLines, coPart, false)
    } else {
      // The primary client takes the half rounded down, the co-client the rest: the cents add up.
      const primaryHalf = Math.floor(joint / 2)
      line(primaryLines, primaryHalf, true)
      line(coLines, joint - primaryHalf, true)
    }
    const outside = part('outside') + part('charity')
    if (outside > 0) outsideLines.push(entityLine(name, id, chain, outside, whole, false))
  }
  return { primaryLines, coLines, totals, outsideLines, tooLarge: !Number.isSafeInteger(sum) }
}
