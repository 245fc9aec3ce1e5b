// The estate projection (issue 16, DESIGN §5): from a chart payload alone, what happens at the first
// and the second death of the clients, with the federal estate tax, DSUE and portability, and who
// ends with what. Pure and synchronous: the Flow view draws it, the chart posts it to the host as
// the `estate` message, and the SDK exports it as projectEstate(payload), so the figures are the same
// everywhere and never leave the browser. Amounts are computed in whole cents (money.ts) and given in
// the currency unit with cents.
//
// Who dies: the living clients (role primaryClient, coClient; the first of each, without deathDate),
// the first one named by the choices or assumptions.firstDeath, else the primary client. They are
// spouses when a spouse relationship joins them with no until date: then the marital deduction and
// portability apply. The survivor's gross estate at the second death is their own today plus what
// they received outright at the first and any QTIP trust funded for them (IRC §2044).
import type { Payload, Person } from '../../payload.ts'
import { entityGroupOf, isParty, type EntityKind } from '../../../src/domain/estate-vocabulary.ts'
import { descendantsByBranch } from './descendants.ts'
import { basicExclusionFor, FEDERAL_ESTATE_TAX, PROJECTION_YEARS, type BasicExclusion } from './federal-estate-tax.ts'
import { amountFormatter } from '../views/amount-format.ts'
import { cents, splitCents, units } from './money.ts'
import type {
  EstateProjection,
  ProjectionDeath,
  ProjectionLine,
  ProjectionRecipient,
  ProjectionWarning,
} from './projection-types.ts'
import { settleDeath, type CentsTransfer, type Recipient, type SettledDeath } from './settle-death.ts'
import { todayEstates, type CentsLine } from './today-estates.ts'

/** What the Flow view's controls change; each overrides the payload's assumptions. */
export interface ProjectionChoices {
  /** The client who dies first. */
  readonly firstDeath?: string
  readonly firstDeathYear?: number
  readonly secondDeathYear?: number
  /** "This year" when the payload says no year and no household.asOf; default: the clock's. */
  readonly today?: Date
}

const PROJECTION_DISCLAIMER =
  'An estimate of the federal estate tax from the figures in this chart, not tax or legal advice. It leaves out state taxes, debts, expenses and the generation-skipping transfer tax.'

const clampYear = (year: number) => Math.min(PROJECTION_YEARS.last, Math.max(PROJECTION_YEARS.first, Math.trunc(year)))

