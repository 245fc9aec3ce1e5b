// `npm run bench:chart-geometry`: the geometry of today's chart (0.1.x layout and first view) on the
// shipped example, the chart 0.2.0 issue's five test households (downgraded to 0.1.x, as today's
// chart draws them) and a generated 500-person, 100-entity household. Prints a markdown table on
// stdout: the baseline 0.2.0 must beat (bench/RESULTS.md). Deterministic: no timing is measured.
import { readFileSync } from 'node:fs'
import type { Payload } from '../../chart/payload.ts'
import { layoutChart } from '../../chart/src/layout.ts'
import { generateHousehold } from './generate.ts'
import { downgrade, type HouseholdPayload } from './households/downgrade.ts'
import {
  countCrossings,
  cutTexts,
  drawnTextSizes,
  estateColumnAtOpen,
  firstView,
  linesThroughBoxes,
  type CutText,
} from './geometry.ts'

const FRAME_WIDTH = 1100
const HOUSEHOLDS = ['three-marriages', 'estate-120m', 'widow', 'five-generations', 'long-names']

const readJson = (url: URL): unknown => JSON.parse(readFileSync(url, 'utf8'))
interface Case {
  name: string
  payload: Payload
  /** The 0.2.0 household a case was downgraded from. */
  source?: HouseholdPayload
}
const cases: Case[] = [
  {
    name: 'example (chart/example.json)',
    payload: readJson(new URL('../../chart/example.json', import.meta.url)) as Payload,
  },
  ...HOUSEHOLDS.map((name): Case => {
    const source = readJson(new URL(`households/${name}.json`, import.meta.url)) as HouseholdPayload
    return { name, payload: downgrade(source), source }
  }),
  estateWithTrusteeAsOther(),
  { name: 'generated 500 people, 100 entities (seed 1)', payload: generateHousehold(500, 100, 1) },
]

const px = (v: number) => v.toFixed(1)
const rows: string[] = []
const cutLists: string[] = []
for (const { name, payload, source } of cases) {
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
function estateWithTrusteeAsOther(): Case {
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
