// One death: what the gross estate is made of, where it passes, what qualifies for the marital and
// charitable deductions, the federal estate tax, and the DSUE passed on. All in whole cents.
//
// Where it passes, in this order (the payload's dispositions, DESIGN §5):
// 1. Joint property: the decedent's half to the surviving joint owner, by survivorship, unless a
//    disposition names that entity (or one holding it) as its `from`.
// 2. Each entity a disposition names as `from`: its lines and the lines of what it holds, by those
//    dispositions; what they leave joins the residue.
// 3. The residue (every other line): by the dispositions without `from`.
// Within 2 and 3: fixed amounts first, then the formula (unusedExclusion: as much as passes free of
// tax, counting what the shares after it will pass taxably), then shares of what is left; what none
// of them takes goes by the common default: all to the surviving spouse (married: a partner takes
// nothing by default), else to the descendants by branch (descendants.ts), else to other heirs. A
// disposition to a person who is dead at this death lapses: what it would take stays where it was.
//
// The tax (IRC §2001(b)): tentative tax on (taxable estate + adjusted taxable gifts), less the gift
// tax payable on those gifts, less the applicable credit (the tentative tax on the basic exclusion +
// DSUE), never below zero. The basic exclusion in the credit is never less than what the lifetime
// gifts used of it (Treas. Reg. §20.2010-1(c), "anti-clawback"). The tax is borne by what qualifies
// for no deduction, pro rata, so the marital and charitable shares pass whole. Those transfers can
// always bear it: the taxable estate is exactly what they take, and the tax is at most 40 % of it,
// since T(taxable + gifts) − T(gifts) ≤ 40 % × taxable (no bracket is above 40 %), the gift tax
// payable T(gifts) − T(exclusion used) brings it back to T(taxable + gifts) − T(exclusion used), and
// the credit is at least T(exclusion used) (anti-clawback). So no deduction ever shrinks to pay it
// and the computation is not circular.
import type { Disposition } from '../../payload.ts'
import type { ProjectionTransfer, RecipientKind, TransferHow } from './projection-types.ts'
import { tentativeTax, type BasicExclusion, type EstateTaxTable } from './federal-estate-tax.ts'
import { cents, splitCents } from './money.ts'
import type { CentsLine } from './today-estates.ts'
import type { Taker } from './descendants.ts'

export interface Recipient {
  readonly name: string
  readonly kind: Exclude<RecipientKind, 'tax' | 'heirs' | 'spouse'>
  /** A trust whose value is taxed in the surviving spouse's estate when the marital deduction is taken (kind qtip). */
  readonly qtip: boolean
  /** A person who is dead at the deaths projected: a gift to them lapses. */
  readonly dead: boolean
  /** The client whose own estate the recipient is (their revocable trust): what it takes is theirs. */
  readonly ownedBy?: string
}

export interface DeathFacts {
  readonly table: EstateTaxTable
  readonly decedentId: string
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
  /** The entities the transferred line was held within, when it is one line (for a later `from`). */
  readonly within?: readonly string[]
  /** What the default transfer is made of, holding by holding, so the survivor's lines stay traceable. */
  readonly holdings?: readonly Holding[]
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
  /** Dispositions to someone dead at this death (their indexes). */
  readonly lapsedDispositions: readonly number[]
}

/** A part of a pool or of a transfer: its cents and, while it is one line, the holding it is. */
interface Holding {
  readonly cents: number
  readonly entityId?: string
  readonly within?: readonly string[]
}

/**
 * What a pool of lines holds: one part per line while nothing has been taken from it (so the default
 * can pass it holding by holding), one part without a holding once dispositions have taken some.
 */
interface Pool {
  parts: Holding[]
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0)
const total = (pool: Pool) => sum(pool.parts.map((part) => part.cents))

