// The drawing half of the chart (chart/src/draw.ts) in real Chromium: keyboard and pointer
// interaction, zoom and pan, the text version, themes, untrusted names, redraws, the first view of
// a big household and print. The page is served with the chart's real CSP, so an inline style or
// script would show up as a securitypolicyviolation; every test ends by asserting there was none,
// and no console error, page error or dialog either.
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { CHART_CSP, bundleFixture, watchProblems } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import { generateHousehold } from '../../bench/chart/generate.ts'
import { layoutChart, NAME_SIZE, type ChartLayout } from '../../chart/src/layout.ts'
import { MAX_VIEW_H, READABLE } from '../../chart/src/draw.ts'
import type { Payload } from '../../chart/payload.ts'
import type { DrawTestWindow } from './fixtures/draw-entry.ts'

const root = new URL('../../', import.meta.url)
// draw.ts is the 0.1.x drawing: measured on the 0.1.x example as released (chart/example.json
// shows 0.2.0's fields).
const example = JSON.parse(readFileSync(new URL('dist/chart/v0.1.1/example.json', root), 'utf8')) as Payload
const big = generateHousehold(500, 100, 1)
const markup: Payload = {
  household: { name: '<b>Bold</b> & <i>sons</i>' },
  people: [
    { id: 'img', name: '<img src=x onerror="window.pwned=1">', role: 'primaryClient' },
    { id: 'script', name: '<script>window.pwned=2</script>', role: 'coClient' },
    { id: 'js', name: 'javascript:alert(1)', role: 'child' },
  ],
  relationships: [
    { from: 'img', to: 'script', type: 'spouse' },
    { from: 'img', to: 'js', type: 'parent' },
  ],
  entities: [{ id: 'svg', name: '"><svg onload=alert(2)>', kind: 'llc', value: 1 }],
  links: [{ from: 'js', to: 'svg', type: 'owner', share: 100 }],
}

interface View {
  x: number
  y: number
  w: number
  h: number
  width: number
  height: number
}

