// Geometry of the household chart layout: the reading conventions and the hard rules (no box
// overlaps, no line through a box, no text overflowing) on the example, on generated households,
// on random valid households (fast-check), and on odd but valid shapes.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  PAYLOAD_0_1_ENTITY_KINDS as ENTITY_KINDS,
  PAYLOAD_0_1_LINK_TYPES as LINK_TYPES,
  type Payload,
  type Person,
} from '../../chart/payload.ts'
import { estateOf, textWidth } from '../../chart/src/format.ts'
import { layoutChart, type ChartLayout, type NodeBox } from '../../chart/src/layout.ts'
import { generateHousehold } from '../../bench/chart/generate.ts'
import { checkPayloadRules } from '../../chart/src/payload-rules.ts'
import { Value } from 'typebox/value'
import { Payload as PayloadSchema } from '../../chart/payload.ts'

// The 0.1.x layout is measured on the 0.1.x example as released (chart/example.json shows 0.2.0's fields).
const example = JSON.parse(
  readFileSync(new URL('../../dist/chart/v0.1.1/example.json', import.meta.url), 'utf8'),
) as Payload
const EPS = 0.5

function boxById(l: ChartLayout, id: string): NodeBox {
  const b = l.boxes.find((x) => x.id === id)
  if (!b) throw new Error(`no box ${id}`)
  return b
}

function overlaps(a: NodeBox, b: NodeBox): boolean {
  return a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS
}

/** Pairs of overlapping boxes (sweep over x, so big layouts stay fast). */
function boxOverlaps(l: ChartLayout): string[] {
  const bs = l.boxes.slice().sort((a, b) => a.x - b.x)
  const out: string[] = []
  for (let i = 0; i < bs.length; i++) {
    const a = bs[i]!
    for (let j = i + 1; j < bs.length && bs[j]!.x < a.x + a.w; j++)
      if (overlaps(a, bs[j]!)) out.push(`${a.id}/${bs[j]!.id}`)
  }
  return out
}

/** Every line segment that passes through the inside of a box, and every non-orthogonal one. */
function lineProblems(l: ChartLayout): string[] {
  const out: string[] = []
  // Bucket boxes by row band to keep this near-linear.
  const cell = 200
  const grid = new Map<number, NodeBox[]>()
  for (const b of l.boxes) {
    for (let gy = Math.floor(b.y / cell); gy <= Math.floor((b.y + b.h) / cell); gy++) {
      const list = grid.get(gy)
      if (list) list.push(b)
      else grid.set(gy, [b])
    }
  }
  for (const e of l.edges) {
    for (const path of e.paths) {
      for (let k = 1; k < path.length; k++) {
        const [x1, y1] = path[k - 1]!
        const [x2, y2] = path[k]!
        if (Math.abs(x1 - x2) > 1e-6 && Math.abs(y1 - y2) > 1e-6)
          out.push(`${e.kind} ${e.ids.join(',')}: diagonal segment`)
        const lx = Math.min(x1, x2)
        const hx = Math.max(x1, x2)
        const ly = Math.min(y1, y2)
        const hy = Math.max(y1, y2)
        const seen = new Set<NodeBox>()
        for (let gy = Math.floor(ly / cell); gy <= Math.floor(hy / cell); gy++) {
          for (const b of grid.get(gy) ?? []) {
            if (seen.has(b)) continue
            seen.add(b)
            if (hx > b.x + EPS && lx < b.x + b.w - EPS && hy > b.y + EPS && ly < b.y + b.h - EPS) {
              out.push(`${e.kind} ${e.ids.join(',')}: [${x1},${y1}]-[${x2},${y2}] crosses ${b.id}`)
            }
          }
        }
      }
    }
  }
  return out
}

