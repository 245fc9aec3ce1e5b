// `npm run bench:chart`: the embedded chart's budget. Prints a markdown report on stdout:
// - the bundle as served (minified, and gzip -9 as a CDN would send it) against the 40 KB target;
// - layout time alone in Node for the example and a 500-person, 100-entity household, each as a
//   ratio to structuredClone of the same payload measured in the same run;
// - render → rendered in real Chromium (the full protocol: token checks, validation, layout, SVG)
//   for both households, with a one-person household as the same-run reference.
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { launchChromium } from '../../test/helpers/browser.ts'
import { buildChartRelease } from '../../chart/build.ts'
import { CHART_VERSION } from '../../chart/version.ts'
import type { Payload } from '../../chart/payload.ts'
import { layoutChart } from '../../chart/src/layout.ts'
import { openStore } from '../../src/store/db.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { recordChartMint } from '../../src/store/chart-mints.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { chartFile, type ChartReleases } from '../../src/embed/releases.ts'
import { loadChartSigner, mintChartToken } from '../../src/embed/tokens.ts'
import { generateHousehold } from './generate.ts'

const log = (line: string) => console.error(line)
const TARGETS = { bundleGzipBytes: 40 * 1024, exampleMs: 100, largeMs: 500 }
const RENDERS = 15

