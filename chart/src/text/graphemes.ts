// User-perceived characters (grapheme clusters): what a truncation may cut between. Cutting between
// code points instead splits an emoji sequence (👨‍👩‍👧 is five code points), a flag, or a letter and
// its combining accent, and draws a broken glyph before the ellipsis.

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/** The grapheme clusters of `text`, in logical order. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (part) => part.segment)
}
