// The Flow view (chart/src/views/flow-view.ts) in real Chromium, drawn by the view shell on a couple
// with a credit-shelter trust: the figures shown are projectEstate's, the controls (who dies first,
// the years) draw the view again and tell the host through onEstate, a later year says its exclusion
// is the last known year's, a focused or hovered figure explains itself, text keeps to 11 px and the
// columns scroll rather than squeeze; it prints on its own page with the disclaimer, Present mode
// steps to it, it exports as drawn, the text version says it in words, and axe-core finds nothing
// serious in either theme. The page is served with the chart's real CSP and
// stylesheets (serveViewsFixture); every test ends by asserting there was no CSP violation, console
// error, page error or dialog.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { seriousViolations, serveViewsFixture, watchProblems } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import type { Payload } from '../../chart/payload.ts'
import { projectEstate } from '../../chart/src/flow/project-estate.ts'
import type { EstateProjection, ProjectionDeath } from '../../chart/src/flow/projection-types.ts'
import { amountFormatter } from '../../chart/src/views/amount-format.ts'
import {
  explainApplicableCredit,
  explainEstateTax,
  explainGross,
  explainTentativeTax,
  explainTransfer,
} from '../../chart/src/views/flow-explain.ts'
import type { FlowChoices } from '../../chart/src/views/flow-controls.ts'
import { WHY_HINT } from '../../chart/src/views/flow-view.ts'
import { flowLines } from '../../chart/src/views/text-version.ts'
import type { ViewsTestWindow } from './fixtures/views-entry.ts'

const M = 1_000_000
/**
 * Robert and Linda, married, two children. Robert holds 20,000,000, Linda 10,000,000, the home
 * (2,000,000) is joint; Robert leaves the exclusion he has not used to a credit-shelter trust,
 * portability is not elected. The asOf year (2026) is the deaths' year, whatever today's date.
 */
const couple: Payload = {
  household: { name: 'Case Family', currency: 'USD', asOf: '2026-11-01' },
  people: [
    { id: 'robert', name: 'Robert Case', role: 'primaryClient' },
    { id: 'linda', name: 'Linda Case', role: 'coClient', usCitizen: true },
    { id: 'chris', name: 'Chris Case', role: 'child' },
    { id: 'dana', name: 'Dana Case', role: 'child' },
  ],
  relationships: [
    { from: 'robert', to: 'linda', type: 'spouse' },
    { from: 'robert', to: 'chris', type: 'parent' },
    { from: 'linda', to: 'chris', type: 'parent' },
    { from: 'robert', to: 'dana', type: 'parent' },
    { from: 'linda', to: 'dana', type: 'parent' },
  ],
  entities: [
    { id: 'r-account', name: 'Robert brokerage', kind: 'taxableAccount', value: 20 * M },
    { id: 'l-account', name: 'Linda brokerage', kind: 'taxableAccount', value: 10 * M },
    { id: 'home', name: 'Home', kind: 'realEstate', value: 2 * M },
    { id: 'bypass', name: 'Case Bypass Trust', kind: 'creditShelterTrust' },
    { id: 'ilit', name: 'Case ILIT', kind: 'ilit', value: 5 * M },
  ],
  links: [
    { from: 'robert', to: 'r-account', type: 'owner' },
    { from: 'linda', to: 'l-account', type: 'owner' },
    { from: 'robert', to: 'home', type: 'owner' },
    { from: 'linda', to: 'home', type: 'owner' },
    { from: 'robert', to: 'ilit', type: 'grantor' },
  ],
  dispositions: [{ at: 'robert', to: 'bypass', formula: 'unusedExclusion' }],
  assumptions: { portabilityElected: false },
}
const single: Payload = {
  household: { name: 'Solo', currency: 'USD', asOf: '2026-01-15' },
  people: [
    { id: 'ana', name: 'Ana Solo', role: 'primaryClient', dsueReceived: { amount: 2 * M } },
    { id: 'ben', name: 'Ben Solo', role: 'child' },
  ],
  relationships: [{ from: 'ana', to: 'ben', type: 'parent' }],
  entities: [{ id: 'account', name: 'Account', kind: 'taxableAccount', value: 20 * M }],
  links: [{ from: 'ana', to: 'account', type: 'owner' }],
}

