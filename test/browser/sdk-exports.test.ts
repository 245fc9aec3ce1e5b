// Downloads and printing through the host page, in real Chromium with the released SDK bundle and a
// real embed server. The iframe's sandbox is exactly the contract's `allow-scripts allow-same-origin`
// (no allow-downloads, no allow-modals), so the chart hands its files and its print document to the
// SDK, which saves them with a download link and prints from a hidden frame of the host page that
// runs no script. The host page's CSP is strict (no 'unsafe-inline' in style-src), as partners' are.
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Page, Request } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import {
  chartFrameOf,
  mountOnPage,
  sdkHostPage,
  sdkHostScript,
  waitForEvents,
  type SdkHostWindow,
} from '../helpers/sdk-host-page.ts'

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** The sandbox of the SDK's print frame, which the stub below recognises it by. */
const PRINT_SANDBOX = 'allow-same-origin allow-modals'

/** What the print stub keeps on the host page's window. */
interface PrintWindow {
  printCalls: string[]
}

/** The type of every Blob the host page made an object URL for (what a download saves). */
interface ObjectUrlWindow {
  objectUrlTypes: string[]
}

/** A server on its own port that records the path of every request it gets: whatever reaches it was fetched. */
interface Listener {
  origin: string
  paths: string[]
  close(): Promise<void>
}

