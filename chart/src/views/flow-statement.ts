// The Flow view's columns as rows, pure: Today (each client's estate, joint, outside, charity), then
// each death as a statement read top to bottom (gross estate and its lines, the marital and
// charitable deductions, the taxable estate, adjusted taxable gifts, the applicable exclusion and
// its parts, the estate tax, the DSUE passed on, and what passes where), then who ends with what.
// The view (flow-view.ts), its SVG export (export/flow-svg.ts) and the text version read the same
// rows, so every copy of the view shows the same figures in the same order. The figures are the
// projection's (chart/src/flow/project-estate.ts): nothing is computed here but words.
import type { EstateProjection, ProjectionDeath, ProjectionTransfer } from '../flow/projection-types.ts'

/** How a row reads: a figure of the statement, a part of the one above it, or a heading of a group. */
export type FlowRowKind = 'figure' | 'part' | 'result'

export interface FlowRow {
  /** Which figure it is (gross, marital, taxable, …; a part: the figure's key with "-part"). */
  readonly key: string
  readonly label: string
  readonly amount: number
  readonly kind: FlowRowKind
  /** How it enters the statement: added, subtracted, or the result of the rows above. */
  readonly sign?: '+' | '−' | '='
  /** A word on where the figure comes from (the exclusion's basis). */
  readonly note?: string
}

/** A titled group of rows under a column's statement (where a death's estate passes; what is outside). */
export interface FlowBlock {
  readonly title: string
  readonly rows: readonly FlowRow[]
}

export interface FlowColumn {
  readonly key: string
  readonly title: string
  readonly subtitle?: string
  readonly rows: readonly FlowRow[]
  readonly more?: FlowBlock
}

/** The living clients' names by role, as the Today column names their estates. */
export interface ClientNames {
  readonly primaryClient?: string
  readonly coClient?: string
}

