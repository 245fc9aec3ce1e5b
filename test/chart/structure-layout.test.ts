// The Structure view's layout (chart/src/structure/): boxes that never overlap, ownership edges that
// pass through no box but their own two, every ownership link drawn with its share, text never under
// 11 px and never cut where it is a share or a value, carried values as the look-through computes
// them, and ownership edges that cross only where a layered drawing cannot avoid it. Widths come from
// the chart's own estimate (format.ts's textWidth), as the tests of the other 0.2.0 modules measure.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crossingPoint, segmentThroughBox, type Segment } from '../../bench/chart/geometry.ts'
import { compactValue, textWidth } from '../../chart/src/format.ts'
import { lookThroughEstate } from '../../chart/src/estate/estate-lookthrough.ts'
import { shareText } from '../../chart/src/estate/summary-percent.ts'
import type { StructureInput, StructureLink } from '../../chart/src/structure/structure-input.ts'
import { currencyPrefix } from '../../chart/src/structure/structure-values.ts'
import { MAX_CARD_WIDTH } from '../../chart/src/structure/structure-cards.ts'
import { layoutStructure, type StructureBox, type StructureLayout } from '../../chart/src/structure/structure-layout.ts'
import { isParty, OWNING_LINK_TYPES, type EntityKind } from '../../src/domain/estate-vocabulary.ts'

const measure = (text: string, sizePx: number, bold: boolean) => textWidth(text, sizePx, bold)
const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as StructureInput
const example = read('../../chart/example.json')
const estate120m = read('../../bench/chart/households/estate-120m.json')
const fiveGenerations = read('../../bench/chart/households/five-generations.json')

function segmentsOf(layout: StructureLayout): (Segment & { edge: number })[] {
  return layout.edges.flatMap((edge, k) =>
    edge.points
      .slice(1)
      .map((b, i) => ({ edge: k, a: [...edge.points[i]!] as [number, number], b: [...b] as [number, number] })),
  )
}

function ownershipCrossings(layout: StructureLayout): number {
  const segments = segmentsOf(layout)
  let crossings = 0
  for (let a = 0; a < segments.length; a++)
    for (let b = a + 1; b < segments.length; b++)
      if (segments[a]!.edge !== segments[b]!.edge && crossingPoint(segments[a]!, segments[b]!)) crossings++
  return crossings
}

