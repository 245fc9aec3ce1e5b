// Who holds each entity, and which fraction of it (look-through rule 2). Ownership links are owner,
// generalPartner and limitedPartner links into an entity. An owner with a share takes that percent;
// owners without one split equally what the owners with one leave (one owner without a share: all of
// it). Whatever the owners leave (100 − the sum) stays with the entity itself: its own part. Parties
// hold nothing, so links from or to them carry nothing; links naming unknown ids are left out too.
import type { EstateInput, EstateLink } from './estate-input.ts'
import type { EstateWarning } from './estate-warnings.ts'

const OWNING_LINK_TYPES: ReadonlySet<string> = new Set(['owner', 'generalPartner', 'limitedPartner'])

/** Shares that add up to 100 may carry rounding (33.33 + 33.33 + 33.34); this much over is still 100. */
const SHARE_SUM_TOLERANCE = 1e-9

export interface Holder {
  /** The member or entity that holds part of the entity. */
  readonly id: string
  readonly is: 'member' | 'entity'
  /** The fraction of the entity held, in [0, 1]. */
  readonly fraction: number
}

export interface EntityOwnership {
  readonly holders: readonly Holder[]
  /** The fraction no holder takes, in [0, 1]; holders' fractions and this add up to 1. */
  readonly ownFraction: number
}

interface OwningLink {
  readonly from: string
  readonly is: 'member' | 'entity'
  /** The share as a fraction, or undefined for an owner without a (valid) share. */
  readonly share: number | undefined
}

/**
 * The holders of each counted entity (`countedIds`: the entities that are not parties), in payload order.
 * `partyIds` are the parties, whose links are ignored with a warning.
 */
export function resolveOwnership(
  input: EstateInput,
  countedIds: ReadonlySet<string>,
  partyIds: ReadonlySet<string>,
  warnings: EstateWarning[],
): Map<string, EntityOwnership> {
  const memberIds = new Set(input.people.map((person) => person.id))
  const names = new Map([...input.people, ...(input.entities ?? [])].map((record) => [record.id, record.name]))
  const nameOf = (id: string) => names.get(id) ?? id
  const linksByEntity = new Map<string, OwningLink[]>([...countedIds].map((id) => [id, []]))
  for (const link of input.links ?? []) {
    if (!OWNING_LINK_TYPES.has(link.type)) continue
    const owningLink = readOwningLink(link, { memberIds, countedIds, partyIds, nameOf }, warnings)
    if (owningLink !== undefined) linksByEntity.get(link.to)!.push(owningLink)
  }
  const ownership = new Map<string, EntityOwnership>()
  for (const [entityId, links] of linksByEntity)
    ownership.set(entityId, splitAmongOwners(nameOf(entityId), entityId, links, warnings))
  return ownership
}

interface KnownRecords {
  readonly memberIds: ReadonlySet<string>
  readonly countedIds: ReadonlySet<string>
  readonly partyIds: ReadonlySet<string>
  readonly nameOf: (id: string) => string
}

function readOwningLink(link: EstateLink, known: KnownRecords, warnings: EstateWarning[]): OwningLink | undefined {
  const { memberIds, countedIds, partyIds, nameOf } = known
  if (partyIds.has(link.to) || partyIds.has(link.from)) {
    const entityId = partyIds.has(link.to) ? link.to : link.from
    warnings.push({
      code: 'partyLinkIgnored',
      entityId,
      message: `${nameOf(link.from)} is ${link.type} of ${nameOf(link.to)}, but a party holds nothing and is never owned: the link carries no value.`,
    })
    return undefined
  }
  const is = memberIds.has(link.from) ? 'member' : countedIds.has(link.from) ? 'entity' : undefined
  if (is === undefined || !countedIds.has(link.to)) {
    const unknown = is === undefined ? link.from : link.to
    warnings.push({
      code: 'unknownLinkEnd',
      entityId: countedIds.has(link.to) ? link.to : link.from,
      message: `A ${link.type} link names ${unknown}, which is no person or entity of this household: the link carries no value.`,
    })
    return undefined
  }
  if (link.share === undefined) return { from: link.from, is, share: undefined }
  if (Number.isFinite(link.share) && link.share > 0 && link.share <= 100)
    return { from: link.from, is, share: link.share / 100 }
  warnings.push({
    code: 'invalidShare',
    entityId: link.to,
    message: `${nameOf(link.from)}'s share of ${nameOf(link.to)} is ${link.share}, not a percentage in (0, 100]: taken as an owner without a share.`,
  })
  return { from: link.from, is, share: undefined }
}

function splitAmongOwners(
  entityName: string,
  entityId: string,
  links: readonly OwningLink[],
  warnings: EstateWarning[],
): EntityOwnership {
  const shared = links.reduce((sum, link) => sum + (link.share ?? 0), 0)
  const withoutShare = links.filter((link) => link.share === undefined).length
  // Shares over 100 % would hand out more than the entity holds: scale them to make 100 % exactly.
  const scale = shared > 1 + SHARE_SUM_TOLERANCE ? 1 / shared : 1
  if (scale < 1)
    warnings.push({
      code: 'sharesOverHundred',
      entityId,
      message: `The owners' and partners' shares of ${entityName} add up to ${shared * 100} %, more than 100: each is scaled down so that they make 100 %.`,
    })
  const left = Math.max(0, 1 - shared * scale)
  if (withoutShare > 0 && left === 0)
    warnings.push({
      code: 'ownersLeftNothing',
      entityId,
      message: `The owners of ${entityName} with a share take all of it: the ${withoutShare} without one get nothing.`,
    })
  const holders = links.map((link) => ({
    id: link.from,
    is: link.is,
    fraction: link.share === undefined ? left / withoutShare : link.share * scale,
  }))
  return { holders, ownFraction: withoutShare > 0 ? 0 : left }
}
