// What the 0.2.0 panel says about a selected person or entity (chart/src/estate/summary-*.ts): the
// short-label rule for people, share text that never changes a share's meaning, the person sentence
// and its structured form, and the entity summary, on the shipped example and on small households.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import type { SummaryHousehold, SummaryLink } from '../../chart/src/estate/summary-input.ts'
import { entityLabel, householdLabeller, personShortLabels } from '../../chart/src/estate/summary-names.ts'
import { shareText } from '../../chart/src/estate/summary-percent.ts'
import { HOLDINGS_NAMED, personSentence, summarizePerson } from '../../chart/src/estate/summary-person.ts'
import { entityLines, NAMES_PER_LINE, summarizeEntity } from '../../chart/src/estate/summary-entity.ts'

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload
// A 0.1.x payload is a SummaryHousehold as it is (this line fails to type-check otherwise).
const exampleHousehold: SummaryHousehold = example

function people(...names: string[]) {
  return names.map((name, i) => ({ id: `p${i}`, name }))
}

describe('householdLabeller', () => {
  it('is built once per household: every summary and node name of a drawing shares it', () => {
    const household: SummaryHousehold = {
      people: [
        { id: 'a', name: 'Ada Lovelace' },
        { id: 'b', name: 'Ada Byron' },
      ],
      entities: [{ id: 't', name: 'Lovelace Family Trust', shortName: 'Family trust', kind: 'revocableTrust' }],
    }
    const label = householdLabeller(household)
    expect(householdLabeller(household)).toBe(label)
    // Two Adas: each goes by the whole name; the trust by its short name; an unknown id by itself.
    expect(['a', 'b', 't', 'x'].map(label)).toEqual(['Ada Lovelace', 'Ada Byron', 'Family trust', 'x'])
    // Another household (even an equal one) gets its own.
    expect(householdLabeller({ ...household })).not.toBe(label)
  })
})

describe('personShortLabels', () => {
  it('gives the first word when no one else in the household has it', () => {
    const labels = personShortLabels(exampleHousehold.people)
    expect(labels.get('david')).toBe('David')
    expect(labels.get('sarah')).toBe('Sarah')
    expect(labels.get('margaret')).toBe('Margaret')
  })

  it('gives the full name to everyone who shares a first word', () => {
    const labels = personShortLabels(people('David Chen', 'David Whitfield', 'Sarah Chen'))
    expect([...labels.values()]).toEqual(['David Chen', 'David Whitfield', 'Sarah'])
  })

  it('compares first words without case or Unicode composition', () => {
    const labels = personShortLabels(people('José Ruiz', 'JOSE\u0301 Pérez', 'david Lee', 'David Chen'))
    expect([...labels.values()]).toEqual(['José Ruiz', 'JOSE\u0301 Pérez', 'david Lee', 'David Chen'])
  })

  it('keeps a one-word name whole, and a one-word name collides with a longer name starting with it', () => {
    expect([...personShortLabels(people('Madonna', 'Cher Sarkisian')).values()]).toEqual(['Madonna', 'Cher'])
    expect([...personShortLabels(people('Madonna', 'Madonna Ciccone')).values()]).toEqual([
      'Madonna',
      'Madonna Ciccone',
    ])
  })

  it('takes the first word of a right-to-left name, in logical order', () => {
    const labels = personShortLabels(people('محمد علي', 'فاطمة الزهراء', 'יעל כהן'))
    expect([...labels.values()]).toEqual(['محمد', 'فاطمة', 'יעל'])
    const twins = personShortLabels(people('محمد علي', 'محمد حسن'))
    expect([...twins.values()]).toEqual(['محمد علي', 'محمد حسن'])
  })

  it('never cuts a Han, kana or Hangul name, with or without a space', () => {
    const labels = personShortLabels(people('王小明', '山田 太郎', 'やまだ はなこ', '김민준', '이 서연'))
    expect([...labels.values()]).toEqual(['王小明', '山田 太郎', 'やまだ はなこ', '김민준', '이 서연'])
  })

  it('tidies runs of white space', () => {
    expect([...personShortLabels(people('  Ann \t Lee ', 'Bo\u00a0Kim')).values()]).toEqual(['Ann', 'Bo'])
  })

  it('labels an entity by its short name, else its name, as written', () => {
    expect(entityLabel({ id: 'r', name: '12 Elm Street', shortName: 'the residence', kind: 'realEstate' })).toBe(
      'the residence',
    )
    expect(entityLabel({ id: 'l', name: 'Chen Properties LLC', kind: 'llc' })).toBe('Chen Properties LLC')
  })
})

