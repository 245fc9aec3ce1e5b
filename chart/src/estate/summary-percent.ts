// A share as text that never rounds it to a different meaning: "33.33%" stays 33.33, not 33.3.
// The records API keeps shares to four decimals (numeric(7,4)), so any share it holds shows
// exactly; a share with more (a computed 100 / 3 in a partner's payload) shows four, marked "≈".
// No space before "%", as chart/src/format.ts's percent writes it on the 0.1.x cards; that
// function rounds to one decimal, so it is not reused here.

const DECIMALS = 4
const SCALE = 10 ** DECIMALS

export function shareText(share: number): string {
  const rounded = Math.round(share * SCALE) / SCALE
  if (rounded === 0 && share > 0) return `<${(1 / SCALE).toFixed(DECIMALS)}%`
  const digits = rounded.toFixed(DECIMALS).replace(/\.?0+$/u, '')
  return (rounded === share ? '' : '≈') + digits + '%'
}
