// What the web app's browser tests check on every page (DOM types: it lives with them): nothing went wrong (page errors, console
// errors, dialogs, CSP violations), and axe-core finds nothing serious.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'

export interface WatchedPage {
  page: Page
  context: BrowserContext
  /** Page errors, console errors and dialogs, as they happen. */
  problems: string[]
}

/** A new page of `context` whose errors, dialogs and CSP violations are recorded (see pageProblems). */
export async function openWatchedPage(context: BrowserContext): Promise<WatchedPage> {
  await context.addInitScript(() => {
    const w = window as unknown as { __csp: string[] }
    w.__csp = []
    document.addEventListener('securitypolicyviolation', (event) =>
      w.__csp.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('console', (message) => {
    // Failed requests (4xx the tests provoke) are logged by Chromium; they are not page errors.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`)
  })
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  return { page, context, problems }
}

/** Everything recorded on the page, its CSP violations included; [] when all went well. */
export async function pageProblems(watched: WatchedPage): Promise<string[]> {
  const csp = await watched.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => [])
  return [...watched.problems, ...csp.map((violation) => `CSP violation: ${violation}`)]
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[] }[]
}

/** axe-core's serious and critical violations on the page as it is now (injected through DevTools, not the page's CSP). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe
    return (await axe.run(document, { resultTypes: ['violations'] })).violations
  })
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    )
}
