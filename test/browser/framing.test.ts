// The chart page's CSP decides who may frame it: the registered partner can, a stranger cannot,
// and a change made with `hearth origins add/remove` takes effect on the next load, no restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import type { Site } from '../helpers/sites.ts'
import { addFrameOrigin, removeFrameOrigin } from '../../src/store/origins.ts'

describe.runIf(hasChromium())('framing the chart page', () => {
  let stack: ChartStack
  let browser: Browser

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    for (const site of [stack.partner, stack.stranger]) site.set('/frame.html', framingPage(stack.chartUrl))
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  /** Loads the site's framing page; resolves once the chart inside said `ready` or was refused. */
  async function frameFrom(site: Site): Promise<{ ready: boolean; refused: boolean }> {
    const page: Page = await browser.newPage()
    let refused = false
    let onRefused = () => {
      // Replaced by the promise's resolve on the next line.
    }
    const blocked = new Promise<void>((resolve) => (onRefused = resolve))
    // Chromium reports a frame refused by frame-ancestors as a failed navigation.
    page.on('requestfailed', (request) => {
      if (request.url() !== stack.chartUrl || request.failure()?.errorText !== 'net::ERR_BLOCKED_BY_RESPONSE') return
      refused = true
      onRefused()
    })
    try {
      await page.goto(`${site.origin}/frame.html`)
      const said = page
        .waitForFunction(() => (window as unknown as { readyFrom: string[] }).readyFrom.length > 0)
        .catch(() => undefined)
      await Promise.race([said, blocked])
      // A refused frame shows Chromium's error page: no chart script runs in it, so no ready can follow.
      const ready = await page.evaluate(() => (window as unknown as { readyFrom: string[] }).readyFrom.length > 0)
      return { ready, refused }
    } finally {
      await page.close()
    }
  }

  it('lets the registered partner frame it, and names only that origin in frame-ancestors', async () => {
    expect(await frameFrom(stack.partner)).toEqual({ ready: true, refused: false })
    const response = await fetch(stack.chartUrl, { headers: { referer: `${stack.partner.origin}/frame.html` } })
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toContain(`frame-ancestors ${stack.partner.origin}`)
    expect(policy).toContain(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'",
    )
    expect(response.headers.get('x-frame-options')).toBeNull()
  })

  it('refuses a page on an unregistered origin, and is never framable by *', async () => {
    expect(await frameFrom(stack.stranger)).toEqual({ ready: false, refused: true })
    for (const referer of [undefined, `${stack.stranger.origin}/`, 'null', '*', 'https://evil.example/']) {
      const response = await fetch(stack.chartUrl, { headers: referer ? { referer } : {} })
      const policy = response.headers.get('content-security-policy') ?? ''
      expect(policy).toMatch(/frame-ancestors 'none'$/)
      expect(policy).not.toContain('*')
    }
  })

  it('follows origins add and remove without a restart', async () => {
    await addFrameOrigin(stack.store.db, stack.orgId, stack.stranger.origin)
    expect(await frameFrom(stack.stranger)).toEqual({ ready: true, refused: false })
    await removeFrameOrigin(stack.store.db, stack.orgId, stack.stranger.origin)
    expect(await frameFrom(stack.stranger)).toEqual({ ready: false, refused: true })
  })
})

/** A host page that frames the chart and records `ready` messages from it. */
function framingPage(chartUrl: string) {
  const embedOrigin = new URL(chartUrl).origin
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><meta charset="utf-8"><title>Partner</title>
<script>
  window.readyFrom = []
  window.addEventListener('message', (event) => {
    if (event.origin === ${JSON.stringify(embedOrigin)} && event.data && event.data.type === 'ready') window.readyFrom.push(event.origin)
  })
</script>
<iframe id="chart" sandbox="allow-scripts allow-same-origin" src=${JSON.stringify(chartUrl)}></iframe>`,
  }
}
