// Writes five-generations.json, the chart 0.2.0 issue's largest test household: 120 people over five
// generations (a 98-year-old widow, her children, grandchildren, great-grandchildren and their
// children, with in-laws, some divorces and adoptions) and 25 entities (the matriarch's trusts, a
// family partnership and its LLC, a foundation, each child's revocable trust, residence, ILIT and
// policy, a corporate trustee and a law firm). Deterministic: a fixed seed drives a small PRNG, so
// the checked-in file always equals this script's output (test/chart/households.test.ts checks it).
//
// Run: node --import tsx bench/chart/households/make-five-generations.ts && npx prettier --write bench/chart/households/five-generations.json
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Person } from '../../../chart/payload.ts'
import type { HouseholdEntity, HouseholdLink, HouseholdPayload, HouseholdRelationship } from './downgrade.ts'

const PEOPLE = 120
const GENERATIONS = 5
/** People kept free for the fifth generation while the earlier ones are made. */
const FIFTH_GENERATION_RESERVE = 20
/** The last year a child may be born in: the household is as of 2026-11-01. */
const LAST_BIRTH_YEAR = 2026
const SEED = 0x5eed_2026

// prettier-ignore
const GIVEN = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Karen', 'Charles', 'Sarah',
  'Daniel', 'Nancy', 'Matthew', 'Lisa', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Steven', 'Ashley',
  'Andrew', 'Emily', 'Joshua', 'Hannah', 'Kevin', 'Olivia', 'Brian', 'Abigail', 'Ethan', 'Sophia',
  'Noah', 'Ava', 'Liam', 'Mia', 'Lucas', 'Harper', 'Owen', 'Ella', 'Caleb', 'Zoe',
]
// prettier-ignore
const SURNAMES = [
  'Alvarez', 'Bennett', 'Castillo', 'Donovan', 'Ellison', 'Fitzgerald', 'Garza', 'Holloway', 'Iverson',
  'Jensen', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Patel', 'Quinlan', 'Rasmussen',
  'Sorensen', 'Takahashi', 'Underwood', 'Vasquez', 'Whitfield', 'Yamamoto', 'Zielinski',
]
const FAMILY = 'Whitaker'
const DESCENDANT_ROLE: Person['role'][] = ['primaryClient', 'child', 'grandchild', 'greatGrandchild', 'other']

/** mulberry32: a tiny seeded PRNG, enough for reproducible test data. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Shares of 100 split n ways in hundredths, the last taking the rest: 3 → 33.33, 33.33, 33.34. */
function equalShares(n: number): number[] {
  const base = Math.floor(10_000 / n)
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? 10_000 - base * (n - 1) : base) / 100)
}

interface Couple {
  /** The descendant of the matriarch. */
  descendant: string
  partner: string | null
  /** The descendant's later spouse, when the children are of an earlier marriage. */
  stepParent: string | null
  generation: number
  birthYear: number
  surname: string
}