async function startListener(): Promise<Listener> {
  const paths: string[] = []
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? '/')
    response.writeHead(204).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe.runIf(hasChromium())('the SDK saves and prints for the chart', () => {
  let stack: ChartStack
  let browser: Browser
  let listener: Listener
  const pages: Page[] = []

  beforeAll(async () => {
    stack = await startChartStack()
    browser = await launchChromium()
    listener = await startListener()
    stack.partner.set('/host.html', sdkHostPage(stack.partner, stack))
    stack.partner.set('/open-host.html', sdkHostPage(stack.partner, stack, { csp: 'none' }))
    stack.partner.set('/host.js', sdkHostScript(stack.embedOrigin))
    stack.partner.handle('/token', async () => {
      const { token, expiresAt } = await stack.mint()
      return { status: 200, body: { token, expiresAt } }
    })
  })
  afterAll(async () => {
    await browser?.close()
    await listener?.close()
    await stack?.close()
  })
  beforeEach(async () => {
    for (const page of pages.splice(0)) await page.context().close()
  })

  /**
   * Opens the host page with the print dialog stubbed: the SDK's print frame gets a `print` that
   * records the frame's title instead of opening the dialog (which would block a headless run).
   * Installed before the page's scripts, on the getter the SDK reaches the frame's window through.
   * The page is the strict-CSP host unless told otherwise.
   */
  async function openHost(problems: string[], path = '/host.html'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, acceptDownloads: true })
    const page = await context.newPage()
    pages.push(page)
    page.on('console', (message) => {
      // The partner page's own favicon 404 is not the chart's.
      if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
        problems.push(`console: ${message.text()}`)
    })
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    await page.addInitScript((printSandbox) => {
      const w = window as unknown as PrintWindow
      w.printCalls = []
      const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!
      Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
        ...contentWindow,
        get(this: HTMLIFrameElement) {
          const view = contentWindow.get!.call(this) as Window | null
          if (view && this.getAttribute('sandbox') === printSandbox)
            view.print = () => void w.printCalls.push(view.document.title)
          return view
        },
      })
      const objectUrls = window as unknown as ObjectUrlWindow
      objectUrls.objectUrlTypes = []
      const createObjectURL = URL.createObjectURL.bind(URL)
      URL.createObjectURL = (object: Blob | MediaSource) => {
        if (object instanceof Blob) objectUrls.objectUrlTypes.push(object.type)
        return createObjectURL(object)
      }
    }, PRINT_SANDBOX)
    await page.goto(`${stack.partner.origin}${path}`)
    await page.waitForFunction(() => (window as unknown as SdkHostWindow).hostReady === true)
    return page
  }

  /** Records every request the page and its frames make from now on. */
  function recordRequests(page: Page): string[] {
    const urls: string[] = []
    page.on('request', (request: Request) => void urls.push(request.url()))
    return urls
  }

  const printFrameCount = (page: Page) =>
    page.evaluate((sandbox) => document.querySelectorAll(`iframe[sandbox="${sandbox}"]`).length, PRINT_SANDBOX)

  it('offers Download and Print in the chart, and the iframe keeps exactly the contract sandbox', async () => {
    const problems: string[] = []
    const page = await openHost(problems)
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    expect(await page.locator('#c iframe').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin')
    const frame = await chartFrameOf(page)
    for (const name of ['Download PNG', 'Download SVG', 'Print', 'Present'])
      expect(await frame.getByRole('button', { name, exact: true }).count(), name).toBe(1)
    expect(problems).toEqual([])
  })

  it('print() prints the title block and every view from a script-free frame of the host page, link colours kept', async () => {
    const problems: string[] = []
    const page = await openHost(problems)
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const requests = recordRequests(page)
    // The document as the chart sent it, kept beside the SDK's listener to compare with what it printed.
    await page.evaluate(() =>
      window.addEventListener('message', (event: MessageEvent<{ type?: string }>) => {
        if (event.data?.type === 'printdocument') (window as unknown as { sent?: unknown }).sent = event.data
      }),
    )

    await page.evaluate(() => (window as unknown as SdkHostWindow).handle.print())
    await page.waitForFunction(() => (window as unknown as PrintWindow).printCalls.length > 0)
    expect(await page.evaluate(() => (window as unknown as PrintWindow).printCalls)).toEqual(['Chen Family'])
    expect(await printFrameCount(page)).toBe(1)

    // On paper (print media), as the browser lays the frame out for its print dialog.
    await page.emulateMedia({ media: 'print' })
    const printed = await page.evaluate((sandbox) => {
      const frame = document.querySelector<HTMLIFrameElement>(`iframe[sandbox="${sandbox}"]`)!
      const doc = frame.contentDocument!
      const edge = doc.querySelector('.hv-print .hv-st-edge')
      const sent = (window as unknown as { sent: { html: string; css: string } }).sent
      const sentSheet = new CSSStyleSheet()
      sentSheet.replaceSync(sent.css)
      const rulesOf = (sheet: CSSStyleSheet) => Array.from(sheet.cssRules, (rule) => rule.cssText).join('\n')
      return {
        text: doc.body.innerText,
        views: Array.from(doc.querySelectorAll('.hv-print-view-title'), (title) => title.textContent),
        drawings: doc.querySelectorAll('.hv-print svg').length,
        totals: doc.querySelectorAll('.hv-print table.hv-estate').length,
        scripts: doc.querySelectorAll('script').length,
        handlers: Array.from(doc.querySelectorAll('*')).filter((element) =>
          element.getAttributeNames().some((name) => name.startsWith('on')),
        ).length,
        styleElements: doc.querySelectorAll('style').length,
        adopted: doc.adoptedStyleSheets.length,
        edgeStroke: edge ? getComputedStyle(edge).stroke : null,
        shown: getComputedStyle(doc.querySelector('.hv-print')!).display,
        // The chart's own document loses nothing to the cleaning: the same markup, the same rules.
        sameMarkup: doc.body.innerHTML === new DOMParser().parseFromString(sent.html, 'text/html').body.innerHTML,
        sameRules: rulesOf(doc.adoptedStyleSheets[0]!) === rulesOf(sentSheet),
      }
    }, PRINT_SANDBOX)
    expect(printed.text).toContain('Chen Family')
    expect(printed.text).toContain('For discussion only')
    expect(printed.views).toEqual(['Family', 'Structure', 'Estate', 'Flow'])
    expect(printed.drawings).toBeGreaterThan(0)
    expect(printed.totals).toBe(1)
    expect(printed.sameMarkup).toBe(true)
    expect(printed.sameRules).toBe(true)
    expect(printed.scripts).toBe(0)
    expect(printed.handlers).toBe(0)
    // The CSS went in as a constructable sheet (the host's style-src would refuse a <style>), and it
    // applies: the block shows on paper and the ownership edges keep their colour, not black.
    expect(printed.styleElements).toBe(0)
    expect(printed.adopted).toBe(1)
    expect(printed.shown).toBe('block')
    expect(printed.edgeStroke).toMatch(/^rgb\(/)
    const [red, green, blue] = (printed.edgeStroke ?? '').match(/\d+/g)!.map(Number)
    expect(red === green && green === blue, `${printed.edgeStroke} is a grey`).toBe(false)

    // The browser's afterprint takes the frame away.
    await page.evaluate((sandbox) => {
      const frame = document.querySelector<HTMLIFrameElement>(`iframe[sandbox="${sandbox}"]`)!
      frame.contentWindow!.dispatchEvent(new Event('afterprint'))
    }, PRINT_SANDBOX)
    expect(await printFrameCount(page)).toBe(0)
    // Printing asked no server for anything.
    expect(requests).toEqual([])
    expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([])
    expect(problems).toEqual([])
  })

  it("cleans what it prints: no script, frame or handler of a print document reaches the host's frame, and none runs", async () => {
    const problems: string[] = []
    const page = await openHost(problems)
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    const requests = recordRequests(page)
    // Sent from the chart's own window (the only sender the SDK listens to), as a compromised chart would.
    await frame.evaluate(() =>
      window.parent.postMessage(
        {
          type: 'printdocument',
          title: 'Forged',
          html: `<p id="kept" onclick="parent.pwned = 1">kept</p><img src="x" onerror="parent.pwned = 1"><script>parent.pwned = 1</script><iframe src="about:blank"></iframe><object data="x"></object><embed src="x"><link rel="stylesheet" href="/x.css"><svg><a href="#kept"><text onmouseover="parent.pwned = 1">t</text></a><image href="https://example.invalid/i.png"/></svg>`,
          css: 'p { color: rgb(1, 2, 3) }',
        },
        '*',
      ),
    )
    await page.waitForFunction(() => (window as unknown as PrintWindow).printCalls.length > 0)
    const printed = await page.evaluate((sandbox) => {
      const doc = document.querySelector<HTMLIFrameElement>(`iframe[sandbox="${sandbox}"]`)!.contentDocument!
      return {
        kept: doc.getElementById('kept') ? getComputedStyle(doc.getElementById('kept')!).color : null,
        dropped: doc.querySelectorAll('script, iframe, object, embed, link').length,
        // What would fetch from a server loses its URL; an in-document link keeps it.
        urls: Array.from(
          doc.querySelectorAll('img, a, image'),
          (element) => element.getAttribute('src') ?? element.getAttribute('href'),
        ),
        handlers: Array.from(doc.querySelectorAll('*')).filter((element) =>
          element.getAttributeNames().some((name) => name.startsWith('on')),
        ).length,
        pwned: (window as unknown as { pwned?: number }).pwned,
      }
    }, PRINT_SANDBOX)
    expect(printed).toEqual({
      kept: 'rgb(1, 2, 3)',
      dropped: 0,
      urls: [null, '#kept', null],
      handlers: 0,
      pwned: undefined,
    })
    // Nothing it names was fetched (the image, the stylesheet, the object's data).
    expect(requests).toEqual([])
    // The host's CSP reports the three inline handlers as the inert parse reads them (refused, and a
    // parsed document runs nothing anyway); cleaning drops them before the frame shows the markup.
    const handlerReports = problems.filter((problem) => problem.includes('Executing inline event handler'))
    expect(handlerReports).toHaveLength(3)
    expect(problems.filter((problem) => !handlerReports.includes(problem))).toEqual([])
  })

  it('cleans what would fetch or restyle: on a page with no CSP, a print document reaches no server through styles, presentation attributes or animations', async () => {
    const problems: string[] = []
    // No CSP on this page: the SDK's cleaning is all that stands between the document and the network.
    const page = await openHost(problems, '/open-host.html')
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    const requests = recordRequests(page)
    const remote = listener.origin
    await frame.evaluate(
      (remote) =>
        window.parent.postMessage(
          {
            type: 'printdocument',
            title: 'Forged styles',
            html:
              `<p id="kept" style="background: url(${remote}/style-attribute)">kept</p>` +
              `<style>@import url(${remote}/style-import); #kept { color: rgb(9, 9, 9) }</style>` +
              `<svg width="40" height="40"><defs><linearGradient id="gradient"><stop offset="0" stop-color="#123456"/></linearGradient></defs>` +
              `<rect id="local" width="10" height="10" fill="url(#gradient)" stroke="url( '#gradient' )"/>` +
              `<rect id="remote" width="10" height="10" fill="url(${remote}/fill)" filter="url(${remote}/filter#f)" mask="url('${remote}/mask#m')" clip-path="u\\72l(${remote}/clip#c)" marker-start="url(${remote}/marker#m)"/>` +
              `<image id="set" width="10" height="10"><set attributeName="href" to="${remote}/set"/></image>` +
              `<image id="animated" width="10" height="10"><animate attributeName="href" values="${remote}/animate" dur="1s"/></image>` +
              `</svg>`,
            css:
              `@import url(${remote}/css-import);\n` +
              `@font-face { font-family: Remote; src: url(${remote}/font) }\n` +
              `#kept { font-family: Remote, serif; color: rgb(1, 2, 3); background: url(${remote}/css-background) }\n` +
              `@media all { #kept { list-style-image: url(${remote}/css-media); clip-path: url(#gradient) } }\n` +
              `@supports (display: block) { @media all { #kept { border-image-source: url("${remote}/css-supports") } } }\n` +
              `#kept { --remote: url(${remote}/custom-property); cursor: var(--remote), auto }`,
          },
          '*',
        ),
      remote,
    )
    await page.waitForFunction(() => (window as unknown as PrintWindow).printCalls.length > 0)
    const printed = await page.evaluate(async (sandbox) => {
      const doc = document.querySelector<HTMLIFrameElement>(`iframe[sandbox="${sandbox}"]`)!.contentDocument!
      const kept = doc.getElementById('kept')!
      // Laid out and its fonts settled: whatever the document would load has been asked for by now.
      kept.getBoundingClientRect()
      await doc.fonts.ready
      const remote = doc.getElementById('remote')!
      return {
        color: getComputedStyle(kept).color,
        clipPath: getComputedStyle(kept).clipPath,
        styleElements: doc.querySelectorAll('style').length,
        styleAttributes: doc.querySelectorAll('[style]').length,
        animations: doc.querySelectorAll('set, animate, animateMotion, animateTransform').length,
        local: [doc.getElementById('local')!.getAttribute('fill'), doc.getElementById('local')!.getAttribute('stroke')],
        remote: remote.getAttributeNames().sort(),
        images: Array.from(doc.querySelectorAll('image'), (image) => image.getAttribute('href')),
        sheet: Array.from(doc.adoptedStyleSheets[0]!.cssRules, (rule) => rule.cssText).join('\n'),
      }
    }, PRINT_SANDBOX)
    expect(printed.color).toBe('rgb(1, 2, 3)')
    expect(printed.clipPath).toBe('url("#gradient")')
    expect(printed.styleElements).toBe(0)
    expect(printed.styleAttributes).toBe(0)
    expect(printed.animations).toBe(0)
    expect(printed.local).toEqual(['url(#gradient)', "url( '#gradient' )"])
    expect(printed.remote).toEqual(['height', 'id', 'width'])
    expect(printed.images).toEqual([null, null])
    expect(printed.sheet).not.toContain(remote)
    expect(printed.sheet).not.toMatch(/@import|@font-face/)

    // A request the page makes after all that reaches the listener: anything before it would have too.
    await page.evaluate((remote) => fetch(`${remote}/last`, { mode: 'no-cors' }), remote)
    expect(requests.filter((url) => url.startsWith(remote))).toEqual([`${remote}/last`])
    expect(listener.paths).toEqual(['/last'])
    expect(problems).toEqual([])
  })

  it('saves only PNG and SVG downloads, as their own type, under a name with no path in it', async () => {
    const problems: string[] = []
    const page = await openHost(problems)
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    const downloads: string[] = []
    page.on('download', (download) => void downloads.push(download.suggestedFilename()))

    // Sent in order from the chart's window: the refused one is handled before the PNG.
    const [saved] = await Promise.all([
      page.waitForEvent('download'),
      frame.evaluate((signature) => {
        window.parent.postMessage(
          {
            type: 'download',
            fileName: 'page.html',
            mediaType: 'text/html',
            data: new Blob(['<p>page</p>'], { type: 'text/html' }),
          },
          '*',
        )
        window.parent.postMessage(
          {
            type: 'download',
            fileName: '../up\\page.html',
            mediaType: 'image/png',
            data: new Blob([new Uint8Array(signature)], { type: 'text/html' }),
          },
          '*',
        )
      }, PNG_SIGNATURE),
    ])
    expect(saved.suggestedFilename()).toBe('_up_page.html.png')
    expect([...(await readFile(await saved.path()))]).toEqual(PNG_SIGNATURE)
    expect(downloads).toEqual(['_up_page.html.png'])
    expect(await page.evaluate(() => (window as unknown as ObjectUrlWindow).objectUrlTypes)).toEqual(['image/png'])
    expect(problems).toEqual([])
  })

  it('a Download click in the chart saves a PNG and an SVG on the host page, with no request', async () => {
    const problems: string[] = []
    const page = await openHost(problems)
    await mountOnPage(page)
    await waitForEvents(page, 'rendered', 1)
    const frame = await chartFrameOf(page)
    const requests = recordRequests(page)

    const [png] = await Promise.all([
      page.waitForEvent('download'),
      frame.getByRole('button', { name: 'Download PNG', exact: true }).click(),
    ])
    expect(png.suggestedFilename()).toMatch(/^Chen Family.*family.*\.png$/)
    const pngBytes = await readFile(await png.path())
    expect([...pngBytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE)

    await frame.locator('#chart [role="tab"]', { hasText: 'Structure' }).click()
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      frame.getByRole('button', { name: 'Download SVG', exact: true }).click(),
    ])
    expect(svg.suggestedFilename()).toMatch(/^Chen Family.*structure.*\.svg$/)
    const svgText = await readFile(await svg.path(), 'utf8')
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
      return { root: doc.documentElement.localName, errors: doc.getElementsByTagName('parsererror').length }
    }, svgText)
    expect(parsed).toEqual({ root: 'svg', errors: 0 })
    expect(svgText).toContain('Chen')

    // Made in the browser: only blob: and data: URLs (memory), never a server.
    expect(requests.filter((url) => !url.startsWith('blob:') && !url.startsWith('data:'))).toEqual([])
    expect(problems).toEqual([])
  })
})