const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload
const large = generateHousehold(500, 100, 1)
const single: Payload = {
  household: { name: 'Reference' },
  people: [{ id: 'p', name: 'Ada Reference', role: 'primaryClient' }],
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

function timeMedian(run: () => unknown, repetitions: number): number {
  for (let i = 0; i < 5; i++) run()
  const samples: number[] = []
  for (let i = 0; i < repetitions; i++) {
    const start = performance.now()
    run()
    samples.push(performance.now() - start)
  }
  return median(samples)
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`

async function bundleReport(): Promise<{ lines: string[]; releases: ChartReleases }> {
  const release = await buildChartRelease(CHART_VERSION)
  const releases: ChartReleases = new Map()
  const lines = ['| file | minified | gzip -9 |', '|---|---:|---:|']
  let total = 0
  for (const [name, bytes] of release) {
    const file = chartFile(name, Buffer.from(bytes))
    if (file) releases.set(`/chart/v${CHART_VERSION}/${name}`, file)
    if (!/^(index\.html|chart-.*)$/.test(name)) continue
    const gzip = gzipSync(bytes, { level: 9 }).length
    total += gzip
    lines.push(`| ${name} | ${kb(bytes.length)} | ${kb(gzip)} |`)
  }
  lines.push(
    `| **what a page load transfers** | | **${kb(total)}** (target ≤ ${kb(TARGETS.bundleGzipBytes)}: ${((total / TARGETS.bundleGzipBytes) * 100).toFixed(0)} % of it) |`,
  )
  return { lines, releases }
}

function layoutReport(): string[] {
  const lines = ['| household | layout (median) | structuredClone of it | ratio |', '|---|---:|---:|---:|']
  for (const [name, payload, repetitions] of [
    ['example (13 people, 5 entities)', example, 200],
    ['generated (500 people, 100 entities)', large, 40],
  ] as const) {
    const layout = timeMedian(() => layoutChart(payload), repetitions)
    const clone = timeMedian(() => structuredClone(payload), repetitions)
    lines.push(`| ${name} | ${ms(layout)} | ${ms(clone)} | ${(layout / clone).toFixed(1)}× |`)
  }
  return lines
}

/** A host page that times render → rendered for each payload, RENDERS times with one token. */
function hostPage(chartUrl: string): string {
  const embedOrigin = new URL(chartUrl).origin
  return `<!doctype html><meta charset="utf-8"><title>bench host</title>
<iframe id="chart" sandbox="allow-scripts allow-same-origin" src="${chartUrl}" style="width:1200px;height:800px;border:0"></iframe>
<script>
  const frame = document.getElementById('chart')
  let resolveReady, pending
  window.chartReady = new Promise((resolve) => (resolveReady = resolve))
  window.addEventListener('message', (event) => {
    if (event.origin !== ${JSON.stringify(embedOrigin)} || event.source !== frame.contentWindow) return
    if (event.data.type === 'ready') resolveReady()
    if ((event.data.type === 'rendered' || event.data.type === 'error') && pending) { const p = pending; pending = undefined; p(event.data) }
  })
  window.renderOnce = (token, payload) => new Promise((resolve) => {
    const start = performance.now()
    pending = (data) => resolve({ ms: performance.now() - start, type: data.type, code: data.code })
    frame.contentWindow.postMessage({ type: 'render', v: 1, token, payload }, ${JSON.stringify(embedOrigin)})
  })
</script>`
}

async function browserReport(releases: ChartReleases): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-chart-'))
  const store = await openStore({ dataDir })
  const embed = buildEmbedApp({
    db: store.db,
    releases,
    limiter: new RateLimiter(new MemoryRateLimitStore()),
    addressBudget: { limit: 1_000_000, windowSeconds: 60 },
  })
  const host = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
  )
  let page = ''
  const browser = await launchChromium()
  try {
    await embed.listen({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
    const embedOrigin = `http://127.0.0.1:${(embed.server.address() as AddressInfo).port}`
    const hostOrigin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
    page = hostPage(`${embedOrigin}/chart/v${CHART_VERSION}/index.html`)
    const org = await createOrg(store.db, 'Bench org')
    await addFrameOrigin(store.db, org.id, hostOrigin)
    const signer = await loadChartSigner(store.db)
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await tab.goto(`${hostOrigin}/`)
    await tab.evaluate('window.chartReady')
    const lines = [
      '| household | first render (fetches the keys) | render → rendered (median of ' +
        RENDERS +
        ') | ratio to one person | target |',
      '|---|---:|---:|---:|---:|',
    ]
    let reference = NaN
    for (const [name, payload, target] of [
      ['one person (reference)', single, undefined],
      ['example (13 people, 5 entities)', example, TARGETS.exampleMs],
      ['generated (500 people, 100 entities)', large, TARGETS.largeMs],
    ] as const) {
      // A fresh token per household: its first render includes the one metered key request.
      const { token, jti } = await mintChartToken(signer, {
        issuer: 'bench',
        audience: embedOrigin,
        orgId: org.id,
        frameOrigin: hostOrigin,
      })
      await recordChartMint(store.db, {
        jti,
        orgId: org.id,
        actorType: 'apiKey',
        actorId: randomUUID(),
        frameOrigin: hostOrigin,
      })
      const samples: number[] = []
      let first = NaN
      for (let i = 0; i <= RENDERS; i++) {
        const result = await tab.evaluate(
          ([t, p]) =>
            (
              globalThis as unknown as {
                renderOnce(t: string, p: unknown): Promise<{ ms: number; type: string; code?: string }>
              }
            ).renderOnce(t, p),
          [token, payload] as const,
        )
        if (result.type !== 'rendered')
          throw new Error(`${name}: the chart answered ${result.type} ${result.code ?? ''}`)
        if (i === 0) first = result.ms
        else samples.push(result.ms)
      }
      const value = median(samples)
      if (target === undefined) reference = value
      log(`${name}: first ${ms(first)}, median ${ms(value)}`)
      lines.push(
        `| ${name} | ${ms(first)} | ${ms(value)} | ${(value / reference).toFixed(1)}× | ${target === undefined ? '' : `≤ ${target} ms: ${Math.max(first, value) <= target ? 'met' : 'missed'} (both)`} |`,
      )
    }
    return lines
  } finally {
    await browser.close()
    host.close()
    await embed.close()
    await store.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

log(
  `Chart v${CHART_VERSION} on ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
)
const bundle = await bundleReport()
const report = [
  `## Chart v${CHART_VERSION} (${new Date().toISOString().slice(0, 10)})`,
  '',
  '### Bundle',
  ...bundle.lines,
  '',
  '### Layout alone (Node, median)',
  ...layoutReport(),
  '',
  '### render → rendered in Chromium (postMessage round trip in the host page)',
  ...(await browserReport(bundle.releases)),
]
console.log(report.join('\n'))
