// What each figure of the Flow view says when it is focused or hovered, pure: a short sentence built
// from the figure's own lines and the figures it is made of, "Taxable estate $15,000,000: gross estate
// $21,000,000 − marital deduction $6,000,000 − charitable deduction $0", "Estate tax $800,000: 40 % of
// the $2,000,000 by which the tax base passes the applicable exclusion (tentative tax $6,745,800 −
// credit $5,945,800)". Amounts are written as the view writes them (the household's currency, in
// full), so the words add up to the figures shown. flow-statement.ts puts one on every row. The
// rates and thresholds the words name are read from the tax table (federal-estate-tax.ts), never
// written here, so the words cannot drift from the schedule the projection used.
import { FEDERAL_ESTATE_TAX, type EstateTaxTable, type TaxBracket } from '../flow/federal-estate-tax.ts'
import { cents, units } from '../flow/money.ts'
import type {
  EstateProjection,
  ProjectionDeath,
  ProjectionLine,
  ProjectionRecipient,
  ProjectionTransfer,
} from '../flow/projection-types.ts'

type Format = (amount: number) => string

/** The bracket of `table` that `amount` (in the currency unit) falls in: the last it is over. */
function bracketOf(table: EstateTaxTable, amount: number): TaxBracket {
  const inCents = cents(amount)
  return table.brackets.reduce((applies, each) => (inCents > each.over ? each : applies), table.brackets[0]!)
}

/** "a $1 + b $2 + c $3"; `none` when there are no lines. */
function sum(lines: readonly { label: string; amount: number }[], format: Format, none: string): string {
  return lines.length === 0 ? none : lines.map((line) => `${line.label} ${format(line.amount)}`).join(' + ')
}

/** "40 %", "2 %", "33.3 %": a fraction as the explanations write a percentage. */
function percentWords(fraction: number): string {
  return `${String(Math.round(fraction * 1000) / 10)} %`
}

export function explainGross(death: ProjectionDeath, format: Format): string {
  return `Gross estate ${format(death.grossEstate.total)}: ${sum(death.grossEstate.lines, format, `nothing held by ${death.decedentName}`)}`
}

/** A line of a gross estate: where its amount comes from. */
export function explainGrossLine(line: ProjectionLine, death: ProjectionDeath, format: Format): string {
  const head = `${line.label} ${format(line.amount)}`
  if (line.joint === true) return `${head}: half of what both clients hold jointly, in ${death.decedentName}'s estate`
  if (line.fromDeath !== undefined) return `${head}: received at the first death, counted again in this estate`
  if (line.fraction !== undefined && line.fraction > 0 && line.fraction < 1)
    return `${head}: ${percentWords(line.fraction)} of its value ${format(line.amount / line.fraction)}, by look-through`
  return `${head}: held by ${death.decedentName}`
}

function deductionWords(
  death: ProjectionDeath,
  kind: 'marital' | 'charitable',
  transfers: readonly ProjectionTransfer[],
  format: Format,
): string {
  const name = kind === 'marital' ? 'Marital deduction' : 'Charitable deduction'
  const figure = kind === 'marital' ? death.maritalDeduction : death.charitableDeduction
  const qualifying = transfers.filter((transfer) => transfer.deduction === kind)
  if (qualifying.length === 0) {
    if (kind === 'charitable') return 'No charitable deduction: nothing passes to charity'
    return death.survivingSpouseId === undefined
      ? 'No marital deduction: no spouse survives'
      : 'No marital deduction: nothing passes to the surviving spouse in a way that qualifies'
  }
  const parts = qualifying.map((transfer) => ({ label: transferWords(transfer), amount: transfer.net }))
  return `${name} ${format(figure.total)}: ${sum(parts, format, '')}`
}

export function explainMarital(death: ProjectionDeath, format: Format): string {
  return deductionWords(death, 'marital', death.transfers, format)
}

export function explainCharitable(death: ProjectionDeath, format: Format): string {
  return deductionWords(death, 'charitable', death.transfers, format)
}

export function explainTaxable(death: ProjectionDeath, format: Format): string {
  return (
    `Taxable estate ${format(death.taxableEstate)}: gross estate ${format(death.grossEstate.total)}` +
    ` − marital deduction ${format(death.maritalDeduction.total)}` +
    ` − charitable deduction ${format(death.charitableDeduction.total)}`
  )
}

export function explainGifts(death: ProjectionDeath, format: Format): string {
  if (death.adjustedTaxableGifts === 0)
    return `No adjusted taxable gifts: the chart records none by ${death.decedentName}`
  return (
    `Adjusted taxable gifts ${format(death.adjustedTaxableGifts)}: ${death.decedentName}'s lifetime taxable gifts,` +
    ` added to the taxable estate (the tax is on ${format(death.taxBase)})`
  )
}

