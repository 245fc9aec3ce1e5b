import { describe, expect, it } from 'vitest'
import { likeLiteral, toListing, LIST_DEFAULTS } from '../../src/domain/listing.ts'

describe('listing query model', () => {
  it('applies the documented defaults', () => {
    expect(toListing({})).toEqual({ ok: true, listing: { ...LIST_DEFAULTS, sample: 'all' } })
    expect(LIST_DEFAULTS).toEqual({ page: 1, pageSize: 50, sortBy: 'createdAt', sortOrder: 'desc' })
  })

  it('maps the sample flags', () => {
    const sample = (query: Parameters<typeof toListing>[0]) => {
      const result = toListing(query)
      return result.ok ? result.listing.sample : result.message
    }
    expect(sample({ isSample: true })).toBe('only')
    expect(sample({ isSample: false })).toBe('exclude')
    expect(sample({ excludeSample: true })).toBe('exclude')
    expect(sample({ excludeSample: false })).toBe('all')
    expect(sample({ isSample: false, excludeSample: true })).toBe('exclude')
    expect(sample({ isSample: true, excludeSample: true })).toMatch(/contradict/)
  })

  it('trims search and treats blank as no filter', () => {
    const result = toListing({ search: '  smi  ' })
    expect(result.ok && result.listing.search).toBe('smi')
    const blank = toListing({ search: '   ' })
    expect(blank.ok && 'search' in blank.listing).toBe(false)
  })

  it('takes ids repeated and comma-separated, de-duplicated and lower-cased', () => {
    const a = '6f1c2a9e-0000-4000-8000-000000000001'
    const b = '6F1C2A9E-0000-4000-8000-000000000002'
    const result = toListing({ ids: [`${a},${b}`, a] })
    expect(result.ok && result.listing.ids).toEqual([a, b.toLowerCase()])
  })

  it('refuses malformed ids and too many ids', () => {
    expect(toListing({ ids: ['not-a-uuid'] })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not-a-uuid'),
    })
    expect(toListing({ ids: [''] })).toMatchObject({ ok: false })
    const many = Array.from({ length: 1001 }, (_, i) => `6f1c2a9e-0000-4000-8000-${String(i).padStart(12, '0')}`)
    expect(toListing({ ids: many })).toMatchObject({ ok: false, message: expect.stringContaining('1000') })
  })

  it('refuses non-finite page numbers and text the database cannot store', () => {
    expect(toListing({ page: Number.POSITIVE_INFINITY })).toMatchObject({
      ok: false,
      message: 'page must be a whole number',
    })
    expect(toListing({ pageSize: Number.POSITIVE_INFINITY })).toMatchObject({ ok: false })
    expect(toListing({ search: 'a\u0000b' })).toMatchObject({ ok: false, message: expect.stringContaining('NUL') })
    expect(toListing({ search: '\ud800' })).toMatchObject({ ok: false })
  })

  it('escapes LIKE wildcards so that search is literal', () => {
    expect(likeLiteral('50%_off\\')).toBe('50\\%\\_off\\\\')
  })
})
