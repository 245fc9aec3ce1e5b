// The partner page the SDK's Chromium tests mount the chart from (test/browser/sdk*.test.ts): it
// loads the released SDK cross-origin from the embed origin, mints through its own /token endpoint,
// and records on `window` every event, token and outcome the tests read. The page is as strict as a
// partner's may be (a CSP without 'unsafe-inline', Referrer-Policy: no-referrer), so whatever works
// here also works on such a page.
import { readFileSync } from 'node:fs'
import type { Frame, Page } from 'playwright-core'
import { CHART_VERSION } from '../../chart/version.ts'
import type { ChartStack } from './chart-stack.ts'
import type { Site, SiteFile } from './sites.ts'

const EXAMPLE: unknown = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8'))

/** An event the SDK gave onEvent, as the page recorded it. */
export interface RecordedEvent {
  type: string
  height?: number
  code?: string
  message?: string
  path?: string
  id?: string
  kind?: string
  view?: string
}

/** What the page exposes, as seen from page.evaluate. */
export interface SdkHostWindow {
  hostReady?: boolean
  events: RecordedEvent[]
  readyOutcome?: { resolved: true } | { code: string; message: string; name: string; typed: boolean }
  /** Calls of fetchToken (counted when called, before the answer), and the answers it resolved with. */
  fetchTokenCalls: number
  tokens: { token: string; expiresAt: string }[]
  /** When set, fetchToken answers expiresAt this long after the page's (possibly fake) now. */
  tokenLifeMs?: number
  /** Messages of type `sentinel` the page received, by id. */
  sentinels: string[]
  mount(options?: Record<string, unknown>, containerId?: string): void
  handle: {
    update(payload: unknown): void
    setTheme(theme: string): void
    setView(view: string): void
    focus(id: string): void
    print(): void
    setAppearance(appearance: unknown): void
    destroy(): void
  }
  sdk: { mountHouseholdChart(options: Record<string, unknown>): unknown }
  mountError(options: Record<string, unknown>): string
}

/**
 * The partner's host page on `site`, which may frame the embed origin (and, on the partner's, the
 * stranger's). With `csp: 'none'` the page sends no Content-Security-Policy, as many partners'
 * pages do: there nothing but the SDK itself stops a print document from loading or styling.
 */
export function sdkHostPage(
  site: Site,
  stack: ChartStack,
  { csp = 'strict' }: { csp?: 'strict' | 'none' } = {},
): SiteFile {
  const frameSources = [stack.embedOrigin, ...(site === stack.partner ? [stack.stranger.origin] : [])].join(' ')
  const policy = `default-src 'self'; script-src 'self' ${stack.embedOrigin}; connect-src 'self' ${stack.embedOrigin}; frame-src ${frameSources}; style-src 'self'`
  return {
    type: 'text/html; charset=utf-8',
    headers: {
      ...(csp === 'strict' ? { 'content-security-policy': policy } : {}),
      'referrer-policy': 'no-referrer',
    },
    body: `<!doctype html><html data-embed-origin="${stack.embedOrigin}"><meta charset="utf-8"><title>Partner</title>
<script type="module" src="/host.js"></script>
<div id="c"></div><div id="d"></div>`,
  }
}

/** The page's script (/host.js): loads the SDK from the embed origin and exposes a mount helper that records everything. */
export function sdkHostScript(embedOrigin: string): SiteFile {
  return {
    type: 'text/javascript; charset=utf-8',
    body: `import * as sdk from ${JSON.stringify(`${embedOrigin}/chart/v${CHART_VERSION}/sdk.js`)}
const embedOrigin = ${JSON.stringify(embedOrigin)}
const example = ${JSON.stringify(EXAMPLE)}
window.sdk = sdk
window.events = []
window.fetchTokenCalls = 0
window.tokens = []
window.sentinels = []
window.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'sentinel') window.sentinels.push(event.data.id)
})
async function fetchToken() {
  window.fetchTokenCalls++
  const response = await fetch('/token', { method: 'POST' })
  if (!response.ok) throw new Error('token ' + response.status)
  const answer = await response.json()
  if (window.tokenLifeMs !== undefined) answer.expiresAt = new Date(Date.now() + window.tokenLifeMs).toISOString()
  window.tokens.push(answer)
  return answer
}
function options(overrides, containerId = 'c') {
  return { container: document.getElementById(containerId), embedOrigin, title: 'Household chart', fetchToken, payload: example, onEvent: (event) => window.events.push(event), ...overrides }
}
window.mount = (overrides = {}, containerId = 'c') => {
  window.readyOutcome = undefined
  const handle = sdk.mountHouseholdChart(options(overrides, containerId))
  window.handle = handle
  handle.ready.then(
    () => { if (window.handle === handle) window.readyOutcome = { resolved: true } },
    (error) => { if (window.handle === handle) window.readyOutcome = { code: error.code, message: error.message, name: error.name, typed: error instanceof sdk.HouseholdChartError } },
  )
}
window.mountError = (overrides) => {
  try {
    sdk.mountHouseholdChart(options(overrides))
    return 'mounted'
  } catch (error) {
    return error.name + ': ' + error.message
  }
}
window.hostReady = true
`,
  }
}

// What the SDK tests do on that page, from Node (page.evaluate runs in the page).

/** Mounts the chart through the page's helper, with `options` over the defaults (the example, container #c). */
export async function mountOnPage(page: Page, options: Record<string, unknown> = {}, containerId = 'c'): Promise<void> {
  await page.evaluate(
    ([options, containerId]) => (globalThis as unknown as SdkHostWindow).mount(options, containerId),
    [options, containerId] as const,
  )
}

export function eventsOf(page: Page, type: string): Promise<RecordedEvent[]> {
  return page.evaluate(
    (type) => (globalThis as unknown as SdkHostWindow).events.filter((event) => event.type === type),
    type,
  )
}

/** Waits until the page has recorded `count` events of `type`, and gives them. */
export async function waitForEvents(page: Page, type: string, count: number): Promise<RecordedEvent[]> {
  await page.waitForFunction(
    ([type, count]) =>
      (globalThis as unknown as SdkHostWindow).events.filter((event) => event.type === type).length >= count,
    [type, count] as const,
  )
  return eventsOf(page, type)
}

/** The chart's frame inside the container. */
export async function chartFrameOf(page: Page, containerId = 'c'): Promise<Frame> {
  const element = await page.waitForSelector(`#${containerId} iframe`, { state: 'attached' })
  const frame = await element.contentFrame()
  if (!frame) throw new Error('the iframe has no frame')
  return frame
}
