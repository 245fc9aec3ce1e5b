// The 0.2.0 view shell's print/PDF layout and Present mode in real Chromium, on the shipped example
// and the issue's $120M household, bundled through the views fixture and served with the chart's
// real CSP and its stylesheets (styles.css, views.css, genogram.css, print.css). Print: the title block, the
// four views with legible tiles, the totals table, the Flow view's columns, link colours kept, the toolbar gone, a PDF of
// several pages; with a host print handler, the print document handed to it instead. Present: the button, full screen or the viewport (inside an iframe that does not
// allow full screen), larger type, the steps and Escape, axe. Every test ends by asserting there was
// no CSP violation, console error, page error or dialog, and no network request after the first draw.
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Browser, Frame, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { seriousViolations, serveViewsFixture, watchProblems } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import { lookThroughEstate } from '../../chart/src/estate/estate-lookthrough.ts'
import { estateTable } from '../../chart/src/estate/estate-table.ts'
import { MIN_PRINT_TEXT_PX, TILE_BOX, tileDrawing, type Rect } from '../../chart/src/views/print-layout.ts'
import type { ViewHousehold } from '../../chart/src/views/view-types.ts'
import type { ViewsTestWindow } from './fixtures/views-entry.ts'

const root = new URL('../../', import.meta.url)
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as ViewHousehold
const households = {
  example: read('chart/example.json'),
  estate120m: read('bench/chart/households/estate-120m.json'),
}
type HouseholdName = keyof typeof households
/** The day the pages' clock is fixed at: a household without asOf is dated this day in its title block. */
const TODAY = new Date('2026-03-05T12:00:00Z')
const EXPECTED_AS_OF: Record<HouseholdName, string> = {
  example: 'As of November 1, 2026', // its household.asOf, "2026-11-01"
  estate120m: 'As of September 30, 2026', // its household.asOf, "2026-09-30"
}
/** The example's people and entities under a household with no asOf: the title block falls back to TODAY. */
const undated: ViewHousehold = { ...households.example, household: { name: households.example.household.name } }
/**
 * The example's totals in its currency, USD, by hand: joint = the revocable trust's 6,200,000 + 60 %
 * of the LLC's 4,800,000 (2,880,000) = 9,080,000; outside = ILIT 5,000,000 + SLAT 3,500,000 + 40 % of
 * the LLC (1,920,000) = 10,420,000; the estate is the joint 9,080,000; all = 9,080,000 + 10,420,000 =
 * 19,500,000 (the corporate trustee, a party, counts nothing).
 */
const EXAMPLE_TOTALS = {
  rows: [
    ['Joint', '$9,080,000'],
    ['Outside the estate', '$10,420,000'],
  ],
  estate: '$9,080,000',
  all: '$19,500,000',
}
/** The light theme's --link, #a9764a (styles.css), as a computed colour: 0xa9 = 169, 0x76 = 118, 0x4a = 74. */
const COPPER = 'rgb(169, 118, 74)'
/** The light theme's --line, #6d7a8a (styles.css; print.css keeps it), the genogram's lines: 0x6d = 109, 0x7a = 122, 0x8a = 138. */
const LIGHT_LINE = 'rgb(109, 122, 138)'
/** 7 pt in CSS px (7 × 96 / 72), and the smallest text the drawings set (11 px, genogram-view.ts and structure-cards.ts). */
const SEVEN_POINT_PX = (7 * 96) / 72
const SMALLEST_TEXT_PX = 11
/** A landscape page's printable area in CSS px, the smaller of A4 and Letter less 12 mm margins: 255.4 mm × 186 mm. */
const PAGE_PX = { width: (255.4 / 25.4) * 96, height: (186 / 25.4) * 96 }

/** The whole units an amount as shown stands for: "$31,500,000" → 31500000. */
const unitsOf = (shown: string) => Number(shown.replace(/[^\d]/g, ''))

