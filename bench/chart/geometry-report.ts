// `npm run bench:chart-geometry`: the geometry of the chart on the shipped example, the chart 0.2.0
// issue's five test households and a generated 500-person, 100-entity household (geometry-cases.ts).
// First 0.1.x's (today's layout and first view, the households downgraded to 0.1.x as it draws
// them): the baseline 0.2.0 must beat. Then 0.2.0's, drawn by its views in Chromium and read from the
// DOM (views-page.ts), each view at open and with a node focused: the figures whose targets
// test/browser/chart-geometry.test.ts asserts. Prints markdown on stdout (bench/RESULTS.md).
// Deterministic: no timing is measured.
import { readFileSync } from 'node:fs'
import { layoutChart } from '../../chart/src/layout.ts'
import { launchChromium } from '../../test/helpers/browser.ts'
import { MIN_TEXT_PX, measureDrawn, type DrawnFigures } from './drawn-geometry.ts'
import { geometryCases, type GeometryCase } from './geometry-cases.ts'
import { downgrade, type HouseholdPayload } from './households/downgrade.ts'
import { focusedNodes, focusNode, FRAME_WIDTH, readDrawnChart, startViewsPage, VIEWS } from './views-page.ts'
import {
  countCrossings,
  cutTexts,
  drawnTextSizes,
  estateColumnAtOpen,
  firstView,
  linesThroughBoxes,
  type CutText,
} from './geometry.ts'

const readJson = (url: URL): unknown => JSON.parse(readFileSync(url, 'utf8'))
const cases = geometryCases()
/** 0.1.x's cases: estate-120m once more with its corporate trustee drawn, before the generated one. */
const baselineCases: Pick<GeometryCase, 'name' | 'payload' | 'source'>[] = [
  ...cases.slice(0, -1),
  estateWithTrusteeAsOther(),
  ...cases.slice(-1),
]

const px = (v: number) => v.toFixed(1)
const rows: string[] = []
const cutLists: string[] = []
for (const { name, payload, source } of baselineCases) {
  const layout = layoutChart(payload)
  const crossings = countCrossings(layout)
  const view = firstView(layout, payload, FRAME_WIDTH)
  const text = drawnTextSizes(layout, view.scale)
  const cut = cutTexts(layout, payload)
  const cutFigures = cut.filter((c) => c.lost.length > 0)
  const column = estateColumnAtOpen(layout, view.view)
  const linkLines = layout.edges.filter((e) => e.kind === 'link' || e.kind === 'own').length
  rows.push(
    `| ${name} | ${payload.people.length} | ${drawnOf((payload.entities ?? []).length, source?.entities?.length)} | ` +
      `${drawnOf((payload.links ?? []).length, source?.links?.length)} | ${linkLines} | ` +
      `${layout.width} × ${layout.height} | ${crossings.linkLink} (${crossings.linkLinkPairs}) | ${crossings.familyLink} | ` +
      `${linesThroughBoxes(layout)} | ${view.fitScale.toFixed(3)} / ${view.scale.toFixed(3)}${view.windowed ? ' (window)' : ''} | ` +
      `${px(text.name)} / ${px(text.smallest)} | ${cut.length} (${cutFigures.length}) | ` +
      `${column.column === 'whole' && column.visible === column.entities ? 'whole' : `${column.column}: ${column.visible} of ${column.entities} boxes`} |`,
  )
  if (cutFigures.length) cutLists.push(`- ${name}: ${cutFigures.map(describeCut).join('; ')}`)
}

/**
 * estate-120m with its corporate trustee as kind `other`, the way 0.1.x payloads carry one (as
 * chart/example.json does): all 13 entities drawn, the trustee's links as entity-to-entity lines.
 */
function estateWithTrusteeAsOther(): Pick<GeometryCase, 'name' | 'payload' | 'source'> {
  const source = readJson(new URL('households/estate-120m.json', import.meta.url)) as HouseholdPayload
  const entities = (source.entities ?? []).map((e) =>
    e.kind === 'corporateTrustee' ? { ...e, kind: 'other' as const } : e,
  )
  return {
    name: 'estate-120m, corporate trustee as kind other',
    payload: downgrade({ ...source, entities }),
    source,
  }
}

