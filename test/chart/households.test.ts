// The five test households of the chart 0.2.0 issue (bench/chart/households/): each keeps the records
// API's estate rules in its 0.2.0 shape, has what its name promises, and downgrades to a 0.1.x payload
// that today's chart accepts (the published JSON Schema, then checkPayloadRules). The generated
// five-generations household must equal its generator's output, so the two cannot drift apart.
import { readFileSync } from 'node:fs'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { payloadJsonSchema } from '../../chart/payload.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import { downgrade, type HouseholdPayload } from '../../bench/chart/households/downgrade.ts'
import { makeFiveGenerations } from '../../bench/chart/households/make-five-generations.ts'
import {
  BENEFICIARY_TYPES,
  ENTITY_KINDS,
  isParty,
  LINK_TYPES,
  linkTargetMismatch,
  OWNING_LINK_TYPES,
  PARTY_REFUSED_FROM_LINK_TYPES,
  PARTY_REFUSED_LINK_TYPES,
  SHARED_LINK_TYPES,
} from '../../src/domain/estate-vocabulary.ts'

const NAMES = ['three-marriages', 'estate-120m', 'widow', 'five-generations', 'long-names'] as const
type Name = (typeof NAMES)[number]

function load(name: Name): HouseholdPayload {
  const url = new URL(`../../bench/chart/households/${name}.json`, import.meta.url)
  return JSON.parse(readFileSync(url, 'utf8')) as HouseholdPayload
}
const households = Object.fromEntries(NAMES.map((name) => [name, load(name)])) as Record<Name, HouseholdPayload>
const validatePayload = new Ajv2020({ allErrors: true }).compile(payloadJsonSchema(CHART_VERSION))

/** Hundredths of a percent, so that 33.33 + 33.33 + 33.34 sums to exactly 10,000. */
const hundredths = (share: number) => Math.round(share * 100)

/** Every way the household breaks the records API's rules (src/households/entity-links.ts, the member kinships). */
function estateRuleProblems(h: HouseholdPayload): string[] {
  const out: string[] = []
  const people = new Set(h.people.map((p) => p.id))
  const kinds = new Map((h.entities ?? []).map((e) => [e.id, e.kind]))
  if (people.size + kinds.size !== h.people.length + (h.entities ?? []).length) out.push('ids repeat')
  const asOf = h.household.asOf ?? '9999-12-31'
  for (const p of h.people) {
    if ((p.birthDate ?? '') > asOf || (p.deathDate ?? '') > asOf) out.push(`${p.id}: a date after asOf`)
    if (p.birthDate && p.deathDate && p.birthDate > p.deathDate) out.push(`${p.id}: dies before birth`)
  }
  for (const e of h.entities ?? []) {
    if (!ENTITY_KINDS.includes(e.kind)) out.push(`${e.id}: kind ${e.kind}`)
    if (isParty(e.kind) && (e.value !== undefined || e.estate !== undefined)) out.push(`${e.id}: a party holds value`)
  }
  for (const r of h.relationships ?? []) {
    const at = `${r.type} ${r.from}>${r.to}`
    if (!people.has(r.from) || !people.has(r.to) || r.from === r.to) out.push(`${at}: not two people`)
    if (r.type === 'parent' ? r.since !== undefined || r.until !== undefined : r.parentKind !== undefined)
      out.push(`${at}: parentKind only on parents, since/until only on couples`)
    if (r.since !== undefined && r.until !== undefined && r.since > r.until) out.push(`${at}: ends before it starts`)
  }
  const owned = new Map<string, number>()
  const primaries = new Map<string, number>()
  const owners = new Map<string, string[]>()
  for (const l of h.links ?? []) {
    const at = `${l.type} ${l.from}>${l.to}`
    const toKind = kinds.get(l.to)
    const fromKind = kinds.get(l.from)
    if (!LINK_TYPES.includes(l.type)) out.push(`${at}: type`)
    if (toKind === undefined || (!people.has(l.from) && fromKind === undefined) || l.from === l.to) {
      out.push(`${at}: not from a person or entity to another entity`)
      continue
    }
    if (l.share !== undefined && (!SHARED_LINK_TYPES.has(l.type) || !(l.share > 0 && l.share <= 100)))
      out.push(`${at}: share`)
    if (l.beneficiaryType !== undefined && (l.type !== 'beneficiary' || !BENEFICIARY_TYPES.includes(l.beneficiaryType)))
      out.push(`${at}: beneficiaryType`)
    if (linkTargetMismatch(l.type, toKind) !== undefined) out.push(`${at}: link_kind_mismatch`)
    if (isParty(toKind) && PARTY_REFUSED_LINK_TYPES.has(l.type)) out.push(`${at}: a party is held`)
    if (fromKind !== undefined && isParty(fromKind) && PARTY_REFUSED_FROM_LINK_TYPES.has(l.type))
      out.push(`${at}: a party holds`)
    if (OWNING_LINK_TYPES.has(l.type)) {
      owned.set(l.to, (owned.get(l.to) ?? 0) + hundredths(l.share ?? 0))
      if (fromKind !== undefined) owners.set(l.to, [...(owners.get(l.to) ?? []), l.from])
    }
    if (l.type === 'beneficiary' && (l.beneficiaryType ?? 'primary') === 'primary')
      primaries.set(l.to, (primaries.get(l.to) ?? 0) + hundredths(l.share ?? 0))
  }
  for (const [id, sum] of owned) if (sum > 10_000) out.push(`${id}: owners' shares sum to ${sum / 100}`)
  for (const [id, sum] of primaries) if (sum > 10_000) out.push(`${id}: primary shares sum to ${sum / 100}`)
  // No entity owns itself through a chain: walk up the owners from each entity.
  for (const start of kinds.keys()) {
    const seen = new Set<string>()
    const stack = [...(owners.get(start) ?? [])]
    while (stack.length) {
      const id = stack.pop()!
      if (id === start) {
        out.push(`${start}: owns itself through a chain`)
        break
      }
      if (seen.has(id)) continue
      seen.add(id)
      stack.push(...(owners.get(id) ?? []))
    }
  }
  return out
}