export function projectEstate(payload: Payload, choices: ProjectionChoices = {}): EstateProjection {
  const warnings: ProjectionWarning[] = []
  const people = new Map(payload.people.map((person) => [person.id, person]))
  const entityKinds = new Map<string, EntityKind>((payload.entities ?? []).map((entity) => [entity.id, entity.kind]))
  const entityNames = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.shortName ?? entity.name]))
  const assumptions = payload.assumptions ?? {}
  const primary = payload.people.find((person) => person.role === 'primaryClient' && person.deathDate === undefined)
  const co = payload.people.find((person) => person.role === 'coClient' && person.deathDate === undefined)
  const today = todayEstates(payload, {
    ...(primary === undefined ? {} : { primaryId: primary.id }),
    ...(co === undefined ? {} : { coId: co.id }),
  })
  if (today.tooLarge)
    warnings.push({
      code: 'amountsTooLarge',
      message:
        'The values add up to more than about $90 trillion: beyond that the figures cannot be exact to the cent, so they may be off by a few cents.',
    })
  for (const role of ['primaryClient', 'coClient'] as const) {
    const held = role === 'primaryClient' ? today.primaryLines : today.coLines
    if ((role === 'primaryClient' ? primary : co) === undefined && held.length > 0)
      warnings.push({
        code: 'deceasedClientHolds',
        message: `The ${role === 'primaryClient' ? 'primary client' : 'co-client'} is not living but still holds ${held.length} item(s) in the chart: left out of the projection.`,
      })
  }
  if (today.totals.unassigned > 0)
    warnings.push({
      code: 'unassignedValue',
      message: `${amountFormatter(payload.household.currency)(units(today.totals.unassigned))} is in the estate but owned by no client (no owner or grantor link): left out of both deaths.`,
    })

  const clients = [primary, co].filter((person): person is Person => person !== undefined)
  const linesOf = (client: Person): readonly CentsLine[] => (client === primary ? today.primaryLines : today.coLines)
  const wantedFirst = choices.firstDeath ?? assumptions.firstDeath
  let first = clients[0]
  if (wantedFirst !== undefined) {
    const named = clients.find((client) => client.id === wantedFirst)
    if (named === undefined)
      warnings.push({
        code: 'firstDeathNotLiving',
        message: 'The client named to die first is not a living client of the chart: the primary client dies first.',
      })
    else first = named
  }
  const second = clients.find((client) => client !== first)
  const married =
    first !== undefined &&
    second !== undefined &&
    (payload.relationships ?? []).some(
      (relationship) =>
        relationship.type === 'spouse' &&
        relationship.until === undefined &&
        ((relationship.from === first.id && relationship.to === second.id) ||
          (relationship.from === second.id && relationship.to === first.id)),
    )
  if (first !== undefined && second !== undefined && !married)
    warnings.push({
      code: 'notMarried',
      message: `${first.name} and ${second.name} are not joined as spouses: no marital deduction and no portability between them, and by default each one's estate goes to their descendants, not to the other (joint property still passes to the survivor).`,
    })

  const thisYear = (choices.today ?? new Date()).getUTCFullYear()
  const asOfYear = payload.household.asOf === undefined ? undefined : Number(payload.household.asOf.slice(0, 4))
  const given = (year: number | undefined) => (year !== undefined && Number.isFinite(year) ? year : undefined)
  const wantedFirstYear = given(choices.firstDeathYear) ?? assumptions.firstDeathYear ?? asOfYear ?? thisYear
  const firstYear = clampYear(wantedFirstYear)
  const wantedSecondYear = given(choices.secondDeathYear) ?? assumptions.secondDeathYear ?? firstYear
  const secondYear = Math.max(firstYear, clampYear(wantedSecondYear))
  if (
    first !== undefined &&
    (firstYear !== wantedFirstYear || (second !== undefined && secondYear !== wantedSecondYear))
  )
    warnings.push({
      code: 'yearAdjusted',
      message: `The years of death are taken as ${second === undefined ? firstYear : `${firstYear} and ${secondYear}`}: a death is projected from ${PROJECTION_YEARS.first} to ${PROJECTION_YEARS.last}, the second not before the first.`,
    })
  const knownYear = (year: number) => FEDERAL_ESTATE_TAX.exclusions.some((each) => each.year === year)
  const projectedYears = second === undefined ? [firstYear] : [firstYear, secondYear]
  if (first !== undefined && assumptions.basicExclusion !== undefined && projectedYears.every(knownYear))
    warnings.push({
      code: 'basicExclusionNotUsed',
      message: `The basic exclusion assumed is for years after ${FEDERAL_ESTATE_TAX.exclusions.at(-1)!.year}; the years projected have their own amounts, which are used.`,
    })
  const portabilityElected = assumptions.portabilityElected ?? true

  // A client's revocable trust of which they are the only grantor is their own: what it takes is theirs.
  const grantorsOf = (entityId: string) =>
    (payload.links ?? []).filter((link) => link.type === 'grantor' && link.to === entityId).map((link) => link.from)
  /** Who `id` is as a recipient at a death after which the people in `deadIds` are dead too. */
  const recipientAt =
    (deadIds: ReadonlySet<string>) =>
    (id: string): Recipient => {
      const person = people.get(id)
      if (person !== undefined)
        return {
          name: person.name,
          kind: 'person',
          qtip: false,
          dead: person.deathDate !== undefined || deadIds.has(id),
        }
      const kind = entityKinds.get(id)
      const name = entityNames.get(id) ?? id
      if (kind === undefined || isParty(kind)) return { name, kind: 'entity', qtip: false, dead: false }
      const group = entityGroupOf(kind)
      const grantors = grantorsOf(id)
      return {
        name,
        kind: group === 'charity' ? 'charity' : group === 'trust' ? 'trust' : 'entity',
        qtip: kind === 'qtip',
        dead: false,
        ...(kind === 'revocableTrust' && grantors.length === 1 ? { ownedBy: grantors[0]! } : {}),
      }
    }
  const giftsOf = (client: Person, exclusion: BasicExclusion) => {
    const gift = (payload.gifts ?? []).find((each) => each.donor === client.id)
    if (gift !== undefined && gift.taxableGifts === undefined)
      warnings.push({
        code: 'giftsAmountUnknown',
        message: `${client.name} has made lifetime gifts whose amount is not in the chart: counted as none.`,
      })
    const adjustedTaxableGifts = cents(gift?.taxableGifts ?? 0)
    if (gift?.exclusionUsed !== undefined)
      return { adjustedTaxableGifts, exclusionUsedByGifts: cents(gift.exclusionUsed) }
    // Not said: the gifts used the exclusion as far as it went (the year of death's), gift tax paid on the rest.
    const exclusionUsedByGifts = Math.min(adjustedTaxableGifts, exclusion.amount)
    if (exclusionUsedByGifts < adjustedTaxableGifts)
      warnings.push({
        code: 'giftExclusionAssumed',
        message: `${client.name}'s lifetime gifts are more than the basic exclusion: assumed they used ${amountFormatter(payload.household.currency)(units(exclusionUsedByGifts))} of it and paid gift tax on the rest (set gifts' exclusionUsed to say otherwise).`,
      })
    return { adjustedTaxableGifts, exclusionUsedByGifts }
  }
  /** The DSUE `client` received before; `replaced`: it will not count, so say nothing of its election. */
  const receivedDsue = (client: Person, replaced = false): ReceivedDsue => {
    const received = client.dsueReceived
    if (received === undefined) return { amount: 0 }
    if (replaced) return { amount: received.portabilityElected === false ? 0 : cents(received.amount) }
    const fromName = received.from === undefined ? undefined : people.get(received.from)?.name
    if (received.portabilityElected === false) {
      warnings.push({
        code: 'dsueNotElected',
        message: `Portability was not elected on the estate of ${fromName ?? `${client.name}'s late spouse`}: the DSUE recorded is not counted.`,
      })
      return { amount: 0 }
    }
    if (received.portabilityElected === undefined)
      warnings.push({
        code: 'portabilityAssumed',
        message: `The DSUE ${client.name} received is counted, assuming portability was elected on ${fromName ?? 'the late spouse'}'s estate.`,
      })
    return {
      amount: cents(received.amount),
      ...(received.from === undefined ? {} : { fromId: received.from }),
      ...(fromName === undefined ? {} : { fromName }),
    }
  }
  const dispositionsOf = (client: Person) =>
    (payload.dispositions ?? []).flatMap((disposition, index) =>
      disposition.at === client.id ? [{ index, disposition }] : [],
    )

  /** What the survivor received in `transfer` at `first`'s death, as lines of their gross estate, holding by holding. */
  const receivedLines = (transfer: CentsTransfer, first: Person, survivor: Person): CentsLine[] => {
    const net = transfer.amount - transfer.taxBorne
    if (net <= 0) return []
    const holdings = transfer.holdings ?? [
      {
        cents: transfer.amount,
        ...(transfer.fromEntityId === undefined ? {} : { entityId: transfer.fromEntityId }),
        ...(transfer.within === undefined ? {} : { within: transfer.within }),
      },
    ]
    const nets = splitCents(
      net,
      holdings.map((holding) => holding.cents),
    )
    // A QTIP trust, or the survivor's own revocable trust (theirs whatever it is called).
    const qtip = transfer.toId !== undefined && entityKinds.get(transfer.toId) === 'qtip'
    return holdings.flatMap((holding, i) => {
      if (nets[i]! <= 0) return []
      const holdingName =
        holding.entityId === undefined ? undefined : (entityNames.get(holding.entityId) ?? holding.entityId)
      const label =
        transfer.toId === survivor.id
          ? `From ${first.name}${transfer.how === 'survivorship' ? ' by survivorship' : ''}${holdingName === undefined ? '' : `: ${holdingName}`}`
          : `${transfer.toName} (${qtip ? 'QTIP' : `${survivor.name}'s`}, funded at ${first.name}'s death)`
      return [
        {
          label,
          cents: nets[i]!,
          fromDeath: 0,
          // Still the same holding: the survivor's own dispositions `from` it reach it.
          ...(holding.entityId === undefined ? {} : { entityId: holding.entityId }),
          ...(holding.within === undefined ? {} : { within: holding.within }),
        },
      ]
    })
  }

  const deaths: ProjectionDeath[] = []
  const settled: SettledDeath[] = []
  /** Settles `decedent`'s death in `year` with these lines and DSUE, `deadIds` dead before them. */
  const settle = (
    decedent: Person,
    year: number,
    lines: readonly CentsLine[],
    dsue: ReceivedDsue,
    deadIds: ReadonlySet<string>,
    survivor?: Person,
  ): SettledDeath => {
    const basicExclusion = basicExclusionFor(FEDERAL_ESTATE_TAX, year, optionalCents(assumptions.basicExclusion))
    const death = settleDeath({
      table: FEDERAL_ESTATE_TAX,
      decedentId: decedent.id,
      lines,
      ...(survivor === undefined
        ? {}
        : { survivor: { id: survivor.id, spouse: married, citizen: survivor.usCitizen !== false } }),
      dispositions: dispositionsOf(decedent),
      basicExclusion,
      dsue: dsue.amount,
      ...giftsOf(decedent, basicExclusion),
      portabilityElected,
      recipient: recipientAt(deadIds),
      heirs: descendantsByBranch(payload, decedent.id),
    })
    settled.push(death)
    deaths.push(
      deathOf({
        decedent,
        year,
        exclusion: basicExclusion,
        dsue,
        death,
        lines,
        survivingSpouse: married ? survivor : undefined,
      }),
    )
    return death
  }

  if (first === undefined)
    warnings.push({ code: 'noLivingClient', message: 'No living client in the chart: there is no death to project.' })
  else {
    if (second !== undefined && married && second.usCitizen === false)
      warnings.push({
        code: 'nonCitizenSpouse',
        message: `${second.name} is not a US citizen: what passes to them at ${first.name}'s death gets no marital deduction. A QDOT could defer the tax; it is not modelled here.`,
      })
    else if (second !== undefined && married && second.usCitizen === undefined)
      warnings.push({
        code: 'citizenshipAssumed',
        message: `${second.name}'s citizenship is not in the chart: assumed a US citizen (the marital deduction applies).`,
      })
    const firstSettled = settle(first, firstYear, linesOf(first), receivedDsue(first), new Set(), second)

    if (second !== undefined) {
      const received: CentsLine[] = firstSettled.transfers.flatMap((transfer) =>
        transfer.inSurvivorsEstate ? receivedLines(transfer, first, second) : [],
      )
      // Only the last deceased spouse's DSUE counts: married, the first decedent's replaces any earlier one.
      const ownDsue = receivedDsue(second, married)
      if (married && ownDsue.amount > 0)
        warnings.push({
          code: 'priorDsueReplaced',
          message: `${second.name}'s DSUE from an earlier spouse is replaced at ${first.name}'s death: only the last deceased spouse's DSUE counts.`,
        })
      const secondDsue = married
        ? firstSettled.dsuePassed > 0
          ? { amount: firstSettled.dsuePassed, fromId: first.id, fromName: first.name }
          : { amount: 0 }
        : ownDsue
      settle(second, secondYear, [...linesOf(second), ...received], secondDsue, new Set([first.id]))
    }
  }
  for (const [i, each] of settled.entries()) {
    const decedent = deaths[i]!.decedentName
    for (const index of each.unpaidDispositions)
      warnings.push({
        code: 'dispositionNotApplied',
        message: `Disposition ${index + 1} receives nothing at ${decedent}'s death: nothing was left for it (or its entity is not in the estate).`,
      })
    for (const index of each.lapsedDispositions)
      warnings.push({
        code: 'bequestLapsed',
        message: `Disposition ${index + 1} lapses at ${decedent}'s death: its recipient is no longer living, so what it would take passes with the rest.`,
      })
  }

  return {
    version: 1,
    ...(payload.household.currency === undefined ? {} : { currency: payload.household.currency }),
    assumptions: {
      order: deaths.map((death) => death.decedentId),
      years: deaths.map((death) => death.year),
      portabilityElected,
      portabilityStated: assumptions.portabilityElected !== undefined,
      married,
    },
    today: {
      primaryClient: units(today.totals.primaryClient),
      coClient: units(today.totals.coClient),
      joint: units(today.totals.joint),
      unassigned: units(today.totals.unassigned),
      outside: units(today.totals.outside),
      charity: units(today.totals.charity),
    },
    deaths,
    recipients: recipientsOf(deaths, settled),
    outsideEstate: today.outsideLines.map(lineOf),
    warnings,
    disclaimer: PROJECTION_DISCLAIMER,
  }
}

