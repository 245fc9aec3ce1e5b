// /admin/usage: what the organization used over the last 7, 30 or 90 days (the period is in the
// URL, ?days=7, so a bookmark keeps meaning "the last 7 days"). Chart tokens minted and charts
// rendered per day for each frame origin, drawn as a bar chart with the numbers in a table; API
// calls per key over the period and per day, with the calls on the deprecated /api/v1/households
// paths apart, so that integrations still on them can be found and moved.
import { PageHeading } from '../components/page-heading.tsx'
import { Field } from '../components/fields.tsx'
import { navigate, useLocation } from '../router.ts'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { Loading } from '../components/load-states.tsx'
import { BarChart } from '../components/bar-chart.tsx'
import { formatCount, formatDay, plural } from '../format.ts'
import {
  busiest,
  callsByKey,
  callsPerDay,
  chartByOrigin,
  daysOf,
  periodOf,
  PERIODS,
  usageUrl,
  type OriginUsage,
  type Period,
} from '../organization/usage-data.ts'
import type { ApiCallsRow, Usage } from '../../../schemas/organization.ts'

export function OrganizationUsagePage() {
  const location = useLocation()
  const period = periodOf(location.query)
  const days = daysOf(period)
  const since = days[0] ?? ''
  const today = days[days.length - 1] ?? ''
  const usage = useApiData<Usage>(`/api/v1/usage?since=${since}`)
  // While another period loads, the last report stays, marked busy, until the new one arrives.
  const report = usage.data
  const shownDays = report && report.since !== since ? daysFrom(report.since, today) : days
  const busy = usage.loading ? 'true' : 'false'

  return (
    <section class="admin-page admin-usage">
      <PageHeading title="Usage">Usage</PageHeading>
      <p class="admin-intro">
        What your embeds and API keys used, per day (UTC). Counts are written every few seconds, so the last moments may
        not show yet.
      </p>

      <div class="toolbar usage-controls">
        <Field id="usage-period" label="Period">
          {(a11y) => (
            <select
              {...a11y}
              value={String(period)}
              onChange={(event) => navigate(usageUrl(Number(event.currentTarget.value) as Period))}
            >
              {PERIODS.map((days) => (
                <option key={days} value={String(days)}>
                  Last {days} days
                </option>
              ))}
            </select>
          )}
        </Field>
        <div class="field">
          <button type="button" onClick={usage.reload} disabled={usage.loading}>
            {usage.loading && report ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      <p class="muted usage-range" role="status" aria-live="polite">
        {usage.loading
          ? `Loading usage from ${formatDay(since)} to ${formatDay(today)}…`
          : `From ${formatDay(since)} to ${formatDay(today)} (UTC).`}
      </p>

      {usage.error && <LoadError what="The usage" error={usage.error} onRetry={usage.reload} />}

      <section class="admin-section" aria-labelledby="chart-usage-title" aria-busy={busy}>
        <h2 id="chart-usage-title" class="section-heading">
          Chart
        </h2>
        {!report && usage.loading && <Loading>Loading chart usage…</Loading>}
        {report && <ChartUsage rows={report.chart} days={shownDays} />}
      </section>

      <section class="admin-section" aria-labelledby="api-usage-title" aria-busy={busy}>
        <h2 id="api-usage-title" class="section-heading">
          API calls
        </h2>
        {!report && usage.loading && <Loading>Loading API calls…</Loading>}
        {report && <ApiCallsUsage rows={report.apiCalls} days={shownDays} />}
      </section>
    </section>
  )
}

function daysFrom(since: string, today: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(`${since}T00:00:00Z`); out.length < 400; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10)
    out.push(day)
    if (day >= today) break
  }
  return out
}

