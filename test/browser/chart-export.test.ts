// Exporting the chart (chart/src/export/) in real Chromium, on a page served with the chart page's
// real CSP and styles.css: the standalone SVG (well-formed, complete, inert, the whole drawing, link
// colours kept when opened on its own), the PNG made from it (size, content, dark background), that
// exporting makes no network request and breaks no CSP rule, and downloads: on a page, and inside
// an iframe with the SDK's sandbox, which has no allow-downloads (why 0.2.0 hands files to the host
// page). Then the 0.2.0 view shell's Download controls, with and without the host's handlers.
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { bundleFixture, serveViewsFixture, watchProblems } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import { layoutChart, type Pt } from '../../chart/src/layout.ts'
import type { Payload } from '../../chart/payload.ts'
import type { ExportTestWindow } from './fixtures/export-entry.ts'
import type { ViewsTestWindow } from './fixtures/views-entry.ts'

// The chart page's policy as src/embed/frame-ancestors.ts serves it; frame-ancestors names the
// partner page that frames it, as it does for a registered origin.
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"
const root = new URL('../../', import.meta.url)
// The 0.1.x drawing (fixtures/export-entry.ts draws with draw.ts) exports the 0.1.x example as
// released; the 0.2.0 view shell below draws the shipped example, which shows 0.2.0's fields.
const example = JSON.parse(readFileSync(new URL('dist/chart/v0.1.1/example.json', root), 'utf8')) as Payload
const shippedExample = JSON.parse(readFileSync(new URL('chart/example.json', root), 'utf8')) as Payload
const layout = layoutChart(example)
const markup: Payload = {
  household: { name: '<b>Bold</b> & <i>sons</i>' },
  people: [
    { id: 'img', name: '<img src=x onerror="window.pwned=1">', role: 'primaryClient' },
    { id: 'script', name: '<script>window.pwned=2</script>', role: 'coClient' },
  ],
  relationships: [{ from: 'img', to: 'script', type: 'spouse' }],
  entities: [{ id: 'svg', name: '"><svg onload=alert(2)>', kind: 'llc', value: 1 }],
  links: [{ from: 'img', to: 'svg', type: 'owner', share: 100 }],
}
// The SDK's iframe sandbox, read from its source so that this test follows it.
const SDK_SANDBOX = /const SANDBOX = '([^']*)'/.exec(readFileSync(new URL('sdk/household-chart.ts', root), 'utf8'))![1]!
// styles.css: --link is light-dark(#a9764a, #b98b61); #a9 = 169, #76 = 118, #4a = 74; #b9 = 185, #8b = 139, #61 = 97.
const LINK = { light: [169, 118, 74], dark: [185, 139, 97] } as const
// --bg is light-dark(#fbfaf7, #11161d); #11 = 17, #16 = 22, #1d = 29.
const DARK_BACKGROUND = [17, 22, 29]
const RATIO = 2

/** Midpoints of the straight, axis-aligned segments of entity links (kind link or own) at least 12 units long. */
function linkMidpoints(): Pt[] {
  const points: Pt[] = []
  for (const edge of layout.edges) {
    if (edge.kind !== 'link' && edge.kind !== 'own') continue
    for (const path of edge.paths) {
      for (let i = 1; i < path.length; i++) {
        const [[x0, y0], [x1, y1]] = [path[i - 1]!, path[i]!]
        if ((x0 === x1 || y0 === y1) && Math.hypot(x1 - x0, y1 - y0) >= 12) points.push([(x0 + x1) / 2, (y0 + y1) / 2])
      }
    }
  }
  return points
}

const viewBoxOf = (svg: string) =>
  /viewBox="([^"]+)"/.exec(svg)![1]!.split(' ').map(Number) as [number, number, number, number]
/** Whether the colour `rgba` is within `tolerance` of `rgb` in each channel (antialiasing moves edges a little). */
const near = (rgba: readonly number[], rgb: readonly number[], tolerance = 12) =>
  rgb.every((v, i) => Math.abs(v - rgba[i]!) <= tolerance)