describe('tileDrawing', () => {
  // The box a tile may take: 960 × 540 px; the smallest legible scale: 7 pt / 11 px = 9.333 / 11 = 0.8485.
  const legible = MIN_PRINT_TEXT_PX / SMALLEST_TEXT_PX

  it('prints a drawing that fits the box whole and unscaled', () => {
    expect(tileDrawing({ x: -8, y: -8, width: 800, height: 500 })).toEqual({
      scale: 1,
      columns: 1,
      rows: 1,
      tiles: [{ x: -8, y: -8, width: 800, height: 500 }],
    })
  })

  it('fits a drawing a little too wide to the box when its text stays at 7 pt', () => {
    // 1126 wide (the example's family): 960 / 1126 = 0.8526 ≥ 0.8485, so one tile at 0.8526
    // (text 11 × 0.8526 = 9.38 px = 7.03 pt).
    const tiling = tileDrawing({ x: 0, y: 0, width: 1126, height: 400 })
    expect(tiling.scale).toBeCloseTo(960 / 1126, 10)
    expect(tiling.tiles).toEqual([{ x: 0, y: 0, width: 1126, height: 400 }])
  })

  it('tiles a wide drawing at the smallest legible scale, in equal columns', () => {
    // 2500 wide: fitting would be 960 / 2500 = 0.384 (text 4.2 px); at 0.8485 it is 2121.2 px on paper,
    // 2121.2 / 960 = 2.21 → 3 columns of 2500 / 3 = 833.33 units (707.1 px); 400 × 0.8485 = 339.4 ≤ 540 → 1 row.
    const tiling = tileDrawing({ x: 10, y: 20, width: 2500, height: 400 })
    expect(tiling.scale).toBeCloseTo(legible, 10)
    expect([tiling.columns, tiling.rows]).toEqual([3, 1])
    expect(tiling.tiles.map((t) => [t.x, t.y])).toEqual([
      [10, 20],
      [10 + 2500 / 3, 20],
      [10 + (2 * 2500) / 3, 20],
    ])
    for (const tile of tiling.tiles) expect([tile.width, tile.height]).toEqual([2500 / 3, 400])
  })

  it('tiles a tall drawing in rows', () => {
    // 1500 high: 1500 × 0.8485 = 1272.7 px, / 540 = 2.36 → 3 rows of 500 units; 500 wide → 1 column.
    const tiling = tileDrawing({ x: 0, y: 0, width: 500, height: 1500 })
    expect([tiling.columns, tiling.rows]).toEqual([1, 3])
    expect(tiling.tiles.map((t) => t.y)).toEqual([0, 500, 1000])
  })

  it('covers any drawing exactly, row by row, each tile within the box, text at 7 pt or more, never enlarged', () => {
    const size = fc.double({ min: 1, max: 20_000, noNaN: true })
    const offset = fc.double({ min: -1000, max: 1000, noNaN: true })
    fc.assert(
      fc.property(offset, offset, size, size, (x, y, width, height) => {
        const content: Rect = { x, y, width, height }
        const { scale, columns, rows, tiles } = tileDrawing(content)
        expect(tiles).toHaveLength(columns * rows)
        expect(scale).toBeLessThanOrEqual(1)
        expect(scale * SMALLEST_TEXT_PX).toBeGreaterThanOrEqual(SEVEN_POINT_PX - 1e-9)
        tiles.forEach((tile, k) => {
          expect(tile.width * scale).toBeLessThanOrEqual(TILE_BOX.width + 1e-6)
          expect(tile.height * scale).toBeLessThanOrEqual(TILE_BOX.height + 1e-6)
          expect(tile.x).toBeCloseTo(x + (k % columns) * (width / columns), 6)
          expect(tile.y).toBeCloseTo(y + Math.floor(k / columns) * (height / rows), 6)
        })
        // Equal tiles side by side: the last column and row end where the drawing ends.
        const last = tiles.at(-1)!
        expect(last.x + last.width).toBeCloseTo(x + width, 6)
        expect(last.y + last.height).toBeCloseTo(y + height, 6)
      }),
    )
  })
})

