// The rules of payload 0.3.0's estate facts that a JSON Schema cannot say: a DSUE's deceased spouse,
// a gift's donor and a disposition's decedent, source and recipient name what they must; one gift
// entry per donor, its exclusion used not above its gifts; a disposition says exactly one of share,
// amount and formula, and the shares of one decedent's one source add up to at most 100; the second
// death is not before the first. Pure, like payload-rules.ts, whose path-and-message form it keeps:
// messages name no id or name from the payload.
import type { EntityKind, Payload } from '../payload.ts'
import { isParty } from '../../src/domain/estate-vocabulary.ts'
import type { PayloadProblem } from './payload-rules.ts'

const CLIENT_ROLES: ReadonlySet<string> = new Set(['primaryClient', 'coClient'])
/** Shares are percentages with up to a few decimals: a sum this close above 100 is rounding, not an error. */
const SHARE_SUM_TOLERANCE = 1e-9

/** The first problem of the estate facts, or null; ids already known unique (checkPayloadRules ran first). */
export function checkEstateFacts(payload: Payload): PayloadProblem | null {
  const roleOf = new Map(payload.people.map((person) => [person.id, person.role]))
  const kindOf = new Map<string, EntityKind>((payload.entities ?? []).map((entity) => [entity.id, entity.kind]))
  const isClient = (id: string) => CLIENT_ROLES.has(roleOf.get(id) ?? '')

  for (let i = 0; i < payload.people.length; i++) {
    const person = payload.people[i]!
    const from = person.dsueReceived?.from
    if (from === undefined) continue
    if (!roleOf.has(from)) return problem(`/people/${i}/dsueReceived/from`, 'names no person of the payload')
    if (from === person.id)
      return problem(`/people/${i}/dsueReceived/from`, 'is the person themself; name the spouse who died before them')
    if (isClient(from) && payload.people.find((each) => each.id === from)?.deathDate === undefined)
      return problem(
        `/people/${i}/dsueReceived/from`,
        'is a living client; a DSUE comes from a spouse who died: name that spouse, or leave from out',
      )
  }

  const donors = new Set<string>()
  const gifts = payload.gifts ?? []
  for (let i = 0; i < gifts.length; i++) {
    const gift = gifts[i]!
    if (!roleOf.has(gift.donor)) return problem(`/gifts/${i}/donor`, 'names no person of the payload')
    if (donors.has(gift.donor))
      return problem(
        `/gifts/${i}/donor`,
        'repeats the donor of an earlier gift entry; give each donor one entry with the totals',
      )
    donors.add(gift.donor)
    if (gift.exclusionUsed !== undefined && gift.taxableGifts === undefined)
      return problem(
        `/gifts/${i}/exclusionUsed`,
        'is set without taxableGifts; the exclusion used is a part of the gifts: give taxableGifts too',
      )
    if (gift.exclusionUsed !== undefined && gift.exclusionUsed > (gift.taxableGifts ?? 0))
      return problem(
        `/gifts/${i}/exclusionUsed`,
        'is more than taxableGifts; gifts cannot use more exclusion than their own amount: correct one of the two',
      )
  }

  const shareSums = new Map<string, number>()
  const dispositions = payload.dispositions ?? []
  for (let i = 0; i < dispositions.length; i++) {
    const disposition = dispositions[i]!
    const at = `/dispositions/${i}`
    if (!isClient(disposition.at))
      return problem(
        `${at}/at`,
        roleOf.has(disposition.at)
          ? 'names a person who is not a client; dispositions take effect at the death of the primaryClient or the coClient'
          : 'names no person of the payload',
      )
    if (disposition.from !== undefined) {
      const fromKind = kindOf.get(disposition.from)
      if (fromKind === undefined)
        return problem(
          `${at}/from`,
          'names no entity of the payload; leave it out to dispose of the rest of the estate',
        )
      if (isParty(fromKind))
        return problem(
          `${at}/from`,
          `is of kind ${fromKind}, a party that holds nothing: name the entity that holds the value`,
        )
    }
    const toKind = kindOf.get(disposition.to)
    if (toKind === undefined && !roleOf.has(disposition.to))
      return problem(`${at}/to`, 'names no person or entity of the payload')
    if (toKind !== undefined && isParty(toKind))
      return problem(
        `${at}/to`,
        `is of kind ${toKind}, a party that holds nothing, so it cannot receive: name a person, a trust or a charity`,
      )
    if (disposition.to === disposition.at)
      return problem(`${at}/to`, 'is the decedent; name who receives at their death')
    if (disposition.to === disposition.from)
      return problem(`${at}/to`, 'is the entity disposed of; name who receives it')
    const said = (['share', 'amount', 'formula'] as const).filter((field) => disposition[field] !== undefined)
    if (said.length !== 1)
      return problem(
        at,
        said.length === 0
          ? 'says neither share, amount nor formula: give exactly one of them'
          : `says ${said.join(' and ')}: give exactly one of share, amount and formula`,
      )
    if (disposition.share !== undefined) {
      const source = `${disposition.at} ${disposition.from ?? ''}`
      const sum = (shareSums.get(source) ?? 0) + disposition.share
      if (sum > 100 + SHARE_SUM_TOLERANCE)
        return problem(
          `${at}/share`,
          `brings the shares of this decedent's ${disposition.from === undefined ? 'estate' : 'entity'} to ${Math.round(sum * 1e6) / 1e6} %; they add up to at most 100`,
        )
      shareSums.set(source, sum)
    }
  }

  const assumptions = payload.assumptions
  if (assumptions?.firstDeath !== undefined && !isClient(assumptions.firstDeath))
    return problem(
      '/assumptions/firstDeath',
      roleOf.has(assumptions.firstDeath)
        ? 'names a person who is not a client; the first death is the primaryClient or the coClient'
        : 'names no person of the payload',
    )
  if (
    assumptions?.firstDeathYear !== undefined &&
    assumptions.secondDeathYear !== undefined &&
    assumptions.secondDeathYear < assumptions.firstDeathYear
  )
    return problem('/assumptions/secondDeathYear', 'is before firstDeathYear; the second death comes after the first')
  return null
}

function problem(path: string, what: string): PayloadProblem {
  return { path, message: `${path}: ${what}` }
}
