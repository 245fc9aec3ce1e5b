// The households the chart's geometry is measured on (issue 15): the shipped example, the issue's
// five test households and a generated 500-person, 100-entity one. Each as the 0.2.0 views draw it
// (the 0.2.0 shape of bench/chart/households/) and as payload 0.1.x for today's layout, the baseline.
import { readFileSync } from 'node:fs'
import type { Payload } from '../../chart/payload.ts'
import { generateHousehold } from './generate.ts'
import { downgrade, type HouseholdPayload } from './households/downgrade.ts'

export const HOUSEHOLD_FILES = ['three-marriages', 'estate-120m', 'widow', 'five-generations', 'long-names'] as const

export interface GeometryCase {
  name: string
  /** A name for URLs and file names. */
  slug: string
  /** The household as chart 0.2.0 draws it. */
  household: HouseholdPayload
  /** The same household as payload 0.1.x, as today's chart draws it. */
  payload: Payload
  /** The 0.2.0 household a case was downgraded from. */
  source?: HouseholdPayload
}

const readJson = (url: URL): unknown => JSON.parse(readFileSync(url, 'utf8'))

export function exampleCase(): GeometryCase {
  // The example states payload 0.2.0's fields (a corporate trustee, marriage dates): 0.1.x draws it downgraded.
  const example = readJson(new URL('../../chart/example.json', import.meta.url)) as HouseholdPayload
  return { name: 'example (chart/example.json)', slug: 'example', household: example, payload: downgrade(example) }
}

export function householdCase(name: (typeof HOUSEHOLD_FILES)[number]): GeometryCase {
  const source = readJson(new URL(`households/${name}.json`, import.meta.url)) as HouseholdPayload
  return { name, slug: name, household: source, payload: downgrade(source), source }
}

export function generatedCase(): GeometryCase {
  const generated = generateHousehold(500, 100, 1)
  return {
    name: 'generated 500 people, 100 entities (seed 1)',
    slug: 'generated-500',
    household: generated,
    payload: generated,
  }
}

/** The example, the five households and the generated one, in that order. */
export function geometryCases(): GeometryCase[] {
  return [exampleCase(), ...HOUSEHOLD_FILES.map(householdCase), generatedCase()]
}
