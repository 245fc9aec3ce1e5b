// Amounts as the Estate view writes them: in full ("$31,500,000", not "31.5M"), to the whole unit,
// in the household's currency when payload 0.2.0 names one and as plain grouped numbers otherwise.
// English like the rest of the chart's words, so a total reads the same on every reader's machine.
// The symbol is the narrow one, as on the cards' compact values (structure-values.ts currencyPrefix):
// a household has one currency, so "$" for CAD reads the same on a card and in the totals.

/** ISO 4217's shape: three capital letters. Intl refuses anything else with a RangeError. */
const CURRENCY_CODE = /^[A-Z]{3}$/

export function amountFormatter(currency: string | undefined): (amount: number) => string {
  const format =
    currency !== undefined && CURRENCY_CODE.test(currency)
      ? new Intl.NumberFormat('en', {
          style: 'currency',
          currency,
          currencyDisplay: 'narrowSymbol',
          minimumFractionDigits: 0,
          maximumFractionDigits: 0,
        })
      : new Intl.NumberFormat('en', { maximumFractionDigits: 0 })
  return (amount) => format.format(amount)
}
