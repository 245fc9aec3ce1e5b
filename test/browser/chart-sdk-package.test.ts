// @hearth/chart-sdk as a partner installs it: `npm pack` (prepack builds dist/ from the SDK's source
// and src/react.tsx), the tarball installed with react and react-dom into a scratch project from
// npm's cache, a React page there bundled by esbuild from `@hearth/chart-sdk/react` and type-checked
// by tsc against the installed package, and the page in Chromium on a registered partner origin:
// <HouseholdChart> mounts the chart's iframe, reports `rendered`, renders a new payload without a new
// iframe, and takes the iframe away when it unmounts. React's StrictMode (development) mounts, unmounts
// and mounts again on purpose: one iframe is left, and it renders.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHART_VERSION } from '../../chart/version.ts'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { startChartStack, type ChartStack } from '../helpers/chart-stack.ts'
import { packPackage, scratchProject, tarballFiles, type ScratchProject } from '../helpers/packages.ts'

/** What the page exposes to the test. */
interface ReactHostWindow {
  events: { type: string; height?: number; code?: string; message?: string }[]
  /** The handle chartRef holds: its iframe while mounted, null after. */
  chartIframe: () => HTMLIFrameElement | null | undefined
  firstIframe?: HTMLIFrameElement
  setPayload(payload: unknown): void
  setShown(shown: boolean): void
  setTheme(theme: string): void
}

const QUILLS = {
  household: { name: 'Quill Family' },
  people: [
    { id: 'zed', name: 'Zed Quill', role: 'primaryClient' },
    { id: 'ada', name: 'Ada Quill', role: 'child' },
  ],
  relationships: [{ from: 'zed', to: 'ada', type: 'parent' }],
}
const QUILLS_GROWN = {
  ...QUILLS,
  people: [...QUILLS.people, { id: 'bea', name: 'Bea Quill', role: 'child' }],
  relationships: [...QUILLS.relationships, { from: 'zed', to: 'bea', type: 'parent' }],
}

/** The partner's page, as a React developer writes it against the installed package (type-checked below). */
const APP = `
import { StrictMode, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import {
  SDK_CHART_VERSION,
  type ChartEvent,
  type ChartTheme,
  type HouseholdChartHandle,
  type HouseholdChartPayload,
} from '@hearth/chart-sdk'
import { HouseholdChart } from '@hearth/chart-sdk/react'

interface Config {
  embedOrigin: string
  payload: HouseholdChartPayload
}

declare global {
  interface Window {
    events: ChartEvent[]
    chartIframe: () => HTMLIFrameElement | null | undefined
    setPayload: (payload: HouseholdChartPayload) => void
    setShown: (shown: boolean) => void
    setTheme: (theme: ChartTheme) => void
  }
}

const config = JSON.parse(document.getElementById('config')!.textContent!) as Config
window.events = []

function App() {
  const [payload, setPayload] = useState(config.payload)
  const [shown, setShown] = useState(true)
  const [theme, setTheme] = useState<ChartTheme>('light')
  const chart = useRef<HouseholdChartHandle>(null)
  window.setPayload = setPayload
  window.setShown = setShown
  window.setTheme = setTheme
  window.chartIframe = () => chart.current?.iframe ?? null
  if (!shown) return <p id="gone">The chart was taken away.</p>
  return (
    <HouseholdChart
      embedOrigin={config.embedOrigin}
      version={SDK_CHART_VERSION}
      title={'Household chart of the ' + payload.household.name}
      payload={payload}
      theme={theme}
      fetchToken={async () => {
        const response = await fetch('/token', { method: 'POST' })
        if (!response.ok) throw new Error('token endpoint answered ' + response.status)
        return (await response.json()) as { token: string; expiresAt: string }
      }}
      onEvent={(event) => window.events.push(event)}
      chartRef={chart}
      className="chart"
      style={{ maxWidth: 1100 }}
    />
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
`

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    jsx: 'react-jsx',
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['app.tsx'],
}

