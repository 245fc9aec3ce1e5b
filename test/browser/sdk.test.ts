// The partner SDK (sdk/household-chart.ts, released as sdk.js beside the chart) in real Chromium:
// a partner page loads it cross-origin from the embed origin and mounts the chart with a token
// from its own server. The host page is as strict as a partner's may be (a CSP without
// 'unsafe-inline', Referrer-Policy: no-referrer), so everything here also proves the SDK works there.
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Frame, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import { sdkHostPage, sdkHostScript, type SdkHostWindow as HostWindow } from '../helpers/sdk-host-page.ts'
import type { Site } from '../helpers/sites.ts'
import { loadChartSigner, mintChartToken } from '../../src/embed/tokens.ts'

const QUILLS = {
  household: { name: 'Quill Family' },
  people: [
    { id: 'zed', name: 'Zed Quill', role: 'primaryClient' },
    { id: 'ada', name: 'Ada Quill', role: 'child' },
  ],
  relationships: [{ from: 'zed', to: 'ada', type: 'parent' }],
}

interface TokenAnswer {
  status: number
  body: unknown
}

describe.runIf(hasChromium())('the partner SDK', () => {
  let stack: ChartStack
  let browser: Browser
  /** Answers of the partner's token endpoint for the next calls; a real mint when empty. */
  let plannedTokens: (() => Promise<TokenAnswer>)[] = []
  let tokenCalls = 0
  const pages: Page[] = []

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    for (const site of [stack.partner, stack.stranger]) {
      site.set('/host.html', sdkHostPage(site, stack))
      site.set('/host.js', sdkHostScript(stack.embedOrigin))
      site.handle('/token', async () => {
        tokenCalls++
        const planned = plannedTokens.shift()
        if (planned) return planned()
        // The stranger's server hands out a partner token: its page fails on framing, not on minting.
        const { token, expiresAt } = await stack.mint()
        return { status: 200, body: { token, expiresAt } }
      })
    }
    // A stranger's page framed inside the partner's page, to post forged messages from.
    stack.stranger.set('/forger.html', {
      type: 'text/html; charset=utf-8',
      body: '<!doctype html><meta charset="utf-8"><title>Forger</title><p>forger</p>',
    })
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })
  beforeEach(async () => {
    plannedTokens = []
    tokenCalls = 0
    for (const page of pages.splice(0)) await page.context().close()
  })

  /** Opens the host page on the site (own context, so clocks do not leak between tests). */
  async function openHost(site: Site = stack.partner, options: { clock?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext()
    if (options.clock) await context.clock.install()
    const page = await context.newPage()
    pages.push(page)
    await page.goto(`${site.origin}/host.html`)
    await page.waitForFunction(() => (window as unknown as HostWindow).hostReady === true)
    return page
  }

  const mount = (page: Page, options: Record<string, unknown> = {}, containerId = 'c') =>
    page.evaluate(([options, containerId]) => (window as unknown as HostWindow).mount(options, containerId), [
      options,
      containerId,
    ] as const)
  const events = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).events)
  const eventsOf = async (page: Page, type: string) => (await events(page)).filter((event) => event.type === type)
  const waitForEvents = (page: Page, type: string, count: number) =>
    page.waitForFunction(
      ([type, count]) =>
        (window as unknown as HostWindow).events.filter((event) => event.type === type).length >= count,
      [type, count] as const,
    )
  const readyOutcome = async (page: Page) => {
    await page.waitForFunction(() => (window as unknown as HostWindow).readyOutcome !== undefined)
    return page.evaluate(() => (window as unknown as HostWindow).readyOutcome)
  }

  async function chartFrame(page: Page, containerId = 'c'): Promise<Frame> {
    const element = await page.waitForSelector(`#${containerId} iframe`, { state: 'attached' })
    const frame = await element.contentFrame()
    if (!frame) throw new Error('the iframe has no frame')
    return frame
  }
  /**
   * Records in the chart's own window the token of every render message that reaches it from now on
   * (beside the chart's listener, which it does not disturb).
   */
  async function logRenders(page: Page): Promise<() => Promise<string[]>> {
    const frame = await chartFrame(page)
    await frame.evaluate(() => {
      const w = window as unknown as { renderTokens: string[] }
      w.renderTokens = []
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const data = event.data as { type?: unknown; token?: unknown } | null
        if (typeof data === 'object' && data !== null && data.type === 'render') w.renderTokens.push(String(data.token))
      })
    })
    return () => frame.evaluate(() => (window as unknown as { renderTokens: string[] }).renderTokens)
  }
  const fetchTokenCalls = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).fetchTokenCalls)
  const heldTokens = (page: Page) =>
    page.evaluate(() => (window as unknown as HostWindow).tokens.map((answer) => answer.token))
  const waitForTokens = (page: Page, count: number) =>
    page.waitForFunction((count) => (window as unknown as HostWindow).tokens.length >= count, count)
  /**
   * Posts a `sentinel` message from `source` (a frame, or the page itself) to the top page and
   * waits until the page has received it. Messages from one window to another arrive in the order
   * they were posted, so every message that window posted before has been dispatched (and handled
   * by the SDK, whose listener is synchronous) by then: a deterministic round trip, not a sleep.
   */
  async function sentinel(page: Page, source: Page | Frame, id: string): Promise<void> {
    await source.evaluate((id) => window.parent.postMessage({ type: 'sentinel', id }, '*'), id)
    await page.waitForFunction((id) => (window as unknown as HostWindow).sentinels.includes(id), id)
  }
  const chartText = async (page: Page, containerId = 'c') =>
    (await (await chartFrame(page, containerId)).locator('#chart').textContent()) ?? ''
  const iframeHeight = (page: Page, containerId = 'c') =>
    page.evaluate((id) => document.querySelector(`#${id} iframe`)?.getBoundingClientRect().height ?? -1, containerId)

  it('creates the iframe exactly per the mounting rules, and renders on ready with one token', async () => {
    const page = await openHost()
    await mount(page, { title: 'Household chart of the Chen family' })
    const attributes = await page.evaluate(() => {
      const iframe = document.querySelector<HTMLIFrameElement>('#c iframe')!
      return {
        names: iframe.getAttributeNames().sort(),
        sandbox: iframe.getAttribute('sandbox'),
        allow: iframe.getAttribute('allow'),
        src: iframe.getAttribute('src'),
        title: iframe.getAttribute('title'),
        referrerpolicy: iframe.getAttribute('referrerpolicy'),
        loading: iframe.getAttribute('loading'),
        width: iframe.style.width,
        border: iframe.style.borderStyle,
        borderWidth: iframe.style.borderWidth,
      }
    })
    expect(attributes).toEqual({
      names: ['allow', 'loading', 'referrerpolicy', 'sandbox', 'src', 'style', 'title'],
      // Exactly the contract's: downloads and printing are handed to this page instead (sdk-exports.test.ts).
      sandbox: 'allow-scripts allow-same-origin',
      // Present mode's fullscreen: a permissions policy, not a sandbox flag.
      allow: 'fullscreen',
      src: stack.chartUrl,
      title: 'Household chart of the Chen family',
      referrerpolicy: 'origin',
      loading: 'eager',
      width: '100%',
      border: 'none',
      borderWidth: '0px',
    })
    await waitForEvents(page, 'rendered', 1)
    expect(await readyOutcome(page)).toEqual({ resolved: true })
    expect(await chartText(page)).toContain('Robert Chen')
    expect(tokenCalls).toBe(1)
    expect(await eventsOf(page, 'error')).toEqual([])
  })

  it('sizes the iframe from rendered and resize', async () => {
    const page = await openHost()
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    const [rendered] = await eventsOf(page, 'rendered')
    expect(rendered?.height).toBeGreaterThan(150) // not the default iframe height
    expect(await iframeHeight(page)).toBe(Math.ceil(rendered?.height ?? 0))

    // The chart grows: it reports resize, and the iframe follows; then it shrinks back.
    const frame = await chartFrame(page)
    await frame.evaluate(() => {
      const filler = document.createElement('div')
      filler.id = 'filler'
      filler.style.height = '700px'
      document.body.append(filler)
    })
    await waitForEvents(page, 'resize', 1)
    const grown = (await eventsOf(page, 'resize')).at(-1)?.height ?? 0
    expect(grown).toBeGreaterThanOrEqual((rendered?.height ?? 0) + 700)
    await page.waitForFunction(
      (height) => document.querySelector('#c iframe')?.getBoundingClientRect().height === height,
      Math.ceil(grown),
    )

    await frame.evaluate(() => document.getElementById('filler')?.remove())
    await waitForEvents(page, 'resize', 2)
    await page.waitForFunction(
      (height) => document.querySelector('#c iframe')?.getBoundingClientRect().height === height,
      Math.ceil(rendered?.height ?? 0),
    )
  })

  it('ignores messages from other windows and origins', async () => {
    const page = await openHost()
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    const heightBefore = await iframeHeight(page)
    const countBefore = (await events(page)).length
    const downloads: string[] = []
    page.on('download', (download) => void downloads.push(download.suggestedFilename()))

    // A stranger's frame inside the page posts the chart's messages to the top page.
    await page.evaluate((src) => {
      const forger = document.createElement('iframe')
      forger.id = 'forger'
      forger.src = src
      document.body.append(forger)
      return new Promise((resolve) => forger.addEventListener('load', resolve))
    }, `${stack.stranger.origin}/forger.html`)
    const forger = page.frames().find((frame) => frame.url().startsWith(stack.stranger.origin))
    if (!forger) throw new Error('no forger frame')
    await forger.evaluate(() => {
      for (const message of [
        { type: 'select', id: 'robert', kind: 'person' },
        { type: 'resize', height: 5 },
        { type: 'rendered', height: 9 },
        { type: 'error', code: 'token_invalid', message: 'forged' },
        { type: 'viewchange', view: 'estate' },
        // What the chart hands the page to save or print: a stranger's would be saved or printed.
        { type: 'download', fileName: 'forged.html', mediaType: 'text/html', data: new Blob(['<p>forged</p>']) },
        { type: 'printdocument', title: 'Forged', html: '<p>forged</p>', css: '' },
      ]) {
        window.parent.postMessage(message, '*')
        window.top?.postMessage(message, '*')
      }
    })
    await sentinel(page, forger, 'forger')
    // The page itself (right window? no: its own) and the chart's origin in the data only.
    await page.evaluate(() => window.postMessage({ type: 'select', id: 'robert', kind: 'person' }, '*'))
    await sentinel(page, page, 'page')
    // A second chart (same embed origin, another window) must not talk to the first one's handle.
    await page.evaluate(() => {
      const w = window as unknown as HostWindow & { secondEvents: unknown[] }
      w.secondEvents = []
      w.sdk.mountHouseholdChart({
        container: document.getElementById('d'),
        embedOrigin: document.documentElement.dataset.embedOrigin,
        title: 'Second chart',
        fetchToken: async (): Promise<unknown> => (await fetch('/token', { method: 'POST' })).json(),
        payload: {
          household: { name: 'Second' },
          people: [{ id: 'solo', name: 'Solo Person', role: 'primaryClient' }],
        },
        onEvent: (event: unknown) => w.secondEvents.push(event),
      })
    })
    await page.waitForFunction(() =>
      (window as unknown as { secondEvents: { type: string }[] }).secondEvents.some(
        (event) => event.type === 'rendered',
      ),
    )
    // The chart's own window, navigated to another origin: the right source, the wrong origin.
    const frame = await chartFrame(page)
    await frame.goto(`${stack.stranger.origin}/forger.html`)
    await frame.evaluate(() => {
      window.parent.postMessage({ type: 'select', id: 'robert', kind: 'person' }, '*')
      window.parent.postMessage({ type: 'resize', height: 5 }, '*')
    })
    await sentinel(page, frame, 'navigated chart frame')
    expect((await events(page)).length).toBe(countBefore)
    expect(await iframeHeight(page)).toBe(heightBefore)
    expect(downloads).toEqual([])
    // No print frame (the SDK's is sandboxed "allow-same-origin allow-modals").
    expect(await page.locator('iframe[sandbox~="allow-modals"]').count()).toBe(0)
  })

  it('update(payload) renders the new payload with the same token', async () => {
    const page = await openHost()
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    await page.evaluate((payload) => (window as unknown as HostWindow).handle.update(payload), QUILLS)
    await waitForEvents(page, 'rendered', 2)
    const text = await chartText(page)
    expect(text).toContain('Zed Quill')
    expect(text).not.toContain('Robert Chen')
    expect(tokenCalls).toBe(1)
  })

  it('setTheme switches the theme inside the frame, before and after the first render', async () => {
    const page = await openHost()
    await mount(page, { theme: 'light' })
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrame(page)
    expect(await frame.locator('#chart').getAttribute('data-theme')).toBe('light')
    await page.evaluate(() => (window as unknown as HostWindow).handle.setTheme('dark'))
    await expect.poll(() => frame.locator('#chart').getAttribute('data-theme')).toBe('dark')
    expect(await eventsOf(page, 'rendered')).toHaveLength(1) // a theme message, not a new render

    // Set before the chart has rendered: the first render carries it.
    const early = await openHost()
    await mount(early, { theme: 'light' })
    await early.evaluate(() => (window as unknown as HostWindow).handle.setTheme('dark'))
    await waitForEvents(early, 'rendered', 1)
    expect(await (await chartFrame(early)).locator('#chart').getAttribute('data-theme')).toBe('dark')
  })

  it('refreshes the token quietly before it expires (no render), and the next update renders with the new token', async () => {
    // A real 10-minute token that the partner's server says expires in 65 s.
    plannedTokens = [
      async () => {
        const { token } = await stack.mint()
        return { status: 200, body: { token, expiresAt: new Date(Date.now() + 65_000).toISOString() } }
      },
    ]
    const page = await openHost(stack.partner, { clock: true })
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    expect(tokenCalls).toBe(1)
    const renderTokens = await logRenders(page)

    // The refresh is due halfway through the 65 s: 40 s on, still 25 s before expiry, it has happened.
    await page.clock.fastForward(40_000)
    expect(await fetchTokenCalls(page)).toBe(2)
    await waitForTokens(page, 2)
    const [first, second] = await heldTokens(page)
    expect(second).toBeDefined()
    expect(second).not.toBe(first)

    // Then an update. It is posted after anything a refresh could have posted (one sender, one
    // receiver: in order), so when it has rendered, every render sent so far has reached the chart.
    await page.evaluate((payload) => (window as unknown as HostWindow).handle.update(payload), QUILLS)
    await waitForEvents(page, 'rendered', 2)
    expect(await renderTokens()).toEqual([second]) // no render at the refresh; the update carries the new token
    expect(await eventsOf(page, 'rendered')).toHaveLength(2)
    expect(await chartText(page)).toContain('Zed Quill')
    // The chart metered a render for the new token (its key fetch names the token id).
    const jti = String(decodeJwt(second ?? '').jti)
    const mint = await stack.store.db
      .selectFrom('chart_mints')
      .select('rendered_at')
      .where('jti', '=', jti)
      .executeTakeFirst()
    expect(mint?.rendered_at).toBeInstanceOf(Date)
    expect(tokenCalls).toBe(2)
    expect(await eventsOf(page, 'error')).toEqual([])
  })

  it('stops refreshing after three refreshes without a render; the next update fetches a token first', async () => {
    const page = await openHost(stack.partner, { clock: true })
    // Tokens the page believes live 20 s: refreshed 10 s after each arrives.
    await page.evaluate(() => {
      ;(window as unknown as HostWindow).tokenLifeMs = 20_000
    })
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    await waitForTokens(page, 1)
    const renderTokens = await logRenders(page)
    for (const calls of [2, 3, 4]) {
      await page.clock.fastForward(10_000)
      expect(await fetchTokenCalls(page)).toBe(calls)
      await waitForTokens(page, calls)
    }
    // Idle: the third refresh was the last. (The refresh timer runs inside fastForward, and the
    // fetch starts in the same task, so a later evaluate sees it: no sleep needed.)
    await page.clock.fastForward(60_000)
    expect(await fetchTokenCalls(page)).toBe(4)
    expect(await renderTokens()).toEqual([])

    // The held token has expired: the update fetches a new one and renders with it.
    await page.evaluate((payload) => (window as unknown as HostWindow).handle.update(payload), QUILLS)
    await waitForEvents(page, 'rendered', 2)
    expect(await fetchTokenCalls(page)).toBe(5)
    const tokens = await heldTokens(page)
    expect(await renderTokens()).toEqual([tokens[4]])
    expect(await chartText(page)).toContain('Zed Quill')
    // And refreshing has resumed.
    await page.clock.fastForward(10_000)
    expect(await fetchTokenCalls(page)).toBe(6)
    await waitForTokens(page, 6)
    expect(await eventsOf(page, 'error')).toEqual([])
  })

  it('answers token_expired with one new token, and does not loop when that one is expired too', async () => {
    // Tokens signed by the real key 20 minutes ago (expired 10 minutes ago), which the partner's
    // server believes valid (as with a skewed clock).
    const expired = async (): Promise<TokenAnswer> => {
      const { token } = await mintChartToken(
        await loadChartSigner(stack.store.db),
        { issuer: 'x', audience: stack.embedOrigin, orgId: stack.orgId, frameOrigin: stack.partner.origin },
        new Date(Date.now() - 20 * 60_000),
      )
      return { status: 200, body: { token, expiresAt: new Date(Date.now() + 10 * 60_000).toISOString() } }
    }
    plannedTokens = [expired]
    const page = await openHost()
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    expect(tokenCalls).toBe(2)
    expect(await readyOutcome(page)).toEqual({ resolved: true })
    expect(await eventsOf(page, 'error')).toEqual([])

    plannedTokens = [expired, expired, expired]
    tokenCalls = 0
    const stuck = await openHost()
    await mount(stuck)
    await waitForEvents(stuck, 'error', 1)
    const outcome = await readyOutcome(stuck)
    expect(outcome).toMatchObject({ code: 'token_expired', name: 'HouseholdChartError', typed: true })
    // A retry would call fetchToken while handling the chart's error, before this later evaluate.
    expect(await fetchTokenCalls(stuck)).toBe(2)
    expect(tokenCalls).toBe(2)
    expect((await eventsOf(stuck, 'error')).map((event) => event.code)).toEqual(['token_expired'])
  })

  it('a second mount into the same container replaces the first; destroy removes it', async () => {
    const page = await openHost()
    await mount(page)
    await waitForEvents(page, 'rendered', 1)
    const firstOutcome = await readyOutcome(page)
    expect(firstOutcome).toEqual({ resolved: true })
    await mount(page, { payload: QUILLS })
    await waitForEvents(page, 'rendered', 2)
    expect(await page.locator('#c iframe').count()).toBe(1)
    expect(await chartText(page)).toContain('Zed Quill')

    await page.evaluate(() => (window as unknown as HostWindow).handle.destroy())
    expect(await page.locator('iframe').count()).toBe(0)
    // Destroying twice, or updating a destroyed chart, does nothing.
    await page.evaluate(() => {
      const { handle } = window as unknown as HostWindow
      handle.destroy()
      handle.update({})
      handle.setTheme('dark')
    })
    expect(await page.locator('iframe').count()).toBe(0)
  })

  it('rejects ready with a typed ready_timeout naming the likely causes when the page may not frame the chart', async () => {
    const page = await openHost(stack.stranger)
    await mount(page, { readyTimeoutMs: 1500 })
    const outcome = await readyOutcome(page)
    expect(outcome).toMatchObject({ code: 'ready_timeout', name: 'HouseholdChartError', typed: true })
    const message = outcome && 'message' in outcome ? outcome.message : ''
    for (const cause of [
      stack.stranger.origin,
      'hearth origins add',
      'frame-src',
      'child-src',
      'embedOrigin',
      'version',
    ])
      expect(message).toContain(cause)
    expect((await eventsOf(page, 'error')).map((event) => event.code)).toEqual(['ready_timeout'])
  })

  it('reports token_fetch_failed when the partner server gives no token', async () => {
    plannedTokens = [
      async () => ({ status: 500, body: { error: 'down' } }),
      async () => ({ status: 500, body: { error: 'down' } }),
    ]
    const page = await openHost()
    await mount(page)
    const outcome = await readyOutcome(page)
    expect(outcome).toMatchObject({ code: 'token_fetch_failed', typed: true })
    expect(outcome && 'message' in outcome ? outcome.message : '').toContain('token 500')
    await waitForEvents(page, 'error', 1)
    expect((await eventsOf(page, 'error'))[0]?.code).toBe('token_fetch_failed')
  })

  it('refuses options that break the mounting rules with a TypeError', async () => {
    const page = await openHost()
    const errors = await page.evaluate((embedOrigin) => {
      const host = window as unknown as HostWindow
      return [
        host.mountError({ version: 'latest' }),
        host.mountError({ version: '1.0' }),
        host.mountError({ embedOrigin: `${embedOrigin}/` }),
        host.mountError({ embedOrigin: `${embedOrigin}/chart` }),
        host.mountError({ embedOrigin: 'javascript:alert(1)' }),
        host.mountError({ title: '' }),
      ]
    }, stack.embedOrigin)
    expect(errors.map((error) => error.split(':')[0])).toEqual(Array(6).fill('TypeError'))
    expect(errors[0]).toContain('pin a released version')
    expect(await page.locator('iframe').count()).toBe(0)
  })
})
