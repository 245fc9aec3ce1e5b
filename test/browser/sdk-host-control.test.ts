// The SDK's 0.2.0 calls that drive the chart from the host page, in real Chromium with the released
// SDK bundle and a real embed server: setView (and its viewchange event), focus (and its select
// event), and the appearance options at mount and through setAppearance.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Frame, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import {
  chartFrameOf,
  eventsOf,
  mountOnPage,
  sdkHostPage,
  sdkHostScript,
  waitForEvents,
  type SdkHostWindow,
} from '../helpers/sdk-host-page.ts'

/** The tab shown in the chart: the label of the selected tab. */
const shownTab = (frame: Frame) => frame.locator('#chart [role="tab"][aria-selected="true"]').textContent()
/** The chart shell's font family and accent colour, as computed. */
const shellStyle = (frame: Frame) =>
  frame.locator('#chart').evaluate((shell) => {
    const style = getComputedStyle(shell)
    return { fontFamily: style.fontFamily, accent: style.getPropertyValue('--accent').trim() }
  })
const handleOf = (page: Page) => page.evaluateHandle(() => (window as unknown as SdkHostWindow).handle)

describe.runIf(hasChromium())('the SDK drives the chart: setView, focus, appearance', () => {
  let stack: ChartStack
  let browser: Browser
  const pages: Page[] = []

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    stack.partner.set('/host.html', sdkHostPage(stack.partner, stack))
    stack.partner.set('/host.js', sdkHostScript(stack.embedOrigin))
    stack.partner.handle('/token', async () => {
      const { token, expiresAt } = await stack.mint()
      return { status: 200, body: { token, expiresAt } }
    })
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })
  beforeEach(async () => {
    for (const page of pages.splice(0)) await page.close()
  })

  async function openHost(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } })
    pages.push(page)
    await page.goto(`${stack.partner.origin}/host.html`)
    await page.waitForFunction(() => (window as unknown as SdkHostWindow).hostReady === true)
    return page
  }

  it('setView shows the view and reports viewchange; before the first render the chart opens on it', async () => {
    const page = await openHost()
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    expect(await shownTab(frame)).toBe('Family')

    await (await handleOf(page)).evaluate((handle) => handle.setView('structure'))
    expect(await waitForEvents(page, 'viewchange', 1)).toEqual([{ type: 'viewchange', view: 'structure' }])
    expect(await shownTab(frame)).toBe('Structure')

    // The reader's own choice is reported too.
    await frame.locator('#chart [role="tab"]', { hasText: 'Estate' }).click()
    expect((await waitForEvents(page, 'viewchange', 2))[1]).toEqual({ type: 'viewchange', view: 'estate' })

    // Called before the chart has drawn: it opens on that view once it has.
    const early = await openHost()
    await mountOnPage(early)
    await (await handleOf(early)).evaluate((handle) => handle.setView('estate'))
    await waitForEvents(early, 'viewchange', 1)
    expect(await eventsOf(early, 'viewchange')).toEqual([{ type: 'viewchange', view: 'estate' }])
    expect(await shownTab(await chartFrameOf(early))).toBe('Estate')

    // A view the chart does not have is the caller's mistake.
    const thrown = await page.evaluate(() => {
      try {
        ;(window as unknown as SdkHostWindow).handle.setView('timeline')
        return ''
      } catch (error) {
        return String(error)
      }
    })
    expect(thrown).toMatch(/^TypeError: setView: view must be family, structure, estate or flow/)
  })

  it('focus(id) selects the person or entity in the chart and reports select', async () => {
    const page = await openHost()
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    await (await handleOf(page)).evaluate((handle) => handle.focus('slat'))
    expect(await waitForEvents(page, 'select', 1)).toEqual([{ type: 'select', id: 'slat', kind: 'entity' }])
    // The shell marks every node of that id, in every view.
    expect(await frame.locator('#chart [data-id="slat"].hv-selected').count()).toBeGreaterThan(0)
    expect(await frame.locator('#chart .hv-selected:not([data-id="slat"])').count()).toBe(0)

    await (await handleOf(page)).evaluate((handle) => handle.focus('robert'))
    expect((await waitForEvents(page, 'select', 2))[1]).toEqual({ type: 'select', id: 'robert', kind: 'person' })
    expect(await frame.locator('#chart [data-id="robert"].hv-selected').count()).toBeGreaterThan(0)
    expect(await frame.locator('#chart [data-id="slat"].hv-selected').count()).toBe(0)

    // An id the household does not have changes nothing. A round trip through setView after it:
    // the chart handles messages in order, so once viewchange is back, the focus has been handled.
    await (
      await handleOf(page)
    ).evaluate((handle) => {
      handle.focus('nobody')
      handle.setView('estate')
    })
    await waitForEvents(page, 'viewchange', 1)
    expect(await eventsOf(page, 'select')).toHaveLength(2)
    expect(await frame.locator('#chart [data-id="robert"].hv-selected').count()).toBeGreaterThan(0)
  })

  it('applies the appearance given at mount, and setAppearance redraws in another on the same view', async () => {
    const page = await openHost()
    await mountOnPage(page, { appearance: { fontFamily: 'Georgia, serif', accentColor: '#7a3e9d', cornerRadius: 12 } })
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    expect(await shellStyle(frame)).toEqual({ fontFamily: 'Georgia, serif', accent: '#7a3e9d' })

    await (await handleOf(page)).evaluate((handle) => handle.setView('structure'))
    await waitForEvents(page, 'viewchange', 1)
    await (
      await handleOf(page)
    ).evaluate((handle) => handle.setAppearance({ fontFamily: 'Verdana, sans-serif', accentColor: '#0a6e5c' }))
    await expect.poll(() => shellStyle(frame)).toEqual({ fontFamily: 'Verdana, sans-serif', accent: '#0a6e5c' })
    expect(await shownTab(frame)).toBe('Structure')
    // Not a render: nothing metered, no second rendered event.
    expect(await eventsOf(page, 'rendered')).toHaveLength(1)

    // A later update renders with the appearance set last.
    await (
      await handleOf(page)
    ).evaluate((handle) =>
      handle.update({
        household: { name: 'Solo' },
        people: [{ id: 'solo', name: 'Solo Person', role: 'primaryClient' }],
      }),
    )
    await waitForEvents(page, 'rendered', 2)
    expect(await shellStyle(frame)).toEqual({ fontFamily: 'Verdana, sans-serif', accent: '#0a6e5c' })
  })

  it('reports an invalid appearance as appearance_invalid: refused at mount, not applied by setAppearance', async () => {
    const page = await openHost()
    await mountOnPage(page, { appearance: { accentColor: 'red' } })
    const [refused] = await waitForEvents(page, 'error', 1)
    expect(refused).toMatchObject({ type: 'error', code: 'appearance_invalid' })
    expect(refused?.message).toContain('appearance.accentColor')
    await page.waitForFunction(() => (window as unknown as SdkHostWindow).readyOutcome !== undefined)
    expect(await page.evaluate(() => (window as unknown as SdkHostWindow).readyOutcome)).toMatchObject({
      code: 'appearance_invalid',
      typed: true,
    })
    // The chart drew nothing; a valid appearance renders it.
    const frame = await chartFrameOf(page)
    expect(await frame.locator('#chart').evaluate((shell) => shell.childElementCount)).toBe(0)
    await (await handleOf(page)).evaluate((handle) => handle.setAppearance({ accentColor: '#0a6e5c' }))
    await waitForEvents(page, 'rendered', 1)
    expect((await shellStyle(frame)).accent).toBe('#0a6e5c')

    // After the render: reported, never sent, and the chart keeps the appearance it has.
    await (
      await handleOf(page)
    ).evaluate((handle) => handle.setAppearance({ fontFamily: 'x; background: url(//evil)' }))
    const errors = await waitForEvents(page, 'error', 2)
    expect(errors[1]).toMatchObject({ code: 'appearance_invalid' })
    expect(errors[1]?.message).toContain('appearance.fontFamily')
    await (
      await handleOf(page)
    ).evaluate((handle) =>
      handle.update({
        household: { name: 'Solo' },
        people: [{ id: 'solo', name: 'Solo Person', role: 'primaryClient' }],
      }),
    )
    await waitForEvents(page, 'rendered', 2)
    expect((await shellStyle(frame)).accent).toBe('#0a6e5c')
    expect(await eventsOf(page, 'error')).toHaveLength(2)
  })
})