describe('shareText', () => {
  it('writes a share with the decimals it has, and no space before %', () => {
    expect(shareText(33.33)).toBe('33.33%')
    expect(shareText(40)).toBe('40%')
    expect(shareText(12.5)).toBe('12.5%')
    expect(shareText(100)).toBe('100%')
    expect(shareText(33.3333)).toBe('33.3333%')
    expect(shareText(0.0001)).toBe('0.0001%')
  })

  it('marks a share with more than four decimals as approximate, and never shows a tiny one as 0', () => {
    // 100 / 3 = 33.333333…, which rounds to 33.3333 at four decimals.
    expect(shareText(100 / 3)).toBe('≈33.3333%')
    expect(shareText(0.00001)).toBe('<0.0001%')
  })

  it('reads back as the same number for every share the records API can hold (four decimals)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (units) => {
        const share = units / 10_000
        const text = shareText(share)
        expect(text.endsWith('%')).toBe(true)
        expect(Number(text.slice(0, -1))).toBe(share)
      }),
    )
  })
})

/** Elizabeth of the issue: trustee of two trusts, beneficiary of five, half-owner of the residence. */
const elizabeth: SummaryHousehold = {
  people: people('Elizabeth Moore', 'Tom Moore'),
  entities: [
    { id: 't1', name: 'Moore Revocable Trust', kind: 'revocableTrust' },
    { id: 't2', name: 'Moore Dynasty Trust', kind: 'dynastyTrust' },
    { id: 't3', name: 'Moore SLAT', kind: 'slat' },
    { id: 't4', name: 'Moore ILIT', kind: 'ilit' },
    { id: 't5', name: 'Moore QTIP', kind: 'qtip' },
    { id: 'home', name: '12 Elm Street', shortName: 'the residence', kind: 'realEstate', value: 1_200_000 },
  ],
  links: [
    { from: 'p0', to: 't1', type: 'trustee' },
    { from: 'p0', to: 't2', type: 'trustee' },
    { from: 'p0', to: 't1', type: 'beneficiary', share: 50 },
    { from: 'p0', to: 't2', type: 'beneficiary', beneficiaryType: 'income' },
    // Income and remainder beneficiary of one trust: beneficiary of that trust once.
    { from: 'p0', to: 't3', type: 'beneficiary', beneficiaryType: 'income' },
    { from: 'p0', to: 't3', type: 'beneficiary', beneficiaryType: 'remainder', share: 100 },
    { from: 'p0', to: 't4', type: 'beneficiary', beneficiaryType: 'contingent' },
    { from: 'p0', to: 't5', type: 'beneficiary' },
    { from: 'p0', to: 'home', type: 'owner', share: 50 },
    { from: 'p1', to: 'home', type: 'owner', share: 50 },
  ],
}