describe.runIf(hasChromium())('the @hearth/chart-sdk package with React', () => {
  let packs: string
  let tarball: string
  let project: ScratchProject
  let stack: ChartStack
  let browser: Browser
  let page: Page
  /** What the page threw or logged as an error, for the failure message. */
  const pageErrors: string[] = []

  beforeAll(async () => {
    packs = await mkdtemp(path.join(os.tmpdir(), 'hearth-packs-'))
    ;[tarball, stack, browser] = await Promise.all([
      packPackage('chart-sdk', packs),
      startChartStack(),
      launchChromium(),
    ])
    project = await scratchProject([
      tarball,
      'react@19.3.1',
      'react-dom@19.3.1',
      '@types/react@19.3.0',
      '@types/react-dom@19.3.0',
    ])
    await writeFile(path.join(project.dir, 'app.tsx'), APP)
    await writeFile(path.join(project.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG))
    const bundle = await build({
      absWorkingDir: project.dir,
      entryPoints: ['app.tsx'],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      // React's development build: StrictMode mounts every effect twice there.
      define: { 'process.env.NODE_ENV': '"development"' },
      write: false,
      outfile: 'app.js',
      logLevel: 'silent',
    })
    const config = JSON.stringify({ embedOrigin: stack.embedOrigin, payload: QUILLS }).replaceAll('<', '\\u003c')
    stack.partner.set('/index.html', {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><meta charset="utf-8"><title>React partner</title><div id="root"></div><script type="application/json" id="config">${config}</script><script type="module" src="/app.js"></script>`,
    })
    stack.partner.set('/app.js', { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0]!.contents })
    stack.partner.handle('/token', async () => {
      const { token, expiresAt } = await stack.mint()
      return { status: 200, body: { token, expiresAt } }
    })
    page = await browser.newPage()
    page.on('pageerror', (error) => pageErrors.push(String(error)))
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text())
    })
  })
  afterAll(async () => {
    await browser?.close()
    await stack?.close()
    await project?.remove()
    if (packs) await rm(packs, { recursive: true, force: true })
  })

  const renderedCount = () =>
    page.evaluate(
      () => (window as unknown as ReactHostWindow).events.filter((event) => event.type === 'rendered').length,
    )
  const waitForRendered = (count: number) =>
    page.waitForFunction(
      (count) =>
        (window as unknown as ReactHostWindow).events.filter((event) => event.type === 'rendered').length >= count,
      count,
    )
  const chartText = async () => {
    const element = await page.waitForSelector('#root iframe', { state: 'attached' })
    const frame = await element.contentFrame()
    if (!frame) throw new Error('the iframe has no frame')
    return (await frame.locator('#chart').textContent()) ?? ''
  }

  it('packs the SDK, its types and the React component, and nothing else', async () => {
    expect(await tarballFiles(tarball)).toEqual([
      'dist/index.d.ts',
      'dist/index.js',
      'dist/react.d.ts',
      'dist/react.js',
      'package.json',
    ])
  })

  it('types a React page through the package’s exports', async () => {
    // Throws with tsc's diagnostics when the shipped declarations do not type the page.
    await project.exec('tsc', ['-p', 'tsconfig.json'])
  })

  it('mounts the chart, re-renders on a new payload, switches the theme, and removes the iframe on unmount', async () => {
    await page.goto(`${stack.partner.origin}/index.html`)
    await waitForRendered(1)
    expect(
      await page.evaluate(() => (window as unknown as ReactHostWindow).events.filter((e) => e.type === 'error')),
    ).toEqual([])
    // StrictMode mounted twice: the first chart was destroyed, one iframe is left, and it is the handle's.
    const iframe = await page.evaluate(() => {
      const iframes = document.querySelectorAll<HTMLIFrameElement>('#root iframe')
      const w = window as unknown as ReactHostWindow
      w.firstIframe = iframes[0]
      return {
        count: iframes.length,
        isHandles: iframes[0] === w.chartIframe(),
        src: iframes[0]?.getAttribute('src'),
        title: iframes[0]?.title,
        sandbox: iframes[0]?.getAttribute('sandbox'),
        inClassedDiv: iframes[0]?.parentElement?.className,
      }
    })
    expect(iframe).toEqual({
      count: 1,
      isHandles: true,
      src: `${stack.embedOrigin}/chart/v${CHART_VERSION}/index.html`,
      title: 'Household chart of the Quill Family',
      sandbox: 'allow-scripts allow-same-origin',
      inClassedDiv: 'chart',
    })
    expect(await chartText()).toContain('Zed Quill')
    expect(await chartText()).not.toContain('Bea Quill')

    const before = await renderedCount()
    await page.evaluate((payload) => {
      ;(window as unknown as ReactHostWindow).setPayload(payload)
    }, QUILLS_GROWN)
    await waitForRendered(before + 1)
    expect(await chartText()).toContain('Bea Quill')
    // The same iframe, rendered again through the handle: no second mount.
    expect(
      await page.evaluate(() => {
        const w = window as unknown as ReactHostWindow
        return {
          count: document.querySelectorAll('#root iframe').length,
          same: document.querySelector('#root iframe') === w.firstIframe,
        }
      }),
    ).toEqual({ count: 1, same: true })

    // A new theme goes to the drawn chart (setTheme), in the same iframe.
    const frame = await (await page.waitForSelector('#root iframe', { state: 'attached' })).contentFrame()
    expect(await frame?.locator('#chart').getAttribute('data-theme')).toBe('light')
    await page.evaluate(() => {
      ;(window as unknown as ReactHostWindow).setTheme('dark')
    })
    await frame?.waitForSelector('#chart[data-theme="dark"]', { state: 'attached' })
    expect(
      await page.evaluate(
        () => document.querySelector('#root iframe') === (window as unknown as ReactHostWindow).firstIframe,
      ),
    ).toBe(true)

    await page.evaluate(() => {
      ;(window as unknown as ReactHostWindow).setShown(false)
    })
    await page.waitForSelector('#gone')
    expect(
      await page.evaluate(() => ({
        iframes: document.querySelectorAll('iframe').length,
        attached: (window as unknown as ReactHostWindow).firstIframe?.isConnected,
        handle: (window as unknown as ReactHostWindow).chartIframe(),
      })),
    ).toEqual({ iframes: 0, attached: false, handle: null })
  })
})
