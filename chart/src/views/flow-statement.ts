// The Flow view's columns as rows, pure: Today (each client's estate, joint, outside, charity), then
// each death as a statement read top to bottom (gross estate and its lines, the marital and
// charitable deductions, the taxable estate, adjusted taxable gifts, the applicable exclusion and
// its parts, then the tax worked out: the tentative tax on the tax base, less the gift tax paid (when
// any) and the applicable credit, equals the estate tax; the DSUE passed on, and what passes
// where), then who ends with what. Printed and exported copies read the tax's arithmetic down the
// column.
// The view (flow-view.ts), its SVG export (export/flow-svg.ts) and the text version read the same
// rows, so every copy of the view shows the same figures in the same order. The figures are the
// projection's (chart/src/flow/project-estate.ts): nothing is computed here but words. Each row
// carries what it says when focused or hovered (flow-explain.ts).
import type { EstateProjection, ProjectionDeath } from '../flow/projection-types.ts'
import {
  explainApplicable,
  explainApplicableCredit,
  explainBasicExclusion,
  explainCharitable,
  explainDsue,
  explainDsuePassed,
  explainEstateTax,
  explainGiftTax,
  explainGifts,
  explainGross,
  explainGrossLine,
  explainMarital,
  explainOutsideLine,
  explainRecipient,
  explainTaxable,
  explainTentativeTax,
  explainToday,
  explainTransfer,
  transferWords,
} from './flow-explain.ts'

type Format = (amount: number) => string

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
  /** What the figure is made of, in a sentence (shown when it is focused or hovered). */
  readonly explanation: string
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

interface Client {
  readonly role: string
  readonly name: string
  readonly deathDate?: string
}

/** The living clients, primary first (the first of each role without a deathDate): whose deaths are projected. */
export function livingClients<P extends Client>(people: readonly P[]): P[] {
  return ['primaryClient', 'coClient'].flatMap((role) => {
    const client = people.find((person) => person.role === role && person.deathDate === undefined)
    return client === undefined ? [] : [client]
  })
}

export function clientNamesOf(people: readonly Client[]): ClientNames {
  return Object.fromEntries(livingClients(people).map((client) => [client.role, client.name]))
}

/** "2026's amount", "the last known amount, 2026's", "an assumed amount, from the chart's assumptions". */
export function exclusionBasisWords(death: ProjectionDeath): string {
  const { basis, sourceYear } = death.basicExclusion
  if (basis === 'table') return `${sourceYear}'s amount`
  if (basis === 'lastKnown') return `the last known amount, ${sourceYear}'s`
  return "an assumed amount, from the chart's assumptions"
}

function todayColumn(projection: EstateProjection, names: ClientNames, format: Format): FlowColumn {
  const { today } = projection
  const rows: FlowRow[] = []
  const row = (key: string, label: string, amount: number, clientName?: string) =>
    rows.push({
      key,
      label,
      amount,
      kind: 'figure',
      explanation: explainToday(key, label, projection, format, clientName),
    })
  const estateOf = (name: string | undefined, fallback: string) => (name === undefined ? fallback : `${name}'s estate`)
  if (names.primaryClient !== undefined || today.primaryClient > 0)
    row(
      'today-primaryClient',
      estateOf(names.primaryClient, "The primary client's estate"),
      today.primaryClient,
      names.primaryClient,
    )
  if (names.coClient !== undefined || today.coClient > 0)
    row('today-coClient', estateOf(names.coClient, "The co-client's estate"), today.coClient, names.coClient)
  if (today.joint > 0) row('today-joint', 'Joint', today.joint)
  if (today.unassigned > 0) row('today-unassigned', 'Owned by no client', today.unassigned)
  row('today-outside', 'Outside the estate', today.outside)
  if (today.charity > 0) row('today-charity', 'Charity', today.charity)
  return { key: 'today', title: 'Today', rows }
}

