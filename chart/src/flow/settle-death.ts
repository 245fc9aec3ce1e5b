// One death: what the gross estate is made of, where it passes, what qualifies for the marital and
// charitable deductions, the federal estate tax, and the DSUE passed on. All in whole cents.
//
// Where it passes, in this order (the payload's dispositions, DESIGN §5):
// 1. Joint property: the decedent's half to the surviving joint owner, by survivorship, unless a
//    disposition names that entity as its `from`.
// 2. Each entity a disposition names as `from`: its lines, by those dispositions; what they leave
//    joins the residue.
// 3. The residue (every other line): by the dispositions without `from`.
// Within 2 and 3: fixed amounts first, then the formula (unusedExclusion: as much as passes free of
// tax), then shares of what is left; what none of them takes goes by the common default: all to the
// surviving spouse, else to the descendants by branch (descendants.ts), else to other heirs.
//
// The tax (IRC §2001(b)): tentative tax on (taxable estate + adjusted taxable gifts), less the gift
// tax payable on those gifts, less the applicable credit (the tentative tax on basic exclusion +
// DSUE), never below zero. The tax is borne first by what qualifies for no deduction, pro rata, so
// the marital and charitable shares pass whole; only when those transfers cannot bear it does the
// rest come from the deductible ones, which lowers the deductions and raises the tax: that
// interrelated case is solved by iterating to the cent (each round moves the tax by at most 40 % of
// the last change, so it settles in a few rounds).
import type { Disposition } from '../../payload.ts'
import type { ProjectionTransfer, RecipientKind, TransferHow } from './projection-types.ts'
import { tentativeTax, type BasicExclusion, type EstateTaxTable } from './federal-estate-tax.ts'
import { cents, splitCents } from './money.ts'
import type { CentsLine } from './today-estates.ts'
import type { Taker } from './descendants.ts'

export interface Recipient {
  readonly name: string
  readonly kind: Exclude<RecipientKind, 'tax' | 'heirs'>
  /** A trust whose value is taxed in the surviving spouse's estate when the marital deduction is taken (kind qtip). */
  readonly qtip: boolean
}

export interface DeathFacts {
  readonly table: EstateTaxTable
  readonly decedentId: string
  readonly year: number
  readonly lines: readonly CentsLine[]
  /** The other client, alive after this death; `spouse` when they are married. */
  readonly survivor?: { readonly id: string; readonly spouse: boolean; readonly citizen: boolean }
  /** This decedent's dispositions, each with its index in the payload. */
  readonly dispositions: readonly { readonly index: number; readonly disposition: Disposition }[]
  readonly basicExclusion: BasicExclusion
  readonly dsue: number
  readonly adjustedTaxableGifts: number
  /** The part of the exclusion the lifetime gifts used; gift tax was paid on the rest. */
  readonly exclusionUsedByGifts: number
  readonly portabilityElected: boolean
  readonly recipient: (id: string) => Recipient
  readonly heirs: readonly Taker[]
}

/** A transfer in cents, as settleDeath works on it. */
export interface CentsTransfer {
  readonly toId?: string
  readonly toName: string
  readonly toKind: ProjectionTransfer['toKind']
  readonly how: TransferHow
  readonly dispositionIndex?: number
  readonly fromEntityId?: string
  readonly amount: number
  taxBorne: number
  readonly deduction: 'marital' | 'charitable' | null
  readonly inSurvivorsEstate: boolean
}

export interface SettledDeath {
  readonly grossEstate: number
  readonly maritalDeduction: number
  readonly charitableDeduction: number
  readonly taxableEstate: number
  readonly taxBase: number
  readonly tentativeTax: number
  readonly giftTaxPayable: number
  readonly applicableExclusion: number
  readonly applicableCredit: number
  readonly estateTax: number
  readonly dsuePassed: number
  readonly transfers: readonly CentsTransfer[]
  /** Dispositions that received nothing because nothing was left (their indexes). */
  readonly unpaidDispositions: readonly number[]
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)

