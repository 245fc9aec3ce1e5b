// The panel a selected entity opens: its kind, value and estate side, who made it, who runs it,
// who benefits (by beneficiary type) and who owns it, each with shares, and what it owns in turn.
// Structured for the panel and the text alternative; entityLines gives the same in sentences.
import {
  BENEFICIARY_TYPES,
  effectiveEstateSide,
  entityKindLabel,
  isParty,
  type BeneficiaryType,
  type EstateSide,
  type LinkType,
} from '../../../src/domain/estate-vocabulary.ts'
import { compactValue } from '../format.ts'
import { currencyPrefix } from '../structure/structure-values.ts'
import type { SummaryHousehold, SummaryLink } from './summary-input.ts'
import { householdLabeller } from './summary-names.ts'
import {
  byShareDescending,
  holdingInWords,
  listInWords,
  rolePhrase,
  rolesOf,
  shareRef,
  type RoleCount,
  type ShareRef,
} from './summary-roles.ts'

/** Names a panel line gives before "and N more". */
export const NAMES_PER_LINE = 5

export interface EntitySummary {
  readonly id: string
  readonly name: string
  readonly label: string
  readonly kindLabel: string
  /**
   * compactValue of the value with the household currency's symbol, as the cards write it ("$6.2M";
   * "6.2M" without a currency); absent when none is given and for parties, which hold none.
   */
  readonly value?: string
  /** null for a party: it sits on neither side and is never counted. */
  readonly estate: EstateSide | null
  readonly grantors: readonly ShareRef[]
  readonly trustees: readonly ShareRef[]
  readonly successorTrustees: readonly ShareRef[]
  readonly insured: readonly ShareRef[]
  /** By beneficiary type; a beneficiary link without one is primary, as the records API stores it. */
  readonly beneficiaries: Readonly<Record<BeneficiaryType, readonly ShareRef[]>>
  readonly owners: readonly ShareRef[]
  readonly generalPartners: readonly ShareRef[]
  readonly limitedPartners: readonly ShareRef[]
  /** What it owns directly (owner links from it), largest share first. */
  readonly owns: readonly ShareRef[]
  /** What it is a partner in, largest share first. */
  readonly partnerIn: readonly ShareRef[]
  /** Roles it holds itself, e.g. a corporate trustee's "trustee of 3". */
  readonly roles: readonly RoleCount[]
}

/** The summary of an entity of the household, or undefined when no entity has this id. */
export function summarizeEntity(household: SummaryHousehold, entityId: string): EntitySummary | undefined {
  const entity = household.entities?.find((e) => e.id === entityId)
  if (!entity) return undefined
  const label = householdLabeller(household)
  const to = (household.links ?? []).filter((l) => l.to === entityId)
  const holders = (type: LinkType, keep: (l: SummaryLink) => boolean = () => true) =>
    to.filter((l) => l.type === type && keep(l)).map((l) => shareRef(l.from, label(l.from), l.share))
  const withShares = (refs: ShareRef[]) => refs.sort(byShareDescending)
  const beneficiaries = Object.fromEntries(
    BENEFICIARY_TYPES.map((type) => [
      type,
      withShares(holders('beneficiary', (l) => (l.beneficiaryType ?? 'primary') === type)),
    ]),
  ) as Record<BeneficiaryType, ShareRef[]>
  const { counts, owns, partnerIn } = rolesOf(household, entityId, label)
  const party = isParty(entity.kind)
  return {
    id: entity.id,
    name: entity.name,
    label: label(entity.id),
    kindLabel: entityKindLabel(entity.kind),
    ...(entity.value !== undefined && !party
      ? { value: currencyPrefix(household.household?.currency) + compactValue(entity.value) }
      : {}),
    estate: effectiveEstateSide(entity.kind, entity.estate ?? null),
    grantors: holders('grantor'),
    trustees: holders('trustee'),
    successorTrustees: holders('successorTrustee'),
    insured: holders('insured'),
    beneficiaries,
    owners: withShares(holders('owner')),
    generalPartners: withShares(holders('generalPartner')),
    limitedPartners: withShares(holders('limitedPartner')),
    owns,
    partnerIn,
    roles: counts.filter((c) => c.role !== 'partner'),
  }
}

const HOLDER_LISTS = [
  ['Grantor', 'Grantors', (s: EntitySummary) => s.grantors],
  ['Trustee', 'Trustees', (s: EntitySummary) => s.trustees],
  ['Successor trustee', 'Successor trustees', (s: EntitySummary) => s.successorTrustees],
  ['Insured', 'Insured', (s: EntitySummary) => s.insured],
  ['Primary beneficiary', 'Primary beneficiaries', (s: EntitySummary) => s.beneficiaries.primary],
  ['Contingent beneficiary', 'Contingent beneficiaries', (s: EntitySummary) => s.beneficiaries.contingent],
  ['Income beneficiary', 'Income beneficiaries', (s: EntitySummary) => s.beneficiaries.income],
  ['Remainder beneficiary', 'Remainder beneficiaries', (s: EntitySummary) => s.beneficiaries.remainder],
  ['Owner', 'Owners', (s: EntitySummary) => s.owners],
  ['General partner', 'General partners', (s: EntitySummary) => s.generalPartners],
  ['Limited partner', 'Limited partners', (s: EntitySummary) => s.limitedPartners],
] as const

function holderInWords(holder: ShareRef): string {
  return holder.shareText === undefined ? holder.label : `${holder.label} ${holder.shareText}`
}

function headline(s: EntitySummary): string {
  const facts = [s.kindLabel]
  if (s.value !== undefined) facts.push(s.value)
  if (s.estate === null) facts.push('a party: holds nothing, never counted')
  else facts.push(s.estate === 'in' ? 'in the estate' : 'outside the estate')
  return `${s.name}: ${facts.join(', ')}`
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The summary as lines: a headline, then one line per list that is not empty. */
export function entityLines(s: EntitySummary): string[] {
  const lines = [headline(s)]
  for (const [one, many, list] of HOLDER_LISTS) {
    const refs = list(s)
    if (refs.length > 0)
      lines.push(`${refs.length === 1 ? one : many}: ${listInWords(refs.map(holderInWords), NAMES_PER_LINE)}`)
  }
  if (s.owns.length > 0) lines.push(`Owns ${listInWords(s.owns.map(holdingInWords), NAMES_PER_LINE)}`)
  if (s.partnerIn.length > 0) lines.push(`Partner in ${listInWords(s.partnerIn.map(holdingInWords), NAMES_PER_LINE)}`)
  if (s.roles.length > 0) lines.push(capitalized(s.roles.map(rolePhrase).join(', ')))
  return lines
}