describe('summarizePerson', () => {
  it('says what Elizabeth is in one line, distinct entities counted once', () => {
    const summary = summarizePerson(elizabeth, 'p0')!
    // Trustee of t1 and t2; beneficiary of t1, t2, t3 (twice), t4, t5: five trusts.
    expect(summary.roles).toEqual([
      { role: 'trustee', count: 2, entityIds: ['t1', 't2'] },
      { role: 'beneficiary', count: 5, entityIds: ['t1', 't2', 't3', 't4', 't5'] },
    ])
    expect(summary.owns).toEqual([{ id: 'home', label: 'the residence', share: 50, shareText: '50%' }])
    expect(personSentence(summary)).toBe('Elizabeth: trustee of 2, beneficiary of 5, owns 50% of the residence')
  })

  it('counts every role in a fixed order, and partners by partnership', () => {
    const household: SummaryHousehold = {
      people: people('Robert Chen'),
      entities: [
        { id: 'rlt', name: 'RLT', kind: 'revocableTrust' },
        { id: 'ilit', name: 'ILIT', kind: 'ilit' },
        { id: 'policy', name: 'Policy 7', kind: 'lifeInsurance' },
        { id: 'flp', name: 'Chen FLP', kind: 'flp' },
      ],
      links: [
        { from: 'p0', to: 'flp', type: 'limitedPartner', share: 40 },
        { from: 'p0', to: 'flp', type: 'generalPartner', share: 1 },
        { from: 'p0', to: 'policy', type: 'insured' },
        { from: 'p0', to: 'ilit', type: 'successorTrustee' },
        { from: 'p0', to: 'rlt', type: 'trustee' },
        { from: 'p0', to: 'rlt', type: 'grantor' },
        { from: 'p0', to: 'ilit', type: 'grantor' },
      ],
    }
    const summary = summarizePerson(household, 'p0')!
    expect(personSentence(summary)).toBe(
      'Robert: grantor of 2, trustee of 1, successor trustee of 1, insured by 1 policy, partner in 1',
    )
    // Largest share first.
    expect(summary.partnerIn.map((h) => h.shareText)).toEqual(['40%', '1%'])
    expect(summary.owns).toEqual([])
  })

  it(`names at most ${HOLDINGS_NAMED} holdings, largest share first, then "and N more"`, () => {
    const shares = [10, 50, 30, 20, 40]
    const household: SummaryHousehold = {
      people: people('Ann Lee'),
      entities: shares.map((_, i) => ({ id: `e${i}`, name: `Asset ${i}`, kind: 'otherAsset' as const })),
      links: shares.map((share, i): SummaryLink => ({ from: 'p0', to: `e${i}`, type: 'owner', share })),
    }
    // Sorted 50 (e1), 40 (e4), 30 (e2), then 20 and 10 are the 2 more.
    expect(personSentence(summarizePerson(household, 'p0')!)).toBe(
      'Ann: owns 50% of Asset 1, 40% of Asset 4, 30% of Asset 2 and 2 more',
    )
  })

  it('says when an owner link gives no share, and lists two holdings with "and"', () => {
    const household: SummaryHousehold = {
      people: people('Ann Lee'),
      entities: [
        { id: 'a', name: 'Lee LLC', kind: 'llc' },
        { id: 'b', name: 'Cabin', kind: 'realEstate' },
      ],
      links: [
        { from: 'p0', to: 'a', type: 'owner' },
        { from: 'p0', to: 'b', type: 'owner', share: 25 },
      ],
    }
    expect(personSentence(summarizePerson(household, 'p0')!)).toBe(
      'Ann: owns 25% of Cabin and an unstated share of Lee LLC',
    )
  })

  it('reads the shipped example, and says so when a person has no part', () => {
    expect(personSentence(summarizePerson(exampleHousehold, 'david')!)).toBe('David: trustee of 1, beneficiary of 2')
    expect(personSentence(summarizePerson(exampleHousehold, 'robert')!)).toBe('Robert: grantor of 3, trustee of 1')
    expect(personSentence(summarizePerson(exampleHousehold, 'noah')!)).toBe('Noah: no part in the estate’s entities')
  })

  it('has no summary for an id that is not a person', () => {
    expect(summarizePerson(exampleHousehold, 'rlt')).toBeUndefined()
    expect(summarizePerson(exampleHousehold, 'nobody')).toBeUndefined()
  })
})

