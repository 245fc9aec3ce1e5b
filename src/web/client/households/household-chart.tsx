// The household's chart: the embedded chart from the embed origin, mounted with the partner SDK
// like any partner page does, with tokens this signed-in user mints for the app's own origin.
// The payload comes from GET …/chart; when the household changes (its version moves), the
// payload is read again and the chart updated in place. Names reach the chart as data in a
// postMessage and are drawn there as text.
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { problemText } from '../format.ts'
import {
  mountHouseholdChart,
  SDK_CHART_VERSION,
  type HouseholdChartHandle,
  type HouseholdChartPayload,
} from '../../../../sdk/household-chart.ts'
import type { ChartSession } from '../../../schemas/chart-session.ts'

type ChartState =
  { kind: 'loading' } | { kind: 'needsMembers' } | { kind: 'rendered' } | { kind: 'error'; message: string }

export function HouseholdChart({
  householdId,
  householdName,
  version,
}: {
  householdId: string
  householdName: string
  version: string
}) {
  const host = useRef<HTMLDivElement>(null)
  const handle = useRef<HouseholdChartHandle | null>(null)
  const [state, setState] = useState<ChartState>({ kind: 'loading' })
  const title = `Household chart of ${householdName}`
  const titleRef = useRef(title)
  titleRef.current = title

  useEffect(() => {
    // Set when the effect is cleaned up: a late answer then leaves the chart alone. Read through a
    // function, because the compiler would otherwise keep its value from before an await.
    let cleanedUp = false
    const live = (): boolean => !cleanedUp
    const mint = async () =>
      (
        await api<ChartSession>('/api/v1/embed/chart-sessions', {
          method: 'POST',
          body: { frameOrigin: window.location.origin },
        })
      ).body

    void (async () => {
      let payload: HouseholdChartPayload
      try {
        payload = (await api<HouseholdChartPayload>(`/api/v1/relationships/${householdId}/chart`)).body
      } catch (problem) {
        if (!live()) return
        if (problem instanceof ApiProblem && problem.code === 'chart_needs_members') {
          handle.current?.destroy()
          handle.current = null
          setState({ kind: 'needsMembers' })
        } else {
          setState({ kind: 'error', message: problemText(problem) })
        }
        return
      }
      if (!live()) return
      if (handle.current) {
        handle.current.update(payload)
        return
      }
      // The first token also says where the chart is served (embedUrl); later ones are minted as the SDK asks.
      let first: ChartSession | null
      try {
        first = await mint()
      } catch (problem) {
        if (live()) setState({ kind: 'error', message: problemText(problem) })
        return
      }
      if (!live() || !host.current) return
      setState({ kind: 'loading' })
      handle.current = mountHouseholdChart({
        container: host.current,
        embedOrigin: new URL(first.embedUrl).origin,
        version: SDK_CHART_VERSION,
        title: titleRef.current,
        theme: 'system',
        payload,
        fetchToken: async () => {
          const session = first ?? (await mint())
          first = null
          return { token: session.token, expiresAt: session.expiresAt }
        },
        onEvent: (event) => {
          if (event.type === 'rendered') setState({ kind: 'rendered' })
          if (event.type === 'error') setState({ kind: 'error', message: chartErrorText(event.code, event.message) })
        },
      })
    })()
    return () => {
      cleanedUp = true
    }
  }, [householdId, version])

  useEffect(() => {
    if (handle.current) handle.current.iframe.title = title
  }, [title])

  useEffect(
    () => () => {
      handle.current?.destroy()
      handle.current = null
    },
    [],
  )

  return (
    <div class="chart-panel">
      <p class="chart-status" role="status">
        {state.kind === 'loading' && 'Loading the chart…'}
        {state.kind === 'needsMembers' && 'Add people to the household to see its chart.'}
      </p>
      {state.kind === 'error' && (
        <p class="notice error" role="alert">
          The chart could not be shown: {state.message}
        </p>
      )}
      <div
        ref={host}
        class={state.kind === 'needsMembers' ? 'chart-host is-empty' : 'chart-host'}
        data-chart-state={state.kind}
      />
    </div>
  )
}

function chartErrorText(code: string, message: string): string {
  switch (code) {
    case 'ready_timeout':
      return 'the chart service did not answer. Reload the page to try again.'
    case 'token_fetch_failed':
      return `Hearth could not open a chart session (${message}).`
    case 'token_expired':
    case 'token_invalid':
      return 'the chart session could not be verified. Reload the page to try again.'
    default:
      return message
  }
}