export function settleDeath(facts: DeathFacts): SettledDeath {
  const { survivor } = facts
  const married = survivor?.spouse === true
  // Anti-clawback: the credit's basic exclusion is at least what the lifetime gifts used of one.
  const basicForCredit = Math.max(facts.basicExclusion.amount, facts.exclusionUsedByGifts)
  const applicableExclusion = basicForCredit + facts.dsue
  const transfers: CentsTransfer[] = []
  const unpaid: number[] = []
  const lapsed: number[] = []

  const isSurvivors = (toId: string) =>
    survivor !== undefined && (toId === survivor.id || facts.recipient(toId).ownedBy === survivor.id)
  const deductionFor = (toId: string): CentsTransfer['deduction'] => {
    const recipient = facts.recipient(toId)
    if (married && survivor.citizen && (isSurvivors(toId) || recipient.qtip)) return 'marital'
    return recipient.kind === 'charity' ? 'charitable' : null
  }
  const give = (
    toId: string,
    amount: number,
    how: TransferHow,
    from: {
      dispositionIndex?: number
      fromEntityId?: string
      within?: readonly string[]
      holdings?: readonly Holding[]
    } = {},
  ) => {
    if (amount <= 0) return
    const recipient = facts.recipient(toId)
    const deduction = deductionFor(toId)
    transfers.push({
      toId,
      toName: recipient.name,
      toKind: toId === survivor?.id && married ? 'spouse' : recipient.kind,
      how,
      ...from,
      amount,
      taxBorne: 0,
      deduction,
      // What the survivor takes (outright or in their revocable trust) is theirs at the next death; a
      // QTIP trust is taxed there (§2044).
      inSurvivorsEstate: isSurvivors(toId) || (deduction === 'marital' && recipient.qtip),
    })
  }
  const nonDeductibleSoFar = () => sum(transfers.filter((t) => t.deduction === null).map((t) => t.amount))
  /** What the default gives qualifies for the marital deduction: it goes to a citizen spouse. */
  const defaultDeductible = married && survivor.citizen

  /** Runs dispositions over `pool`; leaves in it what they do not take. */
  const dispose = (pool: Pool, list: DeathFacts['dispositions'], fromEntityId?: string): void => {
    const live = list.filter(({ index, disposition }) => {
      if (!facts.recipient(disposition.to).dead) return true
      lapsed.push(index)
      return false
    })
    if (live.length === 0) return
    let left = total(pool)
    const pay = (index: number, to: string, wanted: number) => {
      const paid = Math.min(wanted, left)
      if (paid <= 0) unpaid.push(index)
      give(to, paid, 'disposition', {
        dispositionIndex: index,
        ...(fromEntityId === undefined ? {} : { fromEntityId }),
      })
      left -= paid
    }
    for (const { index, disposition } of live)
      if (disposition.amount !== undefined) pay(index, disposition.to, cents(disposition.amount))
    const shares = live.filter(({ disposition }) => disposition.share !== undefined)
    const shareWeights = shares.map(({ disposition }) => disposition.share!)
    const unshared = Math.max(0, 100 - sum(shareWeights))
    for (const { index, disposition } of live) {
      if (disposition.formula !== 'unusedExclusion') continue
      // The exclusion not yet used (by the gifts, or by what already passes taxably), less what the
      // shares after the formula will pass taxably out of what it leaves: solve F + s × (left − F) = room.
      const room = Math.max(0, applicableExclusion - facts.exclusionUsedByGifts - nonDeductibleSoFar())
      const taxableShare =
        (sum(shares.filter(({ disposition: d }) => deductionFor(d.to) === null).map(({ disposition: d }) => d.share!)) +
          (defaultDeductible ? 0 : unshared)) /
        100
      const funded = taxableShare >= 1 ? room : Math.round((room - taxableShare * left) / (1 - taxableShare))
      pay(index, disposition.to, Math.max(0, funded))
    }
    if (shares.length > 0 && left > 0) {
      const parts = splitCents(left, [...shareWeights, unshared])
      shares.forEach(({ index, disposition }, i) =>
        give(disposition.to, parts[i]!, 'disposition', {
          dispositionIndex: index,
          ...(fromEntityId === undefined ? {} : { fromEntityId }),
        }),
      )
      left = parts.at(-1)!
    } else for (const { index } of shares) unpaid.push(index)
    if (left !== total(pool)) pool.parts = left > 0 ? [{ cents: left }] : []
  }

  const fromIds = [...new Set(facts.dispositions.flatMap(({ disposition }) => disposition.from ?? []))]
  const claimedBy = (line: CentsLine) => fromIds.find((id) => (line.within ?? []).includes(id))
  const residue: Pool = { parts: [] }
  const fromPools = new Map<string, Pool>(fromIds.map((id) => [id, { parts: [] }]))
  for (const line of facts.lines) {
    const part = {
      cents: line.cents,
      ...(line.entityId === undefined ? {} : { entityId: line.entityId }),
      ...(line.within === undefined ? {} : { within: line.within }),
    }
    const claimed = claimedBy(line)
    if (claimed !== undefined) fromPools.get(claimed)!.parts.push(part)
    else if (line.joint === true && survivor !== undefined)
      give(survivor.id, line.cents, 'survivorship', {
        ...(line.entityId === undefined ? {} : { fromEntityId: line.entityId }),
        ...(line.within === undefined ? {} : { within: line.within }),
      })
    else residue.parts.push(part)
  }
  for (const [fromId, pool] of fromPools) {
    dispose(
      pool,
      facts.dispositions.filter(({ disposition }) => disposition.from === fromId),
      fromId,
    )
    residue.parts.push(...pool.parts)
  }
  dispose(
    residue,
    facts.dispositions.filter(({ disposition }) => disposition.from === undefined),
  )
  // The default: one transfer per taker, made of its share of each holding left, so what the
  // survivor takes stays traceable holding by holding (and a later disposition `from` one finds it).
  const takers: readonly Taker[] = married ? [{ id: survivor.id, share: 1 }] : facts.heirs
  const left = total(residue)
  if (left > 0 && takers.length === 0)
    transfers.push({
      toName: 'Other heirs (no descendants in the chart)',
      toKind: 'heirs',
      how: 'default',
      amount: left,
      taxBorne: 0,
      deduction: null,
      inSurvivorsEstate: false,
    })
  else if (left > 0) {
    const splits = residue.parts.map((part) =>
      splitCents(
        part.cents,
        takers.map((taker) => taker.share),
      ),
    )
    takers.forEach((taker, i) => {
      const holdings = residue.parts.map((part, j) => ({ ...part, cents: splits[j]![i]! }))
      give(taker.id, sum(holdings.map((holding) => holding.cents)), 'default', { holdings })
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
  const estateTax = Math.max(0, tentativeTax(facts.table, nonDeductible + atg) - giftTaxPayable - applicableCredit)
  bearTax(
    transfers.filter((t) => t.deduction === null),
    estateTax,
  )

  const netOf = (kind: 'marital' | 'charitable') =>
    sum(transfers.filter((t) => t.deduction === kind).map((t) => t.amount - t.taxBorne))
  const maritalDeduction = netOf('marital')
  const charitableDeduction = netOf('charitable')
  const taxableEstate = grossEstate - maritalDeduction - charitableDeduction
  const taxBase = taxableEstate + atg
  // For the DSUE, the gifts on which gift tax was paid are left out (Treas. Reg. §20.2010-2(c)(2)).
  const dsueBase = taxableEstate + Math.min(facts.exclusionUsedByGifts, atg)
  const dsuePassed =
    married && facts.portabilityElected
      ? Math.min(facts.basicExclusion.amount, Math.max(0, applicableExclusion - dsueBase))
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
    estateTax,
    dsuePassed,
    transfers,
    unpaidDispositions: unpaid,
    lapsedDispositions: [...new Set(lapsed)],
  }
}

/** The tax taken from `payers` (the transfers that qualify for no deduction), pro rata to what each takes. */
function bearTax(payers: readonly CentsTransfer[], tax: number): void {
  if (tax <= 0) return
  const parts = splitCents(
    tax,
    payers.map((t) => t.amount),
  )
  payers.forEach((t, i) => (t.taxBorne = parts[i]!))
}
