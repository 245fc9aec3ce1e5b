// A small grouped bar chart in hand-written SVG (no chart library: the web app's first load stays
// small): one group per category (a day), one bar per series (minted, rendered), a y axis with a
// few round ticks, x labels thinned out to fit, axis titles and a legend. The SVG is one image to
// assistive technology (role="img", its aria-label summing it up, <title> and <desc>); the numbers
// themselves are in a table next to it, which is the accessible alternative. Colours come from
// classes (app.css), so they follow light and dark and the CSP (no inline styles).

export interface BarSeries {
  key: string
  /** "Tokens minted": the legend and each bar's tooltip. */
  label: string
  /** The bar's class, e.g. "bar-mints" (fill set in app.css). */
  class: string
  /** One value per category, in order. */
  values: number[]
}

export interface BarChartProps {
  /** The chart's name (<title>). */
  title: string
  /** What it shows, in a sentence or two with the totals: <desc> and aria-label. */
  summary: string
  categories: string[]
  /** A category as a tick label ("Jan 5"). */
  tickLabel: (category: string) => string
  /** A category in full, for a bar's tooltip ("Jan 5, 2026"). */
  categoryName: (category: string) => string
  series: BarSeries[]
  xTitle: string
  yTitle: string
}

const WIDTH = 720
const HEIGHT = 280
const MARGIN = { top: 14, right: 12, bottom: 56, left: 58 }
const MAX_TICK_LABELS = 10

/** A round step and top for a y axis from 0 to at least max, with about `ticks` steps. */
function niceScale(max: number, ticks = 4): { step: number; top: number } {
  if (!(max > 0)) return { step: 1, top: 1 }
  const raw = max / ticks
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = Math.max(1, Math.ceil([1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw))
  return { step, top: step * Math.ceil(max / step) }
}

const numberFormat = new Intl.NumberFormat()

export function BarChart({
  title,
  summary,
  categories,
  tickLabel,
  categoryName,
  series,
  xTitle,
  yTitle,
}: BarChartProps) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom
  const bottom = MARGIN.top + plotHeight
  const max = Math.max(0, ...series.flatMap((s) => s.values))
  const { step, top } = niceScale(max)
  const y = (value: number) => bottom - (value / top) * plotHeight
  const groupWidth = plotWidth / Math.max(1, categories.length)
  const groupPadding = Math.min(groupWidth * 0.25, 12)
  const barWidth = (groupWidth - groupPadding) / Math.max(1, series.length)
  const every = Math.max(1, Math.ceil(categories.length / MAX_TICK_LABELS))
  const ticks: number[] = []
  for (let value = 0; value <= top; value += step) ticks.push(value)

  return (
    <div class="bar-chart-wrap">
      <ul class="chart-legend">
        {series.map((s) => (
          <li key={s.key}>
            <svg class="legend-swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
              <rect class={`swatch ${s.class}`} x="0" y="0" width="14" height="14" rx="2" />
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
      <svg
        class="bar-chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={summary}
        focusable="false"
      >
        <title>{title}</title>
        <desc>{summary}</desc>
        <g class="grid">
          {ticks.map((value) => (
            <g key={value}>
              <line
                class={value === 0 ? 'axis-line' : 'grid-line'}
                x1={MARGIN.left}
                x2={WIDTH - MARGIN.right}
                y1={y(value)}
                y2={y(value)}
              />
              <text class="tick-label" x={MARGIN.left - 8} y={y(value)} dy="0.32em" text-anchor="end" font-size="12">
                {numberFormat.format(value)}
              </text>
            </g>
          ))}
        </g>
        <g class="bars">
          {categories.map((category, i) => {
            const groupX = MARGIN.left + i * groupWidth + groupPadding / 2
            return (
              <g key={category} data-category={category}>
                {series.map((s, j) => {
                  const value = s.values[i] ?? 0
                  if (value <= 0) return null
                  // At least a sliver, so that a 1 beside a 1000 still shows.
                  const height = Math.max(1.5, bottom - y(value))
                  return (
                    <rect
                      key={s.key}
                      class={`bar ${s.class}`}
                      x={groupX + j * barWidth}
                      y={bottom - height}
                      width={Math.max(1, barWidth - 1)}
                      height={height}
                      data-value={value}
                    >
                      <title>{`${categoryName(category)}: ${numberFormat.format(value)} — ${s.label.toLowerCase()}`}</title>
                    </rect>
                  )
                })}
              </g>
            )
          })}
        </g>
        <g class="x-ticks">
          {categories.map((category, i) =>
            (categories.length - 1 - i) % every === 0 ? (
              <text
                key={category}
                class="tick-label"
                x={MARGIN.left + (i + 0.5) * groupWidth}
                y={bottom + 18}
                text-anchor="middle"
                font-size="12"
              >
                {tickLabel(category)}
              </text>
            ) : null,
          )}
        </g>
        <text class="axis-title" x={MARGIN.left + plotWidth / 2} y={HEIGHT - 8} text-anchor="middle" font-size="13">
          {xTitle}
        </text>
        <text
          class="axis-title"
          transform={`translate(16 ${MARGIN.top + plotHeight / 2}) rotate(-90)`}
          text-anchor="middle"
          font-size="13"
        >
          {yTitle}
        </text>
      </svg>
    </div>
  )
}
