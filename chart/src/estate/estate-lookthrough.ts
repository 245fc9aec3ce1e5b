// The estate look-through: from a household payload, what the Structure and Estate views show — each
// entity's value carried through the ownership chain, how it splits among the Estate view's buckets,
// and what each member holds of each entity, directly and through chains. Pure: no DOM, no Node.
//
// Rules (decisions; the other files of chart/src/estate say each in full):
// 1. An entity's `value` is what it holds directly; the value of an entity it owns reaches it through
//    the owner link. So the non-party entities' values add up to the household's total, and every
//    attribution here conserves it: no value counted twice or lost.
// 2. Owners (owner, generalPartner, limitedPartner links) take their share; owners without one split
//    what the others leave; what all owners leave is the entity's own part (ownership-shares.ts).
// 3. An owned part flows to its owner: a member, or an entity whose own part and owners take it on in
//    turn. A part that would loop back through a chain stays with the entity as its own part, with a
//    warning (ownership-loops.ts).
// 4. Each part ends in one bucket: a member's by their role (both clients owning one entity directly:
//    joint), an entity's own part by its group, estate side and grantors (bucket-attribution.ts).
//    An entity the payload marks `estate: "out"` stays out whoever owns it (DESIGN §5): all of its
//    value, its owners' parts included, goes to outside. Its owners still hold their shares of it
//    (the summaries say so); the advisor's mark decides where it is counted.
// 5. Parties (corporate trustee, attorney's firm, other party) hold nothing: never counted, in no
//    bucket, not in `entities`, even when the payload gives one a value (a warning says so).
// Amounts are plain numbers, never rounded here: the views round for display.
import { addScaled, ESTATE_BUCKETS, noBuckets, sumOf, TAXABLE_ESTATE_BUCKETS } from './estate-buckets.ts'
import type { BucketAmounts } from './estate-buckets.ts'
import type { EstateEntity, EstateInput } from './estate-input.ts'
import type { EstateWarning } from './estate-warnings.ts'
import { ENTITY_KIND_RULES, entityKindRule, type EntityKindRule } from './entity-kinds.ts'
import { memberPartBucket, ownPartBucket } from './bucket-attribution.ts'
import { orderOwnership } from './ownership-loops.ts'
import { resolveOwnership, type Holder } from './ownership-shares.ts'

export interface EntityLookThrough {
  readonly id: string
  /** What the entity holds itself (its `value`; 0 when absent). */
  readonly directValue: number
  /** Its direct value and the parts of the entities it holds, through every level of the chain. */
  readonly carriedValue: number
  /** The members and entities its value flows on to, with the fraction each holds (looping links aside). */
  readonly holders: readonly Holder[]
  /** The fraction no holder takes (including any part that would loop back); it goes to ownPartBucket. */
  readonly ownFraction: number
  /** The carried value split among the buckets; the buckets add up to carriedValue. */
  readonly buckets: Readonly<BucketAmounts>
  /**
   * The direct value alone split among the buckets (they add up to directValue): what each client's
   * estate holds of this entity's own value, so summing it over all entities counts every value once.
   */
  readonly directBuckets: Readonly<BucketAmounts>
}

export interface MemberHolding {
  readonly entityId: string
  /** The fraction of the entity the member owns by their own links to it. */
  readonly directFraction: number
  /** The fraction the member holds through entities that hold part of it. */
  readonly throughChainsFraction: number
  /** directFraction + throughChainsFraction. */
  readonly fraction: number
  /** fraction × the entity's carried value. A member's holdings along one chain overlap: see heldValue. */
  readonly value: number
}

export interface MemberLookThrough {
  readonly id: string
  /** Every entity the member holds part of, in payload order. */
  readonly holdings: readonly MemberHolding[]
  /** The value the member holds across all entities, each value counted once. */
  readonly heldValue: number
}

