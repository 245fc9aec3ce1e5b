// How an entity card states its value: what it holds directly and, when the chain adds to it, what it
// carries with its holdings ("$50M · $84.2M with holdings"), in format.ts's compact form. The
// currency symbol comes from payload 0.2.0's household currency (ISO 4217) through Intl; without one,
// no symbol, as chart 0.1.x shows values.
import { compactValue } from '../format.ts'

/** "$" for USD, "€" for EUR, "CHF " for CHF (a symbol of letters keeps a space); '' for none or an unknown code. */
export function currencyPrefix(currency: string | undefined): string {
  if (currency === undefined) return ''
  let symbol: string | undefined
  try {
    symbol = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value
  } catch {
    // Intl refuses a code that is not a well-formed ISO 4217 code: the value is shown without a symbol.
    return ''
  }
  if (symbol === undefined) return ''
  return /\p{L}$/u.test(symbol) ? `${symbol} ` : symbol
}

function money(amount: number, prefix: string): string {
  return prefix + compactValue(amount)
}

/**
 * The card's value line: the direct value, then the carried value when it reads differently; nothing
 * when the entity has no value of its own and carries none.
 */
export function valueLine(direct: number, carried: number, hasValue: boolean, prefix: string): string | undefined {
  const own = money(direct, prefix)
  const withHoldings = money(carried, prefix)
  if (own !== withHoldings) return `${own} · ${withHoldings} with holdings`
  return hasValue || carried > 0 ? own : undefined
}