/** "Linda, outright", "Linda, by survivorship", "Bypass Trust, in trust", "Foundation, to charity". */
export function transferLabel(transfer: ProjectionTransfer): string {
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

/** "2026's amount", "the last known amount, 2026's", "an assumed amount (the chart’s assumptions)". */
export function exclusionBasisWords(death: ProjectionDeath): string {
  const { basis, sourceYear } = death.basicExclusion
  if (basis === 'table') return `${sourceYear}'s amount`
  if (basis === 'lastKnown') return `the last known amount, ${sourceYear}'s`
  return 'an assumed amount (the chart’s assumptions)'
}

export function todayColumn(projection: EstateProjection, names: ClientNames): FlowColumn {
  const { today } = projection
  const rows: FlowRow[] = []
  const estateOf = (name: string | undefined, fallback: string) => (name === undefined ? fallback : `${name}'s estate`)
  if (names.primaryClient !== undefined || today.primaryClient > 0)
    rows.push({
      key: 'today-primaryClient',
      label: estateOf(names.primaryClient, "The primary client's estate"),
      amount: today.primaryClient,
      kind: 'figure',
    })
  if (names.coClient !== undefined || today.coClient > 0)
    rows.push({
      key: 'today-coClient',
      label: estateOf(names.coClient, "The co-client's estate"),
      amount: today.coClient,
      kind: 'figure',
    })
  if (today.joint > 0) rows.push({ key: 'today-joint', label: 'Joint', amount: today.joint, kind: 'figure' })
  if (today.unassigned > 0)
    rows.push({ key: 'today-unassigned', label: 'Owned by no client', amount: today.unassigned, kind: 'figure' })
  rows.push({ key: 'today-outside', label: 'Outside the estate', amount: today.outside, kind: 'figure' })
  if (today.charity > 0) rows.push({ key: 'today-charity', label: 'Charity', amount: today.charity, kind: 'figure' })
  return { key: 'today', title: 'Today', rows }
}

/** The death's statement, top to bottom. */
export function deathColumn(projection: EstateProjection, index: number): FlowColumn {
  const death = projection.deaths[index]!
  const survivorName =
    death.survivingSpouseId === undefined
      ? undefined
      : projection.deaths.find((each) => each.decedentId === death.survivingSpouseId)?.decedentName
  const parts = (key: string, lines: readonly { label: string; amount: number }[]): FlowRow[] =>
    lines.map((line) => ({ key: `${key}-part`, label: line.label, amount: line.amount, kind: 'part' }))
  const rows: FlowRow[] = [
    { key: 'gross', label: 'Gross estate', amount: death.grossEstate.total, kind: 'figure' },
    ...parts('gross', death.grossEstate.lines),
    { key: 'marital', label: 'Marital deduction', amount: death.maritalDeduction.total, kind: 'figure', sign: '−' },
    {
      key: 'charitable',
      label: 'Charitable deduction',
      amount: death.charitableDeduction.total,
      kind: 'figure',
      sign: '−',
    },
    { key: 'taxable', label: 'Taxable estate', amount: death.taxableEstate, kind: 'result', sign: '=' },
    { key: 'gifts', label: 'Adjusted taxable gifts', amount: death.adjustedTaxableGifts, kind: 'figure', sign: '+' },
    {
      key: 'basicExclusion',
      label: `Basic exclusion, ${death.basicExclusion.year}`,
      amount: death.basicExclusion.amount,
      kind: 'figure',
      note: exclusionBasisWords(death),
    },
    {
      key: 'dsue',
      label: death.dsue.fromName === undefined ? 'DSUE' : `DSUE from ${death.dsue.fromName}`,
      amount: death.dsue.amount,
      kind: 'figure',
      sign: '+',
    },
    { key: 'applicableExclusion', label: 'Applicable exclusion', amount: death.applicableExclusion, kind: 'figure' },
    { key: 'estateTax', label: 'Estate tax', amount: death.estateTax, kind: 'result' },
  ]
  if (survivorName !== undefined)
    rows.push({ key: 'dsuePassed', label: `DSUE passed to ${survivorName}`, amount: death.dsuePassed, kind: 'figure' })
  const ordinal = index === 0 ? 'First death' : 'Second death'
  return {
    key: `death-${index}`,
    title: `${ordinal}: ${death.decedentName}`,
    subtitle: String(death.year),
    rows,
    more: {
      title: 'Where it passes, net of tax',
      rows: death.transfers.map((transfer) => ({
        key: 'transfer',
        label: transferLabel(transfer),
        amount: transfer.net,
        kind: 'part',
      })),
    },
  }
}

const RECIPIENT_WORDS: Record<EstateProjection['recipients'][number]['kind'], string> = {
  spouse: 'spouse',
  person: 'person',
  trust: 'trust',
  charity: 'charity',
  heirs: 'other heirs',
  tax: 'tax',
}

export function recipientsColumn(projection: EstateProjection): FlowColumn {
  const rows: FlowRow[] = projection.recipients.map((recipient) => ({
    key: recipient.kind === 'tax' ? 'recipient-tax' : 'recipient',
    label: recipient.kind === 'tax' ? recipient.name : `${recipient.name} (${RECIPIENT_WORDS[recipient.kind]})`,
    amount: recipient.amount,
    kind: 'figure',
  }))
  return {
    key: 'recipients',
    title: 'Beneficiaries, charity and tax',
    rows,
    more: {
      title: 'Outside the estate (passes under its own terms)',
      rows: projection.outsideEstate.map((line) => ({
        key: 'outside-part',
        label: line.label,
        amount: line.amount,
        kind: 'part',
      })),
    },
  }
}

/** Every column, left to right: Today, each death, then who receives what (and what is outside). */
export function flowColumns(projection: EstateProjection, names: ClientNames): FlowColumn[] {
  return [
    todayColumn(projection, names),
    ...projection.deaths.map((_, index) => deathColumn(projection, index)),
    recipientsColumn(projection),
  ]
}
