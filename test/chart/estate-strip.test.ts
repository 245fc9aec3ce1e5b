// The Family view's estate strip as pure layout (chart/src/views/estate-strip-model.ts) and its
// selection lines (genogram-links.ts), on the shipped example and the issue's $120M household. The
// measure is a fixed 6 px per grapheme cluster for the 11 px lines and 8 px for the 13 px names, so
// every width below is counted by hand; test/browser/genogram-view.test.ts draws them in Chromium.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { entityChipGroups } from '../../chart/src/estate/chips.ts'
import { isPartyKind } from '../../chart/src/estate/entity-kinds.ts'
import { layoutEstateStrip, valueSideLine, type StripMeasures } from '../../chart/src/views/estate-strip-model.ts'
import { familyLinksOf, linkRoleWords } from '../../chart/src/views/genogram-links.ts'
import { graphemes } from '../../chart/src/text/graphemes.ts'
import type { ViewHousehold } from '../../chart/src/views/view-types.ts'

const root = new URL('../../', import.meta.url)
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as ViewHousehold
const example = read('chart/example.json')
const estate120m = read('bench/chart/households/estate-120m.json')
const longNames = read('bench/chart/households/long-names.json')

/** Zero width for the left-to-right mark set before each share, as a real font gives it. */
const visible = (text: string) => graphemes(text.replaceAll('\u200e', '')).length
const measures: StripMeasures = {
  name: (text) => visible(text) * 8,
  line: (text) => visible(text) * 6,
}
/** A line as read: without the left-to-right marks. */
const asRead = (text: string) => text.replaceAll('\u200e', '')

const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h

describe('layoutEstateStrip', () => {
  it.each([
    ['the example', example],
    ['the $120M estate', estate120m],
    ['the long names', longNames],
  ])('%s: a card for every entity that is not a party, a pill for every party', (_, household) => {
    const strip = layoutEstateStrip(household, measures, 1068)
    const entities = household.entities ?? []
    expect(strip.cards.map((card) => card.id)).toEqual(entities.filter((e) => !isPartyKind(e.kind)).map((e) => e.id))
    expect(strip.parties.map((party) => party.id)).toEqual(entities.filter((e) => isPartyKind(e.kind)).map((e) => e.id))
  })

  it('wraps to the width: no box runs past it or over another, and a narrower frame takes more rows', () => {
    for (const width of [1068, 700, 400]) {
      const strip = layoutEstateStrip(estate120m, measures, width)
      const boxes = [...strip.cards, ...strip.parties]
      for (const box of boxes) expect(box.x + box.w).toBeLessThanOrEqual(width)
      for (const [k, a] of boxes.entries()) for (const b of boxes.slice(k + 1)) expect(overlaps(a, b)).toBe(false)
      expect(strip.width).toBeLessThanOrEqual(width)
    }
    const rows = (width: number) => new Set(layoutEstateStrip(estate120m, measures, width).cards.map((c) => c.y)).size
    expect(rows(400)).toBeGreaterThan(rows(1068))
  })

  it('says the label, kind, value in the currency and side, and the chips with whole shares', () => {
    const strip = layoutEstateStrip(estate120m, measures, 1068)
    const ilit = strip.cards.find((card) => card.id === 'ilit')!
    // ILIT: short name, kind, $150,000 outside the estate; David 40%, Sarah 40%, Emily 20% primary.
    expect(ilit.texts.map((t) => asRead(t.text))).toEqual([
      'ILIT',
      'ILIT',
      '$150,000 · outside estate',
      'David 40% · Sarah 40% · Emily 20%',
    ])
    expect(ilit.side).toBe('out')
    expect(ilit.texts.filter((t) => t.role !== 'name').every((t) => t.size >= 11)).toBe(true)
    const residence = strip.cards.find((card) => card.id === 'residence')!
    expect(residence.texts.map((t) => asRead(t.text)).slice(1)).toEqual([
      'Real estate',
      '$6,800,000 · in estate',
      'William 50% · Elizabeth 50%',
    ])
    // Every chip's share shows whole or its chip is counted in "+N more"; a share is never cut.
    for (const card of strip.cards) {
      const lines = card.texts.filter((t) => t.role === 'chips').map((t) => t.text)
      expect(lines.join(' ')).not.toMatch(/\d…|…%/)
      const groups = entityChipGroups(estate120m, card.id)
      const chips = groups.flatMap((g) => g.chips)
      expect(card.chips).toEqual(chips)
      const more = /\+(\d+) more/.exec(lines.join(' '))
      const shownShares = lines.join(' ').match(/\d+(?:\.\d+)?%/g) ?? []
      const hidden = more === null ? 0 : Number(more[1])
      expect(shownShares.length + hidden).toBe(chips.filter((chip) => chip.shareText !== undefined).length)
    }
  })

  it('keeps a share after a right-to-left name its own left-to-right run (a mark before it)', () => {
    const strip = layoutEstateStrip(longNames, measures, 1068)
    const flp = strip.cards.find((card) => card.id === 'flp')!
    const chips = flp.texts.filter((t) => t.role === 'chips').map((t) => t.text)
    // Yusuf (يوسف) holds 1% of the family LP.
    expect(chips.join(' ')).toContain('يوسف \u200e1%')
    expect(chips.join(' ')).not.toMatch(/ \d/)
  })

  it('writes plain grouped amounts without a currency, and the side alone without a value', () => {
    const plain = (amount: number) => amount.toLocaleString('en')
    expect(valueSideLine({ id: 'a', name: 'A', kind: 'llc', value: 4800000 }, 'in estate', plain)).toBe(
      '4,800,000 · in estate',
    )
    expect(valueSideLine({ id: 'a', name: 'A', kind: 'slat' }, 'outside estate', plain)).toBe('outside estate')
    // The example without its currency: the LLC's 4,800,000 in plain grouped digits. Where it is
    // counted comes from the look-through: 60 % held by the revocable trust (in the estate), 40 % by
    // the SLAT (outside it), so "60% in estate", not its kind's plain "in estate".
    const noCurrency: ViewHousehold = { ...example, household: { name: example.household.name } }
    const card = layoutEstateStrip(noCurrency, measures, 1068).cards.find((c) => c.id === 'llc')!
    expect(card.texts[2]?.text).toBe('4,800,000 · 60% in estate')
    // As shipped, the example says USD: the same amount with the dollar sign.
    const inUsd = layoutEstateStrip(example, measures, 1068).cards.find((c) => c.id === 'llc')!
    expect(example.household.currency).toBe('USD')
    expect(inUsd.texts[2]?.text).toBe('$4,800,000 · 60% in estate')
    // The revocable trust is wholly in, the SLAT wholly out.
    const side = (id: string) =>
      layoutEstateStrip(example, measures, 1068).cards.find((c) => c.id === id)!.texts[2]?.text
    expect([side('rlt'), side('slat')]).toEqual(['$6,200,000 · in estate', '$3,500,000 · outside estate'])
  })

  it('cuts a long name with an ellipsis and widens the card for its kind and value, never cutting them', () => {
    const household: ViewHousehold = {
      household: { name: 'H', currency: 'USD' },
      people: [],
      entities: [
        {
          id: 'long',
          name: 'The Alexandra Konstantinopoulou-Van der Westhuizen Irrevocable Generation-Skipping Dynasty Trust',
          kind: 'dynastyTrust',
          value: 123456789012,
        },
      ],
    }
    const [card] = layoutEstateStrip(household, measures, 1068).cards
    const [name, kind, value] = card!.texts
    expect(name!.text.endsWith('…')).toBe(true)
    // 264 px at most for a name: (264 − 20) / 8 = 30.5, so 30 clusters, the ellipsis one of them.
    expect(graphemes(name!.text).length).toBe(30)
    expect(kind!.text).toBe('Dynasty / GST trust')
    expect(value!.text).toBe('$123,456,789,012 · outside estate')
    expect(card!.w).toBeGreaterThanOrEqual(measures.line(value!.text) + 20)
  })

  it('writes what a party does on its pill and puts it after the cards', () => {
    const strip = layoutEstateStrip(estate120m, measures, 1068)
    const [party] = strip.parties
    // Greenwich Fiduciary: trustee of the SLAT and the ILIT, successor trustee of the revocable trust.
    expect(party!.text).toBe('Greenwich Fiduciary · trustee of 2 · successor trustee of 1')
    const cardsBottom = Math.max(...strip.cards.map((card) => card.y + card.h))
    expect(party!.y).toBeGreaterThan(cardsBottom)
    expect(strip.partiesLabel!.y).toBeGreaterThan(cardsBottom)
    expect(party!.y).toBeGreaterThan(strip.partiesLabel!.y)
  })
})

