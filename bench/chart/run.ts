// `npm run bench:chart`: the embedded chart's budget (issue 15's targets). Prints a markdown report on stdout:
// - the bundle built from the source as served (minified, and gzip -9 as a CDN would send it)
//   against the 60 KB target;
// - layout time alone in Node for the example and a 500-person, 100-entity household: 0.1.x's
//   layout and the 0.2.0 views' (the Family view's folded genogram, the Structure graph, the Estate
//   totals), each as a ratio to structuredClone of the same payload measured in the same run;
// - render → rendered in real Chromium (the full protocol: token checks, validation, layout, DOM)
//   of the chart built from the source against the released 0.1.0 (dist/chart/v0.1.0, as served),
//   two frames of the web app's 1,100 px in one page, renders alternating between them in the same
//   run, with a one-person household as the reference of each.
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
import { foldFamily, foldToFit } from '../../chart/src/family/collapse.ts'
import { firstViewBudget, layoutShown } from '../../chart/src/family/genogram-model.ts'
import { layoutStructure } from '../../chart/src/structure/structure-layout.ts'
import { lookThroughEstate } from '../../chart/src/estate/estate-lookthrough.ts'
import { estateTable } from '../../chart/src/estate/estate-table.ts'
import { openStore } from '../../src/store/db.ts'
import { createOrg } from '../../src/store/orgs.ts'
import { addFrameOrigin } from '../../src/store/origins.ts'
import { recordChartMint } from '../../src/store/chart-mints.ts'
import { buildEmbedApp } from '../../src/embed/server.ts'
import { RateLimiter } from '../../src/rate-limit/limiter.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { chartFile, loadChartReleases, type ChartReleases } from '../../src/embed/releases.ts'
import { loadChartSigner, mintChartToken } from '../../src/embed/tokens.ts'
import { generateHousehold } from './generate.ts'
import { downgrade } from './households/downgrade.ts'

const log = (line: string) => console.error(line)
/** The machine's 1-minute load average: on a shared machine, how quiet the measurement was. */
const load = () => `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`
const TARGETS = { bundleGzipBytes: 60 * 1024, exampleMs: 50, largeMs: 300 }
const RENDERS = 15
/** The released chart the source is measured against, served byte for byte from dist/chart/. */
const REFERENCE_VERSION = '0.1.0'
/** The web app's chart frame. */
const FRAME = { width: 1100, height: 800 }

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
  let scriptAndStyles = 0
  let page = 0
  for (const [name, bytes] of release) {
    const file = chartFile(name, Buffer.from(bytes))
    if (file) releases.set(`/chart/v${CHART_VERSION}/${name}`, file)
    if (!/^(index\.html|chart-.*)$/.test(name)) continue
    const gzip = gzipSync(bytes, { level: 9 }).length
    if (name.startsWith('chart-')) scriptAndStyles += gzip
    else page += gzip
    lines.push(`| ${name} | ${kb(bytes.length)} | ${kb(gzip)} |`)
  }
  lines.push(
    `| **script and stylesheet** | | **${kb(scriptAndStyles)}** (target ≤ ${kb(TARGETS.bundleGzipBytes)}: ${((scriptAndStyles / TARGETS.bundleGzipBytes) * 100).toFixed(0)} % of it) |`,
    `| what a page load transfers (with the page) | | ${kb(scriptAndStyles + page)} |`,
  )
  return { lines, releases }
}

/**
 * The 0.2.0 views' layouts of a household at open, as the views compute them in the browser: the
 * Family view's genogram folded to the frame, the Structure graph (its text measured with a
 * character model here, the canvas in the browser) and the Estate view's totals by look-through.
 */
function viewLayouts(payload: Payload): void {
  const { shown } = foldFamily(payload, foldToFit(payload, firstViewBudget(FRAME.width)))
  layoutShown(payload, shown)
  layoutStructure(payload, { measure: (text, sizePx) => text.length * sizePx * 0.6 })
  estateTable(payload, lookThroughEstate(payload))
}