/** Text that does not fit its box (by the layout's text model), and labels over boxes or labels. */
function textProblems(l: ChartLayout): string[] {
  const out: string[] = []
  for (const b of l.boxes) {
    for (const t of b.lines) {
      const w = textWidth(t.text, t.size, t.bold)
      if (w > t.max + 1e-9) out.push(`${b.id}: "${t.text}" is ${w} > ${t.max}`)
      if (t.x - w / 2 < b.x + 4 || t.x + w / 2 > b.x + b.w - 4) out.push(`${b.id}: "${t.text}" leaves the box`)
      if (t.y - t.size < b.y || t.y + 3 > b.y + b.h) out.push(`${b.id}: "${t.text}" leaves the box vertically`)
    }
  }
  const rects = l.labels.map((lb) => {
    const w = textWidth(lb.who, lb.size, true) + textWidth(' ' + lb.text, lb.size)
    expect(w).toBeLessThanOrEqual(lb.width + 1e-9)
    const x = lb.anchor === 'end' ? lb.x - w : lb.x
    return { x, y: lb.y - lb.size * 0.8, w, h: lb.size, t: lb.who + ' ' + lb.text }
  })
  for (const r of rects) {
    for (const b of l.boxes) {
      if (r.x < b.x + b.w && b.x < r.x + r.w && r.y < b.y + b.h && b.y < r.y + r.h)
        out.push(`label "${r.t}" over ${b.id}`)
    }
  }
  const sorted = rects.slice().sort((a, b) => a.y - b.y)
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!
    for (let j = i + 1; j < sorted.length && sorted[j]!.y < a.y + a.h; j++) {
      const b = sorted[j]!
      if (a.x < b.x + b.w && b.x < a.x + a.w) out.push(`labels "${a.t}" and "${b.t}" overlap`)
    }
  }
  return out
}

function structureProblems(p: Payload, l: ChartLayout, opts: { parentsAbove: boolean }): string[] {
  const out: string[] = []
  const byId = new Map(l.boxes.map((b) => [b.id, b]))
  for (const r of p.relationships ?? []) {
    const a = byId.get(r.from)!
    const b = byId.get(r.to)!
    if (r.type === 'parent') {
      if (opts.parentsAbove && !(b.row > a.row && b.y > a.y + a.h)) out.push(`${r.from} is not above child ${r.to}`)
    } else if (a.y !== b.y || a.row !== b.row) out.push(`partners ${r.from} and ${r.to} not in one row`)
  }
  for (const e of p.entities ?? []) {
    const b = byId.get(e.id)
    if (!b) {
      out.push(`entity ${e.id} missing`)
      continue
    }
    if (b.estate !== estateOf(e)) out.push(`entity ${e.id} in the wrong estate group`)
    const heading = l.headings.filter((h) => h.y < b.y).sort((x, y) => y.y - x.y)[0]
    if (heading?.estate !== b.estate) out.push(`entity ${e.id} not under its heading`)
  }
  for (const person of p.people) {
    const b = byId.get(person.id)
    if (!b) out.push(`person ${person.id} missing`)
    else if (b.deceased !== (person.deathDate !== undefined)) out.push(`person ${person.id} deceased flag`)
  }
  return out
}

function checkAll(p: Payload, opts = { parentsAbove: true }): ChartLayout {
  const l = layoutChart(p)
  expect(boxOverlaps(l)).toEqual([])
  expect(lineProblems(l)).toEqual([])
  expect(textProblems(l)).toEqual([])
  expect(structureProblems(p, l, opts)).toEqual([])
  for (const b of l.boxes) {
    expect(b.x).toBeGreaterThanOrEqual(0)
    expect(b.y).toBeGreaterThanOrEqual(0)
    expect(b.x + b.w).toBeLessThanOrEqual(l.width)
    expect(b.y + b.h).toBeLessThanOrEqual(l.height)
  }
  return l
}

