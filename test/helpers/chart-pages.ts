// The page set-up the chart's Chromium tests share: a fixture entry bundled for the browser, a page
// watched for problems (console errors, page errors, dialogs, CSP violations), and axe-core's
// serious findings on a page.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { build } from 'esbuild'
import type { Page } from 'playwright-core'
import type { Site } from './sites.ts'

/** The fixture entry at `entry` bundled as one ES module for the browser: the JavaScript's bytes. */
export async function bundleFixture(entry: URL): Promise<Uint8Array> {
  const bundle = await build({
    entryPoints: [entry.pathname],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  return bundle.outputFiles[0]!.contents
}

// This file is type-checked without the DOM's types (tsconfig.json), so the code that runs in the
// page names the little of the DOM it uses here and reaches it through globalThis (the page's window).

/** A page's window as the init script of watchProblems sees it. */
interface ViolationsWindow {
  violations: string[]
  document: {
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (event: { violatedDirective: string; blockedURI: string }) => void,
      capture: boolean,
    ): void
  }
}

/**
 * Pushes the page's console errors, page errors and dialogs (dismissed) onto `problems`, and has
 * every document it loads collect its CSP violations in `window.violations` (an init script, so the
 * listener is there before the page's own scripts run).
 */
export async function watchProblems(page: Page, problems: string[]): Promise<void> {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  await page.addInitScript(() => {
    const w = globalThis as unknown as ViolationsWindow
    w.violations = []
    w.document.addEventListener(
      'securitypolicyviolation',
      (e) => w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      true,
    )
  })
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  nodes: { target: unknown[] }[]
}

/** A page's window once axe-core is injected. */
interface AxeWindow {
  document: unknown
  axe: { run(context: unknown, options: object): Promise<{ violations: AxeViolation[] }> }
}

/** axe-core's serious and critical findings on the page as it is now (injected through DevTools, not the page's CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const w = globalThis as unknown as AxeWindow
    return (await w.axe.run(w.document, { resultTypes: ['violations'] })).violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((node) => node.target))}`)
}

/** The chart page's Content-Security-Policy (src/embed/server.ts): an inline style or script is a violation. */
export const CHART_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'"

/** The chart's stylesheets, in the order chart/src/main.ts imports them (each builds on the earlier ones). */
const CHART_STYLESHEETS = [
  'chart/src/styles.css',
  'chart/src/views/views.css',
  'chart/src/views/genogram.css',
  'chart/src/views/print.css',
] as const

const projectRoot = new URL('../../', import.meta.url)

/**
 * Serves the view shell's test page on `site` under CHART_CSP: `/` loads the chart's stylesheets and
 * the views fixture (test/browser/fixtures/views-entry.ts, which reads its household from
 * `?payload=<name>`), and each of `households` is served as `/<name>.json`.
 */
export async function serveViewsFixture(
  site: Site,
  households: Readonly<Record<string, unknown>>,
  moreScripts: readonly { path: string; body: Uint8Array }[] = [],
): Promise<void> {
  const headers = { 'content-security-policy': CHART_CSP }
  const stylesheets = CHART_STYLESHEETS.map((_, k) => `<link rel="stylesheet" href="/style-${k}.css">`).join('')
  const scripts = [...moreScripts.map((script) => script.path), '/views-entry.js']
    .map((path) => `<script type="module" src="${path}"></script>`)
    .join('')
  site.set('/', {
    type: 'text/html; charset=utf-8',
    headers,
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Household</title>
<link rel="icon" href="data:,">${stylesheets}${scripts}</head><body><main id="chart"></main></body></html>`,
  })
  const entry = await bundleFixture(new URL('../browser/fixtures/views-entry.ts', import.meta.url))
  for (const { path, body } of [...moreScripts, { path: '/views-entry.js', body: entry }])
    site.set(path, { type: 'text/javascript', headers, body })
  CHART_STYLESHEETS.forEach((file, k) =>
    site.set(`/style-${k}.css`, { type: 'text/css', headers, body: readFileSync(new URL(file, projectRoot)) }),
  )
  for (const [name, household] of Object.entries(households))
    site.set(`/${name}.json`, { type: 'application/json', headers, body: JSON.stringify(household) })
}
