/** @jsxImportSource react */
// <HouseholdChart>: the household chart as a React component, mounted with the SDK's mountHouseholdChart.
import { useEffect, useLayoutEffect, useRef, type CSSProperties, type ReactElement, type Ref } from 'react'
import {
  mountHouseholdChart,
  type ChartEvent,
  type HouseholdChartAppearance,
  type HouseholdChartHandle,
  type HouseholdChartToken,
  type MountHouseholdChartOptions,
} from './index.ts'

export interface HouseholdChartProps extends Omit<MountHouseholdChartOptions, 'container'> {
  /** The element that holds the chart's iframe: a div with these class and style. */
  className?: string
  style?: CSSProperties
  /**
   * The mounted chart's handle, for setView, focus, print and `ready`: set when the chart is mounted,
   * null when it is destroyed (a ref object or a callback).
   */
  chartRef?: Ref<HouseholdChartHandle>
}

/**
 * The household chart, mounted into a div when the component mounts and destroyed when it unmounts.
 *
 *   <HouseholdChart
 *     embedOrigin="https://embed.hearth.example"
 *     title="Household chart of the Chen family"
 *     fetchToken={() => fetch('/chart-token', { method: 'POST' }).then((r) => r.json())}
 *     payload={payload}
 *     theme="dark"
 *     onEvent={(event) => event.type === 'select' && showDetails(event.id)}
 *   />
 *
 * A new payload (by value: the same JSON in a new object does nothing) is rendered with
 * handle.update, a new theme with setTheme and a new appearance with setAppearance, without a new
 * iframe; a new title renames the iframe. A new embedOrigin, version or readyTimeoutMs mounts the
 * chart again. fetchToken and onEvent may be new functions on every render: the latest ones are called.
 * Removing `theme` keeps the theme the chart has; removing `appearance` goes back to the chart's own.
 */
export function HouseholdChart(props: HouseholdChartProps): ReactElement {
  const { embedOrigin, version, readyTimeoutMs, title, payload, theme, appearance, className, style } = props
  const container = useRef<HTMLDivElement>(null)
  const handle = useRef<HouseholdChartHandle | null>(null)
  // What the mounted chart was last given, by value, so that effects send only what changed.
  const sent = useRef<{ payload: string; theme: string | undefined; appearance: string | undefined }>(undefined)
  // The latest props, read by the callbacks the chart holds and by the mount (which happens once per origin and version).
  const latest = useRef(props)
  useLayoutEffect(() => {
    latest.current = props
  })

  useEffect(() => {
    const element = container.current
    if (!element) return
    const current = latest.current
    const options: MountHouseholdChartOptions = {
      container: element,
      embedOrigin,
      title: current.title,
      payload: current.payload,
      fetchToken: (): Promise<HouseholdChartToken> => latest.current.fetchToken(),
      onEvent: (event: ChartEvent) => latest.current.onEvent?.(event),
    }
    if (version !== undefined) options.version = version
    if (readyTimeoutMs !== undefined) options.readyTimeoutMs = readyTimeoutMs
    if (current.theme !== undefined) options.theme = current.theme
    if (current.appearance !== undefined) options.appearance = current.appearance
    const mounted = mountHouseholdChart(options)
    handle.current = mounted
    sent.current = {
      payload: JSON.stringify(current.payload),
      theme: current.theme,
      appearance: jsonOf(current.appearance),
    }
    assignRef(current.chartRef, mounted)
    return () => {
      mounted.destroy()
      if (handle.current === mounted) handle.current = null
      sent.current = undefined
      assignRef(current.chartRef, null)
    }
  }, [embedOrigin, version, readyTimeoutMs])

  useEffect(() => {
    if (handle.current && handle.current.iframe.title !== title) handle.current.iframe.title = title
  }, [title])

  useEffect(() => {
    const json = JSON.stringify(payload)
    if (!handle.current || !sent.current || sent.current.payload === json) return
    sent.current.payload = json
    handle.current.update(payload)
  }, [payload])

  useEffect(() => {
    if (!handle.current || !sent.current || sent.current.theme === theme) return
    sent.current.theme = theme
    if (theme !== undefined) handle.current.setTheme(theme)
  }, [theme])

  useEffect(() => {
    const json = jsonOf(appearance)
    if (!handle.current || !sent.current || sent.current.appearance === json) return
    sent.current.appearance = json
    handle.current.setAppearance(appearance ?? NO_APPEARANCE)
  }, [appearance])

  return <div ref={container} className={className} style={style} />
}

/** The chart's own font, accent and corners. */
const NO_APPEARANCE: HouseholdChartAppearance = {}

function jsonOf(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value)
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value)
  else if (ref) ref.current = value
}
