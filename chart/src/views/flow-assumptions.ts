// The Flow view's assumptions line, pure: who dies first and the years, the basic exclusion of each
// year with its basis (the year's own amount, the last known year's, or the chart's assumption), and
// portability (elected, not elected, or assumed elected when the chart does not say). The view prints
// it over the disclaimer, on screen and on paper, so a figure is never read without its premises.
import type { EstateProjection } from '../flow/projection-types.ts'
import { exclusionBasisWords } from './flow-statement.ts'

/** "elected", "not elected" or "assumed elected (the chart does not say)". */
export function portabilityWords(projection: EstateProjection): string {
  const { portabilityElected, portabilityStated } = projection.assumptions
  if (!portabilityElected) return 'not elected'
  return portabilityStated ? 'elected' : 'assumed elected (the chart does not say)'
}

/**
 * "Robert dies first, in 2026, then Linda, in 2040. Basic exclusion: $15,000,000 in 2026 (2026's
 * amount); $15,000,000 in 2040 (the last known amount, 2026's). Portability: assumed elected (the
 * chart does not say)."
 */
export function assumptionsLine(projection: EstateProjection, format: (amount: number) => string): string {
  const { deaths } = projection
  if (deaths.length === 0) return 'No living client: no death is projected.'
  const [first, second] = deaths
  const order =
    second === undefined
      ? `${first!.decedentName} dies in ${first!.year}.`
      : `${first!.decedentName} dies first, in ${first!.year}, then ${second.decedentName}, in ${second.year}.`
  const exclusions = deaths
    .map((death) => `${format(death.basicExclusion.amount)} in ${death.year} (${exclusionBasisWords(death)})`)
    .join('; ')
  const portability = projection.assumptions.married ? ` Portability: ${portabilityWords(projection)}.` : ''
  return `${order} Basic exclusion: ${exclusions}.${portability}`
}
