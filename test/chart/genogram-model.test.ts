// The Family view's pure model (chart/src/family/genogram-model.ts): the first view's fold budget,
// the style of a child's descent, the words of a box (kinship, years, marriage dates, whole role
// phrases) and which folds hide a person, on hand-written families and the widow and
// three-marriages households. Widths come from a hand-counted measure: 6 px a (UTF-16) character.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldFamily } from '../../chart/src/family/collapse.ts'
import {
  coupleOf,
  descentKind,
  firstViewBudget,
  foldsHiding,
  kinshipWord,
  layoutShown,
  lifeYears,
  marriageLines,
  phrasesLine,
  type GenogramHousehold,
} from '../../chart/src/family/genogram-model.ts'
import type { ViewHousehold } from '../../chart/src/views/view-types.ts'

const read = (path: string) =>
  JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as ViewHousehold
const widow = read('bench/chart/households/widow.json')
const threeMarriages = read('bench/chart/households/three-marriages.json')
const sixPx = (text: string) => text.length * 6

/** Ann and Bob, their son Carl (married to Dora), Carl and Dora's daughter Eve. */
const family: GenogramHousehold = {
  household: { name: 'Test' },
  people: [
    { id: 'ann', name: 'Ann', role: 'primaryClient' },
    { id: 'bob', name: 'Bob', role: 'coClient' },
    { id: 'carl', name: 'Carl', role: 'child' },
    { id: 'dora', name: 'Dora', role: 'inLaw' },
    { id: 'eve', name: 'Eve', role: 'grandchild' },
  ],
  relationships: [
    { from: 'ann', to: 'bob', type: 'spouse' },
    { from: 'ann', to: 'carl', type: 'parent' },
    { from: 'bob', to: 'carl', type: 'parent' },
    { from: 'carl', to: 'dora', type: 'spouse' },
    { from: 'carl', to: 'eve', type: 'parent' },
    { from: 'dora', to: 'eve', type: 'parent' },
  ],
}

describe('firstViewBudget', () => {
  it('is the boxes a frame holds across, times four generations, times two frames', () => {
    // 1100 / (164 + 32) = 5.6 → 5 across; 5 × 4 × 2 = 40.
    expect(firstViewBudget(1100)).toBe(40)
    // 400 / 196 = 2.04 → 2; 2 × 8 = 16.
    expect(firstViewBudget(400)).toBe(16)
    // Narrower than one box: still one across, 1 × 8 = 8.
    expect(firstViewBudget(100)).toBe(8)
  })
})

describe('descentKind', () => {
  it('is the kind both parents agree on, biological when the payload says none', () => {
    expect(descentKind('carl', ['ann', 'bob'], family.relationships!)).toBe('biological')
    expect(descentKind('mei', ['thomas', 'diane'], threeMarriages.relationships!)).toBe('adopted')
  })

  it('is the kind not by birth when the parents differ (a step-father beside the mother)', () => {
    // Jason: Diane biological, Thomas step.
    expect(descentKind('jason', ['diane', 'thomas'], threeMarriages.relationships!)).toBe('step')
    expect(descentKind('jason', ['diane'], threeMarriages.relationships!)).toBe('biological')
    expect(descentKind('jason', ['thomas'], threeMarriages.relationships!)).toBe('step')
  })

  it('sees foster too', () => {
    const relationships = [{ from: 'ann', to: 'zoe', type: 'parent', parentKind: 'foster' as const }]
    expect(descentKind('zoe', ['ann'], relationships)).toBe('foster')
  })
})

describe('lifeYears', () => {
  it('writes the years whole', () => {
    expect(lifeYears({ birthDate: '1943-07-06', deathDate: '2022-08-14' })).toBe('1943–2022')
    expect(lifeYears({ birthDate: '1946-01-29' })).toBe('b. 1946')
    expect(lifeYears({ deathDate: '2022-08-14' })).toBe('d. 2022')
    expect(lifeYears({})).toBe('')
  })
})

describe('kinshipWord', () => {
  const person = (household: ViewHousehold, id: string) => household.people.find((p) => p.id === id)!

  it('says former spouse from an exSpouse kinship although the payload says "other"', () => {
    expect(person(threeMarriages, 'carol').role).toBe('other')
    expect(kinshipWord(person(threeMarriages, 'carol'), threeMarriages)).toBe('Former spouse')
    expect(kinshipWord(person(threeMarriages, 'diane'), threeMarriages)).toBe('Former spouse')
  })

  it('keeps a client with an earlier divorce and a current marriage a client', () => {
    expect(kinshipWord(person(threeMarriages, 'thomas'), threeMarriages)).toBe('Client')
  })

  it('says widowed for the living partner of a deceased spouse, after "Client" for a client', () => {
    expect(kinshipWord(person(widow, 'dorothy'), widow)).toBe('Client · widowed')
    // Harold is the one who died: he is not widowed; his role word stays.
    expect(kinshipWord(person(widow, 'harold'), widow)).toBe('Spouse')
    const roleWrong: ViewHousehold = {
      ...widow,
      people: widow.people.map((p) => (p.id === 'dorothy' ? { ...p, role: 'other' } : p)),
    }
    expect(kinshipWord(person(roleWrong, 'dorothy'), roleWrong)).toBe('Widowed')
  })

  it('gives a role the chart does not know the word Other', () => {
    expect(kinshipWord({ id: 'x', name: 'X', role: 'godparent' }, family)).toBe('Other')
  })
})

