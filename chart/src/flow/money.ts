// Money in the projection is whole cents in plain numbers: exact to 2^53 cents (about $90 trillion),
// far above the payload's limit of 1e13 per value, so sums and splits conserve every cent and the
// property "gross estate = deductions + tax + what passes" holds exactly, not within a rounding.

/** Dollars (or any currency unit) to whole cents, rounded half away from zero. */
export function cents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100)
}

/** Whole cents back to the currency unit, for the projection's JSON. */
export function units(amountInCents: number): number {
  return amountInCents / 100
}

/**
 * Splits `total` cents by `weights` (any non-negative numbers, not all 0) into whole cents that add up
 * to `total` exactly: each gets the floor of its exact part, and the cents left go to the largest
 * remainders, the earlier first on a tie (largest-remainder method).
 */
export function splitCents(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0)
  if (weights.length === 0) return []
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0))
  const exact = weights.map((weight) => (total * weight) / sum)
  const parts = exact.map(Math.floor)
  let left = total - parts.reduce((a, b) => a + b, 0)
  const order = exact
    .map((value, i) => ({ i, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i)
  for (const { i } of order) {
    if (left <= 0) break
    parts[i]! += 1
    left -= 1
  }
  return parts
}