function optionalCents(amount: number | undefined): number | undefined {
  return amount === undefined ? undefined : cents(amount)
}

function lineOf(line: CentsLine): ProjectionLine {
  return {
    label: line.label,
    amount: units(line.cents),
    ...(line.entityId === undefined ? {} : { entityId: line.entityId }),
    ...(line.fraction === undefined ? {} : { fraction: line.fraction }),
    ...(line.fromDeath === undefined ? {} : { fromDeath: line.fromDeath }),
    ...(line.joint === undefined ? {} : { joint: line.joint }),
  }
}

function transferLine(transfer: CentsTransfer): ProjectionLine {
  return { label: transfer.toName, amount: units(transfer.amount - transfer.taxBorne) }
}

/** A DSUE counted at a death (cents), and whose it is. */
interface ReceivedDsue {
  readonly amount: number
  readonly fromId?: string
  readonly fromName?: string
}

/** One settled death as the projection's JSON says it. */
function deathOf({
  decedent,
  year,
  exclusion,
  dsue,
  death,
  lines,
  survivingSpouse,
}: {
  decedent: Person
  year: number
  exclusion: BasicExclusion
  dsue: ReceivedDsue
  death: SettledDeath
  lines: readonly CentsLine[]
  survivingSpouse: Person | undefined
}): ProjectionDeath {
  const deductionLines = (kind: 'marital' | 'charitable') =>
    death.transfers.filter((transfer) => transfer.deduction === kind).map(transferLine)
  return {
    decedentId: decedent.id,
    decedentName: decedent.name,
    year,
    ...(survivingSpouse === undefined ? {} : { survivingSpouseId: survivingSpouse.id }),
    grossEstate: { total: units(death.grossEstate), lines: lines.map(lineOf) },
    maritalDeduction: { total: units(death.maritalDeduction), lines: deductionLines('marital') },
    charitableDeduction: { total: units(death.charitableDeduction), lines: deductionLines('charitable') },
    taxableEstate: units(death.taxableEstate),
    adjustedTaxableGifts: units(death.taxBase - death.taxableEstate),
    taxBase: units(death.taxBase),
    tentativeTax: units(death.tentativeTax),
    giftTaxPayable: units(death.giftTaxPayable),
    basicExclusion: { ...exclusion, amount: units(exclusion.amount) },
    dsue: {
      amount: units(dsue.amount),
      ...(dsue.fromId === undefined ? {} : { fromId: dsue.fromId }),
      ...(dsue.fromName === undefined ? {} : { fromName: dsue.fromName }),
    },
    applicableExclusion: units(death.applicableExclusion),
    applicableCredit: units(death.applicableCredit),
    estateTax: units(death.estateTax),
    dsuePassed: units(death.dsuePassed),
    transfers: death.transfers.map((transfer) => ({
      ...(transfer.toId === undefined ? {} : { toId: transfer.toId }),
      toName: transfer.toName,
      toKind: transfer.toKind,
      how: transfer.how,
      ...(transfer.dispositionIndex === undefined ? {} : { dispositionIndex: transfer.dispositionIndex }),
      ...(transfer.fromEntityId === undefined ? {} : { fromEntityId: transfer.fromEntityId }),
      amount: units(transfer.amount),
      taxBorne: units(transfer.taxBorne),
      net: units(transfer.amount - transfer.taxBorne),
      deduction: transfer.deduction,
      inSurvivorsEstate: transfer.inSurvivorsEstate,
    })),
  }
}

