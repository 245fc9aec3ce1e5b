// The focused node's lines (chart/src/estate/focus.ts): a person's own links; an entity's own links
// and its ownership chain up and down, nothing else; cycle-safe; nothing for an unknown id.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import { focusOn } from '../../chart/src/estate/focus.ts'
import type { SummaryHousehold, SummaryLink } from '../../chart/src/estate/summary-input.ts'

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload

/** "from>to" for each link, to read results at a glance. */
const arrows = (links: readonly SummaryLink[]) => links.map((l) => `${l.from}>${l.to}`)

/**
 * A three-level chain under a person: Pat owns Holdco, Holdco is general partner of Opco (the
 * middle), Opco owns Land. A trust is Opco's limited partner; Ben is the trust's beneficiary and Kim
 * its trustee (links that are not ownership); Kim also owns an unrelated Cabin.
 */
const chain: SummaryHousehold = {
  people: [
    { id: 'pat', name: 'Pat Lee' },
    { id: 'kim', name: 'Kim Lee' },
    { id: 'ben', name: 'Ben Lee' },
  ],
  entities: [
    { id: 'holdco', name: 'Lee Holdings LLC', kind: 'llc' },
    { id: 'opco', name: 'Lee Operating LP', kind: 'flp' },
    { id: 'land', name: 'Ranch', kind: 'realEstate' },
    { id: 'cabin', name: 'Cabin', kind: 'realEstate' },
    { id: 'trust', name: 'Lee Trust', kind: 'dynastyTrust' },
  ],
  links: [
    { from: 'pat', to: 'holdco', type: 'owner', share: 100 },
    { from: 'holdco', to: 'opco', type: 'generalPartner', share: 1 },
    { from: 'trust', to: 'opco', type: 'limitedPartner', share: 99 },
    { from: 'opco', to: 'land', type: 'owner', share: 100 },
    { from: 'ben', to: 'trust', type: 'beneficiary', share: 100 },
    { from: 'kim', to: 'cabin', type: 'owner', share: 100 },
    { from: 'kim', to: 'trust', type: 'trustee' },
  ],
}

describe('focusOn', () => {
  it("draws a person's own links only", () => {
    const focus = focusOn(example, 'david')
    expect(arrows(focus.links)).toEqual(['david>rlt', 'david>ilit', 'david>slat'])
    expect([...focus.highlighted].sort()).toEqual(['david', 'ilit', 'rlt', 'slat'])
  })

  it('does not follow a person into the chains of what they own', () => {
    // Pat owns Holdco, which owns part of Opco: a person focus stops at Pat's own link.
    expect(arrows(focusOn(chain, 'pat').links)).toEqual(['pat>holdco'])
  })

  it('draws an entity in the middle of a chain with everything above and below it', () => {
    const focus = focusOn(chain, 'opco')
    // Up: Holdco (general partner) and the Trust (limited partner), then Pat who owns Holdco.
    // Down: Land. Not Ben's beneficiary link or Kim's trustee link (on the Trust, not ownership),
    // not Kim's Cabin.
    expect(arrows(focus.links)).toEqual(['pat>holdco', 'holdco>opco', 'trust>opco', 'opco>land'])
    expect([...focus.highlighted].sort()).toEqual(['holdco', 'land', 'opco', 'pat', 'trust'])
  })

  it('draws the top of a chain with all it holds, and the bottom with all that holds it', () => {
    expect(arrows(focusOn(chain, 'holdco').links)).toEqual(['pat>holdco', 'holdco>opco', 'opco>land'])
    expect(arrows(focusOn(chain, 'land').links)).toEqual(['pat>holdco', 'holdco>opco', 'trust>opco', 'opco>land'])
  })

  it('terminates on an ownership cycle in a partner payload, drawing each link once', () => {
    const loop: SummaryHousehold = {
      people: [{ id: 'ann', name: 'Ann Lee' }],
      entities: [
        { id: 'a', name: 'A LLC', kind: 'llc' },
        { id: 'b', name: 'B LLC', kind: 'llc' },
        { id: 'c', name: 'C LLC', kind: 'llc' },
      ],
      links: [
        { from: 'a', to: 'b', type: 'owner', share: 50 },
        { from: 'b', to: 'c', type: 'owner', share: 50 },
        { from: 'c', to: 'a', type: 'owner', share: 50 },
        { from: 'ann', to: 'a', type: 'owner', share: 50 },
      ],
    }
    expect(arrows(focusOn(loop, 'b').links)).toEqual(['a>b', 'b>c', 'c>a', 'ann>a'])
  })

  it('draws nothing for an id that is neither a person nor an entity', () => {
    const focus = focusOn(example, 'nobody')
    expect(focus.links).toEqual([])
    expect(focus.highlighted.size).toBe(0)
  })

  it('returns the payload links themselves, in payload order', () => {
    const focus = focusOn(example, 'llc')
    // rlt and slat own the LLC; nothing owns rlt or slat; the LLC owns nothing.
    expect(focus.links).toEqual(example.links!.filter((l) => l.to === 'llc'))
  })

  it('on random households, draws only links touching the focus or owning links, each once', () => {
    const ids = ['p0', 'p1', 'e0', 'e1', 'e2', 'e3', 'e4']
    const entityIds = ids.filter((id) => id.startsWith('e'))
    const link: fc.Arbitrary<SummaryLink> = fc.record({
      from: fc.constantFrom(...ids),
      to: fc.constantFrom(...entityIds),
      type: fc.constantFrom('owner', 'limitedPartner', 'trustee', 'beneficiary' as const),
    })
    fc.assert(
      fc.property(fc.array(link, { maxLength: 25 }), fc.constantFrom(...ids), (links, focusId) => {
        const household: SummaryHousehold = {
          people: [
            { id: 'p0', name: 'Ann' },
            { id: 'p1', name: 'Bo' },
          ],
          entities: entityIds.map((id) => ({ id, name: id, kind: 'llc' as const })),
          links,
        }
        const focus = focusOn(household, focusId)
        expect(new Set(focus.links).size).toBe(focus.links.length)
        const order = focus.links.map((l) => links.indexOf(l))
        expect(order).toEqual([...order].sort((a, b) => a - b))
        for (const l of links) {
          const touches = l.from === focusId || l.to === focusId
          if (touches) expect(focus.links).toContain(l)
          else if (!(l.type === 'owner' || l.type === 'limitedPartner')) expect(focus.links).not.toContain(l)
        }
        if (focusId.startsWith('p')) expect(focus.links.every((l) => l.from === focusId)).toBe(true)
      }),
    )
  })
})