describe('summarizeEntity', () => {
  it('summarizes the example revocable trust', () => {
    const summary = summarizeEntity(exampleHousehold, 'rlt')!
    // 6,200,000 in the example's USD, as the cards write it; without a currency, no symbol.
    expect(summary).toMatchObject({ kindLabel: 'Revocable trust', value: '$6.2M', estate: 'in' })
    expect(summarizeEntity({ ...exampleHousehold, household: {} }, 'rlt')!.value).toBe('6.2M')
    expect(summary.grantors.map((g) => g.label)).toEqual(['Robert', 'Margaret'])
    // The example's three children are remainder beneficiaries: 33.34 first, then the two 33.33 in
    // the payload's order; none is primary.
    expect(summary.beneficiaries.remainder.map((b) => `${b.label} ${b.shareText!}`)).toEqual([
      'Emily 33.34%',
      'David 33.33%',
      'Sarah 33.33%',
    ])
    expect(summary.beneficiaries.primary).toEqual([])
    expect(entityLines(summary)).toEqual([
      'Chen Family Revocable Trust: Revocable trust, $6.2M, in the estate',
      'Grantors: Robert and Margaret',
      'Trustees: Robert and Margaret',
      'Remainder beneficiaries: Emily 33.34%, David 33.33% and Sarah 33.33%',
      'Owns 60% of Chen Properties LLC',
    ])
  })

  it('lists owners with shares, largest first', () => {
    const summary = summarizeEntity(exampleHousehold, 'llc')!
    expect(summary.owners.map((o) => [o.id, o.shareText])).toEqual([
      ['rlt', '60%'],
      ['slat', '40%'],
    ])
    // An owner goes by its short name when it has one (the SLAT's); the trust has none.
    expect(entityLines(summary)).toContain("Owners: Chen Family Revocable Trust 60% and Margaret's SLAT 40%")
  })

  it('groups beneficiaries by type, a beneficiary without one being primary', () => {
    const summary = summarizeEntity(elizabeth, 't3')!
    expect(summary.beneficiaries.income.map((b) => b.label)).toEqual(['Elizabeth'])
    expect(summary.beneficiaries.remainder.map((b) => b.shareText)).toEqual(['100%'])
    expect(summary.beneficiaries.primary).toEqual([])
    expect(summarizeEntity(elizabeth, 't5')!.beneficiaries.primary.map((b) => b.id)).toEqual(['p0'])
    expect(entityLines(summary)).toEqual([
      'Moore SLAT: SLAT, outside the estate',
      'Income beneficiary: Elizabeth',
      'Remainder beneficiary: Elizabeth 100%',
    ])
  })

  it('shows a party with no value and no estate side, and counts what it is trustee of', () => {
    const household: SummaryHousehold = {
      people: people('Ann Lee'),
      entities: [
        { id: 'bank', name: 'First Coastal Trust Company', kind: 'corporateTrustee', value: 5 },
        { id: 'a', name: 'Lee ILIT', kind: 'ilit' },
        { id: 'b', name: 'Lee SLAT', kind: 'slat' },
      ],
      links: [
        { from: 'bank', to: 'a', type: 'trustee' },
        { from: 'bank', to: 'b', type: 'successorTrustee' },
        { from: 'bank', to: 'b', type: 'trustee' },
      ],
    }
    const summary = summarizeEntity(household, 'bank')!
    expect(summary.value).toBeUndefined()
    expect(summary.estate).toBeNull()
    expect(entityLines(summary)).toEqual([
      'First Coastal Trust Company: Corporate trustee, a party: holds nothing, never counted',
      'Trustee of 2, successor trustee of 1',
    ])
  })

  it('takes the estate side as given, else the kind default, and shows what it owns', () => {
    // Kind other (0.1.x's catch-all) sits in the estate by default; the example's corporate
    // trustee is a party, on neither side.
    const other = summarizeEntity({ people: [], entities: [{ id: 'o', name: 'O', kind: 'other' }] }, 'o')!
    expect(other.estate).toBe('in')
    expect(summarizeEntity(exampleHousehold, 'coastal')!.estate).toBeNull()
    expect(summarizeEntity(exampleHousehold, 'slat')!.owns.map((o) => [o.id, o.shareText])).toEqual([['llc', '40%']])
    const given = summarizeEntity(
      { people: [], entities: [{ id: 'x', name: 'X', kind: 'revocableTrust', estate: 'out' }] },
      'x',
    )!
    expect(given.estate).toBe('out')
  })

  it(`names at most ${NAMES_PER_LINE} holders on a line, then "and N more"`, () => {
    const names = ['Ann A', 'Bo B', 'Cy C', 'Di D', 'Ed E', 'Flo F', 'Gus G']
    const household: SummaryHousehold = {
      people: people(...names),
      entities: [{ id: 't', name: 'Big Trust', kind: 'dynastyTrust' }],
      links: names.map((_, i): SummaryLink => ({ from: `p${i}`, to: 't', type: 'trustee' })),
    }
    const shown = names.slice(0, NAMES_PER_LINE).map((n) => n.split(' ')[0]!)
    const more = names.length - NAMES_PER_LINE
    expect(entityLines(summarizeEntity(household, 't')!)[1]).toBe(`Trustees: ${shown.join(', ')} and ${more} more`)
  })

  it('has no summary for an id that is not an entity', () => {
    expect(summarizeEntity(exampleHousehold, 'david')).toBeUndefined()
  })
})
