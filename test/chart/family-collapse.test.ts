// Folding branches of the family for chart 0.2.0 (chart/src/family/collapse.ts): who is shown for a
// set of folded people, what each fold counts as hidden, which generations foldToFit folds to meet
// a budget, and which folds a search opens. Families are written out by hand; the counts in
// comments list the people they count.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findPeople, foldFamily, foldToFit, searchable, type FamilyInput } from '../../chart/src/family/collapse.ts'
import { generateHousehold } from '../../bench/chart/generate.ts'

const parent = (from: string, to: string) => ({ from, to, type: 'parent' })
const spouse = (from: string, to: string) => ({ from, to, type: 'spouse' })
const person = (id: string, role = 'other', name = id) => ({ id, name, role })

// Robert & Margaret (clients) → Anna (married to Ben) and David; Anna & Ben → Chloe, Dylan;
// Chloe married Evan → Fay. Margaret's mother Grace is above them.
const chen: FamilyInput = {
  people: [
    person('robert', 'primaryClient', 'Robert Chen'),
    person('margaret', 'coClient', 'Margaret Chen'),
    person('grace', 'parent', 'Grace Liu'),
    person('anna', 'child', 'Anna Chen-Park'),
    person('ben', 'inLaw', 'Ben Park'),
    person('david', 'child', 'David Chen'),
    person('chloe', 'grandchild', 'Chloë Park'),
    person('dylan', 'grandchild', 'Dylan Park'),
    person('evan', 'inLaw', 'Evan Moss'),
    person('fay', 'greatGrandchild', 'Fay Moss'),
  ],
  relationships: [
    spouse('robert', 'margaret'),
    parent('grace', 'margaret'),
    parent('robert', 'anna'),
    parent('margaret', 'anna'),
    parent('robert', 'david'),
    parent('margaret', 'david'),
    spouse('anna', 'ben'),
    parent('anna', 'chloe'),
    parent('ben', 'chloe'),
    parent('anna', 'dylan'),
    parent('ben', 'dylan'),
    spouse('chloe', 'evan'),
    parent('chloe', 'fay'),
    parent('evan', 'fay'),
  ],
}
const sorted = (ids: Iterable<string>) => [...ids].sort()

describe('foldFamily', () => {
  it('shows everyone when nothing is folded', () => {
    expect(foldFamily(chen, new Set()).shown.size).toBe(10)
  })

  it('folding Anna hides her descendants and their spouses, but not her own spouse', () => {
    const folded = foldFamily(chen, new Set(['anna']))
    // Hidden: chloe, dylan, fay (descendants) and evan (Chloe's husband, on the family only through her) = 4.
    expect(sorted(folded.shown)).toEqual(sorted(['robert', 'margaret', 'grace', 'anna', 'ben', 'david']))
    expect(folded.hiddenBy.get('anna')).toBe(4)
  })

  it('folding a client hides the children of the couple, and the other client stays', () => {
    const folded = foldFamily(chen, new Set(['robert']))
    // Hidden: anna, david, chloe, dylan, fay (descendants) + ben, evan (married in) = 7; shown: robert, margaret, grace.
    expect(sorted(folded.shown)).toEqual(['grace', 'margaret', 'robert'])
    expect(folded.hiddenBy.get('robert')).toBe(7)
  })

  it('a fold inside another fold is hidden with it and counts nothing of its own', () => {
    const folded = foldFamily(chen, new Set(['robert', 'chloe']))
    expect(folded.shown.has('chloe')).toBe(false)
    expect(folded.hiddenBy.has('chloe')).toBe(false)
    expect(folded.hiddenBy.get('robert')).toBe(7)
  })

  it('keeps a step-child of the other client shown when one client is folded', () => {
    // Margaret's son Sam from an earlier marriage is not Robert's descendant.
    const blended: FamilyInput = {
      people: [...chen.people, person('sam', 'child')],
      relationships: [...(chen.relationships ?? []), parent('margaret', 'sam')],
    }
    const folded = foldFamily(blended, new Set(['robert']))
    expect(folded.shown.has('sam')).toBe(true)
    expect(folded.shown.has('anna')).toBe(false)
  })

  it('never hides a client, even when a partner payload puts one below a folded person', () => {
    const loop: FamilyInput = {
      people: chen.people,
      relationships: [...(chen.relationships ?? []), parent('david', 'robert')],
    }
    expect(foldFamily(loop, new Set(['david'])).shown.has('robert')).toBe(true)
  })
})