function overlap(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

/** The value line an entity's card must show, from the look-through, written out independently. */
function expectedValueLine(input: StructureInput, id: string, prefix: string): string | undefined {
  const look = lookThroughEstate(input).entities.get(id)!
  const own = prefix + compactValue(look.directValue)
  const carried = prefix + compactValue(look.carriedValue)
  if (own !== carried) return `${own} · ${carried} with holdings`
  const given = input.entities!.find((e) => e.id === id)!.value !== undefined
  return given || look.carriedValue > 0 ? own : undefined
}

/** Every check that holds for any household. */
function expectSound(input: StructureInput, layout: StructureLayout, prefix = ''): void {
  const { boxes, edges, labels } = layout
  const byId = new Map(boxes.map((b) => [b.id, b]))
  for (let a = 0; a < boxes.length; a++)
    for (let b = a + 1; b < boxes.length; b++)
      expect(overlap(boxes[a]!, boxes[b]!), `${boxes[a]!.id} / ${boxes[b]!.id}`).toBe(false)
  for (const box of [...boxes, ...labels]) {
    expect(box.x + box.w).toBeLessThanOrEqual(layout.width)
    expect(box.y + box.h).toBeLessThanOrEqual(layout.height)
    expect(Math.min(box.x, box.y)).toBeGreaterThanOrEqual(0)
  }
  for (const segment of segmentsOf(layout)) {
    const edge = edges[segment.edge]!
    for (const box of boxes)
      if (box.id !== edge.from && box.id !== edge.to)
        expect(segmentThroughBox(segment, box), `${edge.from}→${edge.to} through ${box.id}`).toBe(false)
  }
  // Edges start on the bottom of the box above and end on the top of the box below.
  edges.forEach((edge) => {
    const [upper, lower] = edge.reversed
      ? [byId.get(edge.to)!, byId.get(edge.from)!]
      : [byId.get(edge.from)!, byId.get(edge.to)!]
    const [first, last] = [edge.points[0]!, edge.points.at(-1)!]
    expect(first[1]).toBe(upper.y + upper.h)
    expect(first[0]).toBeGreaterThan(upper.x)
    expect(first[0]).toBeLessThan(upper.x + upper.w)
    expect(last[1]).toBe(lower.y)
    expect(last[0]).toBeGreaterThan(lower.x)
    expect(last[0]).toBeLessThan(lower.x + lower.w)
    expect(lower.layer!).toBeGreaterThan(upper.layer!)
  })
  // Every ownership link between drawn records is an edge, labelled with its whole share.
  const drawn = new Set(boxes.map((b) => b.id))
  const entities = new Map((input.entities ?? []).map((e) => [e.id, e]))
  ;(input.links ?? []).forEach((link, linkIndex) => {
    // Links the records API refuses (a party owned or owning: it holds nothing) carry nothing to draw.
    const party = [link.from, link.to].some((id) => isParty(entities.get(id)?.kind ?? 'other'))
    if (!OWNING_LINK_TYPES.has(link.type) || !drawn.has(link.from) || link.from === link.to || party) return
    const k = edges.findIndex((edge) => edge.linkIndex === linkIndex)
    expect(k, `link ${linkIndex}`).toBeGreaterThanOrEqual(0)
    expect(edges[k]).toMatchObject({ from: link.from, to: link.to, type: link.type })
    const label = labels.find((l) => l.edge === k)!
    expect(label.text).toBe(link.share === undefined ? 'unstated' : shareText(link.share))
    expect(label.w).toBeGreaterThanOrEqual(measure(label.text, label.sizePx, false))
  })
  expect(labels).toHaveLength(edges.length)
  for (const label of labels) {
    expect(label.sizePx).toBeGreaterThanOrEqual(11)
    for (const box of boxes) expect(overlap(label, box), `label ${label.text} on ${box.id}`).toBe(false)
    for (const other of labels) if (other !== label) expect(overlap(label, other)).toBe(false)
  }
  // Text: never under 11 px, always within its room; values whole and as the look-through has them.
  for (const box of boxes) {
    for (const text of box.texts) {
      expect(text.sizePx).toBeGreaterThanOrEqual(11)
      expect(measure(text.text, text.sizePx, text.bold)).toBeLessThanOrEqual(text.maxWidth)
      expect(text.x + text.maxWidth).toBeLessThanOrEqual(box.x + box.w)
      expect(text.y).toBeLessThanOrEqual(box.y + box.h)
    }
    const entity = entities.get(box.id)
    if (entity === undefined || isParty(entity.kind)) continue
    expect(box.texts.find((t) => t.role === 'value')?.text).toBe(expectedValueLine(input, box.id, prefix))
  }
}

describe('layoutStructure', () => {
  it('lays a three-entity chain out by hand: layers, shares, values carried up the chain', () => {
    // Ann owns all of the Dynasty trust; it owns 60 % of Mid LLC, which owns 50 % of the Farm.
    // First Fiduciary (a corporate trustee, a party) is the trust's trustee; Ann its grantor.
    const input: StructureInput = {
      household: { currency: 'USD' },
      people: [{ id: 'ann', name: 'Ann Lee', role: 'primaryClient' }],
      entities: [
        { id: 'trust', name: 'Lee Dynasty Trust', shortName: 'Dynasty', kind: 'dynastyTrust', value: 1_000_000 },
        { id: 'mid', name: 'Mid LLC', kind: 'llc', value: 2_000_000 },
        { id: 'farm', name: 'Farm', kind: 'realEstate', value: 4_000_000 },
        { id: 'bank', name: 'First Fiduciary', kind: 'corporateTrustee' },
      ],
      links: [
        { from: 'ann', to: 'trust', type: 'owner', share: 100 },
        { from: 'trust', to: 'mid', type: 'owner', share: 60 },
        { from: 'mid', to: 'farm', type: 'owner', share: 50 },
        { from: 'ann', to: 'trust', type: 'grantor' },
        { from: 'bank', to: 'trust', type: 'trustee' },
      ],
    }
    const layout = layoutStructure(input, { measure })
    expectSound(input, layout, '$')
    const box = (id: string) => layout.boxes.find((b) => b.id === id)!
    const texts = (b: StructureBox, role: string) => b.texts.filter((t) => t.role === role).map((t) => t.text)
    // Layers: Ann 0; the trust one below its owner (1); Mid one below the trust (2); the Farm 3.
    expect(['ann', 'trust', 'mid', 'farm'].map((id) => box(id).layer)).toEqual([0, 1, 2, 3])
    expect(box('bank').layer).toBeNull()
    expect(box('bank').is).toBe('party')
    expect(layout.labels.map((l) => l.text)).toEqual(['100%', '60%', '50%'])
    // Carried: Farm 4M (holds nothing else); Mid 2M + 50 % × 4M = 4M; the trust 1M + 60 % × 4M = 3.4M.
    expect(texts(box('farm'), 'value')).toEqual(['$4M'])
    expect(texts(box('mid'), 'value')).toEqual(['$2M · $4M with holdings'])
    expect(texts(box('trust'), 'value')).toEqual(['$1M · $3.4M with holdings'])
    expect(texts(box('trust'), 'name')).toEqual(['Dynasty'])
    // Where it is counted, by look-through (estate-side-words.ts): Ann owns all of it, so all of it
    // (1M + 2.4M) is in her estate, whatever its kind's default ("out") says of an unowned trust.
    expect(texts(box('trust'), 'kind')).toEqual(['Dynasty / GST trust · in estate'])
    expect(texts(box('trust'), 'control').join(' · ')).toBe('Grantor: Ann · Trustee: First Fiduciary')
    expect(texts(box('bank'), 'control')).toEqual(['Trustee of Dynasty'])
    expect(texts(box('ann'), 'kind')).toEqual(['Client'])
    // Control is listed, not drawn: three edges, the ownership links.
    expect(layout.edges.map((e) => `${e.from}→${e.to}`)).toEqual(['ann→trust', 'trust→mid', 'mid→farm'])
    expect(ownershipCrossings(layout)).toBe(0)
  })

  it('widens a card for its name up to the maximum, then cuts the name but never the value', () => {
    const long = 'The Whitaker-Lindqvist Family Irrevocable Generation-Skipping Dynasty Trust of 2012'
    const input: StructureInput = {
      people: [{ id: 'ann', name: 'Ann Lee', role: 'primaryClient' }],
      entities: [
        { id: 'short', name: 'Farm', kind: 'realEstate', value: 1_234_567 },
        { id: 'long', name: long, kind: 'dynastyTrust', value: 987_654_321 },
      ],
      links: [{ from: 'ann', to: 'long', type: 'owner', share: 33.3333 }],
    }
    const layout = layoutStructure(input, { measure })
    expectSound(input, layout)
    const name = (id: string) => layout.boxes.find((b) => b.id === id)!.texts.find((t) => t.role === 'name')!.text
    const width = (id: string) => layout.boxes.find((b) => b.id === id)!.w
    expect(name('short')).toBe('Farm')
    // 13 px bold: the long name measures far more than the widest card, so it is cut to the maximum.
    expect(measure(long, 13, true)).toBeGreaterThan(MAX_CARD_WIDTH)
    expect(width('long')).toBe(MAX_CARD_WIDTH)
    expect(name('long').endsWith('…')).toBe(true)
    expect(long.startsWith(name('long').slice(0, -1))).toBe(true)
    // compactValue: 987,654,321 is 987.654321M, three figures: 988M.
    expect(layout.boxes.find((b) => b.id === 'long')!.texts.find((t) => t.role === 'value')!.text).toBe('988M')
    expect(layout.labels[0]!.text).toBe('33.3333%')
  })

  it('writes values with the household currency symbol, a lettered one spaced, none when unknown', () => {
    expect(['USD', 'EUR', 'CHF', undefined, 'not a code'].map(currencyPrefix)).toEqual(['$', '€', 'CHF ', '', ''])
  })

  it('draws the shipped example (chart/example.json) without a crossing', () => {
    const layout = layoutStructure(example, { measure })
    // The example's household says USD: every value line starts with "$".
    expectSound(example, layout, '$')
    // The ILIT and the SLAT go by their short names; the corporate trustee is a party card.
    const byId = new Map(layout.boxes.map((b) => [b.id, b]))
    expect(byId.get('ilit')!.texts.find((t) => t.role === 'name')?.text).toBe('Chen ILIT')
    expect(byId.get('slat')!.texts.find((t) => t.role === 'name')?.text).toBe("Margaret's SLAT")
    expect(byId.get('coastal')!.is).toBe('party')
    // rlt and the SLAT both own part of the LLC: two edges into one box, ordered by their sources.
    expect(layout.edges.map((e) => `${e.from}→${e.to}`)).toEqual(['rlt→llc', 'slat→llc'])
    expect(ownershipCrossings(layout)).toBe(0)
  })

  it('draws the $120M estate with only the crossings a layered drawing cannot avoid', () => {
    const layout = layoutStructure(estate120m, { measure })
    expectSound(estate120m, layout, '$')
    // Layers: William and Elizabeth 0; their holdings and the SLATs 1; the FLP and the LLC (owned by
    // the SLATs, and by the clients' 1 % each) and the policy 2. Unavoidable with every arc drawn
    // top-down between adjacent layers: both clients own the residence and the brokerage account (1
    // crossing, whichever is left), both SLATs own the FLP and the LLC (1), both clients reach the
    // FLP and the LLC two layers down (1), and the SLATs cannot sit between the clients' paths to the
    // FLP and the LLC without those paths crossing the arcs into the residence and the brokerage (2):
    // 1 + 1 + 1 + 2 = 5, the least any order of layer 1 allows (the next test searches them all).
    expect(ownershipCrossings(layout)).toBe(5)
    // The corporate trustee and the children (trustees and beneficiaries who own nothing) stand apart.
    const apart = layout.boxes.filter((b) => b.layer === null).map((b) => b.id)
    expect(apart).toEqual(['david', 'sarah', 'emily', 'trustco'])
    expect(
      layout.boxes
        .filter((b) => b.layer === 0)
        .map((b) => b.id)
        .sort(),
    ).toEqual(['elizabeth', 'william'])
    // The FLP's 36M and the LLC's 14M reach the SLATs: 1.2M + 49 % × 36M + 49 % × 14M = 25.7M.
    expect(layout.boxes.find((b) => b.id === 'slat-w')!.texts.find((t) => t.role === 'value')!.text).toBe(
      '$1.2M · $25.7M with holdings',
    )
  })

  it('finds no order of the $120M estate with fewer than 5 ownership crossings (exhaustive search)', () => {
    // The arcs of the estate's ownership by layer, a client's arc two layers down split at a point
    // of layer 1 (W… William's, E… Elizabeth's): layer 0 → 1, then layer 1 → 2. Left out, as they
    // cross nothing at the left end of layer 1: the ILIT and its policy, and William's IRA (William
    // is left of Elizabeth below). Mirroring every layer keeps each crossing, and the FLP and the LLC
    // are held alike, so William left and the FLP left of the LLC stand for every case.
    const top: [string, string][] = [
      ['W', 'W-flp'],
      ['W', 'W-llc'],
      ['E', 'E-flp'],
      ['E', 'E-llc'],
      ['W', 'residence'],
      ['W', 'brokerage'],
      ['E', 'residence'],
      ['E', 'brokerage'],
    ]
    const bottom: [string, string][] = [
      ['W-flp', 'flp'],
      ['W-llc', 'llc'],
      ['E-flp', 'flp'],
      ['E-llc', 'llc'],
      ['slat-w', 'flp'],
      ['slat-w', 'llc'],
      ['slat-e', 'flp'],
      ['slat-e', 'llc'],
    ]
    const middle = ['W-flp', 'W-llc', 'E-flp', 'E-llc', 'slat-w', 'slat-e', 'residence', 'brokerage']
    const at = new Map([
      ['W', 0],
      ['E', 1],
      ['flp', 0],
      ['llc', 1],
    ])
    const crossings = (arcs: [string, string][]) => {
      let count = 0
      for (let a = 0; a < arcs.length; a++)
        for (let b = a + 1; b < arcs.length; b++) {
          const [ua, la] = arcs[a]!.map((id) => at.get(id)!)
          const [ub, lb] = arcs[b]!.map((id) => at.get(id)!)
          if ((ua! - ub!) * (la! - lb!) < 0) count++
        }
      return count
    }
    let least = Infinity
    const place = (slot: number, free: string[]) => {
      if (free.length === 0) least = Math.min(least, crossings(top) + crossings(bottom))
      free.forEach((id, k) => {
        at.set(id, slot)
        place(slot + 1, [...free.slice(0, k), ...free.slice(k + 1)])
      })
    }
    place(0, middle)
    expect(least).toBe(5)
  })

  it('draws five generations (25 entities, two parties) without a crossing', () => {
    const layout = layoutStructure(fiveGenerations, { measure })
    expectSound(fiveGenerations, layout, '$')
    expect(ownershipCrossings(layout)).toBe(0)
  })

  const kinds: EntityKind[] = ['revocableTrust', 'slat', 'llc', 'flp', 'realEstate', 'corporateTrustee']
  const household = (allowLoops: boolean) =>
    fc
      .record({
        people: fc.integer({ min: 1, max: 5 }),
        entities: fc.array(
          fc.record({
            kind: fc.constantFrom(...kinds),
            value: fc.option(fc.integer({ min: 0, max: 5e8 })),
            long: fc.boolean(),
          }),
          {
            minLength: 1,
            maxLength: 9,
          },
        ),
        links: fc.array(
          fc.record({
            from: fc.nat(),
            to: fc.nat(),
            type: fc.constantFrom<StructureLink['type']>(
              'owner',
              'limitedPartner',
              'trustee',
              'beneficiary',
              'grantor',
            ),
            share: fc.option(fc.integer({ min: 1, max: 100 })),
          }),
          { maxLength: 20 },
        ),
      })
      .map(({ people, entities, links }): StructureInput => {
        const personIds = Array.from({ length: people }, (_, i) => `p${i}`)
        const entityIds = entities.map((_, i) => `e${i}`)
        const recordIds = [...personIds, ...entityIds]
        return {
          people: personIds.map((id) => ({
            id,
            name: `Person ${id} Whitaker-Lindqvist`,
            role: id === 'p0' ? 'primaryClient' : 'child',
          })),
          entities: entities.map((e, i) => ({
            id: `e${i}`,
            name: e.long ? `Entity ${i} with a very long name that has to be cut somewhere` : `E${i}`,
            kind: e.kind,
            ...(e.value === null ? {} : { value: e.value }),
          })),
          links: links.flatMap((l): StructureLink[] => {
            const to = entityIds[l.to % entityIds.length]!
            const fromIndex = l.from % recordIds.length
            const from = recordIds[fromIndex]!
            // Without loops, an entity owns only entities after it in the list (a DAG).
            if (!allowLoops && fromIndex >= people && fromIndex - people >= l.to % entityIds.length) return []
            return [{ from, to, type: l.type, ...(l.share === null ? {} : { share: l.share }) }]
          }),
        }
      })

  it('keeps every check on random households', () => {
    fc.assert(
      fc.property(household(false), (input) => {
        expectSound(input, layoutStructure(input, { measure }))
      }),
      { numRuns: 150 },
    )
  })

  it('ends on households whose ownership loops, drawing a looping link upward', () => {
    fc.assert(
      fc.property(household(true), (input) => {
        expectSound(input, layoutStructure(input, { measure }))
      }),
      { numRuns: 150 },
    )
    const loop: StructureInput = {
      people: [{ id: 'p', name: 'Pat', role: 'primaryClient' }],
      entities: [
        { id: 'a', name: 'A LLC', kind: 'llc', value: 10 },
        { id: 'b', name: 'B LLC', kind: 'llc', value: 10 },
      ],
      links: [
        { from: 'p', to: 'a', type: 'owner', share: 50 },
        { from: 'a', to: 'b', type: 'owner', share: 50 },
        { from: 'b', to: 'a', type: 'owner', share: 50 },
      ],
    }
    const layout = layoutStructure(loop, { measure })
    expectSound(loop, layout)
    // The walk from a reaches b, whose link back to a closes the loop: that one is drawn upward.
    expect(layout.edges.map((e) => e.reversed)).toEqual([false, false, true])
  })
})