describe('marriageLines', () => {
  it('dates each of three marriages in the box of the partner who married in, with its order', () => {
    const lines = marriageLines(threeMarriages)
    const thomas = lines.filter((line) => ['carol', 'diane', 'susan'].includes(line.holder))
    // Thomas's kinships by `since`: Carol 1971-06-12, Diane 1986-09-20, Susan 2006-05-27.
    expect(thomas).toEqual([
      { holder: 'carol', text: '1st m. 1971 · div. 1984', short: 'm. 1971 · div. 1984' },
      { holder: 'diane', text: '2nd m. 1986 · div. 2003', short: 'm. 1986 · div. 2003' },
      { holder: 'susan', text: '3rd m. 2006', short: 'm. 2006' },
    ])
    // Jason and Nicole are partners since 2010-01-01; each has one kinship, neither is a client:
    // the tie goes to `to`.
    expect(lines.find((line) => line.holder === 'nicole')).toEqual({
      holder: 'nicole',
      text: 'since 2010',
      short: 'since 2010',
    })
  })

  it('says widowed with the year the marriage ended, in the non-client partner’s box', () => {
    // Dorothy and Harold: married 1969-06-22, until 2022-08-14 (Harold's death).
    expect(marriageLines(widow)).toEqual([
      { holder: 'harold', text: 'm. 1969 · widowed 2022', short: 'm. 1969 · widowed 2022' },
    ])
  })

  it('says what it knows without dates', () => {
    const undated: GenogramHousehold = {
      ...family,
      relationships: [{ from: 'ann', to: 'bob', type: 'exSpouse' }],
    }
    expect(marriageLines(undated).map((line) => line.text)).toEqual(['divorced'])
    expect(marriageLines(family).map((line) => line.text)).toEqual(['married', 'married'])
  })
})

describe('phrasesLine', () => {
  const phrases = ['trustee of 2', 'beneficiary of 5', 'grantor of 1']

  it('keeps whole phrases and counts the rest', () => {
    // All three: "trustee of 2 · beneficiary of 5 · grantor of 1" = 12 + 3 + 16 + 3 + 12 = 46 chars = 276 px.
    expect(phrasesLine(phrases, 276, sixPx)).toBe('trustee of 2 · beneficiary of 5 · grantor of 1')
    // Two and "+1": 12 + 3 + 16 + 3 + 2 = 36 chars = 216 px.
    expect(phrasesLine(phrases, 275, sixPx)).toBe('trustee of 2 · beneficiary of 5 · +1')
    // One and "+2": 12 + 3 + 2 = 17 chars = 102 px.
    expect(phrasesLine(phrases, 215, sixPx)).toBe('trustee of 2 · +2')
    expect(phrasesLine(phrases, 101, sixPx)).toBe('')
    expect(phrasesLine([], 500, sixPx)).toBe('')
  })

  it('never cuts a phrase: the line is whole phrases and a count of the others', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 6 }), fc.nat(400), (list, max) => {
        const line = phrasesLine(list, max, sixPx)
        if (line === '') return
        expect(sixPx(line)).toBeLessThanOrEqual(max)
        for (let kept = list.length; kept > 0; kept--) {
          const left = list.length - kept
          const candidate = [...list.slice(0, kept), ...(left > 0 ? [`+${left}`] : [])].join(' · ')
          if (candidate === line) return
        }
        expect.fail(`"${line}" is not whole phrases of ${JSON.stringify(list)}`)
      }),
    )
  })
})

describe('coupleOf and foldsHiding', () => {
  it('a couple is the person and their partners, former ones included', () => {
    expect([...coupleOf(family, 'carl')].sort()).toEqual(['carl', 'dora'])
    expect([...coupleOf(threeMarriages, 'thomas')].sort()).toEqual(['carol', 'diane', 'susan', 'thomas'])
    expect([...coupleOf(family, 'eve')]).toEqual(['eve'])
  })

  it('names the folds that hide a person, and only those', () => {
    const folded = new Set(['carl', 'ann'])
    expect(foldFamily(family, folded).shown.has('eve')).toBe(false)
    // Ann's fold hides Carl, Dora and Eve; Carl's hides Eve.
    expect([...foldsHiding(family, folded, 'eve')].sort()).toEqual(['ann', 'carl'])
    expect([...foldsHiding(family, folded, 'dora')]).toEqual(['ann'])
    expect([...foldsHiding(family, folded, 'bob')]).toEqual([])
  })
})

describe('layoutShown', () => {
  it('lays out only the shown people and the kinships between them', () => {
    const layout = layoutShown(family, new Set(['ann', 'bob', 'carl']))
    expect(layout.boxes.map((box) => box.id).sort()).toEqual(['ann', 'bob', 'carl'])
    const joined = layout.edges.flatMap((edge) => edge.ids)
    expect(joined).not.toContain('dora')
    expect(joined).not.toContain('eve')
  })

  it('places a person whose role 0.1.x does not know, and an exSpouse as former', () => {
    const household: GenogramHousehold = {
      household: { name: 'Test' },
      people: [
        { id: 'a', name: 'A', role: 'primaryClient' },
        { id: 'b', name: 'B', role: 'godparent' },
      ],
      relationships: [{ from: 'a', to: 'b', type: 'exSpouse', since: '1990-01-01' }],
    }
    const layout = layoutShown(household, new Set(['a', 'b']))
    expect(layout.boxes).toHaveLength(2)
    expect(layout.edges.map((edge) => edge.kind)).toEqual(['ex'])
  })
})