export interface EstateLookThrough {
  /** The whole household's values, split among the buckets. */
  readonly totals: Readonly<BucketAmounts>
  /** The clients' taxable estate: primaryClient + coClient + joint + unassigned. */
  readonly estateTotal: number
  /** Every bucket: the sum of the non-party entities' values. */
  readonly grandTotal: number
  /** Every entity but parties, in payload order. */
  readonly entities: ReadonlyMap<string, EntityLookThrough>
  /** Every person, in payload order. */
  readonly members: ReadonlyMap<string, MemberLookThrough>
  readonly warnings: readonly EstateWarning[]
}

interface CountedEntity {
  readonly entity: EstateEntity
  readonly rule: EntityKindRule
  readonly directValue: number
}

/** A member's fractions of one entity: by their own links, and in all. */
interface MemberFraction {
  direct: number
  total: number
}

/** Where one entity's value ends, as fractions of it: by bucket, and held by each member. */
interface Destination {
  readonly buckets: BucketAmounts
  readonly members: Map<string, MemberFraction>
  readonly holders: readonly Holder[]
  readonly ownFraction: number
}

/**
 * Each household's look-through, kept while the household is: the Estate view, the text version and
 * every card of the estate strip and the Structure view ask for it. A payload is never changed after
 * it is validated, so it cannot go stale.
 */
const lookThroughs = new WeakMap<EstateInput, EstateLookThrough>()

export function lookThroughEstate(input: EstateInput): EstateLookThrough {
  const known = lookThroughs.get(input)
  if (known !== undefined) return known
  const result = computeLookThrough(input)
  lookThroughs.set(input, result)
  return result
}

function computeLookThrough(input: EstateInput): EstateLookThrough {
  const warnings: EstateWarning[] = []
  const roleOf = new Map(input.people.map((person) => [person.id, person.role]))
  const { counted, partyIds } = sortEntities(input, warnings)
  const ownership = resolveOwnership(input, new Set(counted.keys()), partyIds, warnings)
  const { holdersFirst, looping } = orderOwnership(ownership)

  // Where each entity's value ends, holders before the entities they hold, so that a holder's is known.
  const destinations = new Map<string, Destination>()
  for (const id of holdersFirst) {
    const { entity, rule } = counted.get(id)!
    const { holders: allHolders, ownFraction: leftByOwners } = ownership.get(id)!
    const holders = allHolders.filter((holder) => !looping.has(holder))
    let ownFraction = leftByOwners
    for (const holder of allHolders.filter((each) => looping.has(each))) {
      ownFraction += holder.fraction
      warnings.push(loopWarning(entity, holder, counted))
    }
    const buckets = noBuckets()
    buckets[ownPartBucket(entity, rule, input, roleOf)] += ownFraction
    const members = new Map<string, MemberFraction>()
    const memberHolderIds = holders.filter((holder) => holder.is === 'member').map((holder) => holder.id)
    for (const holder of holders) {
      if (holder.is === 'member') {
        buckets[memberPartBucket(holder.id, memberHolderIds, roleOf)] += holder.fraction
        addMemberFraction(members, holder.id, holder.fraction, holder.fraction)
        continue
      }
      const through = destinations.get(holder.id)!
      addScaled(buckets, through.buckets, holder.fraction)
      for (const [memberId, fraction] of through.members)
        addMemberFraction(members, memberId, 0, fraction.total * holder.fraction)
    }
    // Marked out by the advisor: every part of it is outside, whoever holds it (rule 4).
    if (entity.estate === 'out') Object.assign(buckets, { ...noBuckets(), outside: 1 })
    destinations.set(id, { buckets, members, holders, ownFraction })
  }

  // Carried values: each entity's carried value joins its holders', held entities before their holders.
  const carried = new Map([...counted].map(([id, { directValue }]) => [id, directValue]))
  for (const id of [...holdersFirst].reverse()) {
    for (const holder of destinations.get(id)!.holders) {
      if (holder.is === 'entity') carried.set(holder.id, carried.get(holder.id)! + holder.fraction * carried.get(id)!)
    }
  }

  const totals = noBuckets()
  const entities = new Map<string, EntityLookThrough>()
  for (const [id, { directValue }] of counted) {
    const { buckets: fractions, holders, ownFraction } = destinations.get(id)!
    addScaled(totals, fractions, directValue)
    const carriedValue = carried.get(id)!
    const buckets = noBuckets()
    addScaled(buckets, fractions, carriedValue)
    const directBuckets = noBuckets()
    addScaled(directBuckets, fractions, directValue)
    entities.set(id, { id, directValue, carriedValue, holders, ownFraction, buckets, directBuckets })
  }

  const members = new Map<string, MemberLookThrough>()
  for (const person of input.people) {
    const holdings: MemberHolding[] = []
    let heldValue = 0
    for (const [entityId, { directValue }] of counted) {
      const fraction = destinations.get(entityId)!.members.get(person.id)
      if (fraction === undefined) continue
      heldValue += fraction.total * directValue
      holdings.push({
        entityId,
        directFraction: fraction.direct,
        throughChainsFraction: fraction.total - fraction.direct,
        fraction: fraction.total,
        value: fraction.total * carried.get(entityId)!,
      })
    }
    members.set(person.id, { id: person.id, holdings, heldValue })
  }

  return {
    totals,
    estateTotal: sumOf(totals, TAXABLE_ESTATE_BUCKETS),
    grandTotal: sumOf(totals, ESTATE_BUCKETS),
    entities,
    members,
    warnings,
  }
}

