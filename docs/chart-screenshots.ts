// `npm run docs:chart-screenshots`: the README's pictures of the embedded chart, taken from the real
// thing — the embed origin serving the chart built from the current source, a partner page on
// another origin mounting it with the released SDK and the release's example household, in Debian's
// Chromium at the web app's 1,100 px frame. Writes docs/chart-<view>-<theme>.png for the three views
// in light and dark, and docs/chart-print.png: the print layout exactly as the SDK hands it to the
// host page's print frame (the chart's `printdocument` message), drawn with print media.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { CHART_VERSION } from '../chart/version.ts'
import { launchChromium } from '../test/helpers/browser.ts'
import { startChartStack } from '../test/helpers/chart-stack.ts'

const docsDir = path.dirname(fileURLToPath(import.meta.url))
const FRAME_WIDTH = 1100
const VIEWS = ['family', 'structure', 'estate'] as const
const THEMES = ['light', 'dark'] as const

const stack = await startChartStack()
const example = readFileSync(new URL('../chart/example.json', import.meta.url), 'utf8')

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
  const theme = new URLSearchParams(location.search).get('theme')
  window.chart = mountHouseholdChart({
    container: document.getElementById('chart'),
    embedOrigin: '${stack.embedOrigin}',
    version: '${CHART_VERSION}',
    title: 'Household chart',
    theme,
    payload: ${example},
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
const globals = () => globalThis as unknown as PageGlobals

async function shootViews(page: Page, theme: string): Promise<void> {
  await page.goto(`${stack.partner.origin}/?theme=${theme}`)
  await page.waitForFunction(() => globals().chartReady === true)
  const frame = page.frameLocator('iframe')
  for (const view of VIEWS) {
    await page.evaluate((name) => globals().chart.setView(name), view)
    await frame.locator(`[role="tabpanel"]:visible`).first().waitFor()
    await page.locator('iframe').screenshot({ path: path.join(docsDir, `chart-${view}-${theme}.png`) })
  }
}

async function shootPrint(page: Page): Promise<void> {
  // The SDK prints from a frame of its own (headless Chromium shows no dialog); the partner page
  // keeps the document the chart handed over, which is drawn here on a page of its own.
  await page.evaluate(() => globals().chart.print())
  await page.waitForFunction(() => globals().printed !== undefined)
  const printed = await page.evaluate(() => globals().printed!)
  const sheet = await page.context().newPage()
  await sheet.setViewportSize({ width: 1123, height: 794 }) // A4 landscape at 96 px per inch
  await sheet.setContent(`<!doctype html><meta charset="utf-8"><title>${printed.title}</title>${printed.html}`)
  await sheet.addStyleTag({ content: printed.css })
  await sheet.emulateMedia({ media: 'print' })
  await sheet.screenshot({ path: path.join(docsDir, 'chart-print.png'), fullPage: true })
  await sheet.close()
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
    if (theme === 'light') await shootPrint(page)
    await context.close()
  }
  console.log(`wrote docs/chart-{${VIEWS.join(',')}}-{${THEMES.join(',')}}.png and docs/chart-print.png`)
} finally {
  await browser.close()
  await stack.close()
}
