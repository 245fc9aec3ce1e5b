// The chips on an entity card (chart/src/estate/chips*.ts): who, in which order, and how they fit a
// width: names may be cut, shares never are, and what does not fit is counted in "+N more". Widths
// are the chart's own estimate (textWidth at the card's 11 px), as the layout measures text.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import { textWidth } from '../../chart/src/format.ts'
import { entityChipGroups, entityChips } from '../../chart/src/estate/chips.ts'
import { layoutChips, moreText, type ChipGroup, type ChipLayout } from '../../chart/src/estate/chips-layout.ts'
import type { SummaryHousehold, SummaryLink } from '../../chart/src/estate/summary-input.ts'
import { shareText } from '../../chart/src/estate/summary-percent.ts'
import type { ShareRef } from '../../chart/src/estate/summary-roles.ts'

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload
const SIZE = 11
const measure = (text: string) => textWidth(text, SIZE)

/** A trust with beneficiaries named "Child 1"… and the given shares (undefined: no share). */
function trustWith(shares: readonly (number | undefined)[], names?: readonly string[]): SummaryHousehold {
  const people = shares.map((_, i) => ({ id: `p${i}`, name: names?.[i] ?? `Child${i + 1} Lee` }))
  return {
    people,
    entities: [{ id: 't', name: 'Lee Trust', kind: 'dynastyTrust' }],
    links: shares.map((share, i): SummaryLink => ({
      from: `p${i}`,
      to: 't',
      type: 'beneficiary',
      ...(share ? { share } : {}),
    })),
  }
}

/** The checks every layout must pass: within width and lines, every chip shown whole-share or counted. */
function expectHonest(layout: ChipLayout, groups: readonly ChipGroup[], width: number, maxLines: number): void {
  for (const line of layout.lines) expect(measure(line)).toBeLessThanOrEqual(width)
  expect(layout.lines.length).toBeLessThanOrEqual(maxLines)
  const all = groups.flatMap((g) => g.chips)
  expect([...layout.shown.map((s) => s.chip), ...layout.hidden]).toEqual(all)
  const drawn = layout.lines.join('\n')
  let from = 0
  for (const { chip, text } of layout.shown) {
    const name = chip.shareText === undefined ? text : text.slice(0, -(chip.shareText.length + 1))
    if (chip.shareText !== undefined) expect(text.endsWith(' ' + chip.shareText)).toBe(true)
    expect(name === chip.label || (name.endsWith('…') && chip.label.startsWith(name.slice(0, -1)))).toBe(true)
    const at = drawn.indexOf(text, from)
    expect(at).toBeGreaterThanOrEqual(from)
    from = at + text.length
  }
  if (layout.hidden.length > 0) expect(drawn.endsWith(moreText(layout.hidden.length))).toBe(true)
  else expect(drawn).not.toMatch(/\+\d+ more/)
}

describe('entityChipGroups', () => {
  it('puts owners and partners first by share, then primary beneficiaries, then each other type', () => {
    const household: SummaryHousehold = {
      people: [
        { id: 'a', name: 'Ann Lee' },
        { id: 'b', name: 'Bo Lee' },
        { id: 'c', name: 'Cy Lee' },
        { id: 'd', name: 'Di Lee' },
        { id: 'e', name: 'Ed Lee' },
      ],
      entities: [{ id: 'x', name: 'Lee Holdings', kind: 'other' }],
      links: [
        { from: 'e', to: 'x', type: 'beneficiary', beneficiaryType: 'remainder' },
        { from: 'd', to: 'x', type: 'beneficiary', beneficiaryType: 'contingent', share: 100 },
        { from: 'c', to: 'x', type: 'beneficiary', share: 100 },
        { from: 'b', to: 'x', type: 'limitedPartner', share: 70 },
        { from: 'a', to: 'x', type: 'owner', share: 30 },
        { from: 'a', to: 'x', type: 'trustee' },
      ],
    }
    const groups = entityChipGroups(household, 'x')
    expect(groups.map((g) => [g.prefix, g.chips.map((c) => c.label)])).toEqual([
      ['', ['Bo', 'Ann', 'Cy']],
      ['contingent: ', ['Di']],
      ['remainder: ', ['Ed']],
    ])
    const layout = entityChips(household, 'x', 400, measure, 3)
    expect(layout.lines).toEqual(['Bo 70% · Ann 30% · Cy 100%', 'contingent: Di 100%', 'remainder: Ed'])
  })

  it('has no chips for an entity with no holders, or an id that is not an entity', () => {
    expect(entityChipGroups(example, 'coastal')).toEqual([])
    expect(entityChips(example, 'david', 400, measure, 2)).toEqual({ lines: [], shown: [], hidden: [] })
  })
})