/** The entities that are counted (every kind but parties), with their rule and direct value; and the parties. */
function sortEntities(
  input: EstateInput,
  warnings: EstateWarning[],
): { counted: Map<string, CountedEntity>; partyIds: Set<string> } {
  const counted = new Map<string, CountedEntity>()
  const partyIds = new Set<string>()
  for (const entity of input.entities ?? []) {
    const known = entityKindRule(entity.kind)
    if (known === undefined)
      warnings.push({
        code: 'unknownKind',
        entityId: entity.id,
        message: `${entity.name} is of kind ${entity.kind}, which this chart does not know: counted like other (in the estate).`,
      })
    const rule = known ?? ENTITY_KIND_RULES.other
    if (rule.group === 'party') {
      partyIds.add(entity.id)
      if (entity.value !== undefined && entity.value !== 0)
        warnings.push({
          code: 'partyValueIgnored',
          entityId: entity.id,
          message: `${entity.name} is a party and holds nothing, but has a value of ${entity.value}: it is counted nowhere.`,
        })
      continue
    }
    counted.set(entity.id, { entity, rule, directValue: directValueOf(entity, warnings) })
  }
  return { counted, partyIds }
}

function directValueOf(entity: EstateEntity, warnings: EstateWarning[]): number {
  const value = entity.value ?? 0
  if (Number.isFinite(value) && value >= 0) return value
  warnings.push({
    code: 'invalidValue',
    entityId: entity.id,
    message: `${entity.name} has a value of ${value}, not a number of at least 0: counted as 0.`,
  })
  return 0
}

function addMemberFraction(members: Map<string, MemberFraction>, memberId: string, direct: number, total: number) {
  const fraction = members.get(memberId)
  if (fraction === undefined) members.set(memberId, { direct, total })
  else {
    fraction.direct += direct
    fraction.total += total
  }
}

function loopWarning(entity: EstateEntity, holder: Holder, counted: ReadonlyMap<string, CountedEntity>): EstateWarning {
  const holderName = counted.get(holder.id)?.entity.name ?? holder.id
  return {
    code: 'ownershipLoop',
    entityId: entity.id,
    message: `${holderName} holds ${holder.fraction * 100} % of ${entity.name}, which holds ${holderName} itself through a chain: that part stays with ${entity.name} as its own.`,
  }
}
