// The 0.2.0 Family view (chart/src/views/genogram-view.ts) in real Chromium, in a 1,100 px wide page,
// on the shipped example and the three-marriages, five-generations and long-names households:
// no text drawn below 11 CSS px, years whole in every box, five generations opening folded with
// "+N descendants" buttons that open and close, search opening the fold that hides a great-grandchild,
// former spouses and parent kinds drawn as such, right-to-left names, keyboard selection and axe in
// both themes; the estate strip under the genogram (every entity that is not a party, with its
// chips, parties as pills) and the selection's lines (none at open, only the selected node's, in
// its link type's colour); the host's font family and corner radius. The page is served with the chart's real CSP and its stylesheets; every test ends by
// asserting there was no CSP violation, console error, page error or dialog, and no network request
// after the first draw.
import { readFileSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { hasChromium, launchChromium } from '../helpers/browser.ts'
import { CHART_CSP, bundleFixture, seriousViolations, watchProblems } from '../helpers/chart-pages.ts'
import { startSite, type Site } from '../helpers/sites.ts'
import { entityChipGroups } from '../../chart/src/estate/chips.ts'
import { isPartyKind } from '../../chart/src/estate/entity-kinds.ts'
import { findPeople, foldFamily, foldToFit } from '../../chart/src/family/collapse.ts'
import { firstViewBudget } from '../../chart/src/family/genogram-model.ts'
import type { ViewHousehold } from '../../chart/src/views/view-types.ts'
import type { GenogramTestWindow } from './fixtures/genogram-entry.ts'

const root = new URL('../../', import.meta.url)
const read = (path: string) => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as ViewHousehold
const households = {
  example: read('chart/example.json'),
  threeMarriages: read('bench/chart/households/three-marriages.json'),
  fiveGenerations: read('bench/chart/households/five-generations.json'),
  longNames: read('bench/chart/households/long-names.json'),
  widow: read('bench/chart/households/widow.json'),
  estate120m: read('bench/chart/households/estate-120m.json'),
  rtlLong: {
    household: { name: 'Right to left' },
    people: [
      {
        id: 'abd',
        name: 'عبد الرحمن بن محمد بن عبد الله بن يوسف الحسيني الهاشمي',
        role: 'primaryClient',
        birthDate: '1950-01-01',
      },
    ],
    entities: [{ id: 'waqf', name: 'صندوق عائلة الحسيني الخيري للتعليم والرعاية الصحية', kind: 'foundation' }],
    links: [{ from: 'abd', to: 'waqf', type: 'grantor' }],
  } satisfies ViewHousehold,
}
type HouseholdName = keyof typeof households
const STYLESHEETS = ['chart/src/styles.css', 'chart/src/views/views.css', 'chart/src/views/genogram.css']

interface ShownBox {
  id: string
  texts: string[]
  /** How far each text runs past the box's inner edges (0 when it stays inside). */
  overflow: number
}

describe.runIf(hasChromium())('the 0.2.0 Family view in Chromium', () => {
  let site: Site
  let browser: Browser
  const opened: { page: Page; problems: string[]; requests: string[] }[] = []

  beforeAll(async () => {
    const bundle = await bundleFixture(new URL('fixtures/genogram-entry.ts', import.meta.url))
    site = await startSite()
    const headers = { 'content-security-policy': CHART_CSP }
    const links = STYLESHEETS.map((path) => `<link rel="stylesheet" href="/${path.split('/').pop()!}">`).join('')
    site.set('/', {
      type: 'text/html; charset=utf-8',
      headers,
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Family</title>
<link rel="icon" href="data:,">${links}
<script type="module" src="/genogram-entry.js"></script></head><body><main id="chart"></main></body></html>`,
    })
    site.set('/genogram-entry.js', { type: 'text/javascript', headers, body: bundle })
    for (const path of STYLESHEETS) {
      site.set(`/${path.split('/').pop()!}`, { type: 'text/css', headers, body: readFileSync(new URL(path, root)) })
    }
    for (const [name, household] of Object.entries(households)) {
      site.set(`/${name}.json`, { type: 'application/json', headers, body: JSON.stringify(household) })
    }
    browser = await launchChromium()
  })
  afterEach(async () => {
    for (const { page, problems, requests } of opened.splice(0)) {
      const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations)
      await page.close()
      expect([...problems, ...violations]).toEqual([])
      expect(requests).toEqual([])
    }
  })
  afterAll(async () => {
    await browser?.close()
    await site?.close()
  })

  async function open(household: HouseholdName, theme: 'light' | 'dark' = 'light', query = ''): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
    const watched = { page, problems: [] as string[], requests: [] as string[] }
    opened.push(watched)
    await watchProblems(page, watched.problems)
    await page.goto(`${site.origin}/?payload=${household}&theme=${theme}${query}`)
    await page.waitForFunction(() => (window as unknown as GenogramTestWindow).drawn)
    page.on('request', (request) => watched.requests.push(request.url()))
    return page
  }

  const shownBoxes = (page: Page): Promise<ShownBox[]> =>
    page.$$eval('.hv-gn-person', (groups) =>
      groups.map((group) => {
        const card = group.querySelector('rect')!.getBoundingClientRect()
        const texts = [...group.querySelectorAll('text')]
        const overflow = Math.max(
          0,
          ...texts.map((text) => {
            const box = text.getBoundingClientRect()
            return Math.max(card.left - box.left, box.right - card.right)
          }),
        )
        return { id: (group as SVGGElement).dataset.id ?? '', texts: texts.map((t) => t.textContent ?? ''), overflow }
      }),
    )
  const foldButtons = (page: Page) =>
    page.$$eval('.hv-gn-fold.hv-gn-closed', (groups) =>
      groups.map((group) => ({ id: (group as SVGGElement).dataset.fold ?? '', text: group.textContent ?? '' })),
    )
  const activeId = (page: Page) =>
    page.evaluate(() => (document.activeElement as SVGElement | null)?.dataset.id ?? null)

  it('sees a CSP violation and a request when there is one (the detectors work)', async () => {
    const page = await open('example')
    await page.evaluate(() => document.getElementById('chart')!.setAttribute('style', 'color: red'))
    await page.waitForFunction(() => (window as unknown as { violations: string[] }).violations.length > 0)
    await page.evaluate(() => fetch('/example.json').then((response) => response.text()))
    const watched = opened.find((o) => o.page === page)!
    expect(watched.requests).toEqual([`${site.origin}/example.json`])
    watched.problems.length = 0
    watched.requests.length = 0
    await page.evaluate(() => ((window as unknown as { violations: string[] }).violations = []))
  })

  it.each(['example', 'threeMarriages', 'fiveGenerations', 'longNames', 'estate120m'] as const)(
    'draws no text of %s below 11 CSS px, and every year whole inside its box',
    async (name) => {
      const page = await open(name)
      const sizes = await page.evaluate(() => {
        const host = document.getElementById('chart')!
        const svgTexts = [...host.querySelectorAll('svg text')].map((text) => {
          const scale = (text as SVGTextElement).getScreenCTM()!.a
          return { text: text.textContent ?? '', px: parseFloat(getComputedStyle(text).fontSize) * scale }
        })
        const htmlTexts = [...host.querySelectorAll('label, button, p, span, h3, li')]
          .filter((element) => (element.textContent ?? '').trim() !== '')
          .map((element) => ({ text: element.textContent ?? '', px: parseFloat(getComputedStyle(element).fontSize) }))
        return [...svgTexts, ...htmlTexts]
      })
      expect(sizes.length).toBeGreaterThan(0)
      expect(sizes.filter((size) => size.px < 11)).toEqual([])

      const boxes = await shownBoxes(page)
      const people = new Map(households[name].people.map((person) => [person.id, person]))
      for (const box of boxes) {
        const person = people.get(box.id)!
        const years = [person.birthDate, person.deathDate].filter((d) => d !== undefined).map((d) => d.slice(0, 4))
        for (const year of years)
          expect({ id: box.id, line: box.texts[1] }).toEqual({ id: box.id, line: expect.stringContaining(year) })
        // Half a pixel for anti-aliased glyph edges.
        expect({ id: box.id, inside: box.overflow <= 0.5 }).toEqual({ id: box.id, inside: true })
      }
    },
  )

  it('opens five generations folded: each "+N descendants" counts what foldFamily hides; opening and folding back', async () => {
    const page = await open('fiveGenerations')
    const household = households.fiveGenerations
    const panelWidth = await page.evaluate(() => (window as unknown as GenogramTestWindow).panelWidth)
    const folded = foldToFit(household, firstViewBudget(panelWidth))
    expect(folded.size).toBeGreaterThan(0)
    const expected = foldFamily(household, folded)
    const buttons = await foldButtons(page)
    const partnersOf = (id: string) => {
      const couple = new Set([id])
      for (const r of household.relationships ?? []) {
        if (r.type !== 'parent' && r.from === id) couple.add(r.to)
        if (r.type !== 'parent' && r.to === id) couple.add(r.from)
      }
      return couple
    }
    for (const button of buttons) expect(button.text).toBe(`+${expected.hiddenBy.get(button.id)} descendants`)
    // Every shown fold has its button, or shares its partner's when they hide the same people (a couple
    // folded together shows one).
    const withButton = new Map(buttons.map((button) => [button.id, expected.hiddenBy.get(button.id)]))
    for (const [id, count] of expected.hiddenBy) {
      expect({ id, covered: [...partnersOf(id)].some((other) => withButton.get(other) === count) }).toEqual({
        id,
        covered: true,
      })
    }
    expect(buttons.length).toBeLessThan(expected.hiddenBy.size)
    const before = await shownBoxes(page)
    // The first screen is the clients': the primary client's box is inside the scrolled frame.
    const client = household.people.find((p) => p.role === 'primaryClient')!
    const inFrame = await page.evaluate((id) => {
      const frame = document.querySelector('.hv-gn-scroll')!.getBoundingClientRect()
      const box = document.querySelector(`.hv-gn-person[data-id="${CSS.escape(id)}"]`)!.getBoundingClientRect()
      return box.left >= frame.left && box.right <= frame.right
    }, client.id)
    expect(inFrame).toBe(true)
    expect(before.map((box) => box.id).sort()).toEqual([...expected.shown].sort())

    const first = buttons[0]!
    await page.locator(`.hv-gn-fold[data-fold="${first.id}"]`).click()
    // The button opens the folds of the person and their partners together: their children are below both.
    const partners = partnersOf(first.id)
    const opened = foldFamily(household, new Set([...folded].filter((id) => !partners.has(id))))
    expect((await shownBoxes(page)).map((box) => box.id).sort()).toEqual([...opened.shown].sort())
    // Opening one fold shows exactly the people it counted.
    expect(opened.shown.size).toBe(expected.shown.size + expected.hiddenBy.get(first.id)!)
    const foldBack = page.locator(`.hv-gn-fold[data-fold="${first.id}"]`)
    expect(await foldBack.textContent()).toBe('Fold')
    expect(await foldBack.getAttribute('aria-expanded')).toBe('true')

    await foldBack.focus()
    await page.keyboard.press('Enter')
    expect((await shownBoxes(page)).map((box) => box.id).sort()).toEqual([...expected.shown].sort())
    expect(await page.evaluate(() => (document.activeElement as SVGElement | null)?.dataset.fold)).toBe(first.id)
    expect(await page.locator(`.hv-gn-fold[data-fold="${first.id}"]`).textContent()).toBe(
      `+${expected.hiddenBy.get(first.id)} descendants`,
    )
  })

  it('finds a hidden great-grandchild by name: opens only the folds that hid them, focuses and marks them', async () => {
    const page = await open('fiveGenerations')
    const household = households.fiveGenerations
    const shown = new Set((await shownBoxes(page)).map((box) => box.id))
    const hidden = household.people.find((p) => p.role === 'greatGrandchild' && !shown.has(p.id))!
    expect(hidden).toBeDefined()
    const panelWidth = await page.evaluate(() => (window as unknown as GenogramTestWindow).panelWidth)
    const folded = foldToFit(household, firstViewBudget(panelWidth))
    const found = findPeople(household, hidden.name, folded)

    await page.getByRole('searchbox', { name: 'Find a person' }).fill(hidden.name)
    await page.getByRole('button', { name: 'Find' }).click()
    const after = (await shownBoxes(page)).map((box) => box.id).sort()
    expect(after).toEqual([...foldFamily(household, found.unfolded).shown].sort())
    expect(after).toContain(hidden.id)
    expect(await activeId(page)).toBe(found.ids[0])
    const marked = await page.$$eval('.hv-gn-found', (groups) => groups.map((g) => (g as SVGGElement).dataset.id))
    expect(marked.sort()).toEqual([...found.ids].sort())
    expect(await page.getByRole('status').textContent()).toContain('found')

    await page.getByRole('searchbox', { name: 'Find a person' }).fill('no such name zzz')
    await page.getByRole('button', { name: 'Find' }).click()
    expect(await page.getByRole('status').textContent()).toBe('No one named “no such name zzz”.')
  })

  it('three marriages: former spouses struck and dated, the adopted and step children on their own lines', async () => {
    const page = await open('threeMarriages')
    const exLines = await page.$$eval('.hv-gn-edges .hv-gn-exSpouse', (paths) =>
      paths.map((path) => ((path as SVGPathElement).dataset.ids ?? '').split(' ').sort().join(' ')),
    )
    expect(exLines.sort()).toEqual(['carol thomas', 'diane thomas'])
    expect(await page.locator('.hv-gn-edges .hv-gn-ex-stroke').count()).toBe(4)
    const boxes = new Map((await shownBoxes(page)).map((box) => [box.id, box.texts]))
    // Carol: exSpouse since 1971-06-12 until 1984-03-02; Diane: 1986-09-20 until 2003-11-15. Both are
    // role "other" in the payload: "Former spouse" comes from the kinship.
    expect(boxes.get('carol')).toEqual([
      'Carol Hughes',
      'Former spouse · b. 1950',
      expect.stringContaining('m. 1971 · div. 1984'),
    ])
    expect(boxes.get('diane')).toEqual([
      'Diane Mercer',
      'Former spouse · b. 1955',
      expect.stringContaining('m. 1986 · div. 2003'),
    ])
    // Susan: spouse since 2006-05-27, Thomas's third marriage.
    expect(boxes.get('susan')?.[2]).toBe('3rd m. 2006')

    const lineClasses = (child: string) =>
      page.$$eval(`.hv-gn-descent[data-child="${child}"]`, (paths) => paths.map((p) => p.getAttribute('class')))
    expect((await lineClasses('mei')).join(' ')).toContain('hv-gn-adopted')
    expect((await lineClasses('jason')).join(' ')).toContain('hv-gn-step')
    expect((await lineClasses('rachel')).join(' ')).toContain('hv-gn-step')
    expect((await lineClasses('kevin')).join(' ')).toContain('hv-gn-biological')
    expect((await lineClasses('kevin')).join(' ')).not.toMatch(/adopted|step|foster/)
    const dashes = await page.$$eval('.hv-gn-descent[data-child="mei"], .hv-gn-descent[data-child="kevin"]', (paths) =>
      paths.map((p) => getComputedStyle(p).strokeDasharray),
    )
    expect(new Set(dashes).size).toBe(2)
  })

  it('sets direction rtl on a right-to-left name and ltr on the others', async () => {
    const page = await open('longNames')
    const names = await page.$$eval('.hv-gn-name', (texts) =>
      texts.map((text) => ({ text: text.textContent ?? '', direction: text.getAttribute('direction') })),
    )
    const arabic = names.find((name) => name.text.startsWith('يوسف'))
    expect(arabic?.direction).toBe('rtl')
    const hebrew = names.find((name) => name.text.startsWith('יהונתן'))
    expect(hebrew?.direction).toBe('rtl')
    expect(names.find((name) => name.text.startsWith('Alexandra'))?.direction).toBe('ltr')
  })

  it('every person is a Tab stop named by what it shows (then their interests); Enter and a click select it', async () => {
    const page = await open('example')
    const first = page.locator('.hv-gn-person').first()
    const texts = await first.locator('text').allTextContents()
    // What the box shows comes first and whole; chart-views.test.ts checks the interests after it.
    const name = (await first.getAttribute('aria-label')) ?? ''
    const shown = texts.join(', ')
    expect(name === shown || name.startsWith(`${shown}: `), name).toBe(true)
    await first.focus()
    await page.keyboard.press('Enter')
    const id = await first.getAttribute('data-id')
    await page.keyboard.press('Tab')
    expect(await activeId(page)).not.toBe(id)
    expect(await activeId(page)).not.toBeNull()
    await page.locator('.hv-gn-person').nth(2).click()
    const third = await page.locator('.hv-gn-person').nth(2).getAttribute('data-id')
    expect(await page.evaluate(() => (window as unknown as GenogramTestWindow).selects)).toEqual([
      { id, kind: 'person' },
      { id: third, kind: 'person' },
    ])
  })

  it('reveal opens the folds hiding a person and focuses them; a selection mark survives a redraw', async () => {
    const page = await open('fiveGenerations')
    const household = households.fiveGenerations
    const shown = new Set((await shownBoxes(page)).map((box) => box.id))
    const hidden = household.people.find((p) => p.role === 'greatGrandchild' && !shown.has(p.id))!
    const unknown = await page.evaluate(() => (window as unknown as GenogramTestWindow).view.reveal('no-such-id'))
    expect(unknown).toBe(false)

    // The shell marks a selection by data-id and tells the view; a fold's redraw keeps the mark.
    const selected = [...shown][0]!
    await page.evaluate((id) => {
      const view = (window as unknown as GenogramTestWindow).view
      document.querySelector(`[data-id="${CSS.escape(id)}"]`)?.classList.add('hv-selected')
      view.selected(id)
    }, selected)
    expect(await page.evaluate((id) => (window as unknown as GenogramTestWindow).view.reveal(id), hidden.id)).toBe(true)
    expect(await activeId(page)).toBe(hidden.id)
    expect(await page.locator(`.hv-gn-person[data-id="${selected}"]`).getAttribute('class')).toContain('hv-selected')

    await page.evaluate(() => (window as unknown as GenogramTestWindow).view.setTheme('dark'))
    expect(await page.locator('.hv-genogram').getAttribute('data-theme')).toBe('dark')
    await page.evaluate(() => (window as unknown as GenogramTestWindow).view.destroy())
    expect(await page.locator('#chart').innerHTML()).toBe('')
  })

  it('draws a widow from the kinship: the living client widowed, the marriage dated to its end', async () => {
    const page = await open('widow')
    const boxes = new Map((await shownBoxes(page)).map((box) => [box.id, box.texts]))
    // Dorothy b. 1946-01-29, alive; Harold 1943-07-06 to 2022-08-14; married 1969-06-22 until 2022-08-14.
    expect(boxes.get('dorothy')?.slice(0, 2)).toEqual(['Dorothy Kaplan', 'Client · widowed · b. 1946'])
    expect(boxes.get('harold')).toEqual(['Harold Kaplan', 'Spouse · 1943–2022', 'm. 1969 · widowed 2022'])
    expect(await page.locator('.hv-gn-person[data-id="harold"]').getAttribute('class')).toContain('hv-gn-deceased')
  })

  interface DrawnCard {
    id: string
    texts: string[]
    inside: boolean
    width: number
  }
  const stripCards = (page: Page): Promise<DrawnCard[]> =>
    page.$$eval('.hv-gn-strip .hv-gn-entity', (groups) =>
      groups.map((group) => {
        const card = group.querySelector('rect')!.getBoundingClientRect()
        const texts = [...group.querySelectorAll('text')]
        const inside = texts.every((text) => {
          const box = text.getBoundingClientRect()
          return box.left >= card.left - 0.5 && box.right <= card.right + 0.5
        })
        return {
          id: (group as SVGGElement).dataset.id ?? '',
          texts: texts.map((t) => t.textContent ?? ''),
          inside,
          width: card.width,
        }
      }),
    )
  const drawnLines = (page: Page) =>
    page.$$eval('.hv-gn-links path', (paths) =>
      paths.map((path) => ({
        person: (path as SVGPathElement).dataset.person ?? '',
        entity: (path as SVGPathElement).dataset.entity ?? '',
        type: [...path.classList].find((c) => c.startsWith('hv-gn-link-'))?.slice('hv-gn-link-'.length) ?? '',
        stroke: getComputedStyle(path).stroke,
      })),
    )

  it.each(['example', 'estate120m'] as const)(
    '%s: the estate strip shows every entity that is not a party, with its owners and beneficiaries as chips',
    async (name) => {
      const page = await open(name)
      const household = households[name]
      const entities = household.entities ?? []
      const cards = await stripCards(page)
      expect(cards.map((card) => card.id)).toEqual(entities.filter((e) => !isPartyKind(e.kind)).map((e) => e.id))
      for (const card of cards) {
        // On screen at open, nothing to click first; every text inside its card.
        expect({ id: card.id, width: card.width > 0, inside: card.inside }).toEqual({
          id: card.id,
          width: true,
          inside: true,
        })
        const entity = entities.find((e) => e.id === card.id)!
        if (entity.value !== undefined && household.household.currency === 'USD')
          expect(card.texts[2]).toContain(`$${entity.value.toLocaleString('en')}`)
        expect(card.texts[2]).toMatch(/in estate|outside estate/)
        // Each chip is shown with its whole share, or counted in "+N more".
        const chipText = card.texts.slice(3).join(' · ')
        const chips = entityChipGroups(household, card.id).flatMap((group) => group.chips)
        const shown = chips.filter((chip) => chip.shareText === undefined || chipText.includes(chip.shareText))
        const more = /\+(\d+) more/.exec(chipText)
        expect({ id: card.id, counted: shown.length + (more === null ? 0 : Number(more[1])) }).toEqual({
          id: card.id,
          counted: chips.length,
        })
        expect(chipText).not.toMatch(/\d…|…%/)
      }
      const parties = await page.$$eval('.hv-gn-strip .hv-gn-party', (groups) =>
        groups.map((group) => (group as SVGGElement).dataset.id),
      )
      expect(parties).toEqual(entities.filter((e) => isPartyKind(e.kind)).map((e) => e.id))
    },
  )

  it('draws no line at open; a selected person gets lines to their entities only, cleared by the next selection', async () => {
    const page = await open('estate120m')
    const household = households.estate120m
    expect(await page.locator('.hv-gn-links path').count()).toBe(0)
    const cardIds = new Set((household.entities ?? []).filter((e) => !isPartyKind(e.kind)).map((e) => e.id))
    const expectedOf = (id: string) =>
      (household.links ?? [])
        .filter(
          (l) => (l.from === id || l.to === id) && cardIds.has(l.to) && household.people.some((p) => p.id === l.from),
        )
        .map((l) => `${l.from} ${l.to} ${l.type}`)
        .sort()
    const legendStroke = (type: string) =>
      page.$eval(`.hv-gn-link-legend .hv-gn-link-${type}`, (path) => getComputedStyle(path).stroke)

    await page.locator('.hv-gn-person[data-id="emily"]').click()
    const emily = await drawnLines(page)
    expect(emily.map((l) => `${l.person} ${l.entity} ${l.type}`).sort()).toEqual(expectedOf('emily'))
    expect(emily.length).toBeGreaterThan(0)
    // In the link type's colour, the one the legend shows for it; beneficiary and trustee differ.
    for (const line of emily) expect(line.stroke).toBe(await legendStroke(line.type))
    expect(new Set(emily.map((l) => l.stroke)).size).toBe(2)

    // Never through the tree: each line starts at the genogram frame's bottom edge under Emily's
    // column, runs only below it, at right angles, and ends on the top of its entity's card.
    const ends = await page.evaluate(() => {
      const frame = document.querySelector('.hv-genogram')!.getBoundingClientRect()
      const scroller = document.querySelector('.hv-gn-scroll')!
      const genogramBottom = scroller.getBoundingClientRect().top + scroller.clientTop + scroller.clientHeight
      const person = document.querySelector('.hv-gn-person[data-id="emily"] rect')!.getBoundingClientRect()
      return [...document.querySelectorAll<SVGPathElement>('.hv-gn-links path')].map((path) => {
        const numbers = (path.getAttribute('d') ?? '').match(/-?\d+(?:\.\d+)?/g)!.map(Number)
        const points = numbers
          .filter((_, k) => k % 2 === 0)
          .map((x, k) => [x + frame.left, numbers[2 * k + 1]! + frame.top] as const)
        const entity = document
          .querySelector(`.hv-gn-entity[data-id="${CSS.escape(path.dataset.entity ?? '')}"] rect`)!
          .getBoundingClientRect()
        const [first, last] = [points[0]!, points.at(-1)!]
        return {
          startY: first[1] - genogramBottom,
          startInside: first[0] >= person.left && first[0] <= person.right,
          belowTheTree: points.every(([, y]) => y >= genogramBottom - 1),
          rightAngles: points.slice(1).every(([x, y], k) => x === points[k]![0] || y === points[k]![1]),
          endY: last[1] - entity.top,
          endInside: last[0] >= entity.left && last[0] <= entity.right,
        }
      })
    })
    for (const end of ends) {
      expect(Math.abs(end.startY)).toBeLessThanOrEqual(1)
      expect(Math.abs(end.endY)).toBeLessThanOrEqual(1)
      expect(end.startInside && end.endInside && end.belowTheTree && end.rightAngles).toBe(true)
    }
    // The cards the lines reach are marked with their links' types, and only those.
    const marked = () =>
      page.$$eval('.hv-gn-entity', (groups) =>
        groups.flatMap((group) =>
          [...group.querySelector('rect')!.classList]
            .filter((name) => name.startsWith('hv-gn-marked-'))
            .map((name) => `${group.getAttribute('data-id')} ${name.slice('hv-gn-marked-'.length)}`),
        ),
      )
    expect((await marked()).sort()).toEqual([...new Set(emily.map((l) => `${l.entity} ${l.type}`))].sort())

    await page.locator('.hv-gn-person[data-id="david"]').click()
    const david = await drawnLines(page)
    expect(david.map((l) => `${l.person} ${l.entity} ${l.type}`).sort()).toEqual(expectedOf('david'))

    // An entity card is selectable like a person, and gets lines to its people.
    await page.locator('.hv-gn-entity[data-id="flp"]').focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => (window as unknown as GenogramTestWindow).selects.at(-1))).toEqual({
      id: 'flp',
      kind: 'entity',
    })
    expect(await page.locator('.hv-gn-entity[data-id="flp"]').getAttribute('class')).toContain('hv-selected')
    const flp = await drawnLines(page)
    expect(flp.map((l) => `${l.person} ${l.entity} ${l.type}`).sort()).toEqual(expectedOf('flp'))

    // A party is a pill, selectable, with no line; no selection, no line.
    await page.locator('.hv-gn-party[data-id="trustco"]').click()
    expect(await page.locator('.hv-gn-links path').count()).toBe(0)
    expect(await marked()).toEqual([])
    await page.locator('.hv-gn-person[data-id="emily"]').click()
    await page.evaluate(() => (window as unknown as GenogramTestWindow).view.selected(null))
    expect(await page.locator('.hv-gn-links path').count()).toBe(0)
    expect(await marked()).toEqual([])
  })

  it('draws and measures in the host font family, with the host corner radius', async () => {
    const page = await open('example', 'light', '&font=Georgia%2C%20serif&radius=12')
    expect(await page.locator('svg.hv-gn-svg').getAttribute('font-family')).toBe('Georgia, serif')
    expect(await page.locator('svg.hv-gn-strip').getAttribute('font-family')).toBe('Georgia, serif')
    expect(await page.locator('.hv-gn-person rect').first().getAttribute('rx')).toBe('12')
    expect(await page.locator('.hv-gn-entity rect').first().getAttribute('rx')).toBe('12')
    // The texts are fitted in the font they are drawn in: every one stays inside its card.
    for (const box of await shownBoxes(page))
      expect({ id: box.id, inside: box.overflow <= 0.5 }).toEqual({ id: box.id, inside: true })
    for (const card of await stripCards(page))
      expect({ id: card.id, inside: card.inside }).toEqual({ id: card.id, inside: true })
  })

  it('cuts a right-to-left name with its ellipsis on the left, its cut end, in the genogram and the strip', async () => {
    const page = await open('rtlLong')
    const cut = await page.$$eval('.hv-gn-person .hv-gn-name, .hv-gn-entity .hv-gn-name', (texts) =>
      texts.map((text) => {
        const element = text as SVGTextElement
        const content = element.textContent ?? ''
        const last = element.getNumberOfChars() - 1
        const card = element.parentElement!.querySelector('rect')!.getBoundingClientRect()
        const box = element.getBoundingClientRect()
        return {
          direction: element.getAttribute('direction'),
          cut: content.endsWith('…'),
          ellipsisLeftOfFirst: element.getStartPositionOfChar(last).x < element.getStartPositionOfChar(0).x,
          // Right-aligned: its start (the right edge) sits at the card's right padding.
          rightGap: card.right - box.right,
        }
      }),
    )
    expect(cut).toHaveLength(2)
    for (const name of cut) {
      expect(name).toEqual({ direction: 'rtl', cut: true, ellipsisLeftOfFirst: true, rightGap: expect.any(Number) })
      expect(name.rightGap).toBeGreaterThan(5)
      expect(name.rightGap).toBeLessThan(15)
    }
  })

  it.each([
    ['threeMarriages', 'light'],
    ['threeMarriages', 'dark'],
    ['fiveGenerations', 'light'],
    ['fiveGenerations', 'dark'],
    ['estate120m', 'light'],
    ['estate120m', 'dark'],
  ] as const)('passes axe-core on %s in the %s theme', async (name, theme) => {
    const page = await open(name, theme)
    expect(await seriousViolations(page)).toEqual([])
  })
})
