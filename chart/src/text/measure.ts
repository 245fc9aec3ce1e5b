// Measuring label text the way the browser will draw it. The 0.1.x chart estimated widths with a
// per-character model (format.ts's textWidth), which over- or under-counts emoji, CJK and the many
// faces behind `system-ui`, so labels were cut too early or ran past their box. In the browser the
// chart measures with a 2D canvas in the font the label is drawn with (the same shaping engine as
// the SVG text), memoized per font and text because a layout measures the same names many times.
import type { MeasureText } from './fit-text.ts'

/** A CSS font shorthand for canvas: "650 15px system-ui, sans-serif". */
export function cssFont(sizePx: number, weight: number, family: string): string {
  return `${String(weight)} ${String(sizePx)}px ${family}`
}

interface TextMetricsContext {
  font: string
  measureText(text: string): { width: number }
}

/** The 2D context measurements are made with; one per page. */
let context: TextMetricsContext | null = null

function measuringContext(): TextMetricsContext {
  if (context) return context
  const found: TextMetricsContext | null =
    typeof OffscreenCanvas === 'function'
      ? new OffscreenCanvas(1, 1).getContext('2d')
      : document.createElement('canvas').getContext('2d')
  if (!found) throw new Error('This browser gives no 2D canvas to measure text with.')
  context = found
  return found
}

const cache = new Map<string, Map<string, number>>()

/** Measures text in `font` (a CSS font shorthand, see cssFont) with the browser's own shaping. */
export function canvasMeasure(font: string): MeasureText {
  let widths = cache.get(font)
  if (!widths) {
    widths = new Map()
    cache.set(font, widths)
  }
  const known = widths
  return (text) => {
    const seen = known.get(text)
    if (seen !== undefined) return seen
    const measuring = measuringContext()
    measuring.font = font
    const width = measuring.measureText(text).width
    known.set(text, width)
    return width
  }
}