describe('familyLinksOf', () => {
  const cards = new Set(layoutEstateStrip(estate120m, measures, 1068).cards.map((card) => card.id))

  it('draws nothing without a selection', () => {
    expect(familyLinksOf(estate120m, null, cards)).toEqual([])
  })

  it("a person: one line a link to each entity card they hold an interest in, in the payload's order", () => {
    const lines = familyLinksOf(estate120m, 'emily', cards)
    expect(lines.map((line) => [line.entity, line.type])).toEqual([
      ['rlt', 'beneficiary'],
      ['slat-w', 'beneficiary'],
      ['slat-e', 'beneficiary'],
      ['ilit', 'beneficiary'],
      ['grat', 'beneficiary'],
      ['foundation', 'trustee'],
    ])
    expect(lines.every((line) => line.person === 'emily')).toBe(true)
    expect(lines[3]!.title).toBe('Emily: beneficiary 20% of ILIT')
    expect(lines[0]!.title).toBe('Emily: remainder beneficiary 33.34% of Revocable Trust')
  })

  it('an entity: its people only, not the entities or parties linked to it', () => {
    const lines = familyLinksOf(estate120m, 'flp', cards)
    expect(lines.map((line) => [line.person, line.type])).toEqual([
      ['william', 'generalPartner'],
      ['elizabeth', 'generalPartner'],
    ])
    // The corporate trustee is a pill: no line reaches it, and selecting it draws none.
    expect(familyLinksOf(estate120m, 'trustco', cards)).toEqual([])
    expect(familyLinksOf(estate120m, 'no-such-id', cards)).toEqual([])
  })

  it('names link roles in words', () => {
    expect(linkRoleWords({ from: 'a', to: 'b', type: 'successorTrustee' })).toBe('successor trustee')
    expect(linkRoleWords({ from: 'a', to: 'b', type: 'limitedPartner', share: 49 })).toBe('limited partner 49%')
    expect(linkRoleWords({ from: 'a', to: 'b', type: 'beneficiary', share: 25, beneficiaryType: 'contingent' })).toBe(
      'contingent beneficiary 25%',
    )
  })
})
