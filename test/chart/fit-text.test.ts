// Fitting labels for chart 0.2.0 (chart/src/text/): cuts fall between grapheme clusters, the ellipsis
// goes at the logical end, a share or a year after a name is never cut, and each label knows its
// base direction. The measure here is a fixed 10 px per grapheme cluster (the ellipsis is one), so
// every expected width below is counted by hand; test/browser/text-measure.test.ts measures real
// glyphs in Chromium.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { baseDirection } from '../../chart/src/text/direction.ts'
import { ELLIPSIS, fitText, fitWithTail, type MeasureText } from '../../chart/src/text/fit-text.ts'
import { graphemes } from '../../chart/src/text/graphemes.ts'

/** 10 px per user-perceived character. */
const tenPerCluster: MeasureText = (text) => graphemes(text).length * 10

describe('graphemes', () => {
  it('keeps emoji sequences, flags and combining accents whole', () => {
    // A family emoji is man + ZWJ + woman + ZWJ + girl: five code points, one cluster.
    expect(graphemes('👨‍👩‍👧')).toEqual(['👨‍👩‍👧'])
    // A flag is two regional indicators.
    expect(graphemes('🇺🇸x')).toEqual(['🇺🇸', 'x'])
    // e + U+0301 COMBINING ACUTE ACCENT is one letter.
    expect(graphemes('Rene\u0301e')).toEqual(['R', 'e', 'n', 'e\u0301', 'e'])
    expect(graphemes('王小明')).toEqual(['王', '小', '明'])
  })
})

describe('baseDirection', () => {
  it('is the direction of the first letter, as dir="auto" decides', () => {
    expect(baseDirection('Elizabeth Chen')).toBe('ltr')
    expect(baseDirection('מרים לוי')).toBe('rtl')
    expect(baseDirection('فاطمة الزهراء')).toBe('rtl')
    // Digits, punctuation and emoji are not strong: the first letter decides.
    expect(baseDirection('1. 🌳 ليلى')).toBe('rtl')
    expect(baseDirection('(2) Anna')).toBe('ltr')
    expect(baseDirection('王小明')).toBe('ltr')
    expect(baseDirection('')).toBe('ltr')
    expect(baseDirection('40 %')).toBe('ltr')
  })
})

describe('fitText', () => {
  it('keeps what fits and cuts the rest with an ellipsis at the logical end', () => {
    // "Margaret" is 8 clusters = 80 px: fits in 80.
    expect(fitText('Margaret', 80, tenPerCluster)).toEqual({ text: 'Margaret', cut: false })
    // In 60 px: 5 clusters + the ellipsis = 60 px.
    expect(fitText('Margaret', 60, tenPerCluster)).toEqual({ text: 'Marga…', cut: true })
    // An RTL name is cut at its logical end too; drawn with direction rtl, that end is on the left.
    expect(fitText('فاطمة الزهراء', 60, tenPerCluster)).toEqual({ text: 'فاطمة…', cut: true })
    // White space is collapsed first ("Ann   Lee" is "Ann Lee", 7 clusters = 70 px).
    expect(fitText('  Ann   Lee ', 70, tenPerCluster)).toEqual({ text: 'Ann Lee', cut: false })
  })

  it('never cuts inside a cluster and drops a space before the ellipsis', () => {
    // "Ann 👨‍👩‍👧 Lee" is 9 clusters. In 60 px: 5 clusters "Ann 👨‍👩‍👧" + … = 60 px.
    expect(fitText('Ann 👨‍👩‍👧 Lee', 60, tenPerCluster).text).toBe('Ann 👨‍👩‍👧…')
    // In 50 px: 4 clusters "Ann " + … = 50 px, with the trailing space dropped: "Ann…" (40 px).
    expect(fitText('Ann 👨‍👩‍👧 Lee', 50, tenPerCluster).text).toBe('Ann…')
  })

  it('gives the ellipsis alone, or nothing, when no cluster fits', () => {
    expect(fitText('Margaret', 15, tenPerCluster)).toEqual({ text: ELLIPSIS, cut: true })
    expect(fitText('Margaret', 5, tenPerCluster)).toEqual({ text: '', cut: true })
  })

  it('always fits, and always starts the way the text does (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 0, max: 300 }), (text, max) => {
        const fitted = fitText(text, max, tenPerCluster)
        expect(tenPerCluster(fitted.text)).toBeLessThanOrEqual(max)
        const kept = fitted.cut ? fitted.text.slice(0, -ELLIPSIS.length) : fitted.text
        expect(text.replace(/\s+/g, ' ').trim().startsWith(kept)).toBe(true)
      }),
    )
  })
})

describe('fitWithTail', () => {
  it('cuts the name, never the share', () => {
    // "Elizabeth Montgomery 33.33 %" is 20 + 1 + 7 = 28 clusters = 280 px: fits in 280.
    expect(fitWithTail('Elizabeth Montgomery', '33.33 %', 280, tenPerCluster).cut).toBe(false)
    // In 150 px the tail takes " 33.33 %" = 8 clusters = 80 px, leaving 70 px for the name:
    // 6 clusters "Elizab" + … = 70 px.
    expect(fitWithTail('Elizabeth Montgomery', '33.33 %', 150, tenPerCluster)).toEqual({
      name: 'Elizab…',
      tail: '33.33 %',
      text: 'Elizab… 33.33 %',
      cut: true,
      overflows: false,
    })
  })

  it('never cuts a year either', () => {
    // " · b. 1951" is 10 clusters = 100 px; in 160 px the name gets 60 px: "Marga…".
    expect(fitWithTail('Margaret Chen', 'b. 1951', 160, tenPerCluster, ' · ').text).toBe('Marga… · b. 1951')
  })

  it('shows the tail alone when the name would be only an ellipsis, and says when even the tail overflows', () => {
    // The tail " 40 %" is 5 clusters = 50 px; 65 px leaves 15 px, room for the ellipsis alone: tail only.
    expect(fitWithTail('Elizabeth', '40 %', 65, tenPerCluster)).toEqual({
      name: '',
      tail: '40 %',
      text: '40 %',
      cut: true,
      overflows: false,
    })
    // "40 %" alone is 40 px: in 30 px it is kept whole and flagged.
    expect(fitWithTail('Elizabeth', '40 %', 30, tenPerCluster)).toMatchObject({ text: '40 %', overflows: true })
  })

  it('keeps the whole tail in every fitted line (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 400 }),
        (name, share, max) => {
          const tail = `${String(share)} %`
          const fitted = fitWithTail(name, tail, max, tenPerCluster)
          expect(fitted.text.endsWith(tail)).toBe(true)
          if (!fitted.overflows) expect(tenPerCluster(fitted.text)).toBeLessThanOrEqual(max)
        },
      ),
    )
  })
})
