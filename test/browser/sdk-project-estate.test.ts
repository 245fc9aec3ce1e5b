// The released SDK's estate projection in real Chromium: projectEstate, as sdk.js exports it to a
// partner's page, gives every figure of the worked cases (test/chart/estate-worked-cases.ts, each
// worked by hand), and the `estate` event a mounted chart sends carries the same projection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import { mountOnPage, sdkHostPage, sdkHostScript, waitForEvents, type SdkHostWindow } from '../helpers/sdk-host-page.ts'
import { statedFigures, TODAY_ISO, WORKED_CASES } from '../chart/estate-worked-cases.ts'
import type { EstateProjection } from '../../chart/src/flow/projection-types.ts'

/** The page's SDK module, with the 0.3.0 export these tests call. */
interface ProjectingWindow {
  sdk: { projectEstate(payload: unknown, choices?: Record<string, unknown>): EstateProjection }
}

describe.runIf(hasChromium())("the SDK's projectEstate in Chromium", () => {
  let stack: ChartStack
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    stack.partner.set('/host.html', sdkHostPage(stack.partner, stack))
    stack.partner.set('/host.js', sdkHostScript(stack.embedOrigin))
    stack.partner.handle('/token', async () => {
      const { token, expiresAt } = await stack.mint()
      return { status: 200, body: { token, expiresAt } }
    })
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } })
    await page.goto(`${stack.partner.origin}/host.html`)
    await page.waitForFunction(() => (window as unknown as SdkHostWindow).hostReady === true)
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
  })

  it.each(WORKED_CASES)('$name: every figure as worked by hand', async ({ payload, choices, deaths, recipients }) => {
    const projection = await page.evaluate(
      ([payload, choices, today]) =>
        (window as unknown as ProjectingWindow).sdk.projectEstate(payload, { ...choices, today: new Date(today) }),
      [payload, choices ?? {}, TODAY_ISO] as const,
    )
    expect(statedFigures(projection)).toEqual({ deaths, recipients })
  })

  it('a mounted chart sends the same projection as its estate event', async () => {
    const { payload } = WORKED_CASES.find((each) => each.name === 'a credit-shelter trust at the first death')!
    // The payload names no year and no asOf: the chart's "this year" is the page's clock, as projectEstate's is.
    await mountOnPage(page, { payload })
    const [event] = (await waitForEvents(page, 'estate', 1)) as unknown as [{ projection: EstateProjection }]
    const expected = await page.evaluate(
      (payload) => (window as unknown as ProjectingWindow).sdk.projectEstate(payload),
      payload,
    )
    expect(event.projection).toEqual(expected)
    expect(event.projection.deaths.map((death) => death.estateTax)).toEqual([0, 0])
  })
})
