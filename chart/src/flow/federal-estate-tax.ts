// The federal estate tax as data: the unified rate schedule and the basic exclusion amount by year,
// each with its source. A jurisdiction is one EstateTaxTable, so a state estate tax (its own brackets
// and exclusion) is another table run over the same taxable estate, not new arithmetic. Amounts are
// in whole cents (money.ts).
import { cents } from './money.ts'

export interface TaxBracket {
  /** The bracket starts above this amount (cents). */
  readonly over: number
  /** The tax on `over` (cents). */
  readonly base: number
  /** The rate on the amount above `over`, as a fraction. */
  readonly rate: number
}

export interface ExclusionYear {
  readonly year: number
  /** The basic exclusion amount (cents). */
  readonly amount: number
  readonly source: string
}

export interface EstateTaxTable {
  readonly name: string
  /** Ascending by `over`, the first over 0. */
  readonly brackets: readonly TaxBracket[]
  readonly bracketsSource: string
  /** Ascending by year; years after the last use its amount unless the payload says another. */
  readonly exclusions: readonly ExclusionYear[]
}

const bracket = (overDollars: number, baseDollars: number, ratePercent: number): TaxBracket => ({
  over: cents(overDollars),
  base: cents(baseDollars),
  rate: ratePercent / 100,
})

/** IRC §2001(c), the unified rate schedule (as amended by the American Taxpayer Relief Act of 2012). */
export const FEDERAL_ESTATE_TAX: EstateTaxTable = {
  name: 'US federal estate tax',
  brackets: [
    bracket(0, 0, 18),
    bracket(10_000, 1_800, 20),
    bracket(20_000, 3_800, 22),
    bracket(40_000, 8_200, 24),
    bracket(60_000, 13_000, 26),
    bracket(80_000, 18_200, 28),
    bracket(100_000, 23_800, 30),
    bracket(150_000, 38_800, 32),
    bracket(250_000, 70_800, 34),
    bracket(500_000, 155_800, 37),
    bracket(750_000, 248_300, 39),
    bracket(1_000_000, 345_800, 40),
  ],
  bracketsSource: 'IRC §2001(c)',
  exclusions: [
    { year: 2025, amount: cents(13_990_000), source: 'Rev. Proc. 2024-40' },
    { year: 2026, amount: cents(15_000_000), source: 'P.L. 119-21 (IRC §2010(c)(3)), Rev. Proc. 2025-32' },
  ],
}

/**
 * The years a projected death may fall in: the exclusion table's first year to a far horizon. The
 * payload schema's bounds (assumptions.firstDeathYear, secondDeathYear), the projection's clamp and
 * the Flow view's year inputs all read these.
 */
export const PROJECTION_YEARS = { first: FEDERAL_ESTATE_TAX.exclusions[0]!.year, last: 2200 } as const

/** The tax on `amount` (cents) by the table's brackets, rounded to the cent. */
export function tentativeTax(table: EstateTaxTable, amount: number): number {
  if (amount <= 0) return 0
  let applies = table.brackets[0]!
  for (const each of table.brackets) if (amount > each.over) applies = each
  return applies.base + Math.round((amount - applies.over) * applies.rate)
}

export interface BasicExclusion {
  readonly year: number
  /** Cents. */
  readonly amount: number
  /** table: the year is in the table; lastKnown: a later year, the last year's amount; assumed: the payload's amount for a later year. */
  readonly basis: 'table' | 'lastKnown' | 'assumed'
  /** The table year whose amount it is (for lastKnown), or the year itself. */
  readonly sourceYear: number
  readonly source: string
}

/** The basic exclusion of `year`: the table's, else (a later year) the payload's assumption, else the last known. */
export function basicExclusionFor(table: EstateTaxTable, year: number, assumed: number | undefined): BasicExclusion {
  const known = table.exclusions.find((each) => each.year === year)
  if (known !== undefined) return { year, amount: known.amount, basis: 'table', sourceYear: year, source: known.source }
  const last = table.exclusions.at(-1)!
  if (year < table.exclusions[0]!.year)
    throw new RangeError(`${year} is before the first year of the exclusion table (${table.exclusions[0]!.year})`)
  if (assumed !== undefined)
    return {
      year,
      amount: assumed,
      basis: 'assumed',
      sourceYear: year,
      source: 'the payload’s assumptions.basicExclusion',
    }
  return { year, amount: last.amount, basis: 'lastKnown', sourceYear: last.year, source: last.source }
}
