// Household chart layout: pure geometry, no DOM. Input is an already validated payload; the output
// is every box, line, label and heading in abstract units (1 unit = 1 CSS px at zoom 1).
//
// People: partner components (spouse/partner/exSpouse) are contracted into units drawn side by
// side; units form a DAG through parent edges; a unit's row is its longest path from a root (Kahn);
// each unit hangs under one "primary" parent unit exactly one row up, which makes a forest that is
// packed as blocks (block width = max(own width, sum of child block widths)). Every other parent
// edge is routed through the gaps between rows (and, when it spans several rows, a margin channel
// on the far left). Entities sit in a column to the right of the tree; person→entity links run down
// into the gap below their person's row, along it to a channel between tree and entities (one lane
// per person) and into the entity's left edge at their own slot; entity→entity links use a channel
// right of the column. Gaps and channels never contain boxes, so lines never cross a box.
import type { Entity, Payload, Person } from '../payload.ts'
import {
  KIND_LABEL,
  ROLE_LABEL,
  compactValue,
  entityDescription,
  estateOf,
  fit,
  lifeDates,
  percent,
  personDescription,
  textWidth,
  wrap2,
} from './format.ts'

export type Pt = [number, number]

export interface TextLine {
  text: string
  x: number
  y: number
  size: number
  bold: boolean
  /** Room the text has (the model guarantees textWidth(text) ≤ max). */
  max: number
  cls: 'nm' | 'sub'
}

export interface NodeBox {
  id: string
  kind: 'person' | 'entity'
  x: number
  y: number
  w: number
  h: number
  lines: TextLine[]
  /** Full accessible description (name, role, dates; kind, value, estate). */
  label: string
  deceased: boolean
  client: boolean
  estate: 'in' | 'out' | null
  /** Generation row of a person; -1 for entities. */
  row: number
}

export type EdgeKind = 'partner' | 'ex' | 'family' | 'parent' | 'link' | 'own'

export interface Edge {
  kind: EdgeKind
  /** Ids of the people/entities the line connects (for highlighting). */
  ids: string[]
  paths: Pt[][]
  title: string
}

export interface EdgeLabel {
  x: number
  y: number
  /** Who holds the role (bold, given name or short entity name), then the role text. */
  who: string
  text: string
  /** Estimated width of `who + ' ' + text`. */
  width: number
  anchor: 'start' | 'end'
  size: number
  ids: string[]
  title: string
}

export interface Heading {
  x: number
  y: number
  w: number
  text: string
  estate: 'in' | 'out'
}

export interface ChartLayout {
  width: number
  height: number
  /** The family tree's bounds. */
  tree: { x: number; y: number; w: number; h: number }
  boxes: NodeBox[]
  edges: Edge[]
  labels: EdgeLabel[]
  headings: Heading[]
  /** Junction dots where a link bundle branches. */
  dots: Pt[]
  /** The short double strokes across a former spouse's line (each a two-point stroke). */
  strokes: Pt[][]
}

export const PERSON_W = 164
const PERSON_H = 54
const ENTITY_W = 240
export const NAME_SIZE = 13
const SUB_SIZE = 11
const LABEL_SIZE = 11
const PAD = 10 // inner horizontal padding of a box
const PGAP = 32 // between partners
const SGAP = 32 // between sibling blocks
const RGAP = 56 // between root blocks
const STEP = 8 // between parallel tracks and lanes
const BAR_STEP = 12
const SLOT = 18
const MARGIN = 24
const TOP = 20
const WHO_MAX = 84

/** "Robert" for "Robert Chen", "Dr. Ada" for "Dr. Ada Lovelace". */
function givenName(name: string): string {
  const w = name.trim().split(/\s+/)
  return w[0]!.endsWith('.') && w.length > 2 ? w[0] + ' ' + w[1] : w[0]!
}

const ROLE_RANK: Record<Person['role'], number> = {
  primaryClient: 0,
  coClient: 1,
  child: 2,
  grandchild: 3,
  greatGrandchild: 4,
  sibling: 5,
  parent: 6,
  other: 7,
  spouse: 8,
  inLaw: 9,
}

interface Family {
  unit: number
  parents: number[] // 1 or 2 people; two are partners
  kids: number[] // child units
  key: number // left-to-right order inside the unit
  hangX: number
  hangY: number
  bar: number // bar track (0 = lowest)
  entries: number[] // entry x per kid
}

interface Trunk {
  from: string
  y0: number // where the trunk enters the channel
  x0: number
  ys: number[] // slot y per branch
  xEnd: number // the entities' edge
  who: string
  targets: number[] // entity index per branch
  labels: string[]
  titles: string[]
  start: Pt[] // path from the source's port to (x0, y0)
}

