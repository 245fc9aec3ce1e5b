// Fitting a label into the room a box gives it: the text is cut at a grapheme boundary and ends in
// an ellipsis at its logical end (drawn with the label's own direction, see direction.ts, the
// ellipsis lands on the cut side in both directions). A label with a tail that carries meaning — a
// share ("40 %"), a year ("b. 1951") — keeps the tail whole and cuts only the name: "beneficiary
// 33.…" must never be drawn, "Elizabeth Montgo… 40 %" may.
import { graphemes } from './graphemes.ts'

/** Width of `text` in CSS px, in the font the label is drawn with (measure.ts). */
export type MeasureText = (text: string) => number

export const ELLIPSIS = '…'

export interface FittedText {
  text: string
  /** Whether anything was cut. */
  cut: boolean
}

/** Collapses runs of white space, as SVG text shows them. */
function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * `text` whole when it fits in `max` px; otherwise the longest run of its first grapheme clusters
 * that fits with an ellipsis after it (trailing spaces dropped), or the ellipsis alone when not even
 * one cluster fits, or '' when not even the ellipsis fits.
 */
export function fitText(text: string, max: number, measure: MeasureText): FittedText {
  const whole = normalized(text)
  if (measure(whole) <= max) return { text: whole, cut: false }
  const clusters = graphemes(whole)
  // Binary search for the longest prefix that fits with the ellipsis: measure() of a prefix grows
  // with its length (advances are never negative), and a label can be long.
  let low = 0
  let high = clusters.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    const candidate = clusters.slice(0, middle).join('').trimEnd() + ELLIPSIS
    if (measure(candidate) <= max) low = middle
    else high = middle - 1
  }
  if (low === 0) return { text: measure(ELLIPSIS) <= max ? ELLIPSIS : '', cut: true }
  return { text: clusters.slice(0, low).join('').trimEnd() + ELLIPSIS, cut: true }
}

export interface FittedLabel {
  /** The name as drawn: whole, cut with an ellipsis, or '' when only the tail has room. */
  name: string
  /** The tail, always whole. */
  tail: string
  /** The whole line: name, separator and tail (or the tail alone). */
  text: string
  cut: boolean
  /** The tail alone is wider than `max`: the caller must give the line more room or drop it. */
  overflows: boolean
}

/**
 * A name followed by a tail that is never cut ("David Chen · 40 %"): the name gives way first,
 * down to nothing, and the tail is kept whole even when it alone does not fit (then `overflows`
 * says so: a share or a year is never shortened into something that reads as another number).
 */
export function fitWithTail(
  name: string,
  tail: string,
  max: number,
  measure: MeasureText,
  separator = ' ',
): FittedLabel {
  const wholeName = normalized(name)
  const wholeTail = normalized(tail)
  if (wholeTail === '') {
    const fitted = fitText(wholeName, max, measure)
    return { name: fitted.text, tail: '', text: fitted.text, cut: fitted.cut, overflows: false }
  }
  const whole = wholeName === '' ? wholeTail : wholeName + separator + wholeTail
  if (measure(whole) <= max) return { name: wholeName, tail: wholeTail, text: whole, cut: false, overflows: false }
  const tailWidth = measure(separator + wholeTail)
  const fitted = fitText(wholeName, max - tailWidth, measure)
  // A name cut to the ellipsis alone says nothing: then the tail stands alone.
  if (fitted.text === '' || fitted.text === ELLIPSIS) {
    return { name: '', tail: wholeTail, text: wholeTail, cut: true, overflows: measure(wholeTail) > max }
  }
  return { name: fitted.text, tail: wholeTail, text: fitted.text + separator + wholeTail, cut: true, overflows: false }
}