function ChartUsage({ rows, days }: { rows: Usage['chart']; days: string[] }) {
  const origins = chartByOrigin(rows, days)
  if (origins.length === 0) {
    return (
      <div class="empty">
        <p>No chart renders in this period.</p>
        <p>
          No chart tokens were minted for any embed origin between {formatDay(days[0] ?? '')} and{' '}
          {formatDay(days[days.length - 1] ?? '')}.
        </p>
      </div>
    )
  }
  const mints = origins.reduce((sum, o) => sum + o.mints, 0)
  const renders = origins.reduce((sum, o) => sum + o.renders, 0)
  return (
    <>
      <div class="table-scroll">
        <table class="admin-table usage-totals chart-totals">
          <caption>Totals per embed origin</caption>
          <thead>
            <tr>
              <th scope="col">Embed origin</th>
              <th scope="col" class="number">
                Tokens minted
              </th>
              <th scope="col" class="number">
                Charts rendered
              </th>
            </tr>
          </thead>
          <tbody>
            {origins.map((origin) => (
              <tr key={origin.origin}>
                <th scope="row">
                  <code class="mono">{origin.origin}</code>
                </th>
                <td class="number">{formatCount(origin.mints)}</td>
                <td class="number">{formatCount(origin.renders)}</td>
              </tr>
            ))}
          </tbody>
          {origins.length > 1 && (
            <tfoot>
              <tr>
                <th scope="row">All origins</th>
                <td class="number">{formatCount(mints)}</td>
                <td class="number">{formatCount(renders)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {origins.map((origin, i) => (
        <OriginChart key={origin.origin} usage={origin} days={days} index={i} />
      ))}
    </>
  )
}

function OriginChart({ usage, days, index }: { usage: OriginUsage; days: string[]; index: number }) {
  const peak = busiest(days, usage.mintsPerDay)
  const range = `${formatDay(days[0] ?? '')} to ${formatDay(days[days.length - 1] ?? '')}`
  const summary =
    `Chart tokens for ${usage.origin} per day from ${range}: ${plural(usage.mints, 'token')} minted and ${plural(usage.renders, 'chart')} rendered in all` +
    (peak ? `; the most minted on ${formatDay(peak.day)} (${formatCount(peak.value)}).` : '.')
  const headingId = `origin-chart-${index}`
  return (
    <figure class="usage-figure" aria-labelledby={headingId} data-origin={usage.origin}>
      <h3 id={headingId} class="usage-figure-title">
        <code class="mono">{usage.origin}</code>
      </h3>
      <BarChart
        title={`Chart tokens minted and rendered per day for ${usage.origin}`}
        summary={summary}
        categories={days}
        tickLabel={(day) => formatDay(day, true)}
        categoryName={(day) => formatDay(day)}
        series={[
          { key: 'mints', label: 'Tokens minted', class: 'bar-mints', values: usage.mintsPerDay },
          { key: 'renders', label: 'Charts rendered', class: 'bar-renders', values: usage.rendersPerDay },
        ]}
        xTitle="Day (UTC)"
        yTitle="Tokens"
      />
      <details class="usage-details">
        <summary>
          Numbers per day for <span class="mono">{usage.origin}</span>
        </summary>
        <div class="table-scroll">
          <table class="admin-table usage-per-day">
            <caption class="visually-hidden">
              Chart tokens minted and charts rendered per day for {usage.origin}; days without either are left out
            </caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" class="number">
                  Tokens minted
                </th>
                <th scope="col" class="number">
                  Charts rendered
                </th>
              </tr>
            </thead>
            <tbody>
              {usage.rows.map((row) => (
                <tr key={row.day}>
                  <th scope="row">
                    <time dateTime={row.day}>{formatDay(row.day)}</time>
                  </th>
                  <td class="number">{formatCount(row.mints)}</td>
                  <td class="number">{formatCount(row.renders)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}

function ApiCallsUsage({ rows, days }: { rows: ApiCallsRow[]; days: string[] }) {
  const keys = callsByKey(rows)
  if (keys.length === 0) {
    return (
      <div class="empty">
        <p>No API calls with a key in this period.</p>
      </div>
    )
  }
  const calls = keys.reduce((sum, k) => sum + k.calls, 0)
  const legacy = keys.reduce((sum, k) => sum + k.legacyCalls, 0)
  const perDay = callsPerDay(rows, days)
  const peak = busiest(days, perDay.calls)
  const range = `${formatDay(days[0] ?? '')} to ${formatDay(days[days.length - 1] ?? '')}`
  const legacyKeys = keys.filter((k) => k.legacyCalls > 0)
  return (
    <>
      {legacy > 0 && (
        <div class="notice legacy-notice">
          <p>
            <strong>{plural(legacy, 'call')}</strong> used the deprecated <code class="mono">/api/v1/households</code>{' '}
            paths, with {legacyKeys.length === 1 ? 'the key ' : 'the keys '}
            {legacyKeys.map((k, i) => (
              <span key={k.keyId}>
                {i > 0 ? ', ' : ''}“{k.keyName}”
              </span>
            ))}
            . Those integrations should move to <code class="mono">/api/v1/relationships</code>, which answers the same.
          </p>
        </div>
      )}
      <div class="table-scroll">
        <table class="admin-table usage-totals api-totals">
          <caption>Calls per key over the period</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col" class="number">
                Calls
              </th>
              <th scope="col" class="number">
                Of which legacy <span class="mono">/api/v1/households</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.keyId} data-key-id={key.keyId}>
                <th scope="row">
                  {key.keyName} <code class="mono muted">{key.keyPrefix}…</code>
                </th>
                <td class="number">{formatCount(key.calls)}</td>
                <td class={key.legacyCalls > 0 ? 'number legacy-count' : 'number'}>{formatCount(key.legacyCalls)}</td>
              </tr>
            ))}
          </tbody>
          {keys.length > 1 && (
            <tfoot>
              <tr>
                <th scope="row">All keys</th>
                <td class="number">{formatCount(calls)}</td>
                <td class="number">{formatCount(legacy)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <figure class="usage-figure" aria-labelledby="api-calls-chart-title">
        <h3 id="api-calls-chart-title" class="usage-figure-title">
          Calls per day, all keys
        </h3>
        <BarChart
          title="API calls per day, all keys"
          summary={
            `API calls with keys per day from ${range}: ${plural(calls, 'call')} in all, ${formatCount(legacy)} of them on the legacy households paths` +
            (peak ? `; the most on ${formatDay(peak.day)} (${formatCount(peak.value)}).` : '.')
          }
          categories={days}
          tickLabel={(day) => formatDay(day, true)}
          categoryName={(day) => formatDay(day)}
          series={[
            { key: 'calls', label: 'Calls', class: 'bar-calls', values: perDay.calls },
            { key: 'legacy', label: 'Of which legacy', class: 'bar-legacy', values: perDay.legacy },
          ]}
          xTitle="Day (UTC)"
          yTitle="Calls"
        />
        <details class="usage-details">
          <summary>Calls per day and key</summary>
          <div class="table-scroll">
            <table class="admin-table usage-per-day api-per-day">
              <caption class="visually-hidden">API calls per day and key; days without calls are left out</caption>
              <thead>
                <tr>
                  <th scope="col">Day (UTC)</th>
                  <th scope="col">Key</th>
                  <th scope="col" class="number">
                    Calls
                  </th>
                  <th scope="col" class="number">
                    Of which legacy
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={`${row.day} ${row.keyId}`}>
                    <th scope="row">
                      <time dateTime={row.day}>{formatDay(row.day)}</time>
                    </th>
                    <td>
                      {row.keyName} <code class="mono muted">{row.keyPrefix}…</code>
                    </td>
                    <td class="number">{formatCount(row.calls)}</td>
                    <td class="number">{formatCount(row.legacyCalls)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </figure>
    </>
  )
}