export function explainBasicExclusion(death: ProjectionDeath, format: Format): string {
  const { amount, year, basis, sourceYear, source } = death.basicExclusion
  const head = `Basic exclusion ${format(amount)} for ${year}`
  if (basis === 'table') return `${head}: the amount of that year (${source})`
  if (basis === 'lastKnown')
    return `${head}: no amount is known for ${year}, so the last known one, ${sourceYear}'s (${source}), is used`
  return `${head}: an assumed amount, from the chart's assumptions`
}

export function explainDsue(death: ProjectionDeath, projection: EstateProjection, format: Format): string {
  const { amount, fromName } = death.dsue
  if (amount > 0)
    return `DSUE ${format(amount)}: the exclusion ${fromName ?? 'a late spouse'} did not use, passed by the portability election`
  const earlier = projection.deaths.find((each) => each.survivingSpouseId === death.decedentId)
  if (earlier !== undefined && !projection.assumptions.portabilityElected)
    return `No DSUE: portability is not elected at ${earlier.decedentName}'s death`
  if (earlier !== undefined) return `No DSUE: ${earlier.decedentName}'s estate used all of the exclusion`
  return `No DSUE: ${death.decedentName} received none from a late spouse`
}

export function explainApplicable(death: ProjectionDeath, format: Format): string {
  return (
    `Applicable exclusion ${format(death.applicableExclusion)}: basic exclusion ${format(death.basicExclusion.amount)}` +
    ` + DSUE ${format(death.dsue.amount)}`
  )
}

/**
 * "Tentative tax $6,745,800: the tax on the tax base $17,000,000 (taxable estate $17,000,000 +
 * adjusted taxable gifts $0) by IRC §2001(c), $345,800 + 40 % of the $16,000,000 over $1,000,000".
 */
export function explainTentativeTax(
  death: ProjectionDeath,
  format: Format,
  table: EstateTaxTable = FEDERAL_ESTATE_TAX,
): string {
  const base = `the tax base ${format(death.taxBase)} (taxable estate ${format(death.taxableEstate)} + adjusted taxable gifts ${format(death.adjustedTaxableGifts)})`
  if (death.taxBase <= 0) return `No tentative tax: nothing is taxed, ${base}`
  return `Tentative tax ${format(death.tentativeTax)}: the tax on ${base} by ${table.bracketsSource}, ${scheduleWords(table, death.taxBase, format)}`
}

/** "$345,800 + 40 % of the $16,000,000 over $1,000,000": how the schedule taxes `amount`. */
function scheduleWords(table: EstateTaxTable, amount: number, format: Format): string {
  const bracket = bracketOf(table, amount)
  const over = units(bracket.over)
  const rated = `${percentWords(bracket.rate)} of the ${format(amount - over)} over ${format(over)}`
  return bracket.base === 0 ? rated : `${format(units(bracket.base))} + ${rated}`
}

export function explainGiftTax(death: ProjectionDeath, format: Format): string {
  return (
    `Gift tax payable ${format(death.giftTaxPayable)}: the gift tax on ${death.decedentName}'s lifetime gifts` +
    ` beyond what the exclusion covered, subtracted so the gifts in the tax base are not taxed twice`
  )
}

/** "Applicable credit $5,945,800: the tentative tax on the applicable exclusion $15,000,000, …". */
export function explainApplicableCredit(
  death: ProjectionDeath,
  format: Format,
  table: EstateTaxTable = FEDERAL_ESTATE_TAX,
): string {
  if (death.applicableExclusion <= 0) return 'No applicable credit: there is no applicable exclusion'
  return (
    `Applicable credit ${format(death.applicableCredit)}: the tax on the applicable exclusion ${format(death.applicableExclusion)}` +
    ` by ${table.bracketsSource}, ${scheduleWords(table, death.applicableExclusion, format)}; it comes off the tentative tax`
  )
}

/**
 * The estate tax, with its arithmetic; at the top rate also as the top rate of `table` on what the
 * tax base passes the applicable exclusion by (when both are in the top bracket and no gift tax was paid).
 */