export function settleDeath(facts: DeathFacts): SettledDeath {
  const { survivor } = facts
  const married = survivor?.spouse === true
  const applicableExclusion = facts.basicExclusion.amount + facts.dsue
  const transfers: CentsTransfer[] = []
  const unpaid: number[] = []

  const deductionFor = (toId: string): CentsTransfer['deduction'] => {
    if (married && survivor.citizen && toId === survivor.id) return 'marital'
    const recipient = facts.recipient(toId)
    if (married && survivor.citizen && recipient.qtip) return 'marital'
    return recipient.kind === 'charity' ? 'charitable' : null
  }
  const give = (toId: string, amount: number, how: TransferHow, dispositionIndex?: number, fromEntityId?: string) => {
    if (amount <= 0) return
    const recipient = facts.recipient(toId)
    const deduction = deductionFor(toId)
    transfers.push({
      toId,
      toName: recipient.name,
      toKind: toId === survivor?.id && married ? 'spouse' : recipient.kind,
      how,
      ...(dispositionIndex === undefined ? {} : { dispositionIndex }),
      ...(fromEntityId === undefined ? {} : { fromEntityId }),
      amount,
      taxBorne: 0,
      deduction,
      // What the survivor takes outright is theirs at the next death; a QTIP trust is taxed there (§2044).
      inSurvivorsEstate: toId === survivor?.id || (deduction === 'marital' && recipient.qtip),
    })
  }
  const nonDeductibleSoFar = () => sum(transfers.filter((t) => t.deduction === null).map((t) => t.amount))

  /** Runs dispositions over `available` cents; returns what they leave. */
  const dispose = (available: number, list: DeathFacts['dispositions'], fromEntityId?: string): number => {
    let left = available
    const pay = (index: number, to: string, wanted: number) => {
      const paid = Math.min(wanted, left)
      if (paid <= 0) unpaid.push(index)
      give(to, paid, 'disposition', index, fromEntityId)
      left -= paid
    }
    for (const { index, disposition } of list)
      if (disposition.amount !== undefined) pay(index, disposition.to, cents(disposition.amount))
    for (const { index, disposition } of list) {
      if (disposition.formula !== 'unusedExclusion') continue
      // The exclusion not yet used: by the lifetime gifts, or by what already passes taxably.
      const room = Math.max(0, applicableExclusion - facts.exclusionUsedByGifts - nonDeductibleSoFar())
      pay(index, disposition.to, room)
    }
    const shares = list.filter(({ disposition }) => disposition.share !== undefined)
    if (shares.length > 0 && left > 0) {
      const weights = shares.map(({ disposition }) => disposition.share!)
      const parts = splitCents(left, [...weights, Math.max(0, 100 - sum(weights))])
      shares.forEach(({ index, disposition }, i) => give(disposition.to, parts[i]!, 'disposition', index, fromEntityId))
      left = parts.at(-1)!
    } else for (const { index } of shares) unpaid.push(index)
    return left
  }

  const fromIds = new Set(facts.dispositions.flatMap(({ disposition }) => disposition.from ?? []))
  let residue = 0
  for (const line of facts.lines) {
    if (line.entityId !== undefined && fromIds.has(line.entityId)) continue
    if (line.joint === true && survivor !== undefined)
      give(survivor.id, line.cents, 'survivorship', undefined, line.entityId)
    else residue += line.cents
  }
  for (const fromId of fromIds) {
    const pool = sum(facts.lines.filter((line) => line.entityId === fromId).map((line) => line.cents))
    const own = facts.dispositions.filter(({ disposition }) => disposition.from === fromId)
    residue += dispose(pool, own, fromId)
  }
  const left = dispose(
    residue,
    facts.dispositions.filter(({ disposition }) => disposition.from === undefined),
  )
  if (left > 0) {
    if (survivor !== undefined) give(survivor.id, left, 'default')
    else if (facts.heirs.length > 0) {
      const parts = splitCents(
        left,
        facts.heirs.map((taker) => taker.share),
      )
      facts.heirs.forEach((taker, i) => give(taker.id, parts[i]!, 'default'))
    } else
      transfers.push({
        toName: 'Other heirs (no descendants in the chart)',
        toKind: 'heirs',
        how: 'default',
        amount: left,
        taxBorne: 0,
        deduction: null,
        inSurvivorsEstate: false,
      })
  }

  const grossEstate = sum(facts.lines.map((line) => line.cents))
  const nonDeductible = nonDeductibleSoFar()
  const atg = facts.adjustedTaxableGifts
  const giftTaxPayable = Math.max(
    0,
    tentativeTax(facts.table, atg) - tentativeTax(facts.table, Math.min(facts.exclusionUsedByGifts, atg)),
  )
  const applicableCredit = tentativeTax(facts.table, applicableExclusion)
  const taxOn = (taxable: number) =>
    Math.max(0, tentativeTax(facts.table, taxable + atg) - giftTaxPayable - applicableCredit)
  let tax = taxOn(nonDeductible)
  // Only when the tax is more than the non-deductible transfers: the rest comes out of the deductible
  // ones, so the taxable estate is the tax itself (all of the non-deductible part plus that rest).
  for (let round = 0; round < 100 && tax > nonDeductible; round++) {
    const next = taxOn(tax)
    if (next === tax) break
    tax = next
  }
  bearTax(transfers, tax)

  const netOf = (kind: 'marital' | 'charitable') =>
    sum(transfers.filter((t) => t.deduction === kind).map((t) => t.amount - t.taxBorne))
  const maritalDeduction = netOf('marital')
  const charitableDeduction = netOf('charitable')
  const taxableEstate = grossEstate - maritalDeduction - charitableDeduction
  const taxBase = taxableEstate + atg
  const dsuePassed =
    married && facts.portabilityElected
      ? Math.min(facts.basicExclusion.amount, Math.max(0, applicableExclusion - taxBase))
      : 0
  return {
    grossEstate,
    maritalDeduction,
    charitableDeduction,
    taxableEstate,
    taxBase,
    tentativeTax: tentativeTax(facts.table, taxBase),
    giftTaxPayable,
    applicableExclusion,
    applicableCredit,
    estateTax: tax,
    dsuePassed,
    transfers,
    unpaidDispositions: unpaid,
  }
}

/** The tax taken from the transfers that qualify for no deduction, pro rata; any rest from the others, pro rata. */
function bearTax(transfers: CentsTransfer[], tax: number): void {
  let left = tax
  for (const group of [transfers.filter((t) => t.deduction === null), transfers.filter((t) => t.deduction !== null)]) {
    const available = sum(group.map((t) => t.amount))
    if (left <= 0 || available <= 0) continue
    const taken = Math.min(left, available)
    const parts = splitCents(
      taken,
      group.map((t) => t.amount),
    )
    group.forEach((t, i) => (t.taxBorne = parts[i]!))
    left -= taken
  }
}