describe('layout of the example household', () => {
  const l = checkAll(example)

  it('puts the clients’ couple in the top row, centred over the tree', () => {
    const robert = boxById(l, 'robert')
    const unit = ['eleanor', 'robert', 'margaret'].map((id) => boxById(l, id))
    expect(Math.min(...l.boxes.filter((b) => b.kind === 'person').map((b) => b.row))).toBe(robert.row)
    for (const b of unit) expect(b.y).toBe(robert.y)
    const centre = (Math.min(...unit.map((b) => b.x)) + Math.max(...unit.map((b) => b.x + b.w))) / 2
    expect(Math.abs(centre - (l.tree.x + l.tree.w / 2))).toBeLessThan(2)
  })

  it('puts the current spouse on one side and the deceased first wife on the other', () => {
    const [e, r, m] = ['eleanor', 'robert', 'margaret'].map((id) => boxById(l, id)) as [NodeBox, NodeBox, NodeBox]
    expect(e.x < r.x && r.x < m.x).toBe(true)
    const s = boxById(l, 'sarah')
    expect(boxById(l, 'mark').x).toBeLessThan(s.x) // the former husband on the outer side
    expect(boxById(l, 'james').x).toBeGreaterThan(s.x)
  })

  it('hangs each set of children from the midpoint of its own pair', () => {
    const e = boxById(l, 'eleanor')
    const r = boxById(l, 'robert')
    const m = boxById(l, 'margaret')
    const first = l.edges.find((x) => x.kind === 'family' && x.ids.includes('david'))!
    const second = l.edges.find((x) => x.kind === 'family' && x.ids.includes('emily'))!
    expect(first.ids).toEqual(['eleanor', 'robert', 'david', 'sarah'])
    expect(first.paths[0]![0]).toEqual([(e.x + e.w + r.x) / 2, r.y + r.h / 2])
    expect(second.paths[0]![0]).toEqual([(r.x + r.w + m.x) / 2, r.y + r.h / 2])
    // Children's drops end on the children's top edges.
    const david = boxById(l, 'david')
    expect(first.paths.some((p) => p.some(([x, y]) => y === david.y && x > david.x && x < david.x + david.w))).toBe(
      true,
    )
  })

  it('marks the former spouse line dashed (kind ex) and struck, and the others not', () => {
    const ex = l.edges.filter((e) => e.kind === 'ex')
    expect(ex.map((e) => e.ids.slice().sort())).toEqual([['mark', 'sarah']])
    expect(l.edges.filter((e) => e.kind === 'partner').length).toBe(4)
    expect(l.strokes.length).toBe(2)
  })

  it('flags the deceased with † and dates', () => {
    const e = boxById(l, 'eleanor')
    expect(e.deceased).toBe(true)
    expect(e.lines[0]!.text).toBe('† Eleanor Chen')
    expect(e.lines[1]!.text).toContain('1952–1989')
    expect(e.label).toContain('deceased')
    expect(l.boxes.filter((b) => b.deceased).map((b) => b.id)).toEqual(['eleanor'])
  })

  it('groups the entities by estate, right of the tree, with kind and value', () => {
    const ents = l.boxes.filter((b) => b.kind === 'entity')
    for (const b of ents) expect(b.x).toBeGreaterThan(l.tree.x + l.tree.w)
    expect(l.headings.map((h) => h.text)).toEqual(['In estate', 'Out of estate'])
    expect(ents.filter((b) => b.estate === 'in').map((b) => b.id)).toEqual(['rlt', 'llc', 'coastal'])
    expect(ents.filter((b) => b.estate === 'out').map((b) => b.id)).toEqual(['ilit', 'slat'])
    expect(boxById(l, 'rlt').lines.at(-1)!.text).toBe('Revocable trust · 6.2M')
    expect(boxById(l, 'ilit').lines.at(-1)!.text).toBe('ILIT · 5M')
    expect(boxById(l, 'coastal').lines.at(-1)!.text).toBe('Other')
  })

  it('draws one labelled line per person–entity pair, into the entity’s own slot', () => {
    const links = l.edges.filter((e) => e.kind === 'link')
    expect(links.length).toBe(12) // 14 person links, two pairs with two roles
    const own = l.edges.filter((e) => e.kind === 'own')
    expect(own.map((e) => e.ids.join('>')).sort()).toEqual(['coastal>ilit', 'rlt>llc', 'slat>llc'])
    const texts = l.labels.map((x) => `${x.who} ${x.text}`)
    expect(texts).toContain('Robert grantor · trustee')
    expect(texts).toContain('David beneficiary 33.3%')
    expect(texts).toContain('Emily beneficiary 33.3%')
    expect(texts).toContain('Margaret beneficiary 100%')
    // Each line ends on its entity's edge, at a slot of its own.
    const ends = new Set<string>()
    for (const e of [...links, ...own]) {
      const end = e.paths[0]!.at(-1)!
      const target = boxById(l, e.ids[1]!)
      expect(end[0] === target.x || end[0] === target.x + target.w).toBe(true)
      expect(end[1] > target.y && end[1] < target.y + target.h).toBe(true)
      ends.add(end.join(','))
    }
    expect(ends.size).toBe(links.length + own.length)
  })

  it('has checks that catch a crossing, an overlap, overflowing text and a colliding label', () => {
    const bad = structuredClone(l)
    const r = boxById(bad, 'robert')
    bad.edges.push({
      kind: 'link',
      ids: [],
      paths: [
        [
          [r.x - 10, r.y + 10],
          [r.x + r.w + 10, r.y + 10],
        ],
      ],
      title: '',
    })
    expect(lineProblems(bad)).toHaveLength(1)
    boxById(bad, 'margaret').x = r.x + 20
    expect(boxOverlaps(bad)).toHaveLength(1)
    r.lines[0]!.text = 'Robert Chen Robert Chen Robert Chen'
    expect(textProblems(bad).length).toBeGreaterThan(0)
    bad.labels.push({ ...bad.labels[0]!, y: r.y + 20, x: r.x + 40 })
    expect(textProblems(bad).some((t) => t.startsWith('label'))).toBe(true)
  })

  it('is deterministic', () => {
    expect(JSON.stringify(layoutChart(structuredClone(example)))).toBe(JSON.stringify(l))
  })

  it('truncates long names with an ellipsis and keeps the full name in the label', () => {
    const long = 'Alexandra Konstantinopoulou-Van der Westhuizen <script>alert(1)</script>'
    const p: Payload = { ...example, people: example.people.map((x) => (x.id === 'david' ? { ...x, name: long } : x)) }
    const lay = checkAll(p)
    const d = boxById(lay, 'david')
    expect(d.lines[0]!.text.endsWith('…')).toBe(true)
    expect(d.label).toContain(long)
  })
})