function layoutReport(): string[] {
  const lines = [
    "| household | 0.1.x layout (median) | 0.2.0 views' layouts (median) | structuredClone of it | ratios to the clone |",
    '|---|---:|---:|---:|---:|',
  ]
  for (const [name, payload, repetitions] of [
    ['example (13 people, 5 entities)', example, 200],
    ['generated (500 people, 100 entities)', large, 40],
  ] as const) {
    const layout = timeMedian(() => layoutChart(payload), repetitions)
    const views = timeMedian(() => viewLayouts(payload), repetitions)
    const clone = timeMedian(() => structuredClone(payload), repetitions)
    lines.push(
      `| ${name} | ${ms(layout)} | ${ms(views)} | ${ms(clone)} | ${(layout / clone).toFixed(1)}× / ${(views / clone).toFixed(1)}× |`,
    )
  }
  return lines
}

/** The chart built from the source, and the reference release as served from dist/chart/. */
async function servedReleases(built: ChartReleases): Promise<ChartReleases> {
  const releases: ChartReleases = new Map(built)
  for (const [path, file] of await loadChartReleases()) {
    if (path.startsWith(`/chart/v${REFERENCE_VERSION}/`)) releases.set(path, file)
  }
  if (!releases.has(`/chart/v${REFERENCE_VERSION}/index.html`))
    throw new Error(`dist/chart/v${REFERENCE_VERSION} is missing: the reference cannot be served`)
  return releases
}

const VERSIONS = [CHART_VERSION, REFERENCE_VERSION] as const
type Version = (typeof VERSIONS)[number]

/**
 * A host page with one frame of each version, side by side and both in view (Chromium throttles
 * frames out of view), that times render → rendered in the frame it is told.
 */
function hostPage(embedOrigin: string): string {
  const frames = VERSIONS.map(
    (version) =>
      `<iframe id="v${version}" sandbox="allow-scripts allow-same-origin" src="${embedOrigin}/chart/v${version}/index.html" style="width:${FRAME.width}px;height:${FRAME.height}px;border:0"></iframe>`,
  ).join('')
  return `<!doctype html><meta charset="utf-8"><title>bench host</title>
<body style="margin:0;display:flex">${frames}</body>
<script>
  const versions = ${JSON.stringify(VERSIONS)}
  const frames = new Map(versions.map((version) => [version, document.getElementById('v' + version)]))
  const ready = new Map()
  let pending
  window.chartsReady = Promise.all(versions.map((version) => new Promise((resolve) => ready.set(version, resolve))))
  window.addEventListener('message', (event) => {
    if (event.origin !== ${JSON.stringify(embedOrigin)}) return
    const version = versions.find((v) => frames.get(v).contentWindow === event.source)
    if (version === undefined) return
    if (event.data.type === 'ready') ready.get(version)()
    if ((event.data.type === 'rendered' || event.data.type === 'error') && pending && pending.version === version) {
      const p = pending
      pending = undefined
      p.resolve(event.data)
    }
  })
  window.renderOnce = (version, token, payload) => new Promise((resolve) => {
    const start = performance.now()
    pending = { version, resolve: (data) => resolve({ ms: performance.now() - start, type: data.type, code: data.code }) }
    frames.get(version).contentWindow.postMessage({ type: 'render', v: 1, token, payload }, ${JSON.stringify(embedOrigin)})
  })
</script>`
}

interface RenderResult {
  ms: number
  type: string
  code?: string
}

interface Timed {
  first: number
  median: number
}

