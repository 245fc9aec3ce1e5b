// The two ways the chart writes an amount, in full (the totals, the strip) and compact (the cards,
// the summaries), name a currency by the same symbol.
import { describe, expect, it } from 'vitest'
import { amountFormatter } from '../../chart/src/views/amount-format.ts'
import { currencyPrefix } from '../../chart/src/structure/structure-values.ts'

describe('amounts in the household currency', () => {
  it.each([
    ['USD', '$1,500,000', '$'],
    ['CAD', '$1,500,000', '$'],
    ['EUR', '€1,500,000', '€'],
    ['CHF', 'CHF 1,500,000', 'CHF '],
  ])('%s: in full %s, and the compact values take the same symbol', (currency, full, prefix) => {
    expect(amountFormatter(currency)(1_500_000).replace(/\u00a0/g, ' ')).toBe(full)
    expect(currencyPrefix(currency)).toBe(prefix)
    expect(full.startsWith(prefix)).toBe(true)
  })

  it('writes plain grouped numbers without a currency', () => {
    expect(amountFormatter(undefined)(1_500_000)).toBe('1,500,000')
    expect(currencyPrefix(undefined)).toBe('')
  })
})