describe.runIf(hasChromium())('exporting the chart in Chromium', () => {
  let site: Site
  let partner: Site
  let browser: Browser
  const opened: { page: Page; problems: string[] }[] = []

  beforeAll(async () => {
    const bundle = await bundleFixture(new URL('fixtures/export-entry.ts', import.meta.url))
    site = await startSite()
    partner = await startSite()
    const headers = { 'content-security-policy': `${PAGE_POLICY}; frame-ancestors ${partner.origin}` }
    site.set('/', {
      type: 'text/html; charset=utf-8',
      headers,
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chart</title>
<link rel="stylesheet" href="/styles.css"><script type="module" src="/export-entry.js"></script></head>
<body><main id="chart"></main></body></html>`,
    })
    site.set('/export-entry.js', { type: 'text/javascript', headers, body: bundle })
    site.set('/styles.css', { type: 'text/css', headers, body: readFileSync(new URL('chart/src/styles.css', root)) })
    site.set('/favicon.ico', { type: 'image/x-icon', headers, body: new Uint8Array() })
    for (const [name, payload] of Object.entries({ example, markup })) {
      site.set(`/${name}.json`, { type: 'application/json', headers, body: JSON.stringify(payload) })
    }
    for (const sandbox of [SDK_SANDBOX, `${SDK_SANDBOX} allow-downloads`]) {
      partner.set(`/${sandbox.replace(/ /g, '+')}`, {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><title>Partner</title><iframe sandbox="${sandbox}" width="1200" height="900"
src="${site.origin}/?payload=example&theme=light"></iframe>`,
      })
    }
    partner.set('/favicon.ico', { type: 'image/x-icon', body: new Uint8Array() })
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const { page, problems } of opened.splice(0)) {
      await page.close()
      expect(problems).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
    await partner?.close()
  })

  /** A new page that records console errors, page errors and CSP violations (in any frame) as problems. */
  async function newPage(): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, acceptDownloads: true })
    const problems: string[] = []
    opened.push({ page, problems })
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    await page.exposeFunction('reportViolation', (text: string) => problems.push(`CSP: ${text}`))
    await page.addInitScript(() => {
      document.addEventListener(
        'securitypolicyviolation',
        (e) =>
          void (window as unknown as { reportViolation(t: string): Promise<void> }).reportViolation(
            `${e.violatedDirective} ${e.blockedURI}`,
          ),
        true,
      )
    })
    return { page, problems }
  }

  async function open(payload: 'example' | 'markup', theme: 'light' | 'dark'): Promise<Page> {
    const { page } = await newPage()
    await page.goto(`${site.origin}/?payload=${payload}&theme=${theme}`)
    await page.waitForFunction(() => (window as unknown as ExportTestWindow).drawn)
    return page
  }
  const exportSvg = (page: Page) => page.evaluate(() => (window as unknown as ExportTestWindow).exporter.svg())

  it('sees a CSP violation when there is one (the detector the other tests rely on works)', async () => {
    const page = await open('example', 'light')
    const { problems } = opened.find((o) => o.page === page)!
    await page.evaluate(() => document.body.setAttribute('style', 'color: red'))
    await expect.poll(() => problems.join('\n')).toContain('CSP: style-src-attr inline')
    // Seen; cleared, so the check after each test passes for this one.
    problems.length = 0
  })

  it('makes a well-formed, inert SVG with every name as text, covering every box of the layout', async () => {
    const page = await open('example', 'light')
    // Zoomed in and panned first: the export is the whole drawing, not the window the reader sees.
    await page.getByRole('button', { name: 'Zoom in' }).click()
    await page.getByRole('button', { name: 'Zoom in' }).click()
    const svg = await exportSvg(page)
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
      const all = [...doc.querySelectorAll('*')]
      return {
        errors: doc.querySelectorAll('parsererror').length,
        namespace: doc.documentElement.namespaceURI,
        title: doc.querySelector(':root > title')?.textContent,
        texts: [...doc.querySelectorAll('text')].map((t) => t.textContent ?? ''),
        tags: [...new Set(all.map((e) => e.localName))].sort(),
        handlers: all.flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name)),
        classes: all.filter((e) => e.hasAttribute('class') || e.hasAttribute('style')).length,
        interactive: all.filter((e) => e.hasAttribute('tabindex') || e.hasAttribute('role')).length,
        size: [doc.documentElement.getAttribute('width'), doc.documentElement.getAttribute('height')],
      }
    }, svg)
    expect(parsed).toMatchObject({ errors: 0, namespace: 'http://www.w3.org/2000/svg', title: 'Chen Family' })
    expect(parsed.tags).toEqual(expect.not.arrayContaining(['script', 'foreignObject', 'foreignobject', 'style']))
    expect(parsed.handlers).toEqual([])
    expect(parsed.classes).toBe(0)
    expect(parsed.interactive).toBe(0)
    expect(svg).not.toContain('var(--')
    // Box text holds each name, perhaps cut to fit; the layout says what each box shows.
    for (const box of layout.boxes) for (const line of box.lines) expect(parsed.texts).toContain(line.text)
    for (const p of [...example.people, ...example.entities!]) {
      expect(parsed.texts.some((t) => t.includes(p.name) || p.name.startsWith(t.replace(/…$/, '')))).toBe(true)
    }
    // No focus rings: one rect per box and the background.
    expect(svg.match(/<rect/g)).toHaveLength(layout.boxes.length + 1)

    const [x, y, w, h] = viewBoxOf(svg)
    expect(parsed.size).toEqual([String(w), String(h)])
    expect(x).toBeLessThanOrEqual(0)
    expect(y).toBeLessThanOrEqual(0)
    expect(x + w).toBeGreaterThanOrEqual(layout.width)
    expect(y + h).toBeGreaterThanOrEqual(layout.height)
    for (const b of layout.boxes) {
      expect(b.x).toBeGreaterThanOrEqual(x)
      expect(b.y).toBeGreaterThanOrEqual(y)
      expect(b.x + b.w).toBeLessThanOrEqual(x + w)
      expect(b.y + b.h).toBeLessThanOrEqual(y + h)
    }
  })

  it('keeps names with markup as text, and none of it runs where the SVG is opened', async () => {
    const page = await open('markup', 'light')
    const svg = await exportSvg(page)
    const { page: viewer } = await newPage()
    await viewer.setContent(svg.replace(/^<\?xml[^>]*>\n/, ''))
    const seen = await viewer.evaluate(() => ({
      title: document.querySelector('svg > title')?.textContent,
      texts: [...document.querySelectorAll('text')].map((t) => t.textContent ?? ''),
      injected: document.querySelectorAll('img, script, b, i, svg svg').length,
      pwned: (window as unknown as { pwned?: number }).pwned,
    }))
    expect(seen).toMatchObject({ title: markup.household.name, injected: 0, pwned: undefined })
    for (const p of [...markup.people, ...markup.entities!]) {
      expect(seen.texts.some((t) => t.includes(p.name) || p.name.startsWith(t.replace(/…$/, '')))).toBe(true)
    }
  })

  for (const theme of ['light', 'dark'] as const) {
    it(`keeps the copper link colour when the ${theme} SVG is opened on its own`, async () => {
      const page = await open('example', theme)
      const live = await page.$$eval('.hc-e-link, .hc-e-own', (paths) => paths.map((p) => getComputedStyle(p).stroke))
      expect(new Set(live)).toEqual(new Set([`rgb(${LINK[theme].join(', ')})`]))
      const svg = await exportSvg(page)
      // A page with no stylesheet: only what the file itself says.
      const { page: viewer } = await newPage()
      await viewer.setContent(svg.replace(/^<\?xml[^>]*>\n/, ''))
      const strokes = await viewer.$$eval('path', (paths) => paths.map((p) => getComputedStyle(p).stroke))
      expect(strokes.filter((s) => s === live[0])).toHaveLength(live.length)
    })

    it(`makes a ${theme} PNG of the layout's size × ${RATIO}, drawn, with copper links`, async () => {
      const page = await open('example', theme)
      const svg = await exportSvg(page)
      const [x, y, w, h] = viewBoxOf(svg)
      const points = linkMidpoints().map(([px, py]): Pt => [Math.floor((px - x) * RATIO), Math.floor((py - y) * RATIO)])
      expect(points.length).toBeGreaterThan(3)
      const png = await page.evaluate(
        ([ratio, at]) => (window as unknown as ExportTestWindow).exporter.png(ratio, at),
        [RATIO, points] as const,
      )
      // The SVG is w × h units (w ≥ layout.width, h ≥ layout.height, checked above), at 2 pixels a unit.
      expect({ width: png.width, height: png.height }).toEqual({ width: w * RATIO, height: h * RATIO })
      expect(png.drawn).toBeGreaterThan(0.02 * png.width * png.height)
      if (theme === 'dark') expect(png.corner.slice(0, 3)).toEqual(DARK_BACKGROUND)
      else expect(png.corner.slice(0, 3).every((c) => c > 240)).toEqual(true)
      // Where links run, the PNG is copper (a label may sit over a few of them, so most, not all).
      const copper = png.at.filter((p) => near(p, LINK[theme]))
      expect(copper.length).toBeGreaterThanOrEqual(points.length / 2)
    })
  }

  it('exports the chart at rest: no highlight, dimming or focus ring of the node in focus', async () => {
    const page = await open('example', 'light')
    const robert = layout.boxes.find((b) => b.id === 'robert')!
    await page.locator(`.hc-n[aria-label="${robert.label}"]`).focus()
    // The live chart now dims the links that are not Robert's and lights his in the accent colour.
    expect(await page.locator('svg.hc-svg.hc-dim').count()).toBe(1)
    expect(await page.locator('.hc-hl').count()).toBeGreaterThan(0)
    const svg = await exportSvg(page)
    const { page: viewer } = await newPage()
    await viewer.setContent(svg.replace(/^<\?xml[^>]*>\n/, ''))
    const looks = await viewer.$$eval('path, text', (els) =>
      els.map((e) => ({ opacity: getComputedStyle(e).opacity, stroke: getComputedStyle(e).stroke })),
    )
    expect(looks.filter((l) => l.opacity !== '1')).toEqual([])
    // --accent is light-dark(#b4531f, …): #b4 = 180, #53 = 83, #1f = 31.
    expect(looks.filter((l) => l.stroke === 'rgb(180, 83, 31)')).toEqual([])
    expect(svg.match(/<rect/g)).toHaveLength(layout.boxes.length + 1)
  })

  it('rejects with a clear error when the SVG cannot be loaded as an image', async () => {
    const page = await open('example', 'light')
    const refusal = (text: string) =>
      page.evaluate((t) => (window as unknown as ExportTestWindow).exporter.pngRefusal(t), text)
    expect(await refusal('<svg xmlns="http://www.w3.org/2000/svg"><unclosed></svg>')).toMatch(
      /could not load the SVG as an image/,
    )
    expect(await refusal('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>')).toMatch(/has no size/)
    expect(await refusal('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>')).toBeNull()
  })

  it('sends nothing: no request and no CSP violation while exporting SVG and PNG', async () => {
    const page = await open('example', 'dark')
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await exportSvg(page)
    await page.evaluate(() => (window as unknown as ExportTestWindow).exporter.png(2, []))
    await page.evaluate(() => (window as unknown as ExportTestWindow).exporter.png(1, []))
    expect(requests).toEqual([])
  })

  it('downloads the SVG under the given name, with its content, from a page that is not sandboxed', async () => {
    const page = await open('example', 'light')
    const name = 'Chen Family-family-2026-11-24.svg'
    // Records the object URLs made and revoked, to see the one made for the download let go.
    await page.evaluate(() => {
      const w = window as unknown as { made: string[]; revoked: string[] }
      w.made = []
      w.revoked = []
      const [create, revoke] = [URL.createObjectURL.bind(URL), URL.revokeObjectURL.bind(URL)]
      URL.createObjectURL = (blob: Blob) => {
        const url = create(blob)
        w.made.push(url)
        return url
      }
      URL.revokeObjectURL = (url: string) => {
        w.revoked.push(url)
        revoke(url)
      }
    })
    const [download, saved] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate((n) => (window as unknown as ExportTestWindow).exporter.save(n), name),
    ])
    expect(download.suggestedFilename()).toBe(name)
    const content = readFileSync(await download.path())
    expect(saved).toEqual({ size: content.length, type: 'image/svg+xml' })
    expect(content.toString('utf8')).toMatch(/^<\?xml[^>]*>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    expect(content.toString('utf8')).toContain('<title>Chen Family</title>')
    const urls = () =>
      page.evaluate(() => {
        const { made, revoked } = window as unknown as { made: string[]; revoked: string[] }
        return { made, revoked }
      })
    await expect.poll(async () => (await urls()).revoked.length).toBe(1)
    const { made, revoked } = await urls()
    expect(made).toHaveLength(1)
    expect(revoked).toEqual(made)
  })

  // Why chart 0.2.0 must change the SDK: its iframe sandbox has no allow-downloads, and a sandboxed
  // frame without it may not download. The same frame with allow-downloads added does.
  it(`cannot download inside the SDK's iframe (sandbox="${SDK_SANDBOX}"); it can once allow-downloads is added`, async () => {
    expect(SDK_SANDBOX.split(' ')).not.toContain('allow-downloads')
    const framed = async (sandbox: string) => {
      const { page, problems } = await newPage()
      await page.goto(`${partner.origin}/${sandbox.replace(/ /g, '+')}`)
      const frame = page.frames().find((f) => f.url().startsWith(site.origin))!
      await frame.waitForFunction(() => (window as unknown as ExportTestWindow).drawn)
      return { page, problems, frame }
    }
    const blocked = await framed(SDK_SANDBOX)
    const [refusal, saved] = await Promise.all([
      blocked.page.waitForEvent('console', (m) => m.text().includes('allow-downloads')),
      blocked.frame.evaluate(() => (window as unknown as ExportTestWindow).exporter.save('chart.svg')),
    ])
    expect(refusal.text()).toMatch(/sandboxed, but the flag .allow-downloads. is not set/)
    // The Blob is still handed back, for the host page to save instead.
    expect(saved.size).toBeGreaterThan(0)
    // Chromium reports the refusal as a console error: expected here, so not a problem of this test.
    blocked.problems.splice(
      0,
      blocked.problems.length,
      ...blocked.problems.filter((p) => !p.includes('allow-downloads')),
    )

    const allowed = await framed(`${SDK_SANDBOX} allow-downloads`)
    const [download] = await Promise.all([
      allowed.page.waitForEvent('download'),
      allowed.frame.evaluate(() => (window as unknown as ExportTestWindow).exporter.save('chart.svg')),
    ])
    expect(download.suggestedFilename()).toBe('chart.svg')
  })
})

