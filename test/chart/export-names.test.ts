// File names of exported charts (chart/src/export/file-name.ts): the household name made safe for
// the file systems people save to, then the view and the reader's calendar date.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { exportFileName, MAX_NAME_BYTES, safeFileNamePart } from '../../chart/src/export/file-name.ts'

// Local time on purpose: the name carries the reader's calendar day, whatever the test machine's zone.
const day = new Date(2026, 10, 24, 9, 30) // 24 November 2026 (months count from 0: 10 is November)
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length
// What Windows, macOS or Linux refuse in a file name; then bidirectional controls.
const UNSAFE_CHARS = ['<', '>', ':', '"', '/', '\\', '|', '?', '*', '\u0000', '\u0001', '\u001f', '\u007f']
const BIDI_CONTROLS = ['\u202e', '\u2066', '\u200f']

describe('exportFileName', () => {
  it('is the household name, the view, the date and the format', () => {
    expect(exportFileName('Chen Family', 'family', day, 'png')).toBe('Chen Family-family-2026-11-24.png')
    expect(exportFileName('Chen Family', 'structure', day, 'svg')).toBe('Chen Family-structure-2026-11-24.svg')
    expect(exportFileName('Chen Family', 'estate', new Date(2027, 0, 5), 'svg')).toBe(
      'Chen Family-estate-2027-01-05.svg',
    )
  })

  it('uses the local calendar day, not the UTC one', () => {
    // 23:59 local is still the 24th here, whatever the UTC date is at that moment.
    expect(exportFileName('A', 'family', new Date(2026, 10, 24, 23, 59), 'png')).toBe('A-family-2026-11-24.png')
    expect(exportFileName('A', 'family', new Date(2026, 10, 24, 0, 0), 'png')).toBe('A-family-2026-11-24.png')
  })

  it('refuses an invalid date', () => {
    expect(() => exportFileName('A', 'family', new Date('not a date'), 'png')).toThrow(RangeError)
  })

  it('replaces characters file systems refuse, a run of them by one "_"', () => {
    expect(safeFileNamePart('Smith/Jones: "Trust" <2026>')).toBe('Smith_Jones_ _Trust_ _2026')
    expect(safeFileNamePart('a\\b|c?d*e')).toBe('a_b_c_d_e')
    expect(safeFileNamePart('line one\nline two\ttab')).toBe('line one_line two_tab')
    expect(safeFileNamePart('<img src=x onerror=alert(1)>')).toBe('img src=x onerror=alert(1)')
  })

  it('replaces bidirectional controls that would disguise the extension', () => {
    // U+202E RIGHT-TO-LEFT OVERRIDE would show "Chen\u202Egnp.exe" as "Chenexe.png".
    expect(safeFileNamePart('Chen\u202Egnp.exe')).toBe('Chen_gnp.exe')
    expect(safeFileNamePart('\u2067عائلة\u2069 Family')).toBe('عائلة_ Family')
  })

  it('drops leading dots and edge spaces, keeps dots inside, and names an empty result "household"', () => {
    expect(safeFileNamePart('..hidden')).toBe('hidden')
    expect(safeFileNamePart('  Chen Family.  ')).toBe('Chen Family')
    expect(safeFileNamePart('J.R. Ewing Trust')).toBe('J.R. Ewing Trust')
    expect(safeFileNamePart('')).toBe('household')
    expect(safeFileNamePart('///')).toBe('household')
    expect(safeFileNamePart(' . ')).toBe('household')
  })

  it('keeps names in any script, emoji and accents whole', () => {
    expect(safeFileNamePart('陳家 👨‍👩‍👧 Família Müller')).toBe('陳家 👨‍👩‍👧 Família Müller')
    // NFD "é" (e + U+0301) is composed to NFC "é" (U+00E9): one character the way file systems show it.
    expect(safeFileNamePart('Jose\u0301')).toBe('Jos\u00e9')
  })

  it('turns a lone surrogate into U+FFFD, which UTF-8 can hold', () => {
    expect(safeFileNamePart('A\ud800B')).toBe('A\ufffdB')
  })

  it('cuts a long name between characters, under the byte limit', () => {
    // 300 × "陳" is 900 UTF-8 bytes (3 each); 200 bytes hold 66 of them (66 × 3 = 198; a 67th makes 201).
    expect(safeFileNamePart('陳'.repeat(300))).toBe('陳'.repeat(66))
    // "👨‍👩‍👧" is 18 bytes (three 4-byte emoji and two 3-byte joiners: 3 × 4 + 2 × 3); 200 bytes hold 11 whole
    // families (11 × 18 = 198), never a broken one.
    expect(safeFileNamePart('👨‍👩‍👧'.repeat(20))).toBe('👨‍👩‍👧'.repeat(11))
    // A cut that ends on a space loses it: 199 "a" + " " + "b…" cut at 200 bytes ends in a space.
    expect(safeFileNamePart('a'.repeat(199) + ' bcd')).toBe('a'.repeat(199))
  })

  it('for any name: no unsafe character, no hidden-file dot, at most 255 bytes, never empty', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 })),
        fc.constantFrom('family', 'structure', 'estate'),
        fc.constantFrom('png', 'svg'),
        (name, view, format) => {
          const part = safeFileNamePart(name)
          expect(part.length).toBeGreaterThan(0)
          expect(utf8Bytes(part)).toBeLessThanOrEqual(MAX_NAME_BYTES)
          for (const c of [...UNSAFE_CHARS, ...BIDI_CONTROLS]) expect(part).not.toContain(c)
          expect(part).not.toMatch(/^[\s.]|\s$/u)
          const file = exportFileName(name, view, day, format)
          expect(utf8Bytes(file)).toBeLessThanOrEqual(255)
          expect(file.endsWith(`-${view}-2026-11-24.${format}`)).toBe(true)
        },
      ),
    )
  })
})