describe('entityChips', () => {
  it('draws the example ILIT as the issue shows it', () => {
    expect(entityChips(example, 'ilit', 300, measure, 1).lines).toEqual(['David 40% · Sarah 40% · Emily 20%'])
  })

  it('draws a single 100% beneficiary, behind its type when it is not primary', () => {
    // The example SLAT's one beneficiary, Margaret, is its income beneficiary.
    expect(entityChips(example, 'slat', 200, measure, 1).lines).toEqual(['income: Margaret 100%'])
  })

  it('draws one beneficiary, and one without a share by name alone', () => {
    expect(entityChips(trustWith([12.5]), 't', 200, measure, 1).lines).toEqual(['Child1 12.5%'])
    expect(entityChips(trustWith([undefined]), 't', 200, measure, 1).lines).toEqual(['Child1'])
  })

  it('wraps three beneficiaries onto a second line rather than cutting a name', () => {
    const household = trustWith([33.33, 33.33, 33.34])
    // Largest first: Child3 33.34%, then Child1 and Child2 in the payload's order.
    const oneLine = 'Child3 33.34% · Child1 33.33% · Child2 33.33%'
    expect(entityChips(household, 't', measure(oneLine), measure, 2).lines).toEqual([oneLine])
    const narrower = measure(oneLine) - 1
    expect(entityChips(household, 't', narrower, measure, 2).lines).toEqual([
      'Child3 33.34% · Child1 33.33%',
      'Child2 33.33%',
    ])
  })

  it('folds what does not fit on the last line into "+N more", keeping each share whole', () => {
    const household = trustWith([33.33, 33.33, 33.34])
    const width = measure('Child3 33.34% · Child1 33.33%')
    // One line. All three do not fit. Child3 whole with " · +2 more" after it does (narrower than
    // "Child1 33.33%" after it). Child1 cut to one letter would need "C… 33.33% · +1 more" where
    // "Child1 33.33%" is: it drops "hild1" (h 0.61 + i 0.32 + l 0.32 + d 0.61 + 1 0.64 = 2.5 em) and
    // adds "…" (1.05) + " · " (0.33 + 0.7 + 0.33) + "+1 more" (0.7 + 0.64 + 0.33 + 0.96 + 0.61 +
    // 0.44 + 0.61 = 4.29) = 6.7 em, so it does not fit: Child1 and Child2 are the 2 more.
    const layout = entityChips(household, 't', width, measure, 1)
    expect(layout.lines).toEqual(['Child3 33.34% · +2 more'])
    expect(layout.hidden.map((c) => c.label)).toEqual(['Child1', 'Child2'])
    expectHonest(layout, entityChipGroups(household, 't'), width, 1)
  })

  it('cuts a long name with "…" but keeps its share', () => {
    const long = 'Bartholomew-Maximilian Featherstonehaugh-Cholmondeley of Nether Wallop'
    const layout = entityChips(trustWith([12.5], [long]), 't', 120, measure, 1)
    // The first word is "Bartholomew-Maximilian"; it is cut to as many characters as fit before "… 12.5%".
    const label = 'Bartholomew-Maximilian'
    const [line] = layout.lines
    expect(layout.lines).toHaveLength(1)
    expect(line!.endsWith('… 12.5%')).toBe(true)
    const kept = line!.slice(0, -'… 12.5%'.length)
    expect(kept.length).toBeGreaterThan(0)
    expect(label.startsWith(kept)).toBe(true)
    expect(measure(line!)).toBeLessThanOrEqual(120)
    expect(measure(label.slice(0, kept.length + 1) + '… 12.5%')).toBeGreaterThan(120)
  })

  it('fits 30 beneficiaries into two lines with the rest counted', () => {
    // 30 shares: 29 of 3.33% and one of 3.43% (29 × 3.33 = 96.57; 96.57 + 3.43 = 100).
    const shares = [...Array.from({ length: 29 }, () => 3.33), 3.43]
    const household = trustWith(shares)
    const layout = entityChips(household, 't', 240, measure, 2)
    expect(layout.lines).toHaveLength(2)
    expect(layout.hidden.length).toBeGreaterThan(0)
    expect(layout.shown[0]!.text).toBe('Child30 3.43%')
    expectHonest(layout, entityChipGroups(household, 't'), 240, 2)
  })

  it('shows only the count when a group prefix leaves no room for a chip', () => {
    const groups: ChipGroup[] = [{ prefix: 'contingent: ', chips: [{ id: 'a', label: 'Ann', shareText: '100%' }] }]
    const width = measure('contingent: +1')
    const layout = layoutChips(groups, width, measure, 1)
    expect(layout.hidden).toHaveLength(1)
    expect(layout.lines).toEqual([moreText(1)].filter((t) => measure(t) <= width))
    expectHonest(layout, groups, width, 1)
  })

  it('never draws wider than the width, keeps order, and shows every share whole or counts it', () => {
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
      fc.constantFrom('محمد علي', '王小明', 'Zoë Ångström', '👩‍👩‍👧 family', 'W'.repeat(60)),
    )
    const chip = fc.record({
      label: name.map((s) => s.trim().replace(/\s+/gu, ' ')),
      share: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    })
    const group = fc.record({
      prefix: fc.constantFrom('', 'contingent: ', 'income: ', 'remainder: '),
      chips: fc.array(chip, { minLength: 1, maxLength: 35 }),
    })
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 1, maxLength: 4 }),
        // "+99 more" is 4.93 em wide (+ 0.7, 9 9 0.64 each, space 0.33, m 0.96, o 0.61, r 0.44, e 0.61;
        // 0.7 + 1.28 + 0.33 + 0.96 + 0.61 + 0.44 + 0.61 = 4.93), 54.2 px at 11 px: 60 px always holds it.
        fc.integer({ min: 60, max: 500 }),
        fc.integer({ min: 1, max: 4 }),
        (rawGroups, width, maxLines) => {
          let id = 0
          const groups: ChipGroup[] = rawGroups.map((g) => ({
            prefix: g.prefix,
            chips: g.chips.map(({ label, share }): ShareRef => {
              id++
              return share === undefined
                ? { id: `c${id}`, label }
                : { id: `c${id}`, label, share: share / 10_000, shareText: shareText(share / 10_000) }
            }),
          }))
          expectHonest(layoutChips(groups, width, measure, maxLines), groups, width, maxLines)
        },
      ),
    )
  })
})