export function layoutChart(payload: Payload): ChartLayout {
  const people = payload.people
  const n = people.length
  const pIdx = new Map<string, number>()
  people.forEach((p, i) => {
    if (!pIdx.has(p.id)) pIdx.set(p.id, i)
  })
  const ents: Entity[] = []
  const eIdx = new Map<string, number>()
  for (const e of payload.entities ?? []) {
    if (pIdx.has(e.id) || eIdx.has(e.id)) continue
    eIdx.set(e.id, ents.length)
    ents.push(e)
  }
  const P = (i: number) => people[i]!

  // ---- relations ---------------------------------------------------------------------------
  const par: number[][] = people.map(() => [])
  const partners: { o: number; ex: boolean }[][] = people.map(() => [])
  const uf = Array.from({ length: n }, (_, i) => i)
  const find = (x: number): number => {
    while (uf[x] !== x) {
      uf[x] = uf[uf[x]!]!
      x = uf[x]!
    }
    return x
  }
  const seen = new Set<string>()
  for (const r of payload.relationships ?? []) {
    const a = pIdx.get(r.from)
    const b = pIdx.get(r.to)
    if (a === undefined || b === undefined || a === b) continue
    if (r.type === 'parent') {
      const k = a + '>' + b
      if (seen.has(k)) continue
      seen.add(k)
      par[b]!.push(a)
    } else {
      const k = Math.min(a, b) + '~' + Math.max(a, b)
      if (seen.has(k)) continue
      seen.add(k)
      partners[a]!.push({ o: b, ex: r.type === 'exSpouse' })
      partners[b]!.push({ o: a, ex: r.type === 'exSpouse' })
      uf[find(a)] = find(b)
    }
  }
  const isPartner = (a: number, b: number) => partners[a]!.some((q) => q.o === b)

  // ---- units -------------------------------------------------------------------------------
  const unitOf = new Int32Array(n)
  const units: number[][] = []
  const byRoot = new Map<number, number>()
  for (let i = 0; i < n; i++) {
    const r = find(i)
    let u = byRoot.get(r)
    if (u === undefined) {
      u = units.length
      byRoot.set(r, u)
      units.push([])
    }
    units[u]!.push(i)
    unitOf[i] = u
  }
  const U = units.length
  const outsideParents = (i: number) => par[i]!.some((p) => unitOf[p] !== unitOf[i])
  const pref = (a: number, b: number) =>
    (P(a).role === 'primaryClient' ? 0 : 1) - (P(b).role === 'primaryClient' ? 0 : 1) ||
    (outsideParents(a) ? 0 : 1) - (outsideParents(b) ? 0 : 1) ||
    ROLE_RANK[P(a).role] - ROLE_RANK[P(b).role] ||
    a - b
  const pos = new Int32Array(n)
  const prefOrder: number[][] = []
  for (let u = 0; u < U; u++) {
    const ms = units[u]!.slice().sort(pref)
    prefOrder.push(ms)
    const anchor = ms[0]!
    // Current partners on the right, former (ex or deceased) on the left; partners of partners
    // further out on the same side.
    const left: number[] = []
    const right: number[] = []
    const side = new Map<number, number>([[anchor, 0]])
    const queue = [anchor]
    // The queue grows while it is walked (for…of visits what is pushed during the walk).
    for (const x of queue) {
      const ps = partners[x]!.filter((q) => !side.has(q.o)).sort((a, b) => former(a) - former(b) || a.o - b.o)
      for (const q of ps) {
        if (side.has(q.o)) continue
        // The anchor's side is 0: its partners take a side of their own; a partner's partners its side.
        const s = side.get(x) === 0 ? (former(q) ? -1 : 1) : side.get(x)!
        side.set(q.o, s)
        ;(s < 0 ? left : right).push(q.o)
        queue.push(q.o)
      }
    }
    // Members not reached (cannot happen for a connected component) go right, defensively.
    for (const m of units[u]!) if (!side.has(m)) right.push(m)
    const order = [...left.reverse(), anchor, ...right]
    units[u] = order
    order.forEach((m, k) => {
      pos[m] = k
    })
  }
  function former(q: { o: number; ex: boolean }) {
    return q.ex || P(q.o).deathDate ? 1 : 0
  }
  const unitW = units.map((m) => m.length * PERSON_W + (m.length - 1) * PGAP)

  // ---- unit DAG, generations (Kahn, longest path; cycles of units are broken) -----------------
  const uPars: number[][] = units.map(() => [])
  const uKids: number[][] = units.map(() => [])
  const edgeSeen = new Set<number>()
  for (let c = 0; c < n; c++) {
    for (const p of par[c]!) {
      const pu = unitOf[p]!
      const cu = unitOf[c]!
      if (pu === cu || edgeSeen.has(pu * U + cu)) continue
      edgeSeen.add(pu * U + cu)
      uPars[cu]!.push(pu)
      uKids[pu]!.push(cu)
    }
  }
  const gen = new Int32Array(U)
  const indeg = uPars.map((a) => a.length)
  const done = new Uint8Array(U)
  const q: number[] = []
  for (let u = 0; u < U; u++) if (indeg[u] === 0) q.push(u)
  let processed = 0
  let head = 0
  let forceFrom = 0
  while (processed < U) {
    if (head === q.length) {
      while (done[forceFrom]) forceFrom++
      q.push(forceFrom)
    }
    const u = q[head++]!
    if (done[u]) continue
    done[u] = 1
    processed++
    for (const c of uKids[u]!) {
      if (done[c]) continue
      if (gen[u]! + 1 > gen[c]!) gen[c] = gen[u]! + 1
      // eslint-disable-next-line @typescript-eslint/no-confusing-non-null-assertion -- the ! is indeg[c]'s, not the comparison's
      if (--indeg[c]! === 0) q.push(c)
    }
  }
  // Roots sink to just above their highest child (an in-law's parents stand beside the in-law's
  // parents-in-law, not at the top).
  for (let u = 0; u < U; u++) {
    if (uPars[u]!.length || !uKids[u]!.length) continue
    let m = Infinity
    for (const c of uKids[u]!) m = Math.min(m, gen[c]!)
    if (m - 1 > gen[u]!) gen[u] = m - 1
  }
  let G = 0
  for (let u = 0; u < U; u++) G = Math.max(G, gen[u]!)
  const rowOf = (i: number) => gen[unitOf[i]!]!

  // ---- primary parent unit, families ----------------------------------------------------------
  const primary = new Int32Array(U).fill(-1)
  const linkMember = new Int32Array(U).fill(-1)
  for (let u = 0; u < U; u++) {
    search: for (const x of prefOrder[u]!) {
      for (const p of par[x]!) {
        const pu = unitOf[p]!
        if (pu !== u && gen[pu] === gen[u]! - 1) {
          primary[u] = pu
          linkMember[u] = x
          break search
        }
      }
    }
  }
  const primaryEdge = new Set<string>() // "p>c" parent edges drawn by a family line
  const families: Family[] = []
  const famOfUnit: Family[][] = units.map(() => [])
  const famIndex = new Map<string, Family>()
  for (let u = 0; u < U; u++) {
    const pu = primary[u]!
    if (pu < 0) continue
    const x = linkMember[u]!
    const ps = par[x]!.filter((p) => unitOf[p] === pu).sort((a, b) => pos[a]! - pos[b]!)
    let pair: number[] | null = null
    for (let i = 0; i < ps.length; i++) {
      for (let j = i + 1; j < ps.length; j++) {
        const a = ps[i]!
        const b = ps[j]!
        if (isPartner(a, b) && (!pair || pos[b]! - pos[a]! < pos[pair[1]!]! - pos[pair[0]!]!)) pair = [a, b]
      }
    }
    const parents = pair ?? [ps[0]!]
    for (const p of parents) primaryEdge.add(p + '>' + x)
    const key = pu + ':' + parents.join('-')
    let f = famIndex.get(key)
    if (!f) {
      f = {
        unit: pu,
        parents,
        kids: [],
        key: parents.length === 2 ? pos[parents[0]!]! + 0.5 : pos[parents[0]!]!,
        hangX: 0,
        hangY: 0,
        bar: 0,
        entries: [],
      }
      famIndex.set(key, f)
      families.push(f)
      famOfUnit[pu]!.push(f)
    }
    f.kids.push(u)
  }
  const birth = (u: number) => P(linkMember[u]!).birthDate ?? '9999'
  const tKids: number[][] = units.map(() => [])
  for (let u = 0; u < U; u++) {
    const fs = famOfUnit[u]!.sort((a, b) => a.key - b.key)
    for (const f of fs) {
      f.kids.sort((a, b) => (birth(a) < birth(b) ? -1 : birth(a) > birth(b) ? 1 : linkMember[a]! - linkMember[b]!))
      tKids[u]!.push(...f.kids)
    }
  }

  // ---- packing (Reingold–Tilford style contours) -----------------------------------------------
  // A subtree's contour holds, per level, its leftmost and rightmost extent relative to its unit's
  // left edge. Level 2g is row g; level 2g+1 is the gap below it, where the unit's sibling bar runs
  // (so two families' bars never share x-ranges). Subtrees are pushed together until their
  // contours keep the gap at every common level.
  const byGen: number[][] = Array.from({ length: G + 1 }, () => [])
  for (let u = 0; u < U; u++) byGen[gen[u]!]!.push(u)
  interface Contour {
    base: number
    L: number[]
    R: number[]
  }
  const contour: (Contour | null)[] = new Array<Contour | null>(U).fill(null)
  const relX = new Float64Array(U) // unit's left edge relative to its primary parent's left edge
  const shiftOf = new Float64Array(U)
  const memberC = (u: number) => pos[linkMember[u]!]! * (PERSON_W + PGAP) + PERSON_W / 2
  const levelGap = (lv: number, rowGap: number) => (lv % 2 ? 24 : rowGap)
  function placeRight(acc: Contour, c: Contour, rowGap: number): number {
    let shift = -Infinity
    const lo = Math.max(acc.base, c.base)
    const hi = Math.min(acc.base + acc.L.length, c.base + c.L.length)
    for (let lv = lo; lv < hi; lv++) {
      const a = acc.R[lv - acc.base]!
      const b = c.L[lv - c.base]!
      if (Number.isNaN(a) || Number.isNaN(b)) continue
      shift = Math.max(shift, a - b + levelGap(lv, rowGap))
    }
    if (shift === -Infinity) {
      // No common level: side by side.
      let maxR = -Infinity
      let minL = Infinity
      for (const v of acc.R) if (!Number.isNaN(v)) maxR = Math.max(maxR, v)
      for (const v of c.L) if (!Number.isNaN(v)) minL = Math.min(minL, v)
      shift = maxR - minL + rowGap
    }
    return shift
  }
  function merge(acc: Contour, c: Contour, shift: number): void {
    if (c.base < acc.base) {
      const pad = acc.base - c.base
      acc.L.unshift(...new Array<number>(pad).fill(NaN))
      acc.R.unshift(...new Array<number>(pad).fill(NaN))
      acc.base = c.base
    }
    for (let k = 0; k < c.L.length; k++) {
      const lv = c.base + k
      const idx = lv - acc.base
      const l = c.L[k]! + shift
      const r = c.R[k]! + shift
      if (Number.isNaN(l)) continue
      while (acc.L.length <= idx) {
        acc.L.push(NaN)
        acc.R.push(NaN)
      }
      const al = acc.L[idx]!
      const ar = acc.R[idx]!
      acc.L[idx] = Number.isNaN(al) ? l : Math.min(al, l)
      acc.R[idx] = Number.isNaN(ar) ? r : Math.max(ar, r)
    }
  }
  for (let g = G; g >= 0; g--) {
    for (const u of byGen[g]!) {
      const ks = tKids[u]!
      const w = unitW[u]!
      if (!ks.length) {
        contour[u] = { base: 2 * g, L: [0], R: [w] }
        continue
      }
      let acc: Contour | null = null
      for (const c of ks) {
        const cc = contour[c]!
        if (!acc) {
          acc = { base: cc.base, L: cc.L.slice(), R: cc.R.slice() }
          shiftOf[c] = 0
        } else {
          const sh = placeRight(acc, cc, SGAP)
          shiftOf[c] = sh
          merge(acc, cc, sh)
        }
        contour[c] = null
      }
      const first = ks[0]!
      const last = ks[ks.length - 1]!
      const a = shiftOf[first]! + memberC(first)
      const b = shiftOf[last]! + memberC(last)
      const ux = (a + b) / 2 - w / 2
      for (const c of ks) relX[c] = shiftOf[c]! - ux
      const own: Contour = {
        base: 2 * g,
        L: [0, Math.min(a - ux, PERSON_W / 2) - 4],
        R: [w, Math.max(b - ux, w - PERSON_W / 2) + 4],
      }
      merge(own, acc!, -ux)
      contour[u] = own
    }
  }
  // Roots: the clients' tree in the middle, the others balanced left and right.
  const client = people.findIndex((p) => p.role === 'primaryClient')
  let clientRoot = -1
  if (client >= 0) {
    clientRoot = unitOf[client]!
    for (let k = 0; k < U && primary[clientRoot]! >= 0; k++) clientRoot = primary[clientRoot]!
  }
  const widthOf = (c: Contour) => {
    let lo = Infinity
    let hi = -Infinity
    for (const v of c.L) if (!Number.isNaN(v)) lo = Math.min(lo, v)
    for (const v of c.R) if (!Number.isNaN(v)) hi = Math.max(hi, v)
    return hi - lo
  }
  const leftRoots: number[] = []
  const rightRoots: number[] = []
  let lw = 0
  let rw = 0
  for (let u = 0; u < U; u++) {
    if (primary[u]! >= 0 || u === clientRoot) continue
    if (clientRoot >= 0 && lw < rw) {
      leftRoots.push(u)
      lw += widthOf(contour[u]!)
    } else {
      rightRoots.push(u)
      rw += widthOf(contour[u]!)
    }
  }
  const roots = [...leftRoots.reverse(), ...(clientRoot >= 0 ? [clientRoot] : []), ...rightRoots]
  const absX = new Float64Array(U)
  let all: Contour | null = null
  for (const r of roots) {
    const cc = contour[r]!
    if (!all) {
      all = { base: cc.base, L: cc.L.slice(), R: cc.R.slice() }
      absX[r] = 0
    } else {
      absX[r] = placeRight(all, cc, RGAP)
      merge(all, cc, absX[r])
    }
  }
  for (let g = 0; g <= G; g++) for (const u of byGen[g]!) for (const c of tKids[u]!) absX[c] = absX[u]! + relX[c]!
  let minX = Infinity
  let maxX = -Infinity
  for (let u = 0; u < U; u++) {
    minX = Math.min(minX, absX[u]!)
    maxX = Math.max(maxX, absX[u]! + unitW[u]!)
  }
  if (!U) minX = maxX = 0
  for (let u = 0; u < U; u++) absX[u] = absX[u]! - minX
  const treeW = maxX - minX

  // ---- horizontal positions of people ----------------------------------------------------------
  const px = new Float64Array(n) // left edge (before the margin shift)
  for (let i = 0; i < n; i++) px[i] = absX[unitOf[i]!]! + pos[i]! * (PERSON_W + PGAP)
  const cx = (i: number) => px[i]! + PERSON_W / 2

  // Gap g lies above row g (gap 0 above the top row, gap G+1 below the last).
  const gU = new Int32Array(G + 2)
  const gT = new Int32Array(G + 2)
  const gS = new Int32Array(G + 2)
  const gB = new Int32Array(G + 2)

  // Non-adjacent partners are joined by a U-shaped line below their row.
  interface PartnerLine {
    a: number
    b: number
    ex: boolean
    track: number
  }
  const partnerLines: PartnerLine[] = []
  const uPorts = new Int32Array(n)
  const uLineOf = new Map<string, PartnerLine>()
  {
    const perGap: PartnerLine[][] = Array.from({ length: G + 2 }, () => [])
    for (let i = 0; i < n; i++) {
      for (const q of partners[i]!) {
        if (q.o < i) continue
        const [a, b] = pos[i]! < pos[q.o]! ? [i, q.o] : [q.o, i]
        const l: PartnerLine = { a, b, ex: q.ex, track: -1 }
        partnerLines.push(l)
        uLineOf.set(a + '-' + b, l)
        if (pos[b]! - pos[a]! > 1) perGap[rowOf(a) + 1]!.push(l)
      }
    }
    perGap.forEach((ls, g) => {
      ls.sort((l, m) => pos[l.b]! - pos[l.a]! - (pos[m.b]! - pos[m.a]!) || pos[l.a]! - pos[m.a]!)
      ls.forEach((l, k) => {
        l.track = k
      })
      gU[g] = ls.length
    })
  }
  const uPortX = new Map<string, [number, number]>()
  for (const l of partnerLines) {
    if (l.track < 0) continue
    const xa = cx(l.a) - 20 - 8 * (uPorts[l.a]!++ % 6)
    const xb = cx(l.b) - 20 - 8 * (uPorts[l.b]!++ % 6)
    uPortX.set(l.a + '-' + l.b, [xa, xb])
  }

  // Families: hang points and child entry points.
  for (const f of families) {
    if (f.parents.length === 2) {
      const [a, b] = f.parents as [number, number]
      const ports = uPortX.get(a + '-' + b)
      f.hangX = ports ? (ports[0] + ports[1]) / 2 : (px[a]! + PERSON_W + px[b]!) / 2
    } else f.hangX = cx(f.parents[0]!)
    f.entries = f.kids.map((u) => {
      const m = linkMember[u]!
      // An only child right under its parents' hang point gets a straight line.
      return f.kids.length === 1 ? Math.min(Math.max(f.hangX, px[m]! + 12), px[m]! + PERSON_W - 12) : cx(m)
    })
  }
  for (let u = 0; u < U; u++) {
    const fs = famOfUnit[u]!
    gB[gen[u]! + 1] = Math.max(gB[gen[u]! + 1]!, fs.length)
    if (fs.length < 2) continue
    // A child's drop must not continue another family's hang line.
    for (const f of fs) {
      f.entries = f.entries.map((e, k) => {
        const m = linkMember[f.kids[k]!]!
        for (const g of fs) {
          if (g !== f && Math.abs(e - g.hangX) < 14) {
            const dir = f.hangX < e ? -1 : 1
            return Math.min(Math.max(e + dir * 26, px[m]! + 12), px[m]! + PERSON_W - 12)
          }
        }
        return e
      })
    }
    chooseBars(fs)
  }

  // Secondary parent lines (every parent edge not drawn by a family line).
  interface Secondary {
    p: number
    c: number
    port: number
    entry: number
    t1: number
    t2: number
    lane: number
  }
  const secondaries: Secondary[] = []
  const secPorts = new Int32Array(n)
  const secEntries = new Int32Array(n)
  let marginLanes = 0
  for (let c = 0; c < n; c++) {
    for (const p of par[c]!) {
      if (primaryEdge.has(p + '>' + c)) continue
      const shifted = entryShift(c)
      const k = secEntries[c]!++ % 5
      const s: Secondary = {
        p,
        c,
        port: cx(p) + 16 + 8 * (secPorts[p]!++ % 6),
        entry: cx(c) + (shifted > 0 ? -1 : 1) * (18 + 8 * k),
        t1: gS[rowOf(p) + 1]!++,
        t2: -1,
        lane: -1,
      }
      if (rowOf(c) !== rowOf(p) + 1) {
        s.t2 = gS[rowOf(c)]!++
        s.lane = marginLanes++
      }
      secondaries.push(s)
    }
  }
  function entryShift(c: number): number {
    const u = unitOf[c]!
    const pu = primary[u]!
    if (pu < 0 || linkMember[u] !== c) return 0
    for (const f of famOfUnit[pu]!) {
      const k = f.kids.indexOf(u)
      if (k >= 0) return f.entries[k]! - cx(c)
    }
    return 0
  }

  // Person → entity links, grouped per (person, entity) and bundled per person.
  interface Pair {
    types: string[]
    title: string[]
  }
  const personLinks = new Map<number, Map<number, Pair>>()
  const entityLinks = new Map<number, Map<number, Pair>>()
  const ORDER = ['grantor', 'trustee', 'beneficiary', 'owner']
  for (const l of payload.links ?? []) {
    const t = eIdx.get(l.to)
    if (t === undefined) continue
    const fp = pIdx.get(l.from)
    const fe = eIdx.get(l.from)
    const src = fp ?? fe
    if (src === undefined || (fp === undefined && fe === t)) continue
    const map = fp !== undefined ? personLinks : entityLinks
    let m = map.get(src)
    if (!m) map.set(src, (m = new Map<number, Pair>()))
    let pr = m.get(t)
    if (!pr) m.set(t, (pr = { types: [], title: [] }))
    if (pr.types.some((x) => x.startsWith(l.type))) continue
    const share =
      l.share !== undefined && (l.type === 'beneficiary' || l.type === 'owner') ? ' ' + percent(l.share) : ''
    pr.types.push(l.type + share)
    pr.types.sort((a, b) => ORDER.indexOf(a.split(' ')[0]!) - ORDER.indexOf(b.split(' ')[0]!))
  }
  const personTrunkOrder: number[] = [...personLinks.keys()].sort((a, b) => a - b)
  const trunkTrack = new Int32Array(n).fill(-1)
  {
    const perRow: number[][] = Array.from({ length: G + 1 }, () => [])
    for (const p of personTrunkOrder) perRow[rowOf(p)]!.push(p)
    perRow.forEach((ps, r) => {
      ps.sort((a, b) => px[b]! - px[a]!) // rightmost person on the highest track: no crossings in the gap
      ps.forEach((p, k) => {
        trunkTrack[p] = k
      })
      gT[r + 1] = ps.length
    })
  }

  // ---- vertical positions --------------------------------------------------------------------
  const gapH = new Float64Array(G + 2)
  gapH[0] = gS[0]! ? 10 + gS[0] * STEP + 10 : 0
  for (let g = 1; g <= G + 1; g++) {
    const tracks = gU[g]! + gT[g]! + gS[g]!
    gapH[g] =
      g === G + 1
        ? tracks
          ? 14 + tracks * STEP + 6
          : 0
        : Math.max(76, 14 + tracks * STEP + (tracks ? 14 : 0) + Math.max(1, gB[g]!) * BAR_STEP + 22)
  }
  const rowY = new Float64Array(G + 1)
  let yAcc = TOP + gapH[0]
  for (let r = 0; r <= G; r++) {
    rowY[r] = yAcc
    yAcc += PERSON_H + gapH[r + 1]!
  }
  const treeBottom = yAcc
  const gapTop = (g: number) => (g === 0 ? TOP : rowY[g - 1]! + PERSON_H)
  const uTrackY = (g: number, k: number) => gapTop(g) + 14 + k * STEP
  const tTrackY = (g: number, k: number) => gapTop(g) + 14 + (gU[g]! + k) * STEP
  const sTrackY = (g: number, k: number) =>
    g === 0 ? TOP + 10 + k * STEP : gapTop(g) + 14 + (gU[g]! + gT[g]! + k) * STEP
  const barY = (g: number, j: number) => rowY[g]! - 22 - j * BAR_STEP

  // ---- horizontal frame --------------------------------------------------------------------
  const leftW = MARGIN + (marginLanes ? marginLanes * STEP + 16 : 0)
  const X = (x: number) => x + leftW
  const treeR = leftW + treeW
  const ownedLinks = [...entityLinks.keys()]
  const LABEL_MAX = 220
  const whoP = (i: number) => fit(givenName(P(i).name), WHO_MAX, LABEL_SIZE, true)
  const whoE = (i: number) =>
    fit(ents[i]!.kind === 'other' ? ents[i]!.name : KIND_LABEL[ents[i]!.kind], WHO_MAX + 20, LABEL_SIZE, true)
  const labelW = (who: string, text: string) => textWidth(who, LABEL_SIZE, true) + textWidth(' ' + text, LABEL_SIZE)
  let leftLabelW = 0
  let rightLabelW = 0
  for (const [p, m] of personLinks)
    for (const pr of m.values()) leftLabelW = Math.max(leftLabelW, labelW(whoP(p), pr.types.join(' · ')))
  for (const [e, m] of entityLinks)
    for (const pr of m.values()) rightLabelW = Math.max(rightLabelW, labelW(whoE(e), pr.types.join(' · ')))
  leftLabelW = Math.min(LABEL_MAX, Math.ceil(leftLabelW))
  rightLabelW = Math.min(LABEL_MAX, Math.ceil(rightLabelW))
  const L = personTrunkOrder.length
  const laneL = (k: number) => treeR + 28 + k * STEP
  const entityX = L ? laneL(L - 1) + 18 + leftLabelW : treeR + (n ? 64 : 0)
  const entityR = entityX + ENTITY_W
  const R = ownedLinks.length
  const laneR = (k: number) => entityR + 16 + rightLabelW + k * STEP

  // ---- entities --------------------------------------------------------------------------------
  const inSlots: number[][] = ents.map(() => []) // person sources
  const rIn: number[][] = ents.map(() => []) // entity sources
  for (const [p, m] of personLinks) for (const t of m.keys()) inSlots[t]!.push(p)
  for (const [s, m] of entityLinks) for (const t of m.keys()) rIn[t]!.push(s)
  const boxes: NodeBox[] = []
  const headings: Heading[] = []
  const eBox: NodeBox[] = []
  let ey = TOP
  for (const est of ['in', 'out'] as const) {
    const group = ents.map((e, i) => i).filter((i) => estateOf(ents[i]!) === est)
    if (!group.length) continue
    headings.push({
      x: entityX,
      y: ey + 14,
      w: ENTITY_W,
      text: est === 'in' ? 'In estate' : 'Out of estate',
      estate: est,
    })
    ey += 32
    for (const i of group) {
      const e = ents[i]!
      const nameLines = wrap2(e.name, ENTITY_W - 2 * PAD, NAME_SIZE, true)
      const meta = fit(
        [KIND_LABEL[e.kind], e.value !== undefined ? compactValue(e.value) : ''].filter(Boolean).join(' · '),
        ENTITY_W - 2 * PAD,
        SUB_SIZE,
      )
      const slots = Math.max(inSlots[i]!.length, rIn[i]!.length + (entityLinks.has(i) ? 1 : 0))
      const textH = nameLines.length * 16 + 18
      const h = Math.max(textH + 22, slots * SLOT + 14)
      let ty = ey + (h - textH) / 2 + 12
      const lines: TextLine[] = nameLines.map((t) => {
        const line: TextLine = {
          text: t,
          x: entityX + ENTITY_W / 2,
          y: ty,
          size: NAME_SIZE,
          bold: true,
          max: ENTITY_W - 2 * PAD,
          cls: 'nm',
        }
        ty += 16
        return line
      })
      lines.push({
        text: meta,
        x: entityX + ENTITY_W / 2,
        y: ty + 3,
        size: SUB_SIZE,
        bold: false,
        max: ENTITY_W - 2 * PAD,
        cls: 'sub',
      })
      const box: NodeBox = {
        id: e.id,
        kind: 'entity',
        x: entityX,
        y: ey,
        w: ENTITY_W,
        h,
        lines,
        label: entityDescription(e),
        deceased: false,
        client: false,
        estate: est,
        row: -1,
      }
      eBox[i] = box
      ey += h + 16
    }
    ey += 20
  }
  const entBottom = ey

  // People boxes.
  const pBox: NodeBox[] = []
  for (let i = 0; i < n; i++) {
    const p = P(i)
    const x = X(px[i]!)
    const y = rowY[rowOf(i)]!
    const dead = p.deathDate !== undefined
    const name = fit((dead ? '† ' : '') + p.name, PERSON_W - 2 * PAD, NAME_SIZE, true)
    const sub = fit([ROLE_LABEL[p.role], lifeDates(p)].filter(Boolean).join(' · '), PERSON_W - 2 * PAD, SUB_SIZE)
    pBox[i] = {
      id: p.id,
      kind: 'person',
      x,
      y,
      w: PERSON_W,
      h: PERSON_H,
      lines: [
        { text: name, x: x + PERSON_W / 2, y: y + 23, size: NAME_SIZE, bold: true, max: PERSON_W - 2 * PAD, cls: 'nm' },
        { text: sub, x: x + PERSON_W / 2, y: y + 41, size: SUB_SIZE, bold: false, max: PERSON_W - 2 * PAD, cls: 'sub' },
      ],
      label: personDescription(p),
      deceased: dead,
      client: p.role === 'primaryClient' || p.role === 'coClient',
      estate: null,
      row: rowOf(i),
    }
    boxes.push(pBox[i]!)
  }
  // Every entity is in one of the two groups, so eBox has no hole once both are placed.
  boxes.push(...eBox)

  // ---- edges -------------------------------------------------------------------------------
  const edges: Edge[] = []
  const labels: EdgeLabel[] = []
  const dots: Pt[] = []
  const strokes: Pt[][] = []
  const name = (i: number) => P(i).name

  for (const l of partnerLines) {
    const y = rowY[rowOf(l.a)]!
    let path: Pt[]
    let mx: number
    let my: number
    if (l.track < 0) {
      const x1 = X(px[l.a]! + PERSON_W)
      const x2 = X(px[l.b]!)
      my = y + PERSON_H / 2
      path = [
        [x1, my],
        [x2, my],
      ]
      mx = x1 + 9
    } else {
      const [xa, xb] = uPortX.get(l.a + '-' + l.b)!
      my = uTrackY(rowOf(l.a) + 1, l.track)
      path = [
        [X(xa), y + PERSON_H],
        [X(xa), my],
        [X(xb), my],
        [X(xb), y + PERSON_H],
      ]
      mx = X(xa) + 12
    }
    if (l.ex)
      strokes.push(
        [
          [mx - 3, my + 5],
          [mx + 1, my - 5],
        ],
        [
          [mx + 2, my + 5],
          [mx + 6, my - 5],
        ],
      )
    edges.push({
      kind: l.ex ? 'ex' : 'partner',
      ids: [P(l.a).id, P(l.b).id],
      paths: [path],
      title: `${name(l.a)} — ${l.ex ? 'former spouse' : 'partner'} of — ${name(l.b)}`,
    })
  }

  for (const f of families) {
    const r = gen[f.unit]!
    const top = rowY[r]!
    const hangY =
      f.parents.length === 2
        ? (uLineOf.get(f.parents[0]! + '-' + f.parents[1]!)?.track ?? -1) >= 0
          ? uTrackY(r + 1, uLineOf.get(f.parents[0]! + '-' + f.parents[1]!)!.track)
          : top + PERSON_H / 2
        : top + PERSON_H
    const by = barY(r + 1, f.bar)
    const hx = X(f.hangX)
    const es = f.entries.map(X)
    const lo = Math.min(hx, ...es)
    const hi = Math.max(hx, ...es)
    const paths: Pt[][] = [
      [
        [hx, hangY],
        [hx, by],
      ],
    ]
    if (hi - lo > 0.5)
      paths.push([
        [lo, by],
        [hi, by],
      ])
    const childTop = rowY[r + 1]!
    for (const e of es)
      paths.push([
        [e, by],
        [e, childTop],
      ])
    const kids = f.kids.map((u) => linkMember[u]!)
    edges.push({
      kind: 'family',
      ids: [...f.parents, ...kids].map((i) => P(i).id),
      paths,
      title: `${f.parents.map(name).join(' and ')} — parent of — ${kids.map(name).join(', ')}`,
    })
  }

  for (const s of secondaries) {
    const y1 = sTrackY(rowOf(s.p) + 1, s.t1)
    const top = rowY[rowOf(s.p)]! + PERSON_H
    const ct = rowY[rowOf(s.c)]!
    let path: Pt[]
    if (s.lane < 0)
      path = [
        [X(s.port), top],
        [X(s.port), y1],
        [X(s.entry), y1],
        [X(s.entry), ct],
      ]
    else {
      const mx = leftW - 16 - s.lane * STEP
      const y2 = sTrackY(rowOf(s.c), s.t2)
      path = [
        [X(s.port), top],
        [X(s.port), y1],
        [mx, y1],
        [mx, y2],
        [X(s.entry), y2],
        [X(s.entry), ct],
      ]
    }
    edges.push({
      kind: 'parent',
      ids: [P(s.p).id, P(s.c).id],
      paths: [path],
      title: `${name(s.p)} — parent of — ${name(s.c)}`,
    })
  }

  // Left channel: one trunk per person with links.
  const slotY = (b: NodeBox, k: number, count: number) => b.y + b.h / 2 + (k - (count - 1) / 2) * SLOT
  const trunkStartY = new Map<number, number>()
  for (const p of personTrunkOrder) trunkStartY.set(p, tTrackY(rowOf(p) + 1, trunkTrack[p]!))
  const leftSlot = new Map<string, number>()
  ents.forEach((_, t) => {
    const srcs = inSlots[t]!.slice().sort((a, b) => trunkStartY.get(a)! - trunkStartY.get(b)! || px[a]! - px[b]!)
    srcs.forEach((p, k) => leftSlot.set(p + '|' + t, slotY(eBox[t]!, k, srcs.length)))
  })
  const leftTrunks: Trunk[] = personTrunkOrder.map((p) => {
    const m = personLinks.get(p)!
    const targets = [...m.keys()]
    const port = X(px[p]! + PERSON_W - 22)
    const y0 = trunkStartY.get(p)!
    return {
      from: P(p).id,
      y0,
      x0: port,
      ys: targets.map((t) => leftSlot.get(p + '|' + t)!),
      xEnd: entityX,
      who: whoP(p),
      targets,
      labels: targets.map((t) => m.get(t)!.types.join(' · ')),
      titles: targets.map((t) => `${P(p).name} — ${m.get(t)!.types.join(', ')} of — ${ents[t]!.name}`),
      start: [
        [port, rowY[rowOf(p)]! + PERSON_H],
        [port, y0],
      ],
    }
  })
  routeTrunks(leftTrunks, laneL, 'end')

  // Right channel: entity → entity links (ownership, trustee companies…).
  const rightSlot = new Map<string, number>()
  const outY = new Map<number, number>()
  const centre = (t: number) => eBox[t]!.y + eBox[t]!.h / 2
  ents.forEach((_, t) => {
    const items: { key: number; s: number }[] = rIn[t]!.map((s) => ({ key: centre(s), s }))
    const out = entityLinks.get(t)
    if (out) {
      let sum = 0
      for (const k of out.keys()) sum += centre(k)
      items.push({ key: sum / out.size, s: -1 })
    }
    items.sort((a, b) => a.key - b.key || a.s - b.s)
    items.forEach((it, k) => {
      const y = slotY(eBox[t]!, k, items.length)
      if (it.s < 0) outY.set(t, y)
      else rightSlot.set(it.s + '|' + t, y)
    })
  })
  const rightTrunks: Trunk[] = ownedLinks.map((s) => {
    const m = entityLinks.get(s)!
    const targets = [...m.keys()]
    const y0 = outY.get(s)!
    return {
      from: ents[s]!.id,
      y0,
      x0: entityR,
      ys: targets.map((t) => rightSlot.get(s + '|' + t)!),
      xEnd: entityR,
      who: whoE(s),
      targets,
      labels: targets.map((t) => m.get(t)!.types.join(' · ')),
      titles: targets.map((t) => `${ents[s]!.name} — ${m.get(t)!.types.join(', ')} of — ${ents[t]!.name}`),
      start: [[entityR, y0]],
    }
  })
  routeTrunks(rightTrunks, laneR, 'start')

  function routeTrunks(trunks: Trunk[], lane: (k: number) => number, anchor: 'start' | 'end') {
    const lanes = chooseLanes(trunks, lane)
    trunks.forEach((tr, i) => {
      const lx = lane(lanes[i]!)
      const all = [tr.y0, ...tr.ys]
      const lo = Math.min(...all)
      const hi = Math.max(...all)
      for (const y of all) if (y > lo + 0.5 && y < hi - 0.5) dots.push([lx, y])
      tr.targets.forEach((t, k) => {
        const y = tr.ys[k]!
        const labelMax = anchor === 'end' ? leftLabelW : rightLabelW
        edges.push({
          kind: anchor === 'end' ? 'link' : 'own',
          ids: [tr.from, ents[t]!.id],
          paths: [[...tr.start, [lx, tr.y0], [lx, y], [tr.xEnd, y]]],
          title: tr.titles[k]!,
        })
        const text = fit(
          tr.labels[k]!,
          labelMax - textWidth(tr.who, LABEL_SIZE, true) - textWidth(' ', LABEL_SIZE),
          LABEL_SIZE,
        )
        labels.push({
          x: anchor === 'end' ? tr.xEnd - 6 : tr.xEnd + 6,
          y: y - 4,
          who: tr.who,
          text,
          width: labelW(tr.who, text),
          anchor,
          size: LABEL_SIZE,
          ids: [tr.from, ents[t]!.id],
          title: tr.titles[k]!,
        })
      })
    })
  }

  const width = Math.ceil(
    Math.max(treeR, ents.length ? entityR + (R ? 16 + rightLabelW + (R - 1) * STEP : 0) : 0) + MARGIN,
  )
  const height = Math.ceil(Math.max(treeBottom, ents.length ? entBottom - 20 : 0) + MARGIN)
  return {
    width,
    height,
    tree: { x: leftW, y: rowY[0] ?? TOP, w: treeW, h: treeBottom - (rowY[0] ?? TOP) },
    boxes,
    edges,
    labels,
    headings,
    dots,
    strokes,
  }

  /** Chooses bar heights for the families of one unit, avoiding collinear lines and crossings. */
  function chooseBars(fs: Family[]) {
    const k = fs.length
    const perms = k <= 4 ? permutations(k) : [fs.map((_, i) => i)]
    let best = Infinity
    let bestPerm = perms[0]!
    for (const perm of perms) {
      let score = 0
      for (let a = 0; a < k; a++) {
        for (let b = 0; b < k; b++) {
          if (a === b) continue
          score += familyConflict(fs[a]!, perm[a]!, fs[b]!, perm[b]!)
        }
      }
      if (score < best) {
        best = score
        bestPerm = perm
      }
    }
    fs.forEach((f, i) => {
      f.bar = bestPerm[i]!
    })
  }
}

