// A realistic, valid household of any size for the chart's tests and benchmarks: the clients and
// their parents, several generations of children with spouses, some divorces and second families,
// deceased elders, in-laws' parents (extra roots), and trusts, LLCs and foundations with grantors,
// trustees, beneficiaries and owners. Deterministic for a given seed.
import type { Entity, EntityKind, Link, Payload, Person, Relationship } from '../../chart/payload.ts'
import { FIRST_NAMES, SURNAMES } from '../names.ts'

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Couple {
  a: string
  b: string | null
  gen: number
  year: number
  surname: string
}

export function generateHousehold(people: number, entities: number, seed = 1): Payload {
  const rnd = mulberry32(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const target = Math.max(1, Math.min(1000, people))
  const ps: Person[] = []
  const rels: Relationship[] = []
  const genOf = new Map<string, number>()
  const yearOf = new Map<string, number>()
  const inLaws: string[] = []
  let counter = 0
  const full = () => ps.length >= target

  function person(surname: string, role: Person['role'], year: number, gen: number): string {
    const id = `p${++counter}`
    const p: Person = { id, name: `${pick(FIRST_NAMES)} ${surname}`, role }
    const month = String(int(1, 12)).padStart(2, '0')
    const day = String(int(1, 28)).padStart(2, '0')
    if (rnd() < 0.93) p.birthDate = `${year}-${month}-${day}`
    const deathYear = year + int(55, 95)
    if (year < 1940 || (deathYear < 2025 && rnd() < 0.25) || rnd() < 0.03) {
      p.deathDate = `${Math.min(2024, Math.max(year + 20, deathYear))}-${month}-${day}`
    }
    ps.push(p)
    genOf.set(id, gen)
    yearOf.set(id, year)
    return id
  }
  const roleFor = (gen: number): Person['role'] =>
    gen === 1 ? 'child' : gen === 2 ? 'grandchild' : gen === 3 ? 'greatGrandchild' : 'other'

  const surname = pick(SURNAMES)
  const client = person(surname, 'primaryClient', 1950, 0)
  const queue: Couple[] = []
  if (!full()) {
    const co = person(surname, 'coClient', 1953, 0)
    rels.push({ from: client, to: co, type: 'spouse' })
    queue.push({ a: client, b: co, gen: 0, year: 1951, surname })
  } else queue.push({ a: client, b: null, gen: 0, year: 1950, surname })
  // The client's parents (deceased) above, and a first marriage that ended.
  if (target >= 12) {
    const f = person(surname, 'parent', 1922, -1)
    const m = person(pick(SURNAMES), 'parent', 1925, -1)
    rels.push(
      { from: f, to: m, type: 'spouse' },
      { from: f, to: client, type: 'parent' },
      { from: m, to: client, type: 'parent' },
    )
    const sib = person(surname, 'sibling', 1948, 0)
    rels.push({ from: f, to: sib, type: 'parent' }, { from: m, to: sib, type: 'parent' })
    const ex = person(pick(SURNAMES), 'spouse', 1949, 0)
    rels.push({ from: client, to: ex, type: 'exSpouse' })
    const c = person(surname, 'child', 1972, 1)
    rels.push({ from: client, to: c, type: 'parent' }, { from: ex, to: c, type: 'parent' })
    queue.push({ a: c, b: null, gen: 1, year: 1972, surname })
  }

  for (let h = 0; h < queue.length && !full(); h++) {
    const cp = queue[h]!
    const kids = cp.gen === 0 ? int(3, 4) : int(1, 4)
    for (let k = 0; k < kids && !full(); k++) {
      const year = cp.year + int(23, 31) + k * 2
      const gen = cp.gen + 1
      const child = person(cp.surname, roleFor(gen), year, gen)
      rels.push({ from: cp.a, to: child, type: 'parent' })
      if (cp.b) rels.push({ from: cp.b, to: child, type: 'parent' })
      // Big households run past the present: the years are synthetic, the shapes are what matter.
      if (full()) continue
      const r = rnd()
      if (r < 0.14 && ps.length + 2 <= target) {
        // Divorced, with a child from the first marriage, then remarried.
        const ex = person(pick(SURNAMES), 'inLaw', year + int(-3, 3), gen)
        rels.push({ from: child, to: ex, type: 'exSpouse' })
        const c = person(cp.surname, roleFor(gen + 1), year + int(22, 30), gen + 1)
        rels.push({ from: child, to: c, type: 'parent' }, { from: ex, to: c, type: 'parent' })
        if (ps.length < target) {
          const sp = person(pick(SURNAMES), 'inLaw', year + int(-4, 4), gen)
          rels.push({ from: child, to: sp, type: 'spouse' })
          inLaws.push(sp)
          queue.push({ a: child, b: sp, gen, year, surname: cp.surname })
        }
      } else if (r < 0.8 && !full()) {
        const sp = person(pick(SURNAMES), 'inLaw', year + int(-4, 4), gen)
        rels.push({ from: child, to: sp, type: rnd() < 0.85 ? 'spouse' : 'partner' })
        inLaws.push(sp)
        queue.push({ a: child, b: sp, gen, year, surname: cp.surname })
      } else if (rnd() < 0.5) queue.push({ a: child, b: null, gen, year, surname: cp.surname })
    }
    // Now and then an in-law's parents: another root beside the family.
    if (rnd() < 0.08 && inLaws.length && ps.length + 2 <= target) {
      const il = inLaws[int(0, inLaws.length - 1)]!
      const g = genOf.get(il)! - 1
      const y = yearOf.get(il)! - 30
      const s2 = ps
        .find((p) => p.id === il)!
        .name.split(' ')
        .pop()!
      const f = person(s2, 'other', y, g)
      const m = person(s2, 'other', y + 2, g)
      rels.push(
        { from: f, to: m, type: 'spouse' },
        { from: f, to: il, type: 'parent' },
        { from: m, to: il, type: 'parent' },
      )
    }
  }
  while (!full()) person(pick(SURNAMES), 'other', int(1940, 2000), 0) // unrelated: not in the tree

  // ---- entities ----
  const ents: Entity[] = []
  const links: Link[] = []
  const adults = ps.filter((p) => (yearOf.get(p.id) ?? 2000) < 1995 && !p.deathDate).map((p) => p.id)
  const young = ps.filter((p) => (genOf.get(p.id) ?? 0) >= 1).map((p) => p.id)
  const grantors = ps.filter((p) => (genOf.get(p.id) ?? 0) <= 1 && !p.deathDate).map((p) => p.id)
  // The kinds of payload 0.1.x, each with the name its entities get.
  const kinds = [
    'revocableTrust',
    'ilit',
    'slat',
    'llc',
    'grat',
    'irrevocableTrust',
    'flp',
    'crt',
    'foundation',
    'daf',
    'llc',
    'other',
  ] as const satisfies readonly EntityKind[]
  const trusts: string[] = []
  const max = Math.max(0, Math.min(200, entities))
  let corporate: string | null = null
  for (let i = 0; i < max; i++) {
    const kind = kinds[i % kinds.length]!
    const id = `e${i + 1}`
    const label: Record<(typeof kinds)[number], string> = {
      revocableTrust: 'Family Revocable Trust',
      irrevocableTrust: 'Dynasty Trust',
      ilit: 'Irrevocable Life Insurance Trust',
      slat: 'Spousal Lifetime Access Trust',
      grat: 'Grantor Retained Annuity Trust',
      crt: 'Charitable Remainder Trust',
      llc: 'Holdings LLC',
      flp: 'Family Limited Partnership',
      foundation: 'Family Foundation',
      daf: 'Donor Advised Fund',
      other: 'Trust Company',
    }
    const e: Entity = {
      id,
      name: `${i < kinds.length ? surname : pick(SURNAMES)} ${label[kind]}${i >= kinds.length ? ` ${Math.floor(i / kinds.length) + 1}` : ''}`,
      kind,
    }
    if (kind !== 'other') e.value = Math.round(rnd() * 5e7 + 1e5)
    if (rnd() < 0.3) e.estate = rnd() < 0.5 ? 'in' : 'out'
    ents.push(e)
    if (kind === 'other') {
      corporate = id
      continue
    }
    const add = (l: Link) => {
      if (links.length < 2000) links.push(l)
    }
    if (kind === 'llc' || kind === 'flp') {
      const owners = trusts.length ? [pick(trusts), pick(trusts)] : [client]
      const uniq = [...new Set(owners)]
      uniq.forEach((o, k) =>
        add({ from: o, to: id, type: 'owner', share: uniq.length === 1 ? 100 : k === 0 ? 60 : 40 }),
      )
      continue
    }
    trusts.push(id)
    add({ from: grantors.length ? pick(grantors) : client, to: id, type: 'grantor' })
    if (corporate && rnd() < 0.4) add({ from: corporate, to: id, type: 'trustee' })
    else add({ from: adults.length ? pick(adults) : client, to: id, type: 'trustee' })
    const nb = int(1, 4)
    const bens = [...new Set(Array.from({ length: nb }, () => (young.length ? pick(young) : client)))]
    bens.forEach((b) =>
      add({ from: b, to: id, type: 'beneficiary', share: Math.round((100 / bens.length) * 100) / 100 }),
    )
  }

  return {
    household: { name: `${surname} Family` },
    people: ps,
    relationships: rels,
    entities: ents,
    links,
    options: { theme: 'light' },
  }
}
