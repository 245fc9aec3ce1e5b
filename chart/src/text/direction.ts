// The base direction of a label, by its first strong character (the rule of Unicode's bidirectional
// algorithm, P2–P3, and of HTML's dir="auto"). SVG text has no dir="auto", so the chart sets the
// `direction` it computes here: without it an Arabic or Hebrew name is laid out in a left-to-right
// paragraph, and the ellipsis a truncation appends at the logical end shows on the wrong (right)
// side, next to the name's first letter instead of its cut end.

export type TextDirection = 'ltr' | 'rtl'

// Scripts written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, and the
// Arabic presentation forms, which share the Arabic script property).
const RIGHT_TO_LEFT =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u
// A strong character: a letter of any script. Digits, punctuation, spaces and emoji are weak or
// neutral and do not decide.
const STRONG = /\p{L}/u

/** 'rtl' when the first letter of `text` is of a right-to-left script; 'ltr' otherwise (also with no letter). */
export function baseDirection(text: string): TextDirection {
  for (const char of text) {
    if (!STRONG.test(char)) continue
    return RIGHT_TO_LEFT.test(char) ? 'rtl' : 'ltr'
  }
  return 'ltr'
}