/** Cost of family a (bar track ja) against family b (track jb): crossings, and 100 per overlap. */
function familyConflict(a: Family, ja: number, b: Family, jb: number): number {
  // Bars: larger track = higher (smaller y). Drops of a run from its bar down to the children.
  const ya = -ja
  const yb = -jb
  let s = 0
  // a's hang line spans [top, ya]: it meets b's bar when b's bar is higher (yb < ya).
  if (yb < ya) {
    const loB = Math.min(b.hangX, ...b.entries)
    const hiB = Math.max(b.hangX, ...b.entries)
    if (a.hangX > loB && a.hangX < hiB) s++
  }
  // a's drops span [ya, bottom]: they meet b's bar if it is lower.
  for (const e of a.entries) {
    if (yb > ya) {
      const loB = Math.min(b.hangX, ...b.entries)
      const hiB = Math.max(b.hangX, ...b.entries)
      if (e > loB && e < hiB) s++
    }
    // Collinear: a's drop continuing b's hang line.
    if (Math.abs(e - b.hangX) < 3) s += 100
  }
  return s
}

function permutations(k: number): number[][] {
  const out: number[][] = []
  const cur: number[] = []
  const used = new Array<boolean>(k).fill(false)
  const stack: number[] = [0]
  // Iterative backtracking (k ≤ 4).
  while (stack.length) {
    const depth = stack.length - 1
    const next = stack[depth]!
    if (depth === k) {
      out.push(cur.slice())
      stack.pop()
      if (stack.length) {
        used[cur.pop()!] = false
        stack[stack.length - 1]!++
      }
      continue
    }
    if (next >= k) {
      stack.pop()
      if (stack.length) {
        used[cur.pop()!] = false
        stack[stack.length - 1]!++
      }
      continue
    }
    if (used[next]) {
      stack[depth]!++
      continue
    }
    used[next] = true
    cur.push(next)
    stack.push(0)
  }
  return out
}