/** The death's statement, top to bottom. */
function deathColumn(projection: EstateProjection, index: number, format: Format): FlowColumn {
  const death = projection.deaths[index]!
  const survivorName =
    death.survivingSpouseId === undefined
      ? undefined
      : projection.deaths.find((each) => each.decedentId === death.survivingSpouseId)?.decedentName
  const rows: FlowRow[] = [
    {
      key: 'gross',
      label: 'Gross estate',
      amount: death.grossEstate.total,
      kind: 'figure',
      explanation: explainGross(death, format),
    },
    ...death.grossEstate.lines.map((line): FlowRow => ({
      key: 'gross-part',
      label: line.label,
      amount: line.amount,
      kind: 'part',
      explanation: explainGrossLine(line, death, format),
    })),
    {
      key: 'marital',
      label: 'Marital deduction',
      amount: death.maritalDeduction.total,
      kind: 'figure',
      sign: '−',
      explanation: explainMarital(death, format),
    },
    {
      key: 'charitable',
      label: 'Charitable deduction',
      amount: death.charitableDeduction.total,
      kind: 'figure',
      sign: '−',
      explanation: explainCharitable(death, format),
    },
    {
      key: 'taxable',
      label: 'Taxable estate',
      amount: death.taxableEstate,
      kind: 'result',
      sign: '=',
      explanation: explainTaxable(death, format),
    },
    {
      key: 'gifts',
      label: 'Adjusted taxable gifts',
      amount: death.adjustedTaxableGifts,
      kind: 'figure',
      sign: '+',
      explanation: explainGifts(death, format),
    },
    {
      key: 'basicExclusion',
      label: `Basic exclusion, ${death.basicExclusion.year}`,
      amount: death.basicExclusion.amount,
      kind: 'figure',
      note: exclusionBasisWords(death),
      explanation: explainBasicExclusion(death, format),
    },
    {
      key: 'dsue',
      label: death.dsue.fromName === undefined ? 'DSUE' : `DSUE from ${death.dsue.fromName}`,
      amount: death.dsue.amount,
      kind: 'figure',
      sign: '+',
      explanation: explainDsue(death, projection, format),
    },
    {
      key: 'applicableExclusion',
      label: 'Applicable exclusion',
      amount: death.applicableExclusion,
      kind: 'figure',
      explanation: explainApplicable(death, format),
    },
    {
      key: 'tentativeTax',
      label: 'Tentative tax',
      amount: death.tentativeTax,
      kind: 'figure',
      note: `on ${format(death.taxBase)}`,
      explanation: explainTentativeTax(death, format),
    },
    ...(death.giftTaxPayable > 0
      ? [
          {
            key: 'giftTax',
            label: 'Gift tax payable',
            amount: death.giftTaxPayable,
            kind: 'figure',
            sign: '−',
            explanation: explainGiftTax(death, format),
          } satisfies FlowRow,
        ]
      : []),
    {
      key: 'applicableCredit',
      label: 'Applicable credit',
      amount: death.applicableCredit,
      kind: 'figure',
      sign: '−',
      note: `the tax on ${format(death.applicableExclusion)}`,
      explanation: explainApplicableCredit(death, format),
    },
    {
      key: 'estateTax',
      label: 'Estate tax',
      amount: death.estateTax,
      kind: 'result',
      sign: '=',
      ...(death.estateTax === 0 ? { note: 'never below zero' } : {}),
      explanation: explainEstateTax(death, format),
    },
  ]
  if (survivorName !== undefined)
    rows.push({
      key: 'dsuePassed',
      label: `DSUE passed to ${survivorName}`,
      amount: death.dsuePassed,
      kind: 'figure',
      explanation: explainDsuePassed(death, projection, format),
    })
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
        label: transferWords(transfer),
        amount: transfer.net,
        kind: 'part',
        explanation: explainTransfer(transfer, survivorName, format),
      })),
    },
  }
}

const RECIPIENT_WORDS: Record<EstateProjection['recipients'][number]['kind'], string> = {
  spouse: 'spouse',
  person: 'person',
  trust: 'trust',
  entity: 'entity',
  charity: 'charity',
  heirs: 'other heirs',
  tax: 'tax',
}

function recipientsColumn(projection: EstateProjection, format: Format): FlowColumn {
  const rows: FlowRow[] = projection.recipients.map((recipient) => ({
    key: recipient.kind === 'tax' ? 'recipient-tax' : 'recipient',
    label: recipient.kind === 'tax' ? recipient.name : `${recipient.name} (${RECIPIENT_WORDS[recipient.kind]})`,
    amount: recipient.amount,
    kind: 'figure',
    explanation: explainRecipient(recipient, format),
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
        explanation: explainOutsideLine(line, format),
      })),
    },
  }
}

/** Every column, left to right: Today, each death, then who receives what (and what is outside). */
export function flowColumns(projection: EstateProjection, names: ClientNames, format: Format): FlowColumn[] {
  return [
    todayColumn(projection, names, format),
    ...projection.deaths.map((_, index) => deathColumn(projection, index, format)),
    recipientsColumn(projection, format),
  ]
}