/** "12 of 13" when the 0.2.0 household had more than 0.1.x draws. */
function drawnOf(drawn: number, of: number | undefined): string {
  return of === undefined || of === drawn ? String(drawn) : `${drawn} of ${of}`
}

function describeCut(c: CutText): string {
  return `${c.id} "${c.shown}" lost ${c.lost.join(', ')}`
}

console.log(
  `Frame width ${FRAME_WIDTH} CSS px; chart 0.1.x layouts (chart/src/layout.ts), first view as draw.ts opens it.`,
)
console.log('')
console.log(
  '| household | people | entities drawn | links drawn | link lines | layout w × h | link×link crossings: points (piece pairs) | family×link crossings | lines through a box | scale: fit / at open | names / smallest text px at open | cut labels (a share or year cut) | estate column at open |',
)
console.log('|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|---:|---|')
for (const row of rows) console.log(row)
if (cutLists.length) {
  console.log('')
  console.log('Shares and years cut:')
  for (const line of cutLists) console.log(line)
}

/** One view of one household in one state, measured. */
interface DrawnRow {
  household: string
  view: string
  state: string
  figures: DrawnFigures
  baselineLinkLink: number
}

async function drawnRows(): Promise<DrawnRow[]> {
  const page = await startViewsPage(cases)
  const browser = await launchChromium()
  const rows: DrawnRow[] = []
  try {
    for (const household of cases) {
      const baselineLinkLink = countCrossings(layoutChart(household.payload)).linkLink
      for (const view of VIEWS) {
        const opened = await page.open(browser, household.slug, view)
        const measure = async (state: string) => {
          const figures = measureDrawn(await readDrawnChart(opened))
          rows.push({ household: household.name, view, state, figures, baselineLinkLink })
        }
        await measure('at open')
        for (const node of focusedNodes(household.household)) {
          await focusNode(opened, node.id)
          await measure(`${node.id} focused`)
        }
        await opened.close()
      }
    }
  } finally {
    await browser.close()
    await page.close()
  }
  return rows
}

const drawn = await drawnRows()
console.log('')
console.log(
  `Chart 0.2.0's views in Chromium, page ${FRAME_WIDTH} CSS px wide, read from the DOM; 0.1.x's link×link points beside.`,
)
console.log('')
console.log(
  '| household | view | state | lines (link) | cards | link×link crossings: points (0.1.x; ≤ 10 %) | family×link crossings | lines through a card | smallest text px (under 11) | cut in a share or year |',
)
console.log('|---|---|---|---:|---:|---:|---:|---:|---:|---:|')
for (const { household, view, state, figures, baselineLinkLink } of drawn) {
  const allowed = Math.floor(baselineLinkLink * 0.1)
  console.log(
    `| ${household} | ${view} | ${state} | ${figures.lines} (${figures.linkLines}) | ${figures.boxes} | ` +
      `${figures.crossings.linkLink} (${baselineLinkLink}; ≤ ${allowed}${figures.crossings.linkLink > allowed ? ', missed' : ''}) | ` +
      `${figures.crossings.familyLink} | ${figures.linesThroughBoxes.length} | ` +
      `${Number.isFinite(figures.smallestPx) ? px(figures.smallestPx) : '–'} (${figures.smallTexts.length}) | ${figures.cutFigures.length} |`,
  )
}
console.log('')
console.log(`Where 0.2.0 misses a target (text under ${MIN_TEXT_PX} px; lines and cards by their classes and titles):`)
for (const { household, view, state, figures } of drawn) {
  const where = `- ${household}, ${view}, ${state}:`
  // Lines of one name (the Structure view's focus lines are titled by their type alone) are listed together.
  const through = new Map<string, Set<string>>()
  for (const { line, box } of figures.linesThroughBoxes) through.set(line, (through.get(line) ?? new Set()).add(box))
  for (const [line, boxes] of through) console.log(`${where} ${line} runs through ${[...boxes].join(', ')}`)
  for (const c of figures.crossingLines)
    if (c.kind === 'family×link') console.log(`${where} family×link: ${c.a} × ${c.b}`)
  for (const t of figures.smallTexts) console.log(`${where} ${t.element} "${t.text}" at ${px(t.px)} px`)
  for (const c of figures.cutFigures) console.log(`${where} ${c.box} "${c.shown}" lost ${c.lost.join(', ')}`)
}