describe('layout of generated households', () => {
  it('keeps every rule for households of many sizes', () => {
    for (const [people, entities, seed] of [
      [1, 0, 1],
      [2, 1, 2],
      [12, 3, 3],
      [40, 8, 4],
      [120, 20, 5],
      [250, 40, 6],
      [500, 100, 7],
    ] as const) {
      const p = generateHousehold(people, entities, seed)
      // The generator only makes payloads the chart's own validation accepts.
      expect(Value.Check(PayloadSchema, p)).toBe(true)
      expect(checkPayloadRules(p)).toBeNull()
      checkAll(p)
    }
  })

  // How fast is measured in bench/chart (npm run bench:chart), never here.
  it('lays out 500 people and 100 entities and keeps every rule', () => {
    const p = generateHousehold(500, 100, 7)
    expect(p.people.length).toBe(500)
    expect(p.entities!.length).toBe(100)
    const l = checkAll(p)
    expect(l.boxes.length).toBe(600)
  })
})

// ---- random valid households ----------------------------------------------------------------

const ROLES: Person['role'][] = ['child', 'grandchild', 'inLaw', 'sibling', 'parent', 'other']

const householdArb = fc.integer({ min: 1, max: 36 }).chain((n) =>
  fc
    .record({
      levels: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: n, maxLength: n }),
      names: fc.array(fc.string({ minLength: 1, maxLength: 70 }), { minLength: n, maxLength: n }),
      dead: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      parents: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 70 }),
      partners: fc.array(
        fc.tuple(
          fc.nat(),
          fc.nat(),
          fc.constantFrom<'spouse' | 'partner' | 'exSpouse'>('spouse', 'partner', 'exSpouse'),
        ),
        { maxLength: 30 },
      ),
      entities: fc.array(
        fc.record({
          kind: fc.constantFrom(...ENTITY_KINDS),
          name: fc.string({ minLength: 1, maxLength: 90 }),
          value: fc.option(fc.double({ min: 0, max: 1e13, noNaN: true }), { nil: undefined }),
          estate: fc.option(fc.constantFrom<'in' | 'out'>('in', 'out'), { nil: undefined }),
        }),
        { maxLength: 10 },
      ),
      links: fc.array(
        fc.tuple(
          fc.nat(),
          fc.nat(),
          fc.constantFrom(...LINK_TYPES),
          fc.option(fc.double({ min: 0.01, max: 100, noNaN: true }), { nil: undefined }),
        ),
        { maxLength: 40 },
      ),
    })
    .map((r): Payload => {
      const people: Person[] = r.levels.map((lv, i) => {
        const p: Person = {
          id: `p${i}`,
          name: r.names[i]!.trim() ? r.names[i]! : `Person ${i}`,
          role: i === 0 ? 'primaryClient' : ROLES[i % ROLES.length]!,
          birthDate: `${1900 + lv * 25 + (i % 20)}-01-15`,
        }
        if (r.dead[i]) p.deathDate = '2001-02-03'
        return p
      })
      const rels: NonNullable<Payload['relationships']> = []
      const parentCount = new Array<number>(n).fill(0)
      const seen = new Set<string>()
      for (const [a0, b0] of r.parents) {
        const a = a0 % n
        const b = b0 % n
        // Parents strictly one level or more above: no cycles; partners share a level, so nobody is
        // partnered with an ancestor.
        if (r.levels[a]! < r.levels[b]! && parentCount[b]! < 3 && !seen.has(`${a}>${b}`)) {
          seen.add(`${a}>${b}`)
          parentCount[b]!++
          rels.push({ from: `p${a}`, to: `p${b}`, type: 'parent' })
        }
      }
      for (const [a0, b0, type] of r.partners) {
        const a = a0 % n
        const b = b0 % n
        if (a !== b && r.levels[a] === r.levels[b]) rels.push({ from: `p${a}`, to: `p${b}`, type })
      }
      const entities = r.entities.map((e, i) => ({
        id: `e${i}`,
        name: e.name.trim() ? e.name : `Entity ${i}`,
        kind: e.kind,
        ...(e.value !== undefined ? { value: e.value } : {}),
        ...(e.estate ? { estate: e.estate } : {}),
      }))
      const links: NonNullable<Payload['links']> = []
      if (entities.length) {
        for (const [f0, t0, type, share] of r.links) {
          const to = `e${t0 % entities.length}`
          const f = f0 % (n + entities.length)
          const from = f < n ? `p${f}` : `e${f - n}`
          if (from !== to) links.push({ from, to, type, ...(share !== undefined ? { share } : {}) })
        }
      }
      return { household: { name: 'Random' }, people, relationships: rels, entities, links }
    }),
)