async function browserReport(releases: ChartReleases): Promise<string[]> {
  const loadAtStart = load()
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
    page = hostPage(embedOrigin)
    const org = await createOrg(store.db, 'Bench org')
    await addFrameOrigin(store.db, org.id, hostOrigin)
    const signer = await loadChartSigner(store.db)
    const tab = await browser.newPage({ viewport: { width: FRAME.width * VERSIONS.length, height: FRAME.height } })
    await tab.goto(`${hostOrigin}/`)
    await tab.evaluate('window.chartsReady')
    const render = async (version: Version, token: string, payload: Payload, name: string) => {
      const result = await tab.evaluate(
        ([v, t, p]) =>
          (globalThis as unknown as { renderOnce(v: string, t: string, p: unknown): Promise<RenderResult> }).renderOnce(
            v,
            t,
            p,
          ),
        [version, token, payload] as const,
      )
      if (result.type !== 'rendered')
        throw new Error(`${name}, v${version}: the chart answered ${result.type} ${result.code ?? ''}`)
      return result.ms
    }
    const lines = [
      `| household | v${CHART_VERSION}: first render (fetches the keys) | v${CHART_VERSION}: render → rendered (median of ${RENDERS}) | v${REFERENCE_VERSION}: first | v${REFERENCE_VERSION}: median | v${CHART_VERSION} / v${REFERENCE_VERSION} | ratio to one person (v${CHART_VERSION} / v${REFERENCE_VERSION}) | target (v${CHART_VERSION}) |`,
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    ]
    let reference: Record<Version, number> | undefined
    for (const [name, payload, target] of [
      ['one person (reference)', single, undefined],
      ['example (13 people, 5 entities)', example, TARGETS.exampleMs],
      ['generated (500 people, 100 entities)', large, TARGETS.largeMs],
    ] as const) {
      // A fresh token per household: each frame's first render of it includes the one metered key request.
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
      const samples: Record<Version, number[]> = { [CHART_VERSION]: [], [REFERENCE_VERSION]: [] }
      const first = {} as Record<Version, number>
      // The reference release draws payload 0.1.x: the household as the records API serves a partner
      // pinned to it (the example states 0.2.0's fields, which 0.1.0 refuses).
      const payloads: Record<Version, Payload> = { [CHART_VERSION]: payload, [REFERENCE_VERSION]: downgrade(payload) }
      for (const version of VERSIONS) first[version] = await render(version, token, payloads[version], name)
      // Alternating, and each round in the other order (ABBA), so neither version always goes first.
      for (let i = 0; i < RENDERS; i++) {
        const order = i % 2 === 0 ? VERSIONS : [...VERSIONS].reverse()
        for (const version of order) samples[version].push(await render(version, token, payloads[version], name))
      }
      const timed = Object.fromEntries(
        VERSIONS.map((version) => [version, { first: first[version], median: median(samples[version]) }]),
      ) as Record<Version, Timed>
      const now = timed[CHART_VERSION]
      const before = timed[REFERENCE_VERSION]
      reference ??= { [CHART_VERSION]: now.median, [REFERENCE_VERSION]: before.median }
      log(
        `${name}: v${CHART_VERSION} first ${ms(now.first)}, median ${ms(now.median)}; v${REFERENCE_VERSION} first ${ms(before.first)}, median ${ms(before.median)}`,
      )
      lines.push(
        `| ${name} | ${ms(now.first)} | ${ms(now.median)} | ${ms(before.first)} | ${ms(before.median)} | ` +
          `${(now.median / before.median).toFixed(2)}× | ` +
          `${(now.median / reference[CHART_VERSION]).toFixed(1)}× / ${(before.median / reference[REFERENCE_VERSION]).toFixed(1)}× | ` +
          `${target === undefined ? '' : `≤ ${target} ms: median ${now.median <= target ? 'met' : 'missed'}, first ${now.first <= target ? 'met' : 'missed'}`} |`,
      )
    }
    lines.push('', `Measured at ${loadAtStart} (start) and ${load()} (end).`)
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
  `Chart v${CHART_VERSION} (source) against v${REFERENCE_VERSION} (released) on ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
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
  `### render → rendered in Chromium (postMessage round trip in the host page; v${CHART_VERSION} and v${REFERENCE_VERSION} alternating)`,
  ...(await browserReport(await servedReleases(bundle.releases))),
]
console.log(report.join('\n'))