export function makeFiveGenerations(): HouseholdPayload {
  const random = prng(SEED)
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  // A date in `year`; in LAST_BIRTH_YEAR no later than October, before the household's asOf.
  const date = (year: number) => {
    const month = int(1, year >= LAST_BIRTH_YEAR ? 10 : 12)
    return `${year}-${String(month).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')}`
  }

  const people: Person[] = []
  const relationships: HouseholdRelationship[] = []
  const birthYearOf = new Map<string, number>()
  const add = (name: string, role: Person['role'], birthYear: number, deathYear?: number): string => {
    const id = `p${people.length + 1}`
    people.push({
      id,
      name,
      role,
      birthDate: date(birthYear),
      ...(deathYear === undefined ? {} : { deathDate: date(deathYear) }),
    })
    birthYearOf.set(id, birthYear)
    return id
  }
  const marry = (a: string, b: string, type: 'spouse' | 'exSpouse', since: number, until?: number) => {
    relationships.push({
      from: a,
      to: b,
      type,
      since: date(since),
      ...(until === undefined ? {} : { until: date(until) }),
    })
  }
  const parentOf = (parent: string, child: string, parentKind: HouseholdRelationship['parentKind']) => {
    relationships.push({ from: parent, to: child, type: 'parent', parentKind })
  }

  // Generation 0: the matriarch (the client) and her late husband.
  const walter = add(`Walter ${FAMILY}`, 'spouse', 1925, 2015)
  const ruth = add(`Ruth ${FAMILY}`, 'primaryClient', 1928)
  marry(ruth, walter, 'spouse', 1947, 2015)
  let couples: Couple[] = [
    { descendant: ruth, partner: walter, stepParent: null, generation: 0, birthYear: 1928, surname: FAMILY },
  ]
  const descendantsOf: string[][] = [[ruth]]

  for (let generation = 1; generation < GENERATIONS; generation++) {
    const last = generation === GENERATIONS - 1
    const next: Couple[] = []
    descendantsOf.push([])
    // The fifth generation takes exactly the people left, spread over the couples old enough.
    const parents = last ? couples.filter((c) => c.birthYear + 20 <= LAST_BIRTH_YEAR) : couples
    const left = PEOPLE - people.length
    parents.forEach((couple, k) => {
      const kids = last
        ? Math.floor(left / parents.length) + (k < left % parents.length ? 1 : 0)
        : generation === 1
          ? 4
          : int(2, 4)
      const adopted = !last && random() < 0.1
      for (let i = 0; i < kids; i++) {
        if (!last && people.length >= PEOPLE - FIFTH_GENERATION_RESERVE) return
        const birthYear = Math.min(LAST_BIRTH_YEAR, couple.birthYear + int(20, 23) + 2 * i)
        const kid = add(`${pick(GIVEN)} ${couple.surname}`, DESCENDANT_ROLE[generation]!, birthYear)
        descendantsOf[generation]!.push(kid)
        const kind = adopted && i === kids - 1 ? 'adopted' : 'biological'
        parentOf(couple.descendant, kid, kind)
        if (couple.partner !== null) parentOf(couple.partner, kid, kind)
        if (couple.stepParent !== null) parentOf(couple.stepParent, kid, 'step')
        if (last || people.length >= PEOPLE - FIFTH_GENERATION_RESERVE) continue
        const roll = random()
        if (roll < 0.12) {
          // Divorced and married again; the first marriage's children are the new spouse's stepchildren.
          const ex = add(`${pick(GIVEN)} ${pick(SURNAMES)}`, 'inLaw', birthYear + int(-3, 3))
          marry(kid, ex, 'exSpouse', birthYear + 22, birthYear + 29)
          const spouse = add(`${pick(GIVEN)} ${pick(SURNAMES)}`, 'inLaw', birthYear + int(-3, 3))
          marry(kid, spouse, 'spouse', birthYear + 31)
          next.push({
            descendant: kid,
            partner: ex,
            stepParent: spouse,
            generation,
            birthYear,
            surname: couple.surname,
          })
        } else if (roll < 0.85) {
          const spouse = add(`${pick(GIVEN)} ${pick(SURNAMES)}`, 'inLaw', birthYear + int(-3, 3))
          marry(kid, spouse, 'spouse', birthYear + int(23, 30))
          next.push({
            descendant: kid,
            partner: spouse,
            stepParent: null,
            generation,
            birthYear,
            surname: couple.surname,
          })
        } else
          next.push({
            descendant: kid,
            partner: null,
            stepParent: null,
            generation,
            birthYear,
            surname: couple.surname,
          })
      }
    })
    couples = next
  }
  if (people.length !== PEOPLE) throw new Error(`made ${people.length} people, not ${PEOPLE}`)

  // ---- entities ----
  const entities: HouseholdEntity[] = []
  const links: HouseholdLink[] = []
  const asOf = '2026-09-30'
  const entity = (
    id: string,
    name: string,
    kind: HouseholdEntity['kind'],
    value?: number,
    shortName?: string,
  ): string => {
    entities.push({
      id,
      name,
      ...(shortName === undefined ? {} : { shortName }),
      kind,
      ...(value === undefined ? {} : { value, valueAsOf: asOf }),
    })
    return id
  }
  const money = (lo: number, hi: number) => int(lo / 10_000, hi / 10_000) * 10_000
  const beneficiaries = (
    to: string,
    who: readonly string[],
    type: NonNullable<HouseholdLink['beneficiaryType']>,
  ): void => {
    const shares = equalShares(who.length)
    who.forEach((from, i) => links.push({ from, to, type: 'beneficiary', share: shares[i]!, beneficiaryType: type }))
  }
  const link = (from: string, to: string, type: HouseholdLink['type'], share?: number) => {
    links.push({ from, to, type, ...(share === undefined ? {} : { share }) })
  }
  const children = descendantsOf[1]!
  const grandchildren = descendantsOf[2]!
  const childrenOf = (parent: string) =>
    relationships.filter((r) => r.type === 'parent' && r.from === parent).map((r) => r.to)
  const nameOf = (id: string) => people.find((p) => p.id === id)!.name

  const trustCo = entity('old-harbor', 'Old Harbor Trust Company', 'corporateTrustee', undefined, 'Old Harbor')
  const lawFirm = entity('pruitt', 'Pruitt Lindqvist LLP', 'lawFirm', undefined, 'Pruitt Lindqvist')
  const rlt = entity('ruth-rlt', `Ruth ${FAMILY} Revocable Trust`, 'revocableTrust', money(8e6, 14e6), 'Ruth RLT')
  link(ruth, rlt, 'grantor')
  link(ruth, rlt, 'trustee')
  link(children[0]!, rlt, 'successorTrustee')
  beneficiaries(rlt, [ruth], 'primary')
  beneficiaries(rlt, children, 'remainder')
  const bypass = entity('bypass', `Walter ${FAMILY} Credit Shelter Trust`, 'creditShelterTrust', money(3e6, 6e6))
  link(walter, bypass, 'grantor')
  link(trustCo, bypass, 'trustee')
  beneficiaries(bypass, [ruth], 'income')
  beneficiaries(bypass, children, 'remainder')
  const marital = entity('marital', `Walter ${FAMILY} Marital Trust`, 'qtip', money(4e6, 9e6))
  link(walter, marital, 'grantor')
  link(children[0]!, marital, 'trustee')
  beneficiaries(marital, [ruth], 'income')
  beneficiaries(marital, children, 'remainder')
  const dynasty = entity('dynasty', `${FAMILY} 2012 Dynasty Trust`, 'dynastyTrust', money(10e6, 20e6))
  link(ruth, dynasty, 'grantor')
  link(trustCo, dynasty, 'trustee')
  link(lawFirm, dynasty, 'successorTrustee')
  beneficiaries(dynasty, grandchildren, 'primary')
  const flp = entity('flp', `${FAMILY} Family Limited Partnership`, 'flp', money(20e6, 30e6), 'FLP')
  link(ruth, flp, 'generalPartner', 1)
  link(dynasty, flp, 'limitedPartner', 59)
  link(rlt, flp, 'limitedPartner', 40)
  const timber = entity('timber', `${FAMILY} Timberlands LLC`, 'llc', money(5e6, 9e6), 'Timberlands')
  link(flp, timber, 'owner', 100)
  const foundation = entity('foundation', `${FAMILY} Family Foundation`, 'foundation', money(2e6, 5e6))
  link(ruth, foundation, 'grantor')
  for (const child of children) link(child, foundation, 'trustee')
  children.forEach((child, i) => {
    const name = nameOf(child)
    const own = entity(`rlt-${i + 1}`, `${name} Revocable Trust`, 'revocableTrust', money(1e6, 5e6))
    link(child, own, 'grantor')
    link(child, own, 'trustee')
    beneficiaries(own, [child], 'primary')
    const heirs = childrenOf(child)
    if (heirs.length) beneficiaries(own, heirs, 'remainder')
    const home = entity(`home-${i + 1}`, `Residence of ${name}`, 'realEstate', money(6e5, 3e6))
    link(own, home, 'owner', 100)
    const ilit = entity(`ilit-${i + 1}`, `${name} Irrevocable Life Insurance Trust`, 'ilit', money(1e4, 2e5))
    link(child, ilit, 'grantor')
    link(trustCo, ilit, 'trustee')
    if (heirs.length) beneficiaries(ilit, heirs, 'primary')
    const policy = entity(`policy-${i + 1}`, `Term life policy on ${name}`, 'lifeInsurance', money(1e6, 4e6))
    link(ilit, policy, 'owner', 100)
    link(child, policy, 'insured')
  })

  return {
    household: { name: `${FAMILY} Family`, currency: 'USD', asOf: '2026-11-01' },
    people,
    relationships,
    entities,
    links,
    options: { theme: 'light' },
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('five-generations.json', import.meta.url)
  writeFileSync(out, JSON.stringify(makeFiveGenerations(), null, 2) + '\n')
  console.log(`wrote ${fileURLToPath(out)}`)
}