/** Who ends with what: every transfer that does not come back in a later death, and each death's tax. */
function recipientsOf(deaths: readonly ProjectionDeath[], settled: readonly SettledDeath[]): ProjectionRecipient[] {
  const byKey = new Map<
    string,
    { id?: string; name: string; kind: ProjectionRecipient['kind']; cents: number; lines: ProjectionLine[] }
  >()
  const add = (
    key: string,
    entry: { id?: string; name: string; kind: ProjectionRecipient['kind'] },
    amount: number,
    label: string,
  ) => {
    if (amount <= 0) return
    const known = byKey.get(key) ?? { ...entry, cents: 0, lines: [] }
    known.cents += amount
    known.lines.push({ label, amount: units(amount) })
    byKey.set(key, known)
  }
  settled.forEach((death, i) => {
    const decedent = deaths[i]!.decedentName
    const comesBack = i < settled.length - 1
    for (const transfer of death.transfers) {
      if (comesBack && transfer.inSurvivorsEstate) continue
      const key = transfer.toId ?? `heirs`
      add(
        key,
        {
          ...(transfer.toId === undefined ? {} : { id: transfer.toId }),
          name: transfer.toName,
          kind: transfer.toKind,
        },
        transfer.amount - transfer.taxBorne,
        `At ${decedent}'s death`,
      )
    }
    add('tax', { name: 'Federal estate tax', kind: 'tax' }, death.estateTax, `At ${decedent}'s death`)
  })
  return [...byKey.values()].map(({ cents: amount, ...rest }) => ({ ...rest, amount: units(amount) }))
}
