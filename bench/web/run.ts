// `npm run bench:web`: the web app's first load. Seeds one organization with 100,000 households
// (flags: --store postgres|pglite, --households N), signs a user in (a real session cookie), and
// measures in real Chromium how long the households page takes from navigation start until its
// first 50 rows are on screen:
//   - cold: a fresh browser context each time (no cache), as on a first visit;
//   - warm: a reload in the same context (hashed assets come from the cache).
// Reference, measured in the same run: a static page holding a 50-row table, from a plain Node
// HTTP server — the least any page of 50 rows can cost here. Prints a markdown report with the
// app's first-load script and stylesheet sizes (gzip -9, as served) against the 150 KB budget.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext } from 'playwright-core'
import { launchChromium } from '../../test/helpers/browser.ts'
import { openStore } from '../../src/store/db.ts'
import { buildApp } from '../../src/app.ts'
import { MemoryRateLimitStore } from '../../src/rate-limit/memory-store.ts'
import { createUser } from '../../src/store/users.ts'
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts'
import { webAssets } from '../../src/web/assets.ts'
import { freePort } from '../../src/net/free-port.ts'
import { provisionDatabase } from '../database.ts'
import { cleanup, onCleanup } from '../cleanup.ts'
import { seed } from '../seed.ts'

const log = (line: string) => console.error(line)
const RUNS = 9
const TARGETS = { firstRowsMs: 1000, scriptGzipBytes: 150 * 1024 }
const ROWS = 50

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback
}

/** Milliseconds from navigation start until the page shows ROWS table rows. */
async function timeToRows(context: BrowserContext, url: string, reload: boolean): Promise<number> {
  const page = context.pages()[0] ?? (await context.newPage())
  if (reload) await page.reload({ waitUntil: 'commit' })
  else await page.goto(url, { waitUntil: 'commit' })
  // The page function runs in the browser; bench/ has Node's types only, hence the cast.
  interface BrowserGlobals {
    document: { querySelectorAll(selector: string): { length: number } }
  }
  await page.waitForFunction(
    (rows) => (globalThis as unknown as BrowserGlobals).document.querySelectorAll('main table tbody tr').length >= rows,
    ROWS,
    {
      polling: 'raf',
    },
  )
  return page.evaluate(() => performance.now())
}

async function measure(browser: Browser, url: string, cookie: { name: string; value: string } | undefined) {
  const cold: number[] = []
  const warm: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext()
    if (cookie) await context.addCookies([{ ...cookie, url }])
    cold.push(await timeToRows(context, url, false))
    warm.push(await timeToRows(context, url, true))
    await context.close()
  }
  return { cold: median(cold), warm: median(warm) }
}

function referenceServer(): Promise<http.Server> {
  const rows = Array.from(
    { length: ROWS },
    (_, i) => `<tr><td>Household ${i}</td><td>${i % 7}</td><td>2026-01-01</td></tr>`,
  ).join('')
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Reference</title></head><body><main><table><tbody>${rows}</tbody></table></main></body></html>`
  const server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
  )
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

async function main() {
  const storeKind = flag('store', 'postgres') === 'pglite' ? 'pglite' : 'postgres'
  const households = Number(flag('households', '100000'))
  const database = await provisionDatabase(storeKind)
  const store = await openStore({
    databaseUrl: database.databaseUrl,
    dataDir: database.dataDir,
    poolMax: 10,
    watchKeyChanges: true,
  })
  onCleanup('close the store', () => store.close())
  log(`Seeding ${households.toLocaleString('en-US')} households into ${database.where}…`)
  const seeded = await seed(store, households, log)

  const user = await createUser(store.db, {
    orgId: seeded.orgId,
    email: 'bench@example.com',
    name: 'Bench Advisor',
    role: 'advisor',
  })
  if (!user) throw new Error('could not create the bench user')
  const session = await createSession(store.db, { id: user.id, orgId: seeded.orgId })

  // The API's public URL (chart token issuer) names its port, so the port is chosen first.
  const port = await freePort('127.0.0.1')
  const url = `http://127.0.0.1:${port}`
  const app = await buildApp({
    db: store.db,
    keyChanges: store.keyChanges,
    config: {
      rateLimitMax: 1_000_000,
      orgRateLimitMax: 1_000_000,
      addressRateLimitMax: 1_000_000,
      rateLimitWindowSeconds: 60,
      householdsSunset: undefined,
      trustProxy: 0,
      logLevel: 'silent',
    },
    rateLimitStore: new MemoryRateLimitStore(),
    publicUrl: url,
    chart: { issuer: url, embedOrigin: 'http://127.0.0.1:9' },
  })
  await app.listen({ host: '127.0.0.1', port })
  onCleanup('stop the API', () => app.close())
  const reference = await referenceServer()
  onCleanup('stop the reference server', () => new Promise<void>((resolve) => reference.close(() => resolve())))
  const referenceUrl = `http://127.0.0.1:${(reference.address() as AddressInfo).port}/`

  const assets = await webAssets()
  const sizes = [...assets.files.entries()].map(([name, asset]) => ({
    name,
    raw: asset.body.length,
    gzip: asset.gzipped.length,
  }))
  const scriptGzip = sizes.filter((size) => size.name.endsWith('.js')).reduce((sum, size) => sum + size.gzip, 0)

  const browser = await launchChromium()
  onCleanup('close Chromium', () => browser.close())
  log(`Measuring ${RUNS} cold and warm loads of the households page and of the reference…`)
  // One unmeasured round of each first: Chromium's own start-up costs land on nobody.
  await measure(browser, referenceUrl, undefined)
  const pageUrl = `${url}/households`
  const cookie = { name: SESSION_COOKIE, value: session.value }
  const warmup = await browser.newContext()
  await warmup.addCookies([{ ...cookie, url }])
  await timeToRows(warmup, pageUrl, false)
  await warmup.close()
  const referenceTimes = await measure(browser, referenceUrl, undefined)
  const appTimes = await measure(browser, pageUrl, cookie)

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const ms = (value: number) => `${value.toFixed(0)} ms`
  const lines = [
    `## Web app first load (${new Date().toISOString().slice(0, 10)}, ${storeKind}, ${households.toLocaleString('en-US')} households)`,
    '',
    '| asset | raw | gzip -9 |',
    '|---|---:|---:|',
    ...sizes.map((size) => `| ${size.name} | ${kb(size.raw)} | ${kb(size.gzip)} |`),
    `| **first-load script** | | **${kb(scriptGzip)}** (budget ${kb(TARGETS.scriptGzipBytes)}) |`,
    '',
    `| households page, first ${ROWS} rows (median of ${RUNS}) | app | reference (static 50-row page) | ratio | target |`,
    '|---|---:|---:|---:|---:|',
    `| cold (new context, empty cache) | ${ms(appTimes.cold)} | ${ms(referenceTimes.cold)} | ${(appTimes.cold / referenceTimes.cold).toFixed(1)}× | < ${ms(TARGETS.firstRowsMs)} |`,
    `| warm (reload, cached assets) | ${ms(appTimes.warm)} | ${ms(referenceTimes.warm)} | ${(appTimes.warm / referenceTimes.warm).toFixed(1)}× | < ${ms(TARGETS.firstRowsMs)} |`,
  ]
  console.log(lines.join('\n'))
}

try {
  await main()
} finally {
  await cleanup()
}