export function explainEstateTax(
  death: ProjectionDeath,
  format: Format,
  table: EstateTaxTable = FEDERAL_ESTATE_TAX,
): string {
  const gift = death.giftTaxPayable > 0 ? ` − gift tax paid ${format(death.giftTaxPayable)}` : ''
  const arithmetic = `tentative tax ${format(death.tentativeTax)} on ${format(death.taxBase)}${gift} − credit ${format(death.applicableCredit)}`
  if (death.estateTax === 0) {
    if (death.taxBase <= death.applicableExclusion)
      return `No estate tax: the tax base ${format(death.taxBase)} is within the applicable exclusion ${format(death.applicableExclusion)} (${arithmetic})`
    return `No estate tax: ${arithmetic} is not above zero`
  }
  const top = table.brackets.at(-1)!
  const over = death.taxBase - death.applicableExclusion
  if (death.giftTaxPayable === 0 && death.applicableExclusion >= units(top.over) && over > 0)
    return `Estate tax ${format(death.estateTax)}: ${percentWords(top.rate)} of the ${format(over)} by which the tax base passes the applicable exclusion (${arithmetic})`
  return `Estate tax ${format(death.estateTax)}: ${arithmetic}`
}

export function explainDsuePassed(death: ProjectionDeath, projection: EstateProjection, format: Format): string {
  const survivor =
    projection.deaths.find((each) => each.decedentId === death.survivingSpouseId)?.decedentName ?? 'the survivor'
  if (death.dsuePassed > 0)
    return (
      `DSUE passed to ${survivor} ${format(death.dsuePassed)}: the exclusion ${death.decedentName}'s estate did not use` +
      ` (applicable exclusion ${format(death.applicableExclusion)} − tax base ${format(death.taxBase)}),` +
      ` at most the basic exclusion ${format(death.basicExclusion.amount)}`
    )
  if (!projection.assumptions.portabilityElected) return `No DSUE passed to ${survivor}: portability is not elected`
  return `No DSUE passed to ${survivor}: ${death.decedentName}'s estate uses all of the applicable exclusion`
}

/** "Linda Case, outright", "Linda Case, by survivorship", "Case Bypass Trust, in trust", "Foundation, to charity". */
export function transferWords(transfer: ProjectionTransfer): string {
  const manner =
    transfer.how === 'survivorship'
      ? 'by survivorship'
      : transfer.toKind === 'trust'
        ? 'in trust'
        : transfer.toKind === 'charity'
          ? 'to charity'
          : 'outright'
  return `${transfer.toName}, ${manner}`
}

export function explainTransfer(
  transfer: ProjectionTransfer,
  survivorName: string | undefined,
  format: Format,
): string {
  const why =
    transfer.how === 'disposition'
      ? `disposition ${(transfer.dispositionIndex ?? 0) + 1}`
      : transfer.how === 'survivorship'
        ? 'joint ownership'
        : 'the default (no disposition says otherwise)'
  const parts = [`${transferWords(transfer)} ${format(transfer.net)}: by ${why}`]
  if (transfer.taxBorne > 0) parts.push(`${format(transfer.amount)} less ${format(transfer.taxBorne)} of estate tax`)
  if (transfer.deduction !== null) parts.push(`${transfer.deduction} deduction`)
  if (transfer.inSurvivorsEstate && survivorName !== undefined) parts.push(`counted again in ${survivorName}'s estate`)
  return parts.join('; ')
}

export function explainRecipient(recipient: ProjectionRecipient, format: Format): string {
  const lines = recipient.lines.map((line) => ({
    label: line.label.charAt(0).toLowerCase() + line.label.slice(1),
    amount: line.amount,
  }))
  return `${recipient.name} ${format(recipient.amount)}: ${sum(lines, format, 'nothing')}`
}

export function explainOutsideLine(line: ProjectionLine, format: Format): string {
  return `${line.label} ${format(line.amount)}: outside both estates, it passes under its own terms`
}

/** The Today column's figures: key is the row's key (today-primaryClient, today-joint, …). */
export function explainToday(
  key: string,
  label: string,
  projection: EstateProjection,
  format: Format,
  clientName?: string,
): string {
  const { today } = projection
  switch (key) {
    case 'today-primaryClient':
    case 'today-coClient':
      return `${label} ${format(key === 'today-primaryClient' ? today.primaryClient : today.coClient)}: what ${clientName ?? 'the client'} holds alone today, by look-through (half of what is joint comes on top at death)`
    case 'today-joint':
      return `Joint ${format(today.joint)}: held by both clients; half is in each estate`
    case 'today-unassigned':
      return `Owned by no client ${format(today.unassigned)}: in the estate but no client owns it, so it is in neither death`
    case 'today-charity':
      return `Charity ${format(today.charity)}: held by charities, in neither estate`
    default:
      return `Outside the estate ${format(today.outside)}: ${sum(projection.outsideEstate, format, 'nothing')}`
  }
}