describe.runIf(hasChromium())('drawing the chart in Chromium', () => {
  let site: Site
  let browser: Browser
  const opened: { page: Page; problems: string[] }[] = []

  beforeAll(async () => {
    const bundle = await bundleFixture(new URL('fixtures/draw-entry.ts', import.meta.url))
    site = await startSite()
    const headers = { 'content-security-policy': CHART_CSP }
    site.set('/', {
      type: 'text/html; charset=utf-8',
      headers,
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chart</title>
<link rel="stylesheet" href="/styles.css"><script type="module" src="/draw-entry.js"></script></head>
<body><main id="chart"></main></body></html>`,
    })
    site.set('/draw-entry.js', { type: 'text/javascript', headers, body: bundle })
    site.set('/styles.css', { type: 'text/css', headers, body: readFileSync(new URL('chart/src/styles.css', root)) })
    site.set('/favicon.ico', { type: 'image/x-icon', headers, body: new Uint8Array() })
    for (const [name, payload] of Object.entries({ example, big, markup })) {
      site.set(`/${name}.json`, { type: 'application/json', headers, body: JSON.stringify(payload) })
    }
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const { page, problems } of opened.splice(0)) {
      const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations)
      await page.close()
      expect([...problems, ...violations]).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(payload: 'example' | 'big' | 'markup', { theme = 'light', height = 900 } = {}): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1300, height } })
    const problems: string[] = []
    opened.push({ page, problems })
    await watchProblems(page, problems)
    await page.addInitScript(() => {
      const w = window as unknown as { wheels: boolean[] }
      w.wheels = []
      // Bubbles here after the chart's own listener: records whether the chart prevented it.
      window.addEventListener('wheel', (e) => w.wheels.push(e.defaultPrevented))
    })
    await page.goto(`${site.origin}/?payload=${payload}&theme=${theme}`)
    await page.waitForFunction(() => (window as unknown as DrawTestWindow).drawn)
    return page
  }

  const view = (page: Page): Promise<View> =>
    page.evaluate(() => {
      const svg = document.querySelector('svg.hc-svg')!
      const [x, y, w, h] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number) as [
        number,
        number,
        number,
        number,
      ]
      return { x, y, w, h, width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')) }
    })
  const scaleOf = (v: View) => v.width / v.w
  const selects = (page: Page) => page.evaluate(() => (window as unknown as DrawTestWindow).selects)
  const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)
  const node = (page: Page, label: string) => page.locator(`.hc-n[aria-label="${label.replace(/"/g, '\\"')}"]`)
  const labelOf = (layout: ChartLayout, id: string) => layout.boxes.find((b) => b.id === id)!.label

  it('sees a CSP violation when there is one (the detector works)', async () => {
    const page = await open('example')
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('div'), { id: 'x' })))
    await page.evaluate(() => document.getElementById('x')!.setAttribute('style', 'color: red'))
    await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length > 0)
    const { problems } = opened.find((o) => o.page === page)!
    await expect
      .poll(() => problems.join('\n'))
      .toContain("violates the following Content Security Policy directive 'style-src 'self''")
    // Seen; now cleared, so the check after each test passes for this one.
    problems.length = 0
    await page.evaluate(() => ((window as unknown as { violations: string[] }).violations = []))
  })

  it('gives every person and entity a focusable, labelled node; Tab and arrows move; Enter, Space and click select', async () => {
    const page = await open('example')
    const layout = layoutChart(example)
    const nodes = await page.$$eval('svg.hc-svg .hc-n', (gs) =>
      gs.map((g) => ({
        role: g.getAttribute('role'),
        tabindex: g.getAttribute('tabindex'),
        label: g.getAttribute('aria-label') ?? '',
      })),
    )
    const named = [...example.people, ...(example.entities ?? [])]
    expect(nodes).toHaveLength(named.length)
    for (const n of nodes) expect(n).toMatchObject({ role: 'button', tabindex: '0' })
    for (const p of named) expect(nodes.filter((n) => n.label.includes(p.name))).not.toHaveLength(0)

    // Tab: past the toolbar buttons, then every node once, people row by row, then entities.
    let first: string | null = null
    for (let i = 0; i < 10 && first === null; i++) {
      await page.keyboard.press('Tab')
      first = await page.evaluate(() =>
        document.activeElement?.classList.contains('hc-n') ? document.activeElement.getAttribute('aria-label') : null,
      )
    }
    const visited = [first]
    for (let i = 1; i < nodes.length; i++) {
      await page.keyboard.press('Tab')
      visited.push(await focusedLabel(page))
    }
    expect(new Set(visited)).toEqual(new Set(nodes.map((n) => n.label)))
    const rowOf = new Map(layout.boxes.map((b) => [b.label, b.row]))
    const rows = visited.map((l) => rowOf.get(l ?? '')!)
    expect(rows.slice(0, example.people.length)).toEqual(
      [...rows.slice(0, example.people.length)].sort((a, b) => a - b),
    )
    expect(rows.slice(example.people.length).every((r) => r === -1)).toBe(true)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY')

    // Arrows: from Robert, right is Margaret and down is someone in his children's row.
    const robert = layout.boxes.find((b) => b.id === 'robert')!
    await node(page, robert.label).focus()
    await page.keyboard.press('ArrowRight')
    expect(await focusedLabel(page)).toBe(labelOf(layout, 'margaret'))
    await node(page, robert.label).focus()
    await page.keyboard.press('ArrowDown')
    const downTo = await focusedLabel(page)
    const below = layout.boxes.find((b) => b.label === downTo)
    expect(below).toMatchObject({ kind: 'person', row: robert.row + 1 })
    await page.keyboard.press('ArrowUp')
    expect(rowOf.get((await focusedLabel(page)) ?? '')).toBe(robert.row)

    await node(page, robert.label).focus()
    await page.keyboard.press('Enter')
    await node(page, labelOf(layout, 'rlt')).focus()
    await page.keyboard.press(' ')
    await node(page, labelOf(layout, 'margaret')).click()
    await page.waitForFunction(() => (window as unknown as DrawTestWindow).selects.length === 3)
    expect(await selects(page)).toEqual([
      { id: 'robert', kind: 'person' },
      { id: 'rlt', kind: 'entity' },
      { id: 'margaret', kind: 'person' },
    ])
  })

  it('zooms with + − 0 and the buttons, pans by dragging, and a drag is not a click', async () => {
    const page = await open('example')
    const initial = await view(page)
    expect(initial).toMatchObject({ x: 0, w: layoutChart(example).width }) // fitted to the width
    await page.locator('.hc-n').first().focus()
    await page.keyboard.press('+')
    expect(scaleOf(await view(page)) / scaleOf(initial)).toBeCloseTo(1.25, 2)
    await page.keyboard.press('-')
    expect(scaleOf(await view(page)) / scaleOf(initial)).toBeCloseTo(1, 2)
    await page.keyboard.press('-')
    expect(scaleOf(await view(page)) / scaleOf(initial)).toBeCloseTo(0.8, 2)
    await page.keyboard.press('0')
    expect(await view(page)).toEqual(initial)

    await page.getByRole('button', { name: 'Zoom in' }).click()
    await page.getByRole('button', { name: 'Zoom in' }).click()
    expect(scaleOf(await view(page)) / scaleOf(initial)).toBeCloseTo(1.5625, 2)
    await page.getByRole('button', { name: 'Zoom out' }).click()
    expect(scaleOf(await view(page)) / scaleOf(initial)).toBeCloseTo(1.25, 2)
    await page.getByRole('button', { name: 'Fit', exact: false }).click()
    expect(await view(page)).toEqual(initial)

    // Drag 200 px left, starting on a node: the view moves 200 px worth of units; nothing selected.
    const box = (await node(page, labelOf(layoutChart(example), 'david')).boundingBox())!
    const before = await view(page)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 200, box.y + box.height / 2 + 30, { steps: 8 })
    await page.mouse.up()
    const after = await view(page)
    expect(after.x - before.x).toBeCloseTo(-200 / scaleOf(before), -0.5)
    expect(after.y - before.y).toBeCloseTo(-30 / scaleOf(before), -0.5)
    expect(after.w).toBe(before.w)
    expect(await selects(page)).toEqual([])
    expect(await page.evaluate(() => document.querySelector('svg.hc-svg')!.classList.contains('hc-panning'))).toBe(
      false,
    )
  })

  it('leaves a plain wheel to the page and zooms on ctrl + wheel', async () => {
    const page = await open('example', { height: 300 })
    const initial = await view(page)
    const svgBox = (await page.locator('svg.hc-svg').boundingBox())!
    await page.mouse.move(svgBox.x + svgBox.width / 2, 150)
    await page.mouse.wheel(0, 120)
    await page.waitForFunction(() => window.scrollY > 0)
    expect(await view(page)).toEqual(initial)
    expect(await page.evaluate(() => (window as unknown as { wheels: boolean[] }).wheels)).toEqual([false])

    await page.keyboard.down('Control')
    await page.mouse.wheel(0, -120)
    await page.keyboard.up('Control')
    await page.waitForFunction(
      (w) => document.querySelector('svg.hc-svg')!.getAttribute('viewBox')!.split(' ')[2] !== String(w),
      initial.w,
    )
    expect(scaleOf(await view(page))).toBeGreaterThan(scaleOf(initial))
    expect(await page.evaluate(() => (window as unknown as { wheels: boolean[] }).wheels)).toEqual([false, true])
  })

  it('lists every person, entity, relationship and link in the text version', async () => {
    const page = await open('example')
    const sections = await page.$$eval('.hc-text h3', (hs) =>
      hs.map((h) => ({
        title: h.textContent,
        items: [...(h.nextElementSibling?.children ?? [])].map((li) => li.textContent ?? ''),
      })),
    )
    expect(sections.map((s) => [s.title, s.items.length])).toEqual([
      [`People (${example.people.length})`, example.people.length],
      [`Entities (${example.entities!.length})`, example.entities!.length],
      ['Family relationships', example.relationships!.length],
      ['Roles in entities', example.links!.length],
    ])
    for (const p of example.people) expect(sections[0]!.items.some((t) => t.startsWith(p.name))).toBe(true)
    for (const e of example.entities!) expect(sections[1]!.items.some((t) => t.startsWith(e.name))).toBe(true)
    expect(sections[3]!.items).toContain('David Chen — beneficiary (40%) of — Chen Irrevocable Life Insurance Trust')
    expect(await page.locator('.hc-text-body').isVisible()).toBe(false)
    await page.locator('.hc-text summary').click()
    expect(await page.locator('.hc-text-body').isVisible()).toBe(true)
  })

  it('switches themes, and system follows prefers-color-scheme', async () => {
    const page = await open('example', { theme: 'light' })
    const look = () =>
      page.evaluate(() => {
        const host = document.querySelector<HTMLElement>('.hc')!
        return { theme: host.dataset.theme, background: getComputedStyle(host).backgroundColor }
      })
    const light = 'rgb(251, 250, 247)'
    const dark = 'rgb(17, 22, 29)'
    expect(await look()).toEqual({ theme: 'light', background: light })
    await page.evaluate(() => (window as unknown as DrawTestWindow).chart.setTheme('dark'))
    expect(await look()).toEqual({ theme: 'dark', background: dark })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.evaluate(() => (window as unknown as DrawTestWindow).chart.setTheme('system'))
    expect(await look()).toEqual({ theme: 'system', background: light })
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await look()).toEqual({ theme: 'system', background: dark })
    await page.evaluate(() => (window as unknown as DrawTestWindow).chart.setTheme('light'))
    expect(await look()).toEqual({ theme: 'light', background: light })
  })

  it('shows names with markup literally and runs none of it', async () => {
    const page = await open('markup')
    const layout = layoutChart(markup)
    const seen = await page.evaluate(() => ({
      title: document.querySelector('.hc-title')?.textContent,
      labels: [...document.querySelectorAll('.hc-n')].map((g) => g.getAttribute('aria-label') ?? ''),
      text: document.querySelector('.hc-text')?.textContent ?? '',
      scripts: document.querySelectorAll('script').length,
      injected: document.querySelectorAll('img, iframe, a, object, embed, .hc b, .hc i').length,
      handlers: [...document.querySelectorAll('*')].flatMap((e) =>
        [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
      ),
      pwned: (window as unknown as { pwned?: number }).pwned,
    }))
    expect(seen).toMatchObject({
      title: markup.household.name,
      scripts: 1,
      injected: 0,
      handlers: [],
      pwned: undefined,
    })
    for (const p of [...markup.people, ...markup.entities!]) {
      expect(seen.labels.some((l) => l.includes(p.name))).toBe(true)
      expect(seen.text).toContain(p.name)
    }
    await node(page, labelOf(layout, 'js')).click()
    await page.waitForFunction(() => (window as unknown as DrawTestWindow).selects.length === 1)
    expect(await selects(page)).toEqual([{ id: 'js', kind: 'person' }])
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
  })

  it('replaces the drawing when drawn again on the same host, and destroy() empties the host', async () => {
    const page = await open('example')
    await page.evaluate(() => (window as unknown as DrawTestWindow).redraw())
    const counts = () =>
      page.evaluate(() => ({
        svgs: document.querySelectorAll('svg.hc-svg').length,
        bars: document.querySelectorAll('.hc-bar').length,
        texts: document.querySelectorAll('.hc-text').length,
        nodes: document.querySelectorAll('.hc-n').length,
      }))
    expect(await counts()).toEqual({
      svgs: 1,
      bars: 1,
      texts: 1,
      nodes: example.people.length + example.entities!.length,
    })
    // The new drawing works; the old one's listeners are gone (one select per Enter).
    await node(page, labelOf(layoutChart(example), 'emily')).focus()
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => (window as unknown as DrawTestWindow).selects.length > 0)
    expect(await selects(page)).toEqual([{ id: 'emily', kind: 'person' }])
    await page.evaluate(() => (window as unknown as DrawTestWindow).chart.destroy())
    expect(
      await page.evaluate(() => {
        const host = document.getElementById('chart')!
        return { children: host.childNodes.length, className: host.className, theme: host.dataset.theme }
      }),
    ).toEqual({ children: 0, className: '', theme: undefined })
  })

  it('opens a big household on a readable window around the clients, capped in height; Fit shows it all', async () => {
    const page = await open('big')
    const layout = layoutChart(big)
    const client = big.people.find((p) => p.role === 'primaryClient')!
    const first = await view(page)
    expect(first.width).toBe(1300)
    expect(first.height).toBeLessThanOrEqual(MAX_VIEW_H)
    expect(scaleOf(first)).toBeCloseTo(READABLE, 2)
    const page1 = await page.evaluate(() => ({
      document: document.documentElement.getBoundingClientRect().height,
      bar: document.querySelector('.hc-bar')!.getBoundingClientRect().height,
      text: document.querySelector('.hc-text')!.getBoundingClientRect().height,
    }))
    expect(page1.document).toBeLessThanOrEqual(MAX_VIEW_H + page1.bar + page1.text + 1)

    // The client's box is in view, and every box in view has names of a readable size on screen.
    const shown = await page.evaluate(
      (clientLabel) => {
        const frame = document.querySelector('svg.hc-svg')!.getBoundingClientRect()
        const inView = (r: DOMRect) =>
          r.left >= frame.left && r.right <= frame.right && r.top >= frame.top && r.bottom <= frame.bottom
        const visible = [...document.querySelectorAll<SVGGElement>('.hc-n')].filter((g) =>
          inView(g.querySelector('.hc-box')!.getBoundingClientRect()),
        )
        const sizes = visible.map((g) => {
          const text = g.querySelector<SVGTextElement>('.hc-nm')!
          return parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM()!.a
        })
        const clientBox = visible.find((g) => g.getAttribute('aria-label') === clientLabel)?.getBoundingClientRect()
        return {
          count: visible.length,
          smallest: Math.min(...sizes),
          client: clientBox ? clientBox.left + clientBox.width / 2 - frame.left : null,
          width: frame.width,
        }
      },
      labelOf(layout, client.id),
    )
    expect(shown.count).toBeGreaterThanOrEqual(4)
    expect(shown.smallest).toBeGreaterThanOrEqual(NAME_SIZE * READABLE - 0.01)
    expect(shown.client).not.toBeNull()
    expect(Math.abs(shown.client! - shown.width / 2)).toBeLessThan(shown.width / 4)

    await page.getByRole('button', { name: 'Fit', exact: false }).click()
    const all = await view(page)
    expect(all.x).toBeLessThanOrEqual(0)
    expect(all.y).toBeLessThanOrEqual(0)
    expect(all.x + all.w).toBeGreaterThanOrEqual(layout.width - 1)
    expect(all.y + all.h).toBeGreaterThanOrEqual(layout.height - 1)
    expect({ width: all.width, height: all.height }).toEqual({ width: first.width, height: first.height })
    expect(await page.evaluate(() => document.documentElement.getBoundingClientRect().height)).toBe(page1.document)
  })

  it('prints without the zoom buttons, the whole chart and the text version open', async () => {
    const page = await open('big')
    const layout = layoutChart(big)
    const first = await view(page)
    expect(await page.locator('.hc-tools').isVisible()).toBe(true)
    await page.emulateMedia({ media: 'print' })
    expect(await page.locator('.hc-tools').isVisible()).toBe(false)
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')))
    expect(await view(page)).toEqual({
      x: 0,
      y: 0,
      w: layout.width,
      h: layout.height,
      width: 1300,
      height: Math.ceil((layout.height * 1300) / layout.width),
    })
    expect(await page.locator('.hc-text').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true)
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')))
    await page.emulateMedia({ media: 'screen' })
    expect(await view(page)).toEqual(first)
    expect(await page.locator('.hc-text').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false)
    expect(await page.locator('.hc-tools').isVisible()).toBe(true)
  })
})