/** Generations of the household: 1 + the longest chain of parent relationships. */
function generations(h: HouseholdPayload): number {
  const children = new Map<string, string[]>()
  for (const r of h.relationships ?? [])
    if (r.type === 'parent') children.set(r.from, [...(children.get(r.from) ?? []), r.to])
  const depth = new Map<string, number>()
  const depthOf = (id: string): number => {
    const known = depth.get(id)
    if (known !== undefined) return known
    const d = 1 + Math.max(0, ...(children.get(id) ?? []).map(depthOf))
    depth.set(id, d)
    return d
  }
  return Math.max(...h.people.map((p) => depthOf(p.id)))
}

const kindsOf = (h: HouseholdPayload) => (h.entities ?? []).map((e) => e.kind)
const linksOf = (h: HouseholdPayload, type: string, to?: string) =>
  (h.links ?? []).filter((l) => l.type === type && (to === undefined || l.to === to))

describe.each(NAMES)('household %s', (name) => {
  const household = households[name]

  it('keeps the records API’s estate rules in its 0.2.0 shape', () => {
    expect(estateRuleProblems(household)).toEqual([])
  })

  it('downgrades to a 0.1.x payload that today’s chart accepts', () => {
    const payload = downgrade(household)
    expect(validatePayload(payload), JSON.stringify(validatePayload.errors)).toBe(true)
    expect(checkPayloadRules(payload)).toBeNull()
    // Every person is drawn; only parties (and their links) leave the entities.
    expect(payload.people.map((p) => p.id)).toEqual(household.people.map((p) => p.id))
    const kept = (household.entities ?? []).filter((e) => !isParty(e.kind)).map((e) => e.id)
    expect((payload.entities ?? []).map((e) => e.id)).toEqual(kept)
  })
})

