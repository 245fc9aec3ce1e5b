// Where a card says an entity sits: "in estate", "outside estate", or the part of it that is in the
// clients' taxable estate when it is split ("2% in estate"). Read from the look-through, not from the
// entity's kind alone: an FLP is "in" by its kind's default, but one 98 % owned by SLATs is 98 %
// outside, and its card must say so (the issue's "FLP and LLC default to In estate although 98 % is
// owned by out-of-estate SLATs"). An entity that carries no value has nothing to split, so its card
// says the side it would be counted on.
import type { EstateSide } from '../../../src/domain/estate-vocabulary.ts'
import { sumOf, TAXABLE_ESTATE_BUCKETS } from './estate-buckets.ts'
import type { EntityLookThrough } from './estate-lookthrough.ts'

/** Below this share of its value in (or out of) the estate, a card reads as wholly out (or in). */
const WHOLE_TOLERANCE = 0.005

/** The words for where `look`'s entity is counted; `side` (its own, or its kind's) when it carries no value. */
export function estateSideWords(look: EntityLookThrough | undefined, side: EstateSide): string {
  const carried = look?.carriedValue ?? 0
  if (look === undefined || carried <= 0) return side === 'in' ? 'in estate' : 'outside estate'
  const inside = sumOf(look.buckets, TAXABLE_ESTATE_BUCKETS) / carried
  if (inside >= 1 - WHOLE_TOLERANCE) return 'in estate'
  if (inside <= WHOLE_TOLERANCE) return 'outside estate'
  return `${Math.round(inside * 100)}% in estate`
}
