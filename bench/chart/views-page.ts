// A page that draws households with the 0.2.0 view shell in Chromium and reads their geometry back,
// shared by test/browser/chart-geometry.test.ts (the targets, asserted) and geometry-report.ts (the
// figures, printed): the views fixture (test/browser/fixtures/views-entry.ts) and the geometry reader
// bundled for the browser, the chart's stylesheets in main.ts's order, under the chart's CSP, in a
// page as wide as the web app's chart frame.
import type { Browser, Page } from 'playwright-core'
import { bundleFixture, serveViewsFixture } from '../../test/helpers/chart-pages.ts'
import { startSite, type Site } from '../../test/helpers/sites.ts'
import type { DrawnChart } from './drawn-geometry.ts'
import type { GeometryCase } from './geometry-cases.ts'

/** The web app's chart frame, in CSS px: the width the readability targets are set at. */
export const FRAME_WIDTH = 1100
const FRAME_HEIGHT = 800

export type ViewName = 'family' | 'structure' | 'estate' | 'flow'
export const VIEWS: readonly ViewName[] = ['family', 'structure', 'estate', 'flow']

export interface ViewsPage {
  /** Opens `household` (a case's slug) on `view` in a new page of the frame's size, drawn. */
  open(browser: Browser, slug: string, view: ViewName): Promise<Page>
  close(): Promise<void>
}

export async function startViewsPage(cases: readonly GeometryCase[]): Promise<ViewsPage> {
  const site: Site = await startSite()
  const reader = await bundleFixture(new URL('../../test/browser/fixtures/geometry-reader.ts', import.meta.url))
  await serveViewsFixture(site, Object.fromEntries(cases.map(({ slug, household }) => [slug, household])), [
    { path: '/geometry-reader.js', body: reader },
  ])
  return {
    async open(browser, slug, view) {
      const page = await browser.newPage({ viewport: { width: FRAME_WIDTH, height: FRAME_HEIGHT } })
      await page.goto(`${site.origin}/?payload=${slug}&view=${view}`)
      await page.waitForFunction(() => (globalThis as unknown as { drawn?: boolean }).drawn === true)
      return page
    },
    close: () => site.close(),
  }
}

/** The geometry of the view shown, in page CSS px. */
export function readDrawnChart(page: Page): Promise<DrawnChart> {
  return page.evaluate(() => (globalThis as unknown as { readDrawnChart(): DrawnChart }).readDrawnChart())
}

/** Selects `id` as the host's focus(id) does: the node selected in every view, brought into view in this one. */
export async function focusNode(page: Page, id: string): Promise<void> {
  await page.evaluate((nodeId) => {
    ;(globalThis as unknown as { chart: { focus(id: string): void } }).chart.focus(nodeId)
  }, id)
}

/**
 * The nodes a reader focuses first: the primary client (else the first person) and the entity with
 * the most links (the busiest lines).
 */
export function focusedNodes(household: GeometryCase['household']): { role: string; id: string }[] {
  const client = household.people.find((person) => person.role === 'primaryClient') ?? household.people[0]
  const linkCount = new Map<string, number>()
  for (const link of household.links ?? []) {
    for (const end of [link.from, link.to]) linkCount.set(end, (linkCount.get(end) ?? 0) + 1)
  }
  const entity = [...(household.entities ?? [])].sort(
    (a, b) => (linkCount.get(b.id) ?? 0) - (linkCount.get(a.id) ?? 0),
  )[0]
  return [
    ...(client === undefined ? [] : [{ role: 'the primary client', id: client.id }]),
    ...(entity === undefined ? [] : [{ role: 'the entity with the most links', id: entity.id }]),
  ]
}
