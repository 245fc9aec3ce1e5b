import { describe, expect, it } from 'vitest'
import { findJsonProblem, hasAtMostTwoDecimals, isPastCalendarDate } from '../../src/domain/household-input.ts'
import { NO_OPTIONAL_FIELDS, checkCreateBody, checkPatchBody } from '../../src/households/household-fields.ts'

describe('household create rules', () => {
  it('trims the name and sets omitted fields to null, and currency to USD', () => {
    expect(checkCreateBody({ name: '  The Smiths  ' })).toEqual({
      ok: true,
      fields: { name: 'The Smiths', ...NO_OPTIONAL_FIELDS },
    })
    const { currency, ...others } = NO_OPTIONAL_FIELDS
    expect(currency).toBe('USD')
    expect(Object.values(others).every((value) => value === null)).toBe(true)
    expect(checkCreateBody({ name: 'x', currency: null })).toMatchObject({ ok: true, fields: { currency: 'USD' } })
  })

  it('refuses a patch that clears currency, saying to send a code', () => {
    expect(checkPatchBody({ currency: null })).toEqual({
      ok: false,
      field: 'currency',
      message: expect.stringContaining('send an ISO 4217 currency code') as unknown,
    })
    expect(checkPatchBody({ currency: 'EUR', portabilityElected: null })).toEqual({
      ok: true,
      fields: { currency: 'EUR', portabilityElected: null },
    })
  })

  it('refuses blank, over-long and control-character names', () => {
    expect(checkCreateBody({ name: '   ' })).toMatchObject({ ok: false, message: 'name must not be blank' })
    expect(checkCreateBody({ name: 'x'.repeat(201) })).toMatchObject({
      ok: false,
      message: expect.stringContaining('200'),
    })
    expect(checkCreateBody({ name: ` ${'x'.repeat(200)} ` })).toMatchObject({ ok: true })
    expect(checkCreateBody({ name: 'a\u0000b' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('control'),
    })
    expect(checkCreateBody({ name: 'ok', deceasedSpouseName: ' ' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('deceasedSpouseName'),
    })
  })

  it('allows at most two decimals in amounts', () => {
    for (const ok of [0, 1, 0.5, 0.07, 12.34, 999_999_999_999.99, 1e12])
      expect(hasAtMostTwoDecimals(ok), String(ok)).toBe(true)
    for (const bad of [0.001, 1.234, 1e-7, 0.1 + 0.2]) expect(hasAtMostTwoDecimals(bad), String(bad)).toBe(false)
  })

  it('accepts only real calendar dates that are not in the future', () => {
    const now = new Date('2026-11-21T12:00:00Z')
    expect(isPastCalendarDate('2024-02-29', now)).toBe(true)
    expect(isPastCalendarDate('2023-02-29', now)).toBe(false)
    expect(isPastCalendarDate('2021-13-01', now)).toBe(false)
    expect(isPastCalendarDate('2026-11-22', now)).toBe(true) // already the 22nd in UTC+14
    expect(isPastCalendarDate('2026-11-23', now)).toBe(false)
    expect(isPastCalendarDate('1799-12-31', now)).toBe(false)
    expect(isPastCalendarDate('2021-3-1', now)).toBe(false)
  })

  it('limits metadata to 16 KB and 8 levels', () => {
    expect(findJsonProblem({ a: { b: { c: 1 } } }, 3)).toBeUndefined()
    expect(findJsonProblem({ a: { b: { c: {} } } }, 3)).toBe('too_deep')
    expect(findJsonProblem({ a: [[1]] }, 2)).toBe('too_deep')
    const deep = (levels: number): Record<string, unknown> =>
      levels === 1 ? { leaf: true } : { next: deep(levels - 1) }
    expect(checkCreateBody({ name: 'x', metadata: deep(8) })).toMatchObject({ ok: true })
    expect(checkCreateBody({ name: 'x', metadata: deep(9) })).toMatchObject({
      ok: false,
      message: expect.stringContaining('8 levels'),
    })
    expect(checkCreateBody({ name: 'x', metadata: { blob: 'x'.repeat(16 * 1024) } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('16384'),
    })
  })

  it('survives metadata nested far deeper than any stack', () => {
    let deepest: unknown = 1
    for (let i = 0; i < 500_000; i++) deepest = [deepest]
    expect(checkCreateBody({ name: 'x', metadata: { deepest } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('8 levels'),
    })
  })

  it('refuses text PostgreSQL cannot store', () => {
    for (const metadata of [{ a: 'nul\u0000' }, { ['k\u0000']: 1 }, { a: ['\ud800'] }, { ['\udc00']: 1 }]) {
      expect(checkCreateBody({ name: 'x', metadata }), JSON.stringify(metadata)).toMatchObject({
        ok: false,
        message: expect.stringContaining('broken Unicode'),
      })
    }
    expect(checkCreateBody({ name: 'a\ud800b' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('broken Unicode'),
    })
    expect(checkCreateBody({ name: 'x', metadata: { emoji: '👪', ['ключ']: 'значение' } })).toMatchObject({ ok: true })
  })
})
