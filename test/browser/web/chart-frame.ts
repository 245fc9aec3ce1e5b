// Where the web app's tests read the household chart inside its iframe: the 0.2.0 chart's view
// shell (chart/src/views/view-shell.ts). The genogram draws a box per person and, in its estate
// strip, a card per entity (each with a data-id and its whole words in a <title>); the text version
// under the views (text-version.ts) says the household in words, grouped as the views are.
import type { FrameLocator } from 'playwright-core'

/**
 * The lines of one group of the chart's text version: Family has one per person ("Ann Member,
 * Client: spouse of Ben Member"), Structure one per entity ("Ann Member Revocable Trust: Revocable
 * trust, $1.5M, in the estate. Grantor: Ann…").
 */
export function textLines(chart: FrameLocator, group: 'Family' | 'Structure') {
  return (
    chart
      .locator('details.hv-text section.hv-text-group')
      // By its heading's text, not its role: the text version is often closed, and roles skip what is hidden.
      .filter({ has: chart.locator('h3.hv-text-title', { hasText: new RegExp(`^${group}$`) }) })
      .locator('li')
  )
}

/** The person's box in the genogram (the Family view), by member id: the chart payload's person id. */
export function personBox(chart: FrameLocator, memberId: string) {
  return chart.locator(`.hv-gn-person[data-id="${memberId}"]`)
}

/** The entity's card in the genogram's estate strip whose <title> (its whole name, kind, value…) starts with `name`. */
export function entityCard(chart: FrameLocator, name: string) {
  return chart.locator('.hv-gn-entity').filter({ has: chart.locator('title', { hasText: `${name}. ` }) })
}