describe('what each household promises', () => {
  it('three-marriages: a client married three times, step and adopted children, grandchildren', () => {
    const h = households['three-marriages']
    const client = h.people.find((p) => p.role === 'primaryClient')!
    const marriages = (h.relationships ?? []).filter(
      (r) => r.type !== 'parent' && (r.from === client.id || r.to === client.id),
    )
    expect(marriages.map((m) => m.type)).toEqual(['exSpouse', 'exSpouse', 'spouse'])
    // Each with its dates, one after the other: the two former ones ended, the current one did not.
    expect(marriages.every((m) => m.since !== undefined)).toBe(true)
    expect(marriages.map((m) => m.until === undefined)).toEqual([false, false, true])
    for (let i = 1; i < marriages.length; i++) expect(marriages[i]!.since! > marriages[i - 1]!.until!).toBe(true)
    const kinds = new Set((h.relationships ?? []).map((r) => r.parentKind))
    expect([...kinds].sort()).toEqual(['adopted', 'biological', 'step', undefined])
    expect(h.people.filter((p) => p.role === 'grandchild').length).toBeGreaterThanOrEqual(4)
    expect(generations(h)).toBe(3)
  })

  it('estate-120m: 13 entities worth $120M, a corporate trustee, two SLATs owning 98 % of an FLP and an LLC', () => {
    const h = households['estate-120m']
    const entities = h.entities ?? []
    expect(entities.length).toBe(13)
    // 18.5M + 1.2M + 0.9M + 36M + 14M + 0.15M + 15M + 6.5M + 8M + 6.8M + 8.85M + 4.1M = 120M
    // (revocable trust, the SLATs, FLP, LLC, ILIT, policy, GRAT, foundation, residence, brokerage, IRA).
    expect(entities.reduce((sum, e) => sum + (e.value ?? 0), 0)).toBe(120_000_000)
    expect(kindsOf(h).filter((k) => k === 'corporateTrustee').length).toBe(1)
    const slats = entities.filter((e) => e.kind === 'slat').map((e) => e.id)
    expect(slats.length).toBe(2)
    for (const kind of ['flp', 'llc'] as const) {
      const target = entities.find((e) => e.kind === kind)!
      // Left at the kind's default (in the estate): the complaint.
      expect(target.estate).toBeUndefined()
      const bySlats = (h.links ?? []).filter((l) => l.to === target.id && slats.includes(l.from))
      // 49 + 49 = 98.
      expect(bySlats.reduce((sum, l) => sum + l.share!, 0)).toBe(98)
    }
    for (const kind of ['ilit', 'lifeInsurance', 'grat', 'foundation', 'revocableTrust', 'realEstate'] as const)
      expect(kindsOf(h)).toContain(kind)
    expect(kindsOf(h).some((k) => k === 'taxableAccount')).toBe(true)
    const ilit = entities.find((e) => e.kind === 'ilit')!.id
    const policy = entities.find((e) => e.kind === 'lifeInsurance')!.id
    expect(linksOf(h, 'owner', policy).map((l) => l.from)).toEqual([ilit])
    // The children's shares of the revocable trust: 33.33 + 33.33 + 33.34 = 100.
    const remainder = linksOf(h, 'beneficiary', 'rlt').filter((l) => l.beneficiaryType === 'remainder')
    expect(remainder.map((l) => l.share)).toEqual([33.33, 33.33, 33.34])
    for (const type of ['grantor', 'trustee', 'successorTrustee', 'insured', 'generalPartner', 'limitedPartner'])
      expect(linksOf(h, type).length).toBeGreaterThan(0)
  })

  it('widow: a widow, her child and her late husband, who has a death date', () => {
    const h = households.widow
    expect(h.people.map((p) => p.role).sort()).toEqual(['child', 'primaryClient', 'spouse'])
    const late = h.people.find((p) => p.role === 'spouse')!
    expect(late.deathDate).toBeDefined()
    const widow = h.people.find((p) => p.role === 'primaryClient')!
    expect(widow.deathDate).toBeUndefined()
    const marriage = (h.relationships ?? []).find((r) => r.type === 'spouse')!
    expect([marriage.from, marriage.to].sort()).toEqual([late.id, widow.id].sort())
    expect(marriage.until).toBe(late.deathDate)
  })

  it('five-generations: 120 people over 5 generations with 25 entities', () => {
    const h = households['five-generations']
    expect(h.people.length).toBe(120)
    expect(generations(h)).toBe(5)
    expect((h.entities ?? []).length).toBe(25)
    for (const role of ['primaryClient', 'child', 'grandchild', 'greatGrandchild', 'inLaw'] as const)
      expect(h.people.some((p) => p.role === role)).toBe(true)
    expect(kindsOf(h)).toContain('corporateTrustee')
  })

  it('five-generations: the checked-in file is its generator’s output', () => {
    expect(households['five-generations']).toEqual(makeFiveGenerations())
  })

  it('long-names: right-to-left and CJK names, an emoji, long person and entity names', () => {
    const h = households['long-names']
    const names = [...h.people, ...(h.entities ?? [])].map((x) => x.name)
    for (const script of [/\p{Script=Arabic}/u, /\p{Script=Hebrew}/u, /\p{Script=Han}/u, /\p{Script=Hangul}/u])
      expect(h.people.some((p) => script.test(p.name))).toBe(true)
    expect(names.some((n) => /\p{Extended_Pictographic}/u.test(n))).toBe(true)
    expect(h.people.filter((p) => p.name.length >= 40).length).toBeGreaterThanOrEqual(3)
    expect((h.entities ?? []).filter((e) => e.name.length >= 80).length).toBeGreaterThanOrEqual(4)
  })
})

describe('downgrade', () => {
  const payload = downgrade(households['estate-120m'])
  const link = (from: string, to: string) => (payload.links ?? []).filter((l) => l.from === from && l.to === to)

  it('leaves the corporate trustee out with its links, and successorTrustee and insured links', () => {
    expect((payload.entities ?? []).some((e) => e.id === 'trustco')).toBe(false)
    expect((payload.links ?? []).some((l) => l.from === 'trustco' || l.to === 'trustco')).toBe(false)
    expect(link('william', 'policy')).toEqual([])
  })

  it('draws partners as owners with their shares, and kinds 0.1.x does not know as other on their estate side', () => {
    expect(link('slat-w', 'flp')).toEqual([{ from: 'slat-w', to: 'flp', type: 'owner', share: 49 }])
    expect(link('william', 'flp')).toEqual([{ from: 'william', to: 'flp', type: 'owner', share: 1 }])
    const policy = (payload.entities ?? []).find((e) => e.id === 'policy')!
    expect(policy).toEqual({ id: 'policy', name: policy.name, kind: 'other', value: 15_000_000, estate: 'in' })
    // A kind 0.1.x knows keeps it; the estate side is written out (an SLAT's default is out).
    expect((payload.entities ?? []).find((e) => e.id === 'slat-w')).toMatchObject({ kind: 'slat', estate: 'out' })
  })

  it('drops the 0.2.0 fields', () => {
    expect(payload.household).toEqual({ name: 'Hartwell Family' })
    expect(payload.options).toEqual({ theme: 'light' })
    expect(JSON.stringify(payload)).not.toMatch(/shortName|valueAsOf|beneficiaryType|parentKind|"since"|"until"/)
  })
})
