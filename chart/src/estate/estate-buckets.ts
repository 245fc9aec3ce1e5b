// The buckets of the Estate view and the arithmetic on amounts split among them. The four buckets of
// the clients' taxable estate (primaryClient, coClient, joint, unassigned) add up to the estate total;
// with outside and charity they add up to every value the household holds.

export const ESTATE_BUCKETS = ['primaryClient', 'coClient', 'joint', 'unassigned', 'outside', 'charity'] as const
export type EstateBucket = (typeof ESTATE_BUCKETS)[number]

/** The buckets that make up the clients' taxable estate. */
export const TAXABLE_ESTATE_BUCKETS = [
  'primaryClient',
  'coClient',
  'joint',
  'unassigned',
] as const satisfies readonly EstateBucket[]

export type BucketAmounts = Record<EstateBucket, number>

export function noBuckets(): BucketAmounts {
  return { primaryClient: 0, coClient: 0, joint: 0, unassigned: 0, outside: 0, charity: 0 }
}

/** Adds `amounts` times `factor` into `into`, bucket by bucket. */
export function addScaled(into: BucketAmounts, amounts: Readonly<BucketAmounts>, factor: number): void {
  for (const bucket of ESTATE_BUCKETS) into[bucket] += amounts[bucket] * factor
}

export function sumOf(amounts: Readonly<BucketAmounts>, buckets: readonly EstateBucket[]): number {
  return buckets.reduce((sum, bucket) => sum + amounts[bucket], 0)
}