// The 0.2.0 view shell's Download PNG / Download SVG controls (chart/src/views/download-control.ts),
// through the views fixture on a page with the chart's CSP and stylesheets: with no host handlers
// the page saves the file itself; with a download handler the handler is given the file (a Blob);
// with handlers that handle neither downloads nor printing, neither control is offered.
describe.runIf(hasChromium())("the view shell's downloads in Chromium", () => {
  /** The pages' clock: the file names carry this day. */
  const TODAY = new Date('2026-03-05T12:00:00Z')
  const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  const views = ['family', 'structure', 'estate', 'flow'] as const
  let site: Site
  let browser: Browser
  const pages: { page: Page; problems: string[]; requests: string[] }[] = []

  beforeAll(async () => {
    site = await startSite()
    await serveViewsFixture(site, { example: shippedExample })
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const { page, problems, requests } of pages.splice(0)) {
      const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations)
      await page.close()
      expect([...problems, ...violations]).toEqual([])
      // Nothing is sent while the files are made: no request at all after the first draw.
      expect(requests).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  /** The example drawn by the view shell, with `handlers` as the fixture reads them (absent: none). */
  async function open(handlers?: string): Promise<Page> {
    const page = await browser.newPage({
      viewport: { width: 1300, height: 900 },
      acceptDownloads: true,
      timezoneId: 'UTC',
    })
    const watched = { page, problems: [] as string[], requests: [] as string[] }
    pages.push(watched)
    await page.clock.setFixedTime(TODAY)
    await watchProblems(page, watched.problems)
    await page.goto(`${site.origin}/?payload=example${handlers === undefined ? '' : `&handlers=${handlers}`}`)
    await page.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn)
    page.on('request', (request) => watched.requests.push(request.url()))
    return page
  }

  const setView = (page: Page, view: string) =>
    page.evaluate((v) => (window as unknown as ViewsTestWindow).chart.setView(v as 'family'), view)

  /** What an SVG document says: parse errors, its title and its text. */
  const readSvg = (page: Page, text: string) =>
    page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml')
      return {
        errors: doc.querySelectorAll('parsererror').length,
        title: doc.querySelector(':root > title')?.textContent ?? '',
        text: [...doc.querySelectorAll('text')].map((e) => e.textContent ?? '').join('\n'),
        scripts: doc.querySelectorAll('script, foreignObject').length,
      }
    }, text)

  /** Names each view's file must show: people in Family, entities in Structure, the buckets and totals in Estate, the deaths in Flow. */
  const namesIn: Record<(typeof views)[number], string[]> = {
    // The genogram's people, and the estate strip's entities under it.
    family: ['Robert Chen', 'Margaret Chen', 'Sarah Whitfield', 'Chen Properties LLC'],
    structure: ['Chen Properties LLC'],
    estate: ['Estate total', 'All holdings', 'Chen Properties LLC'],
    // Each death's statement, who ends with what, and the disclaimer under them.
    flow: [
      'First death: Robert Chen',
      'Second death: Margaret Chen',
      'Estate tax',
      'Beneficiaries, charity and tax',
      'generation-skipping',
    ],
  }

  it('saves the view shown as SVG and PNG in the page when the host gives no handlers', async () => {
    const page = await open()
    for (const view of views) {
      await setView(page, view)
      const [svgFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download SVG' }).click(),
      ])
      expect(svgFile.suggestedFilename()).toBe(`Chen Family-${view}-2026-03-05.svg`)
      const svg = await readSvg(page, readFileSync(await svgFile.path(), 'utf8'))
      expect(svg).toMatchObject({ errors: 0, title: 'Chen Family', scripts: 0 })
      for (const name of namesIn[view])
        expect({ view, has: svg.text.includes(name), name }).toEqual({ view, has: true, name })

      const [pngFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download PNG' }).click(),
      ])
      expect(pngFile.suggestedFilename()).toBe(`Chen Family-${view}-2026-03-05.png`)
      const png = readFileSync(await pngFile.path())
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
      expect(png.length).toBeGreaterThan(1000)
    }
  })

  it("hands the files to the host's download handler as Blobs, and saves nothing itself", async () => {
    const page = await open('download,print')
    let downloads = 0
    page.on('download', () => downloads++)
    await setView(page, 'structure')
    await page.getByRole('button', { name: 'Download SVG' }).click()
    await page.getByRole('button', { name: 'Download PNG' }).click()
    await page.waitForFunction(() => (window as unknown as ViewsTestWindow).downloads.length === 2)
    const handed = await page.evaluate(async () =>
      Promise.all(
        (window as unknown as ViewsTestWindow).downloads.map(async (file) => ({
          fileName: file.fileName,
          mediaType: file.mediaType,
          isBlob: file.data instanceof Blob,
          type: file.data.type,
          head: [...new Uint8Array(await file.data.slice(0, 8).arrayBuffer())],
          text: file.mediaType === 'image/svg+xml' ? await file.data.text() : '',
        })),
      ),
    )
    expect(handed.map(({ fileName, mediaType, isBlob, type }) => ({ fileName, mediaType, isBlob, type }))).toEqual([
      {
        fileName: 'Chen Family-structure-2026-03-05.svg',
        mediaType: 'image/svg+xml',
        isBlob: true,
        type: 'image/svg+xml',
      },
      { fileName: 'Chen Family-structure-2026-03-05.png', mediaType: 'image/png', isBlob: true, type: 'image/png' },
    ])
    expect(handed[1]!.head).toEqual(PNG_SIGNATURE)
    const svg = await readSvg(page, handed[0]!.text)
    expect(svg).toMatchObject({ errors: 0, title: 'Chen Family', scripts: 0 })
    for (const name of namesIn.structure) expect(svg.text).toContain(name)
    expect(downloads).toBe(0)
  })

  it('offers no Download or Print control for what the host does not handle', async () => {
    const neither = await open('')
    expect(await neither.getByRole('button', { name: /^Download/ }).count()).toBe(0)
    expect(await neither.getByRole('button', { name: 'Print' }).count()).toBe(0)
    expect(await neither.getByRole('button', { name: 'Present' }).count()).toBe(1)

    const printOnly = await open('print')
    expect(await printOnly.getByRole('button', { name: /^Download/ }).count()).toBe(0)
    expect(await printOnly.getByRole('button', { name: 'Print' }).count()).toBe(1)

    const downloadOnly = await open('download')
    expect(await downloadOnly.getByRole('button', { name: /^Download/ }).allTextContents()).toEqual([
      'Download PNG',
      'Download SVG',
    ])
    expect(await downloadOnly.getByRole('button', { name: 'Print' }).count()).toBe(0)
  })
})
