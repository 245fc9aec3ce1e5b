// Label text for chart 0.2.0 in real Chromium (chart/src/text/): the canvas measurement agrees with
// what SVG text lays out, for Latin, emoji, CJK, Arabic and Hebrew; a fitted label never runs past
// its room; and a cut right-to-left name drawn with the direction baseDirection() gives shows its
// ellipsis on the left, where the name was cut (drawn left to right, as 0.1.x did, it shows on the
// right, next to the name's first letter: the "RTL ellipsis on the wrong side").
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { bundleFixture } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import type { DrawnLabel, TextProbe } from './fixtures/text-entry.ts'

const CSP = "default-src 'none'; script-src 'self'"
const LABELS = [
  'Elizabeth Montgomery-Chen',
  'Chen Family Revocable Trust',
  'Olivia 🌷 Park',
  'Family 👨‍👩‍👧 Office',
  '王小明',
  '佐藤 花子',
  'فاطمة الزهراء',
  'מרים לוי',
  'Zoë Ångström-Øberg',
]

describe.runIf(hasChromium())('label text in Chromium', () => {
  let site: Site
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    const bundle = await bundleFixture(new URL('fixtures/text-entry.ts', import.meta.url))
    site = await startSite()
    const headers = { 'content-security-policy': CSP }
    site.set('/', {
      type: 'text/html; charset=utf-8',
      headers,
      body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Text</title><script type="module" src="/text-entry.js"></script></head><body></body></html>',
    })
    site.set('/text-entry.js', { type: 'text/javascript', headers, body: bundle })
    site.set('/favicon.ico', { type: 'image/x-icon', headers, body: new Uint8Array() })
    browser = await launchChromium()
    page = await browser.newPage()
    await page.goto(site.origin)
    await page.waitForFunction(() => 'textProbe' in window)
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  type DrawArguments = readonly [string, number, number, number | undefined, 'ltr' | 'rtl' | undefined]
  const draw = (text: string, sizePx: number, weight: number, max?: number, direction?: 'ltr' | 'rtl') =>
    page.evaluate<DrawnLabel, DrawArguments>(
      ([t, s, w, m, d]) => (window as unknown as { textProbe: TextProbe }).textProbe.draw(t, s, w, m, d),
      [text, sizePx, weight, max, direction],
    )

  it('measures as SVG lays out: within half a pixel or 1 %, in the name and the role faces', async () => {
    for (const label of LABELS) {
      for (const [size, weight] of [
        [15, 650],
        [12, 400],
      ] as const) {
        const drawn = await draw(label, size, weight)
        const tolerance = Math.max(0.5, drawn.svgWidth * 0.01)
        expect(Math.abs(drawn.measured - drawn.svgWidth), `${label} at ${String(size)}px`).toBeLessThanOrEqual(
          tolerance,
        )
        expect(drawn.svgWidth, label).toBeGreaterThan(0)
      }
    }
  })

  it('fits every label into its room as laid out, cutting only when it must', async () => {
    for (const label of LABELS) {
      const whole = await draw(label, 15, 650)
      for (const max of [40, 80, 120]) {
        const fitted = await draw(label, 15, 650, max)
        expect(fitted.svgWidth, `${label} in ${String(max)}px`).toBeLessThanOrEqual(max + 0.5)
        expect(fitted.text === label.replace(/\s+/g, ' ')).toBe(whole.svgWidth <= max)
      }
    }
  })

  it('puts the ellipsis of a cut right-to-left name on the left when drawn in its own direction', async () => {
    for (const name of ['فاطمة الزهراء', 'מרים לוי בן דוד']) {
      const own = await draw(name, 15, 650, 60)
      expect(own.text.endsWith('…'), name).toBe(true)
      // Drawn rtl, the last character (the ellipsis) sits left of the first.
      expect(own.lastX, name).toBeLessThan(own.firstX)
      // Drawn ltr, the same text puts the ellipsis right of the name: the bug direction avoids.
      const leftToRight = await draw(name, 15, 650, 60, 'ltr')
      expect(leftToRight.lastX, name).toBeGreaterThan(leftToRight.firstX)
    }
    const latin = await draw('Elizabeth Montgomery', 15, 650, 60)
    expect(latin.lastX).toBeGreaterThan(latin.firstX)
  })
})