type PrintTestWindow = ViewsTestWindow & { printCalls: number; violations: string[] }

describe.runIf(hasChromium())('the 0.2.0 view shell prints and presents in Chromium', () => {
  let site: Site
  /** A partner's site on another origin, whose page frames the chart. */
  let partner: Site
  let browser: Browser
  const opened: { page: Page; problems: string[]; requests: string[] }[] = []

  beforeAll(async () => {
    site = await startSite()
    // A partner's page framing the chart from another origin, without allow="fullscreen".
    partner = await startSite()
    partner.set('/framed', {
      type: 'text/html; charset=utf-8',
      headers: { 'content-security-policy': `default-src 'none'; img-src data:; frame-src ${site.origin}` },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title>
<link rel="icon" href="data:,"></head><body><iframe title="Household chart" src="${site.origin}/?payload=example" width="900" height="600"></iframe></body></html>`,
    })
    await serveViewsFixture(site, { ...households, undated })
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const { page, problems, requests } of opened.splice(0)) {
      const violations = await page.evaluate(() => (window as unknown as PrintTestWindow).violations)
      await page.close()
      expect([...problems, ...violations]).toEqual([])
      expect(requests).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await partner?.close()
  })

  /** Opens `path` in a page of its own (en-US, UTC, the clock at TODAY), watching for problems and requests. */
  async function openPage(url: string, ready: (page: Page) => Promise<unknown>): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, locale: 'en-US', timezoneId: 'UTC' })
    const watched = { page, problems: [] as string[], requests: [] as string[] }
    opened.push(watched)
    await page.clock.setFixedTime(TODAY)
    await watchProblems(page, watched.problems)
    await page.addInitScript(() => {
      const w = window as unknown as PrintTestWindow
      // The print dialog would block the page: counted instead.
      w.printCalls = 0
      w.print = () => {
        w.printCalls++
      }
    })
    await page.goto(url)
    await ready(page)
    page.on('request', (request) => watched.requests.push(request.url()))
    return page
  }

  const open = (household: HouseholdName) =>
    openPage(`${site.origin}/?payload=${household}`, (page) =>
      page.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn),
    )

  /** Clicks Print, then lays the page out for paper. */
  async function printed(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Print' }).click()
    expect(await page.evaluate(() => (window as unknown as PrintTestWindow).printCalls)).toBe(1)
    await page.emulateMedia({ media: 'print' })
  }

  it.each(Object.keys(households) as HouseholdName[])(
    'prints %s: a title block, the four views from new pages, the totals table, the toolbar hidden',
    async (name) => {
      const household = households[name]
      const page = await open(name)
      expect(await page.locator('.hv-print').isVisible()).toBe(false)
      await printed(page)

      expect(await page.locator('.hv-print-name').textContent()).toBe(household.household.name)
      expect(await page.locator('.hv-print-as-of').textContent()).toBe(EXPECTED_AS_OF[name])
      expect(await page.locator('.hv-print-disclaimer').textContent()).toBe(
        'For discussion only; not legal or tax advice.',
      )
      for (const selector of ['.hv-print-name', '.hv-print-as-of', '.hv-print-disclaimer']) {
        expect(await page.locator(selector).isVisible()).toBe(true)
      }
      expect(await page.locator('.hv-print-view-title').allTextContents()).toEqual([
        'Family',
        'Structure',
        'Estate',
        'Flow',
      ])
      const layout = await page.evaluate(() => {
        const views = [...document.querySelectorAll('.hv-print-view')]
        return {
          breaks: views.map((view) => getComputedStyle(view).breakBefore),
          drawings: views.map((view) => view.querySelectorAll('.hv-print-tile svg').length),
          legends: document.querySelectorAll('.hv-print-view-family .hv-gn-legend').length,
          liveLegends: document.querySelectorAll('.hv-panel-family .hv-gn-legend').length,
          tilesAvoidBreaks: [...document.querySelectorAll('.hv-print-tile')].every(
            (tile) => getComputedStyle(tile).breakInside === 'avoid',
          ),
          rowsAvoidBreaks: [...document.querySelectorAll('.hv-print tr')].every(
            (row) => getComputedStyle(row).breakInside === 'avoid',
          ),
        }
      })
      // The first view follows the title block; the others start a page.
      expect(layout.breaks).toEqual(['auto', 'page', 'page', 'page'])
      expect(layout.drawings[0]).toBeGreaterThan(0)
      expect(layout.drawings[1]).toBeGreaterThan(0)
      expect(layout.drawings[2]).toBe(0)
      expect(layout.drawings[3]).toBe(0)
      // The Family view's legends (line styles, and the links' colours) are copied as they are.
      expect(layout.liveLegends).toBeGreaterThan(0)
      expect(layout.legends).toBe(layout.liveLegends)
      expect(layout.tilesAvoidBreaks).toBe(true)
      expect(layout.rowsAvoidBreaks).toBe(true)

      // The toolbar (tabs, Download, Print, Present), the live views and the text version are not on paper.
      for (const selector of ['.hv-head', '.hv-tabs', '.hv-actions', '.hv-body', '.hv-text']) {
        expect({ selector, visible: await page.locator(selector).isVisible() }).toEqual({ selector, visible: false })
      }

      // The totals table, as the look-through computes it.
      const table = estateTable(household, lookThroughEstate(household))
      const shown = await page.evaluate(() => ({
        visible: document.querySelector('.hv-print-view-estate table.hv-estate') !== null,
        rows: [...document.querySelectorAll('.hv-print-view-estate .hv-bucket-row')].map((row) => [
          row.querySelector('th')?.textContent ?? '',
          row.querySelector('.hv-col-amount')?.textContent ?? '',
        ]),
        estate: document.querySelector('.hv-print .hv-estate-total .hv-col-amount')?.textContent ?? '',
        all: document.querySelector('.hv-print .hv-grand-total .hv-col-amount')?.textContent ?? '',
      }))
      expect(shown.visible).toBe(true)
      expect(await page.locator('.hv-print-view-estate table.hv-estate').isVisible()).toBe(true)
      expect(shown.rows.map(([label, amount]) => [label, unitsOf(amount!)])).toEqual(
        table.rows.map((row) => [row.label, Math.round(row.amount)]),
      )
      expect([unitsOf(shown.estate), unitsOf(shown.all)]).toEqual([
        Math.round(table.estateTotal),
        Math.round(table.grandTotal),
      ])
      // Both households say USD: every amount is in whole dollars.
      for (const amount of [...shown.rows.map(([, amount]) => amount), shown.estate, shown.all])
        expect(amount).toMatch(/^\$\d{1,3}(,\d{3})*$/)
      if (name === 'example') expect(shown).toEqual({ visible: true, ...EXAMPLE_TOTALS })

      // The copy carries no id the live shell has, nor anything it finds live nodes by.
      expect(await page.locator('.hv-print [id], .hv-print [data-id], .hv-print [tabindex]').count()).toBe(0)

      await page.emulateMedia({ media: 'screen' })
      expect(await page.locator('.hv-print').isVisible()).toBe(false)
      expect(await page.locator('.hv-head').isVisible()).toBe(true)
    },
  )

  it('dates the title block today when the household gives no asOf', async () => {
    const page = await openPage(`${site.origin}/?payload=undated`, (opened) =>
      opened.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn),
    )
    await printed(page)
    // TODAY in en-US, dateStyle long.
    expect(await page.locator('.hv-print-as-of').textContent()).toBe('As of March 5, 2026')
  })

  it.each(Object.keys(households) as HouseholdName[])(
    "prints %s in colour: print-color-adjust exact, copper Structure lines, the light theme's family lines, coloured bars",
    async (name) => {
      const page = await open(name)
      await printed(page)
      const colours = await page.evaluate(() => {
        const stroke = (selector: string) => {
          const element = document.querySelector(selector)
          return element === null ? null : getComputedStyle(element).stroke
        }
        return {
          adjust: getComputedStyle(document.querySelector('.hv-print')!).printColorAdjust,
          structure: stroke('.hv-print-view-structure .hv-st-edge'),
          family: stroke('.hv-print-view-family .hv-gn-line'),
          // The legend of the selection's lines: each sample keeps its link type's colour on paper.
          legendLinks: [...document.querySelectorAll('.hv-print .hv-gn-link-legend .hv-gn-link')].map(
            (sample) => getComputedStyle(sample).stroke,
          ),
          bar: getComputedStyle(document.querySelector('.hv-print .hv-bar-joint, .hv-print .hv-bar')!).fill,
        }
      })
      expect(colours.adjust).toBe('exact')
      expect(colours.structure).toBe(COPPER)
      // Not styles.css's print black (#000): the family's lines keep the light theme's grey.
      expect(colours.family).toBe(LIGHT_LINE)
      expect(colours.legendLinks.length).toBeGreaterThan(0)
      for (const stroke of colours.legendLinks) expect(stroke).toMatch(/^rgb\(\d+, \d+, \d+\)$/)
      // Link types keep their own colours (successor trustees share the trustees', dashed).
      if (colours.legendLinks.length > 1) expect(new Set(colours.legendLinks).size).toBeGreaterThan(1)
      // A bar keeps a colour: not the black, white or grey of styles.css's print palette.
      const [r, g, b] = colours.bar.match(/\d+/g)!.map(Number)
      expect(new Set([r, g, b]).size).toBeGreaterThan(1)
    },
  )

  it.each(Object.keys(households) as HouseholdName[])(
    'tiles the drawings of %s so that they cover the drawing, fit a page, and keep text at 7 pt or more',
    async (name) => {
      const page = await open(name)
      // The content of each drawing (by its class: the Family view's genogram and estate strip, the
      // Structure view), measured on screen by the test (each panel shown in turn).
      const drawings = [
        ['family', 'hv-gn-svg'],
        ['family', 'hv-gn-strip'],
        ['structure', 'hv-st-svg'],
      ] as const
      const drawn: Record<string, { x: number; y: number; width: number; height: number }> = {}
      for (const [view, drawing] of drawings) {
        await page.evaluate((v) => (window as unknown as ViewsTestWindow).chart.setView(v), view)
        drawn[drawing] = await page.evaluate((s) => {
          const box = document.querySelector<SVGSVGElement>(`.hv-panel svg.${s}`)!.getBBox()
          return { x: box.x, y: box.y, width: box.width, height: box.height }
        }, drawing)
      }
      await printed(page)
      for (const [view, drawing] of drawings) {
        const tiles = await page.evaluate(
          ([v, d]) => {
            return [...document.querySelectorAll<SVGSVGElement>(`.hv-print-view-${v} .hv-print-tile svg.${d}`)].map(
              (svg) => {
                const box = svg.viewBox.baseVal
                const shown = svg.getBoundingClientRect()
                return {
                  x: box.x,
                  y: box.y,
                  width: box.width,
                  height: box.height,
                  shownW: shown.width,
                  shownH: shown.height,
                }
              },
            )
          },
          [view, drawing] as const,
        )
        expect({ drawing, tiles: tiles.length > 0 }).toEqual({ drawing, tiles: true })
        const content = drawn[drawing]!
        const left = Math.min(...tiles.map((t) => t.x))
        const top = Math.min(...tiles.map((t) => t.y))
        const right = Math.max(...tiles.map((t) => t.x + t.width))
        const bottom = Math.max(...tiles.map((t) => t.y + t.height))
        // Together the tiles span the drawing's content (a margin around it is allowed).
        expect(left).toBeLessThanOrEqual(content.x)
        expect(top).toBeLessThanOrEqual(content.y)
        expect(right).toBeGreaterThanOrEqual(content.x + content.width)
        expect(bottom).toBeGreaterThanOrEqual(content.y + content.height)
        // Equal tiles, so their areas add up to the span's: no gaps, no overlaps.
        const area = tiles.reduce((sum, t) => sum + t.width * t.height, 0)
        expect(area).toBeCloseTo((right - left) * (bottom - top), 0)
        for (const tile of tiles) {
          const scale = tile.shownW / tile.width
          expect(scale * SMALLEST_TEXT_PX).toBeGreaterThanOrEqual(SEVEN_POINT_PX - 0.01)
          expect(tile.shownH / tile.height).toBeCloseTo(scale, 2)
          expect(tile.shownW).toBeLessThanOrEqual(PAGE_PX.width)
          expect(tile.shownH).toBeLessThanOrEqual(PAGE_PX.height)
        }
      }
    },
  )

  it.each(Object.keys(households) as HouseholdName[])(
    'makes a landscape PDF of %s with a page for each view at least, and no request',
    async (name) => {
      const page = await open(name)
      await printed(page)
      const pdf = await page.pdf({ landscape: true, printBackground: true })
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-')
      // Page objects ("/Type /Page", not "/Type /Pages"): each view starts a page, so four at least.
      const pages = pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []
      expect(pages.length).toBeGreaterThanOrEqual(4)
    },
  )

  it("builds the print block when the browser's own menu prints, and removes it after", async () => {
    const page = await open('example')
    expect(await page.locator('.hv-print').count()).toBe(0)
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')))
    expect(await page.locator('.hv-print .hv-print-view').count()).toBe(4)
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')))
    expect(await page.locator('.hv-print').count()).toBe(0)
    // print() builds it afresh each time: one block, not two.
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.print())
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.print())
    expect(await page.locator('.hv-print').count()).toBe(1)
    expect(await page.evaluate(() => (window as unknown as PrintTestWindow).printCalls)).toBe(2)
  })

  const openWithHandlers = (household: HouseholdName, handlers: string) =>
    openPage(`${site.origin}/?payload=${household}&handlers=${handlers}`, (page) =>
      page.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn),
    )

  it.each(Object.keys(households) as HouseholdName[])(
    "hands %s's print layout to the host's print handler: markup with no script, the title block and every view, the chart's CSS with its print rules",
    async (name) => {
      const household = households[name]
      const page = await openWithHandlers(name, 'print')
      await page.getByRole('button', { name: 'Print' }).click()
      const handed = await page.evaluate(() => (window as unknown as PrintTestWindow).printDocuments)
      expect(handed).toHaveLength(1)
      const { title, html, css } = handed[0]!
      expect(title).toBe(household.household.name)
      expect(html).not.toMatch(/<script/i)
      // The page printed nothing itself and keeps no print block.
      expect(await page.evaluate(() => (window as unknown as PrintTestWindow).printCalls)).toBe(0)
      expect(await page.locator('.hv-print').count()).toBe(0)

      const parsed = await page.evaluate((markup) => {
        const doc = new DOMParser().parseFromString(markup, 'text/html')
        return {
          shell: doc.body.firstElementChild?.className,
          name: doc.querySelector('.hv-print-name')?.textContent,
          asOf: doc.querySelector('.hv-print-as-of')?.textContent,
          disclaimer: doc.querySelector('.hv-print-disclaimer')?.textContent,
          views: [...doc.querySelectorAll('.hv-print-view-title')].map((h) => h.textContent),
          familyTiles: doc.querySelectorAll('.hv-print-view-family .hv-print-tile svg').length,
          structureTiles: doc.querySelectorAll('.hv-print-view-structure .hv-print-tile svg').length,
          totals: doc.querySelectorAll('.hv-print-view-estate table.hv-estate').length,
          handlers: [...doc.querySelectorAll('*')].flatMap((e) =>
            [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
          ),
        }
      }, html)
      expect(parsed).toEqual({
        shell: 'hc hv',
        name: household.household.name,
        asOf: EXPECTED_AS_OF[name],
        disclaimer: 'For discussion only; not legal or tax advice.',
        views: ['Family', 'Structure', 'Estate', 'Flow'],
        familyTiles: expect.any(Number) as number,
        structureTiles: expect.any(Number) as number,
        totals: 1,
        handlers: [],
      })
      expect(parsed.familyTiles).toBeGreaterThan(0)
      expect(parsed.structureTiles).toBeGreaterThan(0)
      expect(css).toContain('@media print')
      expect(css).toMatch(/\.hv > \.hv-print \{[^}]*print-color-adjust: exact/)

      // The document printed on its own (as the host's print frame holds it) keeps the copper lines.
      const alone = await browser.newPage()
      try {
        await alone.setContent(`<!doctype html><title></title><style>${css}</style>${html}`)
        await alone.emulateMedia({ media: 'print' })
        const looks = await alone.evaluate(() => ({
          visible: document.querySelector('.hv-print')!.getBoundingClientRect().height > 0,
          structure: getComputedStyle(document.querySelector('.hv-print-view-structure .hv-st-edge')!).stroke,
        }))
        expect(looks).toEqual({ visible: true, structure: COPPER })
      } finally {
        await alone.close()
      }
    },
  )

  it('prints nothing when the host handles downloads only: no Print button, print() does nothing', async () => {
    const page = await openWithHandlers('example', 'download')
    expect(await page.getByRole('button', { name: 'Print' }).count()).toBe(0)
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.print())
    expect(await page.evaluate(() => (window as unknown as PrintTestWindow).printCalls)).toBe(0)
    expect(await page.evaluate(() => (window as unknown as PrintTestWindow).printDocuments)).toEqual([])
    expect(await page.locator('.hv-print').count()).toBe(0)
  })

  const indicator = (page: Page | Frame) => page.locator('.hv-step')
  const shownPanel = (page: Page | Frame) =>
    page.evaluate(() => document.querySelector<HTMLElement>('.hv-panel:not([hidden])')!.className)
  const presenting = (page: Page | Frame) =>
    page.evaluate(() => {
      const host = document.getElementById('chart')!
      return host.classList.contains('hv-presenting') || document.fullscreenElement === host
    })

  it('presents: full frame, larger type, steps through Family → Structure → Estate → Flow, Escape leaves', async () => {
    const page = await open('estate120m')
    const present = page.getByRole('button', { name: 'Present' })
    expect(await present.getAttribute('aria-pressed')).toBe('false')
    expect(await indicator(page).isVisible()).toBe(false)
    const tabHeight = () =>
      page.getByRole('tab', { name: 'Family' }).evaluate((tab) => tab.getBoundingClientRect().height)
    const before = await tabHeight()

    await present.click()
    expect(await presenting(page)).toBe(true)
    expect(await present.getAttribute('aria-pressed')).toBe('true')
    expect(await indicator(page).textContent()).toBe('1 of 4 · Family')
    expect(await indicator(page).getAttribute('role')).toBe('status')
    // Type a third larger: the tab's box grows with it.
    expect((await tabHeight()) / before).toBeCloseTo(1.35, 1)
    // The host fills the screen or the viewport: 1300 px wide.
    expect(await page.evaluate(() => document.getElementById('chart')!.getBoundingClientRect().width)).toBeCloseTo(
      1300,
      0,
    )

    const steps: [string, string, string][] = [
      ['ArrowRight', '2 of 4 · Structure', 'structure'],
      ['ArrowRight', '3 of 4 · Estate', 'estate'],
      ['ArrowRight', '4 of 4 · Flow', 'flow'],
      ['ArrowRight', '4 of 4 · Flow', 'flow'], // the last step stays
      ['ArrowLeft', '3 of 4 · Estate', 'estate'],
      ['PageDown', '4 of 4 · Flow', 'flow'],
      ['PageUp', '3 of 4 · Estate', 'estate'],
      ['ArrowUp', '2 of 4 · Structure', 'structure'],
      ['ArrowUp', '1 of 4 · Family', 'family'],
      ['ArrowDown', '2 of 4 · Structure', 'structure'],
    ]
    for (const [key, text, view] of steps) {
      await page.keyboard.press(key)
      expect({ key, text: await indicator(page).textContent(), panel: await shownPanel(page) }).toEqual({
        key,
        text,
        panel: `hv-panel hv-panel-${view}`,
      })
    }
    // Space steps too when no control has focus (on a button it presses the button).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await page.keyboard.press('Space')
    expect(await indicator(page).textContent()).toBe('3 of 4 · Estate')
    await page.keyboard.press('Shift+Space')
    expect(await indicator(page).textContent()).toBe('2 of 4 · Structure')
    expect(await page.evaluate(() => (window as unknown as ViewsTestWindow).viewChanges)).toEqual([
      'structure',
      'estate',
      'flow',
      'estate',
      'flow',
      'estate',
      'structure',
      'family',
      'structure',
      'estate',
      'structure',
    ])

    await page.keyboard.press('Escape')
    expect(await presenting(page)).toBe(false)
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull()
    expect(await present.getAttribute('aria-pressed')).toBe('false')
    expect(await indicator(page).isVisible()).toBe(false)
    expect((await tabHeight()) / before).toBeCloseTo(1, 2)
    // Out of Present mode the arrows do nothing to the views.
    await page.keyboard.press('ArrowRight')
    expect(await shownPanel(page)).toBe('hv-panel hv-panel-structure')
  })

  it('presents with the Present button a second time to leave, and destroy() leaves too', async () => {
    const page = await open('example')
    const present = page.getByRole('button', { name: 'Present' })
    await present.click()
    expect(await presenting(page)).toBe(true)
    await present.click()
    expect(await presenting(page)).toBe(false)
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.present())
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.destroy())
    expect(await page.evaluate(() => document.getElementById('chart')!.className)).toBe('')
    // Leaving full screen is asynchronous (exitFullscreen() resolves later): wait for it.
    await page.waitForFunction(() => document.fullscreenElement === null)
  })

  it('fills the viewport instead inside an iframe that does not allow full screen', async () => {
    const page = await openPage(`${partner.origin}/framed`, async (p) => {
      const frame = p.frames().find((f) => f.url().includes('payload=example'))
      if (frame === undefined) throw new Error('no chart frame')
      await frame.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn)
    })
    const frame = page.frames().find((f) => f.url().includes('payload=example'))!
    expect(await frame.evaluate(() => document.fullscreenEnabled)).toBe(false)
    await frame.getByRole('button', { name: 'Present' }).click()
    const state = await frame.evaluate(() => {
      const host = document.getElementById('chart')!
      return {
        classes: [...host.classList].filter((c) => c.startsWith('hv-present')),
        position: getComputedStyle(host).position,
        fullscreen: document.fullscreenElement,
      }
    })
    expect(state).toEqual({ classes: ['hv-presenting', 'hv-present-fill'], position: 'fixed', fullscreen: null })
    await page.keyboard.press('ArrowRight')
    expect(await indicator(frame).textContent()).toBe('2 of 4 · Structure')
    await page.keyboard.press('Escape')
    expect(await presenting(frame)).toBe(false)
    expect(await frame.evaluate(() => (window as unknown as PrintTestWindow).violations)).toEqual([])
  })

  it.each(Object.keys(households) as HouseholdName[])('passes axe-core in Present mode on %s', async (name) => {
    const page = await open(name)
    await page.getByRole('button', { name: 'Present' }).click()
    for (const view of ['family', 'structure', 'estate', 'flow'] as const) {
      if (view !== 'family') await page.keyboard.press('ArrowRight')
      expect(await shownPanel(page)).toBe(`hv-panel hv-panel-${view}`)
      expect({ view, violations: await seriousViolations(page) }).toEqual({ view, violations: [] })
    }
  })
})