const dollars = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`

/** A death's statement as the view shows it: figure key → the amount's text, in order. */
const statementOf = (death: ProjectionDeath) => [
  ['gross', dollars(death.grossEstate.total)],
  ...death.grossEstate.lines.map((line) => ['gross-part', dollars(line.amount)]),
  ['marital', dollars(death.maritalDeduction.total)],
  ['charitable', dollars(death.charitableDeduction.total)],
  ['taxable', dollars(death.taxableEstate)],
  ['gifts', dollars(death.adjustedTaxableGifts)],
  ['basicExclusion', dollars(death.basicExclusion.amount)],
  ['dsue', dollars(death.dsue.amount)],
  ['applicableExclusion', dollars(death.applicableExclusion)],
  ['tentativeTax', dollars(death.tentativeTax)],
  ...(death.giftTaxPayable > 0 ? [['giftTax', dollars(death.giftTaxPayable)]] : []),
  ['applicableCredit', dollars(death.applicableCredit)],
  ['estateTax', dollars(death.estateTax)],
  ...(death.survivingSpouseId === undefined ? [] : [['dsuePassed', dollars(death.dsuePassed)]]),
  ...death.transfers.map((transfer) => ['transfer', dollars(transfer.net)]),
]

interface ShownColumn {
  column: string
  title: string
  subtitle: string
  rows: [string, string][]
  labels: string[]
  notes: string[]
}

describe.runIf(hasChromium())('the Flow view in Chromium', () => {
  let site: Site
  let browser: Browser
  const opened: { page: Page; problems: string[] }[] = []

  beforeAll(async () => {
    site = await startSite()
    await serveViewsFixture(site, { couple, single })
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

  async function open(
    household: 'couple' | 'single',
    {
      theme = 'light',
      width = 1100,
      handlers,
      flowChoices,
    }: { theme?: 'light' | 'dark'; width?: number; handlers?: string; flowChoices?: FlowChoices } = {},
  ): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } })
    const watched = { page, problems: [] as string[] }
    opened.push(watched)
    await watchProblems(page, watched.problems)
    const query = new URLSearchParams({ payload: household, theme, view: 'flow' })
    if (handlers !== undefined) query.set('handlers', handlers)
    if (flowChoices !== undefined) query.set('flowChoices', JSON.stringify(flowChoices))
    await page.goto(`${site.origin}/?${query.toString()}`)
    await page.waitForFunction(() => (window as unknown as ViewsTestWindow).drawn)
    return page
  }

  const columns = (page: Page): Promise<ShownColumn[]> =>
    page.$$eval('.hv-panel-flow .hv-flow-col', (sections) =>
      sections.map((section) => ({
        column: (section as HTMLElement).dataset.column ?? '',
        title: section.querySelector('.hv-flow-col-title')?.textContent ?? '',
        subtitle: section.querySelector('.hv-flow-col-subtitle')?.textContent ?? '',
        rows: [...section.querySelectorAll<HTMLElement>('.hv-flow-row')].map((row): [string, string] => [
          row.dataset.figure ?? '',
          row.querySelector('.hv-flow-figure')?.textContent ?? '',
        ]),
        labels: [...section.querySelectorAll('.hv-flow-row-label')].map((label) => label.textContent ?? ''),
        notes: [...section.querySelectorAll('.hv-flow-note')].map((note) => note.textContent ?? ''),
      })),
    )
  const estates = (page: Page): Promise<EstateProjection[]> =>
    page.evaluate(() => (window as unknown as ViewsTestWindow).estates)
  const assumptions = (page: Page) => page.locator('.hv-panel-flow .hv-flow-assumptions').textContent()

  it('is the fourth tab; its columns show projectEstate’s figures, Today to who receives what', async () => {
    const page = await open('couple')
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Family', 'Structure', 'Estate', 'Flow'])
    expect(await page.getByRole('tab', { name: 'Flow' }).getAttribute('aria-selected')).toBe('true')
    const projection = projectEstate(couple)
    const [first, second] = projection.deaths as [ProjectionDeath, ProjectionDeath]
    // By hand (DESIGN §5, 2026's exclusion 15,000,000): Robert's gross = 20,000,000 + half the home
    // 1,000,000 = 21,000,000; the trust takes the unused exclusion, 15,000,000, the rest (the home's half
    // by survivorship, 5,000,000 outright) is Linda's, marital 6,000,000; taxable 15,000,000, tax 0.
    // Linda: 10,000,000 + 1,000,000 + 1,000,000 + 5,000,000 = 17,000,000, no DSUE (not elected), tax 40 %
    // of the 2,000,000 over = 800,000; the children take 8,100,000 each.
    expect(first.grossEstate.total).toBe(21 * M)
    expect(first.taxableEstate).toBe(15 * M)
    expect(second.grossEstate.total).toBe(17 * M)
    expect(second.estateTax).toBe(800_000)

    const shown = await columns(page)
    expect(shown.map((column) => column.column)).toEqual(['today', 'death-0', 'death-1', 'recipients'])
    const [today, firstShown, secondShown, recipients] = shown as [ShownColumn, ShownColumn, ShownColumn, ShownColumn]
    expect(today.rows).toEqual([
      ['today-primaryClient', dollars(projection.today.primaryClient)],
      ['today-coClient', dollars(projection.today.coClient)],
      ['today-joint', dollars(projection.today.joint)],
      ['today-outside', dollars(projection.today.outside)],
    ])
    expect(today.labels.slice(0, 2)).toEqual(["Robert Case's estate", "Linda Case's estate"])
    expect(firstShown).toMatchObject({ title: 'First death: Robert Case', subtitle: '2026' })
    expect(firstShown.rows).toEqual(statementOf(first))
    expect(firstShown.labels).toContain('Case Bypass Trust, in trust')
    expect(firstShown.labels).toContain('Linda Case, by survivorship')
    expect(firstShown.labels).toContain('DSUE passed to Linda Case')
    expect(secondShown).toMatchObject({ title: 'Second death: Linda Case', subtitle: '2026' })
    expect(secondShown.rows).toEqual(statementOf(second))
    // The tax worked out down the column: T(17,000,000) 6,745,800 − credit T(15,000,000) 5,945,800 = 800,000.
    expect(second.tentativeTax - second.giftTaxPayable - second.applicableCredit).toBe(second.estateTax)
    const taxRows = secondShown.rows.map(([key]) => key)
    expect(
      secondShown.rows.slice(taxRows.indexOf('applicableExclusion') + 1, taxRows.indexOf('estateTax') + 1),
    ).toEqual([
      ['tentativeTax', '$6,745,800'],
      ['applicableCredit', '$5,945,800'],
      ['estateTax', '$800,000'],
    ])
    expect(secondShown.labels).toEqual(expect.arrayContaining(['Tentative tax', 'Applicable credit', 'Estate tax']))
    expect(secondShown.labels).not.toContain('Gift tax payable') // none paid
    expect(secondShown.notes).toEqual(["2026's amount", 'on $17,000,000', 'the tax on $15,000,000'])
    expect(firstShown.notes).toContain('never below zero')
    expect(recipients.rows).toEqual([
      ...projection.recipients.map((recipient) => [
        recipient.kind === 'tax' ? 'recipient-tax' : 'recipient',
        dollars(recipient.amount),
      ]),
      ...projection.outsideEstate.map((line) => ['outside-part', dollars(line.amount)]),
    ])
    expect(recipients.labels).toContain('Federal estate tax')
    expect(recipients.labels).toContain('Case ILIT')

    expect(await assumptions(page)).toBe(
      "Robert Case dies first, in 2026, then Linda Case, in 2026. Basic exclusion: $15,000,000 in 2026 (2026's amount); $15,000,000 in 2026 (2026's amount). Portability: not elected.",
    )
    expect(await page.locator('.hv-panel-flow .hv-flow-disclaimer').textContent()).toBe(projection.disclaimer)
    // The host heard the same projection once, when the shell was drawn.
    expect(await estates(page)).toEqual([JSON.parse(JSON.stringify(projection))])
  })

  it('toggles who dies first: the first column’s decedent and gross estate change, and the host hears it', async () => {
    const page = await open('couple')
    const order = page.getByRole('group', { name: 'Who dies first' })
    expect(await order.getByRole('radio').count()).toBe(2)
    expect(await order.getByRole('radio', { name: 'Robert Case' }).isChecked()).toBe(true)
    // Keyboard: focus the checked radio and move with the arrow, as a radio group does.
    await order.getByRole('radio', { name: 'Robert Case' }).focus()
    await page.keyboard.press('ArrowRight')
    expect(await order.getByRole('radio', { name: 'Linda Case' }).isChecked()).toBe(true)

    const expected = projectEstate(couple, { firstDeath: 'linda', firstDeathYear: 2026, secondDeathYear: 2026 })
    // Linda first: 10,000,000 + half the home 1,000,000 = 11,000,000.
    expect(expected.deaths[0]!.grossEstate.total).toBe(11 * M)
    const [, firstShown] = await columns(page)
    expect(firstShown!.title).toBe('First death: Linda Case')
    expect(firstShown!.rows[0]).toEqual(['gross', '$11,000,000'])
    expect(firstShown!.rows).toEqual(statementOf(expected.deaths[0]!))
    const heard = await estates(page)
    expect(heard).toHaveLength(2)
    expect(heard[1]!.assumptions.order).toEqual(['linda', 'robert'])
    expect(heard[1]).toEqual(JSON.parse(JSON.stringify(expected)))
    // Only the Flow view was drawn again: focus stays on the radio the reader moved to.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('linda')
  })

  it('opens on the flowChoices it is given (a redraw’s), over the payload’s assumptions, and the host hears that projection', async () => {
    const choices: FlowChoices = { firstDeath: 'linda', firstDeathYear: 2030, secondDeathYear: 2035 }
    const page = await open('couple', { flowChoices: choices })
    const order = page.getByRole('group', { name: 'Who dies first' })
    expect(await order.getByRole('radio', { name: 'Linda Case' }).isChecked()).toBe(true)
    expect(await page.getByLabel('First death in').inputValue()).toBe('2030')
    expect(await page.getByLabel('Second death in').inputValue()).toBe('2035')
    const expected = projectEstate(couple, choices)
    const [, firstShown] = await columns(page)
    expect(firstShown).toMatchObject({ title: 'First death: Linda Case', subtitle: '2030' })
    expect(firstShown!.rows).toEqual(statementOf(expected.deaths[0]!))
    expect(await estates(page)).toEqual([JSON.parse(JSON.stringify(expected))])
  })

  it('a first death in 2030 uses the last known exclusion (2026’s); the second year follows; out of range is clamped', async () => {
    const page = await open('couple')
    const firstYear = page.getByLabel('First death in')
    const secondYear = page.getByLabel('Second death in')
    expect(await firstYear.inputValue()).toBe('2026')
    expect(await firstYear.getAttribute('min')).toBe('2025')
    expect(await firstYear.getAttribute('max')).toBe('2200')
    await firstYear.fill('2030')
    await firstYear.press('Enter')
    await expect.poll(() => secondYear.inputValue()).toBe('2030') // never before the first
    expect(await secondYear.getAttribute('min')).toBe('2030')
    const [, firstShown] = await columns(page)
    expect(firstShown!.subtitle).toBe('2030')
    expect(firstShown!.notes[0]).toBe("the last known amount, 2026's")
    expect(firstShown!.labels).toContain('Basic exclusion, 2030')
    expect(await assumptions(page)).toContain("$15,000,000 in 2030 (the last known amount, 2026's)")
    const heard = await estates(page)
    expect(heard).toHaveLength(2)
    expect(heard[1]!.assumptions.years).toEqual([2030, 2030])
    expect(heard[1]!.deaths[0]!.basicExclusion).toMatchObject({ year: 2030, basis: 'lastKnown', sourceYear: 2026 })

    await secondYear.fill('2040')
    await secondYear.press('Tab')
    await expect.poll(async () => (await estates(page)).length).toBe(3)
    expect((await estates(page))[2]!.assumptions.years).toEqual([2030, 2040])
    await firstYear.fill('1999')
    await firstYear.press('Enter')
    await expect.poll(() => firstYear.inputValue()).toBe('2025')
    expect((await estates(page))[3]!.assumptions.years).toEqual([2025, 2040])
  })

  it('explains a figure on focus and on hover, in its description and in the explanation line', async () => {
    const page = await open('couple')
    const usd = amountFormatter('USD')
    const [first, second] = projectEstate(couple).deaths as [ProjectionDeath, ProjectionDeath]
    const why = page.locator('.hv-panel-flow .hv-flow-why')
    expect(await why.textContent()).toBe(WHY_HINT)
    const figure = (column: string, key: string) =>
      page.locator(`.hv-flow-col[data-column="${column}"] tr[data-figure="${key}"] .hv-flow-figure`)
    /** The figure's accessible description, as the browser computes it from aria-describedby. */
    const description = (column: string, key: string) =>
      figure(column, key).evaluate(
        (element) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent ?? null,
      )

    // By hand: Linda's tax base 17,000,000, exclusion 15,000,000; T = 345,800 + 40 % × 16,000,000 =
    // 6,745,800, credit 5,945,800, tax 800,000 = 40 % of the 2,000,000 over.
    const taxWords =
      'Estate tax $800,000: 40 % of the $2,000,000 by which the tax base passes the applicable exclusion (tentative tax $6,745,800 on $17,000,000 − credit $5,945,800)'
    expect(explainEstateTax(second, usd)).toBe(taxWords)
    await figure('death-1', 'estateTax').focus()
    expect(await figure('death-1', 'estateTax').getAttribute('tabindex')).toBe('0')
    expect(await why.textContent()).toBe(taxWords)
    expect(await description('death-1', 'estateTax')).toBe(taxWords)
    // Tab goes on to the next figure, and the line follows it.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.figure)).toBe('transfer')
    // Linda's 17,000,000 passes by default to the two children, one transfer each: Chris's half,
    // 8,500,000, bears half of the 800,000 tax, 400,000.
    expect(await why.textContent()).toBe(
      'Chris Case, outright $8,100,000: by the default (no disposition says otherwise); $8,500,000 less $400,000 of estate tax',
    )
    expect(await why.textContent()).toBe(explainTransfer(second.transfers[0]!, undefined, usd))
    // The tax's parts explain themselves too.
    for (const [key, words] of [
      ['tentativeTax', explainTentativeTax(second, usd)],
      ['applicableCredit', explainApplicableCredit(second, usd)],
    ] as const) {
      await figure('death-1', key).focus()
      expect(await why.textContent()).toBe(words)
      expect(await description('death-1', key)).toBe(words)
    }
    expect(explainTentativeTax(second, usd)).toMatch(
      /^Tentative tax \$6,745,800: the tax on the tax base \$17,000,000 /,
    )
    await figure('death-1', 'transfer').first().focus()

    // Hovering says the hovered figure's words; leaving goes back to the focused one's.
    const grossWords = 'Gross estate $21,000,000: Robert brokerage $20,000,000 + Half of Home (joint) $1,000,000'
    expect(explainGross(first, usd)).toBe(grossWords)
    await figure('death-0', 'gross').hover()
    expect(await why.textContent()).toBe(grossWords)
    expect(await description('death-0', 'gross')).toBe(grossWords)
    await page.mouse.move(5, 5)
    expect(await why.textContent()).toMatch(/^Chris Case, outright/)
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    expect(await why.textContent()).toBe(WHY_HINT)
  })

  it('for a single client: no order toggle, one year, no second death; warnings are listed', async () => {
    const page = await open('single')
    expect(await page.getByRole('group', { name: 'Who dies first' }).count()).toBe(0)
    expect(await page.getByLabel('Second death in').count()).toBe(0)
    expect(await page.getByLabel('First death in').inputValue()).toBe('2026')
    expect((await columns(page)).map((column) => column.column)).toEqual(['today', 'death-0', 'recipients'])
    const projection = projectEstate(single)
    expect(projection.warnings.length).toBeGreaterThan(0)
    expect(await page.locator('.hv-panel-flow .hv-flow-warning-list li').allTextContents()).toEqual(
      projection.warnings.map((warning) => warning.message),
    )
    expect(await assumptions(page)).toBe("Ana Solo dies in 2026. Basic exclusion: $15,000,000 in 2026 (2026's amount).")
  })

  it('setView("flow") shows it; no text under 11 px at 1,100 px; a narrow frame scrolls the columns', async () => {
    const page = await open('couple')
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.setView('family'))
    expect(await page.locator('.hv-panel-flow').isVisible()).toBe(false)
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.setView('flow'))
    expect(await page.locator('.hv-panel-flow').isVisible()).toBe(true)
    const small = await page.$$eval('.hv-panel-flow *', (elements) =>
      elements
        .filter((element) => [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== ''))
        .filter((element) => element.checkVisibility())
        .map((element) => [element.textContent, parseFloat(getComputedStyle(element).fontSize)] as const)
        .filter(([, px]) => px < 11),
    )
    expect(small).toEqual([])

    await page.setViewportSize({ width: 600, height: 900 })
    const scroll = await page.$eval('.hv-panel-flow .hv-flow-columns', (row) => ({
      scrolls: row.scrollWidth > row.clientWidth,
      overflow: getComputedStyle(row).overflowX,
      deathWidth: row.querySelector('.hv-flow-col-death')!.getBoundingClientRect().width,
    }))
    expect(scroll).toEqual({ scrolls: true, overflow: 'auto', deathWidth: 290 })
  })

  it('prints the Flow view on a page of its own, with its columns, the assumptions line and the disclaimer', async () => {
    const page = await open('couple')
    const projection = projectEstate(couple)
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')))
    await page.emulateMedia({ media: 'print' })
    const flowPage = page.locator('.hv-print .hv-print-view-flow')
    expect(await flowPage.locator('.hv-print-view-title').textContent()).toBe('Flow')
    expect(await flowPage.evaluate((section) => getComputedStyle(section).breakBefore)).toBe('page')
    expect(await flowPage.locator('.hv-flow-col').count()).toBe(4)
    expect(await flowPage.locator('.hv-flow-disclaimer').textContent()).toBe(projection.disclaimer)
    expect(await flowPage.locator('.hv-flow-disclaimer').isVisible()).toBe(true)
    expect(await flowPage.locator('.hv-flow-assumptions').textContent()).toContain('Portability: not elected.')
    // On paper the columns wrap to the page instead of scrolling, and no copy keeps a focus stop or an id.
    expect(await flowPage.locator('.hv-flow-columns').evaluate((row) => getComputedStyle(row).flexWrap)).toBe('wrap')
    expect(await flowPage.locator('[tabindex], [id], [aria-describedby]').count()).toBe(0)
    await page.emulateMedia({ media: 'screen' })
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')))
    expect(await page.locator('.hv-print').count()).toBe(0)
  })

  it('Present mode steps to Flow; the year fields keep their arrow keys', async () => {
    const page = await open('couple')
    await page.evaluate(() => (window as unknown as ViewsTestWindow).chart.setView('family'))
    await page.getByRole('button', { name: 'Present' }).click()
    const indicator = page.locator('.hv-step')
    for (const step of ['2 of 4 · Structure', '3 of 4 · Estate', '4 of 4 · Flow']) {
      await page.keyboard.press('ArrowRight')
      expect(await indicator.textContent()).toBe(step)
    }
    expect(await page.locator('.hv-panel-flow').isVisible()).toBe(true)
    const firstYear = page.getByLabel('First death in')
    await firstYear.focus()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowLeft')
    expect(await indicator.textContent()).toBe('4 of 4 · Flow')
    await expect.poll(() => firstYear.inputValue()).toBe('2027')
    await expect.poll(async () => (await estates(page)).at(-1)?.assumptions.years).toEqual([2027, 2027])
    await page.keyboard.press('Escape')
  })

  it('exports the Flow view as drawn (the reader’s order) to SVG and PNG', async () => {
    const page = await open('couple', { handlers: 'download' })
    await page.getByRole('group', { name: 'Who dies first' }).getByRole('radio', { name: 'Linda Case' }).check()
    await page.getByRole('button', { name: 'Download SVG' }).click()
    await page.getByRole('button', { name: 'Download PNG' }).click()
    await page.waitForFunction(() => (window as unknown as ViewsTestWindow).downloads.length === 2)
    const files = await page.evaluate(async () =>
      Promise.all(
        (window as unknown as ViewsTestWindow).downloads.map(async (file) => ({
          name: file.fileName,
          type: file.mediaType,
          text: file.mediaType === 'image/svg+xml' ? await file.data.text() : '',
          size: file.data.size,
        })),
      ),
    )
    expect(files.map((file) => [file.type, /^Case Family-flow-\d{4}-\d{2}-\d{2}\.(svg|png)$/.test(file.name)])).toEqual(
      [
        ['image/svg+xml', true],
        ['image/png', true],
      ],
    )
    expect(files[1]!.size).toBeGreaterThan(1000)
    const svg = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml')
      return {
        errors: doc.querySelectorAll('parsererror').length,
        texts: [...doc.querySelectorAll('text')].map((element) => element.textContent ?? ''),
      }
    }, files[0]!.text)
    expect(svg.errors).toBe(0)
    const expected = projectEstate(couple, { firstDeath: 'linda', firstDeathYear: 2026, secondDeathYear: 2026 })
    expect(svg.texts).toContain('First death: Linda Case')
    expect(svg.texts).toContain('Second death: Robert Case')
    expect(svg.texts).toContain(dollars(expected.deaths[0]!.grossEstate.total))
    expect(svg.texts).toContain(`= ${dollars(expected.deaths[1]!.taxableEstate)}`)
    // The tax worked out, as the view reads it: tentative tax − credit = estate tax, with their notes.
    const second = expected.deaths[1]!
    for (const words of ['Tentative tax', 'Applicable credit', 'Estate tax', `on ${dollars(second.taxBase)}`])
      expect(svg.texts).toContain(words)
    expect(svg.texts).toContain(dollars(second.tentativeTax))
    expect(svg.texts).toContain(`− ${dollars(second.applicableCredit)}`)
    expect(svg.texts).toContain(`= ${dollars(second.estateTax)}`)
    expect(svg.texts.join(' ')).toContain(expected.disclaimer)
  })

  it('says each death in words in the text version, and follows the reader’s order', async () => {
    const page = await open('couple')
    const usd = amountFormatter('USD')
    await page.locator('details.hv-text > summary').click()
    const flowGroup = () =>
      page.$$eval('.hv-text-group', (sections) =>
        [...sections]
          .filter((section) => section.querySelector('h3')?.textContent === 'Flow')
          .flatMap((section) => [...section.querySelectorAll('li')].map((li) => li.textContent ?? '')),
      )
    // By hand: see the first test (Robert's gross 21,000,000, taxable 15,000,000; Linda's 17,000,000, tax 800,000).
    expect(await flowGroup()).toEqual([
      "At Robert Case's death in 2026 (the first): gross estate $21,000,000, taxable estate $15,000,000, estate tax $0, DSUE passed to Linda Case $0",
      "At Linda Case's death in 2026 (the second): gross estate $17,000,000, taxable estate $17,000,000, estate tax $800,000",
      'Who ends with what: Case Bypass Trust $15,000,000, Chris Case $8,100,000, Dana Case $8,100,000, Federal estate tax $800,000',
      "Robert Case dies first, in 2026, then Linda Case, in 2026. Basic exclusion: $15,000,000 in 2026 (2026's amount); $15,000,000 in 2026 (2026's amount). Portability: not elected.",
      projectEstate(couple).disclaimer,
    ])
    expect(await flowGroup()).toEqual(flowLines(projectEstate(couple), usd))
    await page.getByRole('radio', { name: 'Linda Case' }).check()
    expect(await flowGroup()).toEqual(
      flowLines(projectEstate(couple, { firstDeath: 'linda', firstDeathYear: 2026, secondDeathYear: 2026 }), usd),
    )
  })

  it.each(['light', 'dark'] as const)('passes axe-core on the Flow view in the %s theme', async (theme) => {
    const page = await open('couple', { theme })
    expect(await seriousViolations(page)).toEqual([])
  })
})
