// `npm run docs:chart-screenshots`: the README's pictures of the embedded chart, taken from the real
// thing — the embed origin serving the chart built from the current source, a partner page on
// another origin mounting it with the released SDK and the release's example household, in Debian's
// Chromium at the web app's 1,100 px frame. Writes docs/chart-<view>-<theme>.png for the four views
// in light and dark (the Flow view with docs/flow-example.json, the README's worked couple), and docs/chart-print-first.png and chart-print-last.png: the first and last pages
// of the print layout, from the document the SDK hands to the host page's print frame (the chart's
// `printdocument` message), printed to an A4 landscape PDF; and docs/demo-partner.png, the demo
// partner page of `npm start`. Needs Debian's poppler-utils (pdftoppm).
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BrowserContext, Page } from 'playwright-core'
import { CHART_VERSION } from '../chart/version.ts'
import { launchChromium } from '../test/helpers/browser.ts'
import { startChartStack } from '../test/helpers/chart-stack.ts'
import { killAll, startServer } from '../test/helpers/cli.ts'
import { freshPgliteDir } from '../test/helpers/stores.ts'

const docsDir = path.dirname(fileURLToPath(import.meta.url))
const FRAME_WIDTH = 1100
const VIEWS = ['family', 'structure', 'estate', 'flow'] as const
const THEMES = ['light', 'dark'] as const

const stack = await startChartStack()
const example = readFileSync(new URL('../chart/example.json', import.meta.url), 'utf8')
// The Flow view is shot with the README's worked couple, so the picture shows the figures it writes out.
const flowExample = readFileSync(new URL('flow-example.json', import.meta.url), 'utf8')

// The partner page: mounts the chart, keeps the handle on window for the steps below, and keeps the
// last print document the chart handed over. Runs in the browser; docs/ has Node's types only.
stack.partner.handle('/chart-token', async () => ({ status: 200, body: await stack.mint() }))
stack.partner.set('/', {
  type: 'text/html; charset=utf-8',
  body: `<!doctype html>
<meta charset="utf-8">
<title>Chart screenshots</title>
<style>body { margin: 0; width: ${FRAME_WIDTH}px; } #chart { width: ${FRAME_WIDTH}px; }</style>
<div id="chart"></div>
<script type="module">
  import { mountHouseholdChart } from '${stack.embedOrigin}/chart/v${CHART_VERSION}/sdk.js'
  window.addEventListener('message', (event) => {
    if (event.data && event.data.type === 'printdocument') window.printed = event.data
  })
  const query = new URLSearchParams(location.search)
  const theme = query.get('theme')
  window.chart = mountHouseholdChart({
    container: document.getElementById('chart'),
    embedOrigin: '${stack.embedOrigin}',
    version: '${CHART_VERSION}',
    title: 'Household chart',
    theme,
    payload: query.get('household') === 'flow' ? ${flowExample} : ${example},
    fetchToken: () => fetch('/chart-token', { method: 'POST' }).then((r) => r.json()),
  })
  await window.chart.ready
  window.chartReady = true
</script>`,
})

interface PageGlobals {
  chartReady?: boolean
  chart: { setView(view: string): void; print(): void }
  printed?: { title: string; html: string; css: string }
}

async function openChart(page: Page, theme: string, household: 'example' | 'flow'): Promise<void> {
  await page.goto(`${stack.partner.origin}/?theme=${theme}&household=${household}`)
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).chartReady === true)
}

/** Each view in `theme`: the release's example, but the Flow view with the README's couple. Leaves the example open. */
async function shootViews(page: Page, theme: string): Promise<void> {
  for (const view of VIEWS) {
    if (view === 'flow') await openChart(page, theme, 'flow')
    else if (view === VIEWS[0]) await openChart(page, theme, 'example')
    const frame = page.frameLocator('iframe')
    await page.evaluate((name) => (globalThis as unknown as PageGlobals).chart.setView(name), view)
    await frame.locator(`[role="tabpanel"]:visible`).first().waitFor()
    await page.locator('iframe').screenshot({ path: path.join(docsDir, `chart-${view}-${theme}.png`) })
  }
  await openChart(page, theme, 'example')
}

/**
 * The print layout as the host page prints it: the document the chart handed over (its
 * `printdocument` message, kept by the partner page), printed by Chromium to an A4 landscape PDF,
 * whose first and last pages pdftoppm (Debian's poppler-utils) turns into PNGs.
 */
async function shootPrint(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as PageGlobals).chart.print())
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).printed !== undefined)
  const printed = await page.evaluate(() => (globalThis as unknown as PageGlobals).printed!)
  const sheet = await page.context().newPage()
  await sheet.setContent(`<!doctype html><meta charset="utf-8"><title>${printed.title}</title>${printed.html}`)
  await sheet.addStyleTag({ content: printed.css })
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'hearth-print-'))
  try {
    const pdf = path.join(scratch, 'print.pdf')
    await sheet.pdf({ path: pdf, format: 'A4', landscape: true, printBackground: true })
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? '1')
    for (const [name, number] of [
      ['chart-print-first.png', 1],
      ['chart-print-last.png', pages],
    ] as const) {
      const stem = path.join(scratch, `page-${number}`)
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '96',
        '-singlefile',
        '-f',
        String(number),
        '-l',
        String(number),
        pdf,
        stem,
      ])
      copyFileSync(`${stem}.png`, path.join(docsDir, name))
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    await sheet.close()
  }
}

/**
 * docs/demo-partner.png: the demo partner page as `npm start` serves it (the whole service on the
 * embedded database, in a scratch data directory), with the newest released chart mounted.
 */
async function shootDemoPartner(context: BrowserContext): Promise<void> {
  const dataDir = freshPgliteDir()
  try {
    const { banner } = await startServer({ HEARTH_DATA_DIR: dataDir })
    const page = await context.newPage()
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(banner.demoPartnerUrl ?? '')
    await page.frameLocator('#household-chart iframe').locator('.hv-gn-person').first().waitFor()
    await page.screenshot({ path: path.join(docsDir, 'demo-partner.png') })
    await page.close()
  } finally {
    await killAll()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const browser = await launchChromium()
try {
  for (const theme of THEMES) {
    const context = await browser.newContext({
      viewport: { width: FRAME_WIDTH, height: 900 },
      deviceScaleFactor: 1,
      colorScheme: theme,
    })
    const page = await context.newPage()
    await shootViews(page, theme)
    if (theme === 'light') {
      await shootPrint(page)
      await shootDemoPartner(context)
    }
    await context.close()
  }
  console.log(
    `wrote docs/chart-{${VIEWS.join(',')}}-{${THEMES.join(',')}}.png, docs/chart-print-{first,last}.png and docs/demo-partner.png`,
  )
} finally {
  await browser.close()
  await stack.close()
}