describe('layout of random valid households (fast-check)', () => {
  it('never overlaps boxes, never crosses a box with a line, always fits its text, and terminates', () => {
    fc.assert(
      fc.property(householdArb, (p) => {
        expect(checkPayloadRules(p)).toBeNull()
        const l = checkAll(p)
        expect(JSON.stringify(layoutChart(p))).toBe(JSON.stringify(l))
      }),
      { numRuns: 150 },
    )
  })
})

describe('odd but valid shapes', () => {
  const person = (id: string, extra: Partial<Person> = {}): Person => ({
    id,
    name: `Person ${id}`,
    role: 'other',
    ...extra,
  })

  it('draws people with no relations, and several roots', () => {
    const p: Payload = {
      household: { name: 'Loose' },
      people: [person('a', { role: 'primaryClient' }), person('b'), person('c'), person('d'), person('e')],
      relationships: [{ from: 'd', to: 'e', type: 'parent' }],
    }
    const l = checkAll(p)
    expect(l.boxes.length).toBe(5)
  })

  it('draws a person with three parents', () => {
    const p: Payload = {
      household: { name: 'Three' },
      people: [person('a', { role: 'primaryClient' }), person('b'), person('c'), person('k')],
      relationships: [
        { from: 'a', to: 'b', type: 'spouse' },
        { from: 'a', to: 'k', type: 'parent' },
        { from: 'b', to: 'k', type: 'parent' },
        { from: 'c', to: 'k', type: 'parent' },
      ],
    }
    const l = checkAll(p)
    expect(l.edges.filter((e) => e.kind === 'parent').map((e) => e.ids)).toEqual([['c', 'k']])
  })

  it('draws partners of partners and a parent far above its child', () => {
    const p: Payload = {
      household: { name: 'Chains' },
      people: ['a', 'b', 'c', 'd', 'x', 'y', 'z', 'w'].map((id) => person(id)),
      relationships: [
        { from: 'a', to: 'b', type: 'spouse' },
        { from: 'b', to: 'c', type: 'exSpouse' },
        { from: 'c', to: 'd', type: 'partner' },
        { from: 'a', to: 'c', type: 'exSpouse' },
        { from: 'a', to: 'x', type: 'parent' },
        { from: 'x', to: 'y', type: 'parent' },
        { from: 'y', to: 'z', type: 'parent' },
        { from: 'd', to: 'z', type: 'parent' }, // d is three rows above z
        { from: 'w', to: 'z', type: 'parent' }, // a root that sinks to just above z
      ],
    }
    const l = checkAll(p)
    expect(boxById(l, 'w').row).toBe(boxById(l, 'z').row - 1)
  })

  it('terminates when contracting partners makes a cycle of units', () => {
    // a–b partners, c is a's child, d is b's parent, c–d partners: valid, but the units cycle.
    const p: Payload = {
      household: { name: 'Cycle' },
      people: ['a', 'b', 'c', 'd'].map((id) => person(id)),
      relationships: [
        { from: 'a', to: 'b', type: 'spouse' },
        { from: 'a', to: 'c', type: 'parent' },
        { from: 'd', to: 'b', type: 'parent' },
        { from: 'c', to: 'd', type: 'spouse' },
      ],
    }
    expect(checkPayloadRules(p)).toBeNull()
    checkAll(p, { parentsAbove: false })
  })

  // A hang would hit the test timeout; no wall-clock bound here.
  it('handles 1000 generations, and the largest payload', () => {
    const chain: Payload = {
      household: { name: 'Chain' },
      people: Array.from({ length: 1000 }, (_, i) => person(`p${i}`)),
      relationships: Array.from({ length: 999 }, (_, i) => ({
        from: `p${i}`,
        to: `p${i + 1}`,
        type: 'parent' as const,
      })),
    }
    const l = checkAll(chain)
    expect(new Set(l.boxes.map((b) => b.row)).size).toBe(1000)

    const big = generateHousehold(1000, 200, 11)
    expect(big.links!.length).toBeGreaterThan(500)
    checkAll(big)
  })

  it('handles 2000 links', () => {
    const p = generateHousehold(300, 200, 12)
    const ids = [...p.people.map((x) => x.id), ...p.entities!.map((e) => e.id)]
    const links: NonNullable<Payload['links']> = []
    for (let i = 0; links.length < 2000; i++) {
      const from = ids[(i * 7919) % ids.length]!
      const to = p.entities![(i * 104729) % p.entities!.length]!.id
      if (from !== to) links.push({ from, to, type: LINK_TYPES[i % 4]!, share: 10 })
    }
    checkAll({ ...p, links })
  })
})
