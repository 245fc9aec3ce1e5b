// What one person or entity is in the estate, read from the links it is the `from` of: how many
// entities it is grantor, trustee, beneficiary… of, and what it holds with which share. The person
// and entity summaries both read this, so a corporate trustee's "trustee of 3" is counted as a
// person's is.
import { OWNING_LINK_TYPES, type LinkType } from '../../../src/domain/estate-vocabulary.ts'
import type { SummaryHousehold, SummaryLink } from './summary-input.ts'
import { shareText } from './summary-percent.ts'

/** The roles counted, in the order sentences give them; an owner's holdings are listed instead. */
export const COUNTED_ROLES = [
  'grantor',
  'trustee',
  'successorTrustee',
  'beneficiary',
  'insured',
  'partner',
] as const satisfies readonly string[]
export type CountedRole = (typeof COUNTED_ROLES)[number]

const ROLE_OF_LINK: Partial<Record<LinkType, CountedRole>> = {
  grantor: 'grantor',
  trustee: 'trustee',
  successorTrustee: 'successorTrustee',
  beneficiary: 'beneficiary',
  insured: 'insured',
  generalPartner: 'partner',
  limitedPartner: 'partner',
}

export interface RoleCount {
  readonly role: CountedRole
  /** Distinct entities: an income and a remainder beneficiary of one trust is beneficiary of 1. */
  readonly count: number
  readonly entityIds: readonly string[]
}

/** One end of a link with its share: a holder of an entity, or an entity held. */
export interface ShareRef {
  readonly id: string
  readonly label: string
  readonly share?: number
  /** The share as shown (summary-percent.ts); absent when the link gives no share. */
  readonly shareText?: string
}

export interface Roles {
  /** Only the roles held, in COUNTED_ROLES order. */
  readonly counts: readonly RoleCount[]
  /** Entities it owns directly (owner links), largest share first. */
  readonly owns: readonly ShareRef[]
  /** Entities it is a general or limited partner in, largest share first. */
  readonly partnerIn: readonly ShareRef[]
}

export function shareRef(id: string, label: string, share: number | undefined): ShareRef {
  return share === undefined ? { id, label } : { id, label, share, shareText: shareText(share) }
}

/** Largest share first, links without a share last; ties keep the payload's order (sort is stable). */
export function byShareDescending(a: ShareRef, b: ShareRef): number {
  return (b.share ?? -1) - (a.share ?? -1)
}

export function rolesOf(household: SummaryHousehold, id: string, label: (id: string) => string): Roles {
  const entitiesByRole = new Map<CountedRole, string[]>()
  const owns: ShareRef[] = []
  const partnerIn: ShareRef[] = []
  const from: readonly SummaryLink[] = (household.links ?? []).filter((l) => l.from === id)
  for (const link of from) {
    const role = ROLE_OF_LINK[link.type]
    if (role !== undefined) {
      const ids = entitiesByRole.get(role) ?? []
      if (!ids.includes(link.to)) ids.push(link.to)
      entitiesByRole.set(role, ids)
    }
    if (!OWNING_LINK_TYPES.has(link.type)) continue
    const held = shareRef(link.to, label(link.to), link.share)
    if (link.type === 'owner') owns.push(held)
    else partnerIn.push(held)
  }
  const counts = COUNTED_ROLES.flatMap((role) => {
    const entityIds = entitiesByRole.get(role)
    return entityIds ? [{ role, count: entityIds.length, entityIds }] : []
  })
  return { counts, owns: owns.sort(byShareDescending), partnerIn: partnerIn.sort(byShareDescending) }
}

/** "trustee of 2", "insured by 1 policy": a counted role in words. */
export function rolePhrase({ role, count }: RoleCount): string {
  switch (role) {
    case 'grantor':
      return `grantor of ${count}`
    case 'trustee':
      return `trustee of ${count}`
    case 'successorTrustee':
      return `successor trustee of ${count}`
    case 'beneficiary':
      return `beneficiary of ${count}`
    case 'insured':
      return `insured by ${count} ${count === 1 ? 'policy' : 'policies'}`
    case 'partner':
      return `partner in ${count}`
  }
}

/** "50% of the residence", or "an unstated share of the residence" for a link without one. */
export function holdingInWords(held: ShareRef): string {
  return `${held.shareText ?? 'an unstated share'} of ${held.label}`
}

/** "A, B and C", or "A, B, C and 4 more" beyond `cap` items. */
export function listInWords(items: readonly string[], cap: number): string {
  const shown = items.slice(0, cap)
  const more = items.length - shown.length
  const tail = more > 0 ? [`${more} more`] : []
  const all = [...shown, ...tail]
  if (all.length <= 1) return all.join('')
  return `${all.slice(0, -1).join(', ')} and ${all.at(-1)!}`
}