/** Lane per trunk: the candidate order with the fewest crossings between trunks. */
function chooseLanes(trunks: Trunk[], lane: (k: number) => number): number[] {
  const T = trunks.length
  if (T === 0) return []
  const mean = trunks.map((t) => t.ys.reduce((a, b) => a + b, 0) / t.ys.length)
  const idx = trunks.map((_, i) => i)
  const candidates = [
    idx.slice().sort((a, b) => trunks[a]!.y0 - trunks[b]!.y0 || a - b),
    idx.slice().sort((a, b) => trunks[b]!.y0 - trunks[a]!.y0 || a - b),
    idx.slice().sort((a, b) => mean[a]! - mean[b]! || a - b),
    idx.slice().sort((a, b) => mean[b]! - mean[a]! || a - b),
  ]
  let best: number[] = []
  let bestScore = Infinity
  for (const order of candidates) {
    const lanes = new Array<number>(T)
    order.forEach((t, k) => {
      lanes[t] = k
    })
    const score = T > 400 ? 0 : crossings(trunks, lanes, lane)
    if (score < bestScore) {
      bestScore = score
      best = lanes
    }
    if (score === 0) break
  }
  return best
}

function crossings(trunks: Trunk[], lanes: number[], lane: (k: number) => number): number {
  const T = trunks.length
  const vx = new Float64Array(T)
  const vlo = new Float64Array(T)
  const vhi = new Float64Array(T)
  const hs: number[] = [] // owner, x1, x2, y
  for (let i = 0; i < T; i++) {
    const t = trunks[i]!
    const lx = lane(lanes[i]!)
    let lo = t.y0
    let hi = t.y0
    for (const y of t.ys) {
      if (y < lo) lo = y
      if (y > hi) hi = y
    }
    vx[i] = lx
    vlo[i] = lo
    vhi[i] = hi
    hs.push(i, Math.min(t.x0, lx), Math.max(t.x0, lx), t.y0)
    for (const y of t.ys) hs.push(i, Math.min(lx, t.xEnd), Math.max(lx, t.xEnd), y)
  }
  let c = 0
  for (let k = 0; k < hs.length; k += 4) {
    const owner = hs[k]!
    const a = hs[k + 1]!
    const b = hs[k + 2]!
    const y = hs[k + 3]!
    for (let j = 0; j < T; j++) {
      const x = vx[j]!
      if (j !== owner && x > a && x < b && y > vlo[j]! && y < vhi[j]!) c++
    }
  }
  return c
}