describe('foldToFit', () => {
  it('folds nothing when the household fits', () => {
    expect(foldToFit(chen, 10).size).toBe(0)
  })

  it('folds whole generations from the deepest up until the budget is met', () => {
    // Generations: grace 0; robert (married in, at Margaret's level) and margaret 1; anna, david and
    // ben (married in) 2; chloe, dylan and evan 3; fay 4.
    // Budget 9: folding generation 3 (chloe and evan, Fay's parents) hides fay and shows 9.
    expect(sorted(foldToFit(chen, 9))).toEqual(['chloe', 'evan'])
    // Budget 6: generation 3 leaves 9, generation 2 (anna, ben have children) hides chloe, dylan,
    // evan and fay: 6 shown.
    expect(sorted(foldToFit(chen, 6))).toEqual(['anna', 'ben'])
  })

  it('meets the budget on a generated 500-person household, folding only people who have children', () => {
    const big = generateHousehold(500, 0, 7)
    const folded = foldToFit(big, 120)
    expect(foldFamily(big, folded).shown.size).toBeLessThanOrEqual(120)
    const parents = new Set((big.relationships ?? []).filter((r) => r.type === 'parent').map((r) => r.from))
    for (const id of folded) expect(parents.has(id)).toBe(true)
  })

  it('terminates and never shows more than everyone, on random families (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.nat(39), fc.nat(39), fc.constantFrom('parent', 'spouse', 'exSpouse')), { maxLength: 80 }),
        fc.integer({ min: 1, max: 40 }),
        (count, edges, budget) => {
          const family: FamilyInput = {
            people: Array.from({ length: count }, (_, i) =>
              person(`p${String(i)}`, i === 0 ? 'primaryClient' : 'other'),
            ),
            relationships: edges.map(([a, b, type]) => ({
              from: `p${String(a % count)}`,
              to: `p${String(b % count)}`,
              type,
            })),
          }
          const shown = foldFamily(family, foldToFit(family, budget)).shown
          expect(shown.size).toBeLessThanOrEqual(count)
          expect(shown.has('p0')).toBe(true)
        },
      ),
    )
  })
})

describe('findPeople', () => {
  it('finds by any part of a name, ignoring case and accents, and opens only the folds that hid a match', () => {
    const folded = new Set(['anna', 'david'])
    const found = findPeople(chen, 'CHLOE', folded)
    expect(found.ids).toEqual(['chloe'])
    // Anna's fold hid Chloë; David's did not and stays folded.
    expect(sorted(found.unfolded)).toEqual(['david'])
    expect(foldFamily(chen, found.unfolded).shown.has('chloe')).toBe(true)
  })

  it("opens nested folds, and the fold above a hidden grandchild's spouse", () => {
    const found = findPeople(chen, 'evan', new Set(['robert', 'anna', 'chloe']))
    // Evan is married to Chloe (below anna and robert): robert and anna open; chloe's fold hides only Fay.
    expect(sorted(found.unfolded)).toEqual(['chloe'])
    expect(foldFamily(chen, found.unfolded).shown.has('evan')).toBe(true)
  })

  it('finds nothing, and opens nothing, for an empty query', () => {
    expect(findPeople(chen, '  ', new Set(['anna']))).toEqual({ ids: [], unfolded: new Set(['anna']) })
    expect(searchable('Zoë Ångström')).toBe('zoe angstrom')
  })
})
