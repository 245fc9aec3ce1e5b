// The SDK's types, two ways.
//
// 1. The SDK (sdk/household-chart.ts) is one self-contained module, so it spells out the payload and
//    appearance types by hand; chart/payload.ts derives them from the schema the chart validates
//    against, and views/appearance.ts reads the appearance. The expectTypeOf assertions are checked
//    by `tsc -p test/browser` (part of `npm run typecheck`, which has the DOM types the SDK needs):
//    when the two drift apart, the type check fails. At run time they do nothing. Type-only imports:
//    the SDK module itself is never loaded in Node.
// 2. What a partner gets: the release's sdk.d.ts, as chart/build.ts generates it, compiled with a
//    consumer that uses every 0.2.0 call, option and event (no errors), and with one that misuses
//    them (the errors are reported: the declarations type the calls, they do not accept anything).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type {
  BeneficiaryType as SdkBeneficiaryType,
  ChartTheme,
  ChartView,
  EntityKind as SdkEntityKind,
  EstateProjection as SdkEstateProjection,
  EstateProjectionChoices,
  HouseholdChartAppearance,
  HouseholdChartEntity,
  HouseholdChartLink,
  HouseholdChartPayload,
  HouseholdChartPerson,
  HouseholdChartRelationship,
  LinkType as SdkLinkType,
  ParentKind as SdkParentKind,
} from '../../sdk/household-chart.ts'
import type { Entity, EntityKind, Link, LinkType, Payload, Person, Relationship, Theme } from '../../chart/payload.ts'
import type { Appearance } from '../../chart/src/views/appearance.ts'
import type { ViewName } from '../../chart/src/views/view-types.ts'
import type { EstateProjection } from '../../chart/src/flow/projection-types.ts'
import type { ProjectionChoices } from '../../chart/src/flow/project-estate.ts'
import { buildChartRelease } from '../../chart/build.ts'
import { CHART_VERSION } from '../../chart/version.ts'

describe('the SDK payload types', () => {
  it('are exactly the chart payload types (checked by tsc)', () => {
    expectTypeOf<HouseholdChartPayload>().toEqualTypeOf<Payload>()
    expectTypeOf<HouseholdChartPerson>().toEqualTypeOf<Person>()
    expectTypeOf<HouseholdChartRelationship>().toEqualTypeOf<Relationship>()
    expectTypeOf<HouseholdChartEntity>().toEqualTypeOf<Entity>()
    expectTypeOf<HouseholdChartLink>().toEqualTypeOf<Link>()
    expectTypeOf<ChartTheme>().toEqualTypeOf<Theme>()
    expectTypeOf<SdkEntityKind>().toEqualTypeOf<EntityKind>()
    expectTypeOf<SdkLinkType>().toEqualTypeOf<LinkType>()
    expectTypeOf<SdkParentKind>().toEqualTypeOf<NonNullable<Relationship['parentKind']>>()
    expectTypeOf<SdkBeneficiaryType>().toEqualTypeOf<NonNullable<Link['beneficiaryType']>>()
  })

  it("are exactly the chart's appearance and view names (checked by tsc)", () => {
    expectTypeOf<HouseholdChartAppearance>().toEqualTypeOf<Appearance>()
    expectTypeOf<ChartView>().toEqualTypeOf<ViewName>()
  })

  it("are exactly the chart's estate projection and its choices (checked by tsc)", () => {
    expectTypeOf<SdkEstateProjection>().toEqualTypeOf<EstateProjection>()
    expectTypeOf<EstateProjectionChoices>().toEqualTypeOf<ProjectionChoices>()
  })
})

/** A partner's code against the release's sdk.d.ts: every 0.2.0 and 0.3.0 call, option and event. */
const CONSUMER = `import { mountHouseholdChart, projectEstate, type ChartEvent, type ChartView, type EstateProjection, type HouseholdChartAppearance, type HouseholdChartPayload } from './sdk.js'

const appearance: HouseholdChartAppearance = { fontFamily: 'Inter, sans-serif', accentColor: '#0a6e5c', cornerRadius: 8 }
const chart = mountHouseholdChart({
  container: document.body,
  embedOrigin: 'https://embed.example',
  title: 'Household chart',
  fetchToken: async () => ({ token: 't', expiresAt: '2026-01-01T00:00:00Z' }),
  payload: {
    household: { name: 'Chen Family', currency: 'USD', asOf: '2026-01-01' },
    people: [{ id: 'robert', name: 'Robert Chen', role: 'primaryClient' }, { id: 'emily', name: 'Emily', role: 'child' }],
    relationships: [{ from: 'robert', to: 'emily', type: 'parent', parentKind: 'adopted' }],
    entities: [{ id: 'q', name: 'Marital trust', shortName: 'QTIP', kind: 'qtip', value: 1, valueAsOf: '2025-12-31' }],
    links: [{ from: 'emily', to: 'q', type: 'beneficiary', share: 50, beneficiaryType: 'remainder' }],
  },
  appearance,
  onEvent: (event: ChartEvent) => {
    if (event.type === 'viewchange') {
      const view: ChartView = event.view
      console.log(view)
    }
    if (event.type === 'error' && event.code === 'appearance_invalid') console.warn(event.message)
    if (event.type === 'estate') {
      const tax: number = event.projection.deaths[0]?.estateTax ?? 0
      console.log(tax)
    }
  },
})
const estatePayload: HouseholdChartPayload = {
  household: { name: 'Chen Family' },
  people: [{ id: 'robert', name: 'Robert Chen', role: 'primaryClient', usCitizen: true, dsueReceived: { amount: 1, portabilityElected: true } }],
  gifts: [{ donor: 'robert', taxableGifts: 2, exclusionUsed: 1 }],
  dispositions: [{ at: 'robert', to: 'robert-trust', formula: 'unusedExclusion' }],
  assumptions: { firstDeathYear: 2030, basicExclusion: 7000000, portabilityElected: false },
}
const projection: EstateProjection = projectEstate(estatePayload, { firstDeathYear: 2031 })
console.log(projection.recipients.map((recipient) => recipient.amount))
chart.setView('flow')
chart.setView('structure')
chart.focus('robert')
chart.print()
chart.setAppearance({ accentColor: '#7a3e9d' })
`

/** The same calls, misused: each line is an error the declarations must report. */
const MISUSE = `import { mountHouseholdChart, projectEstate } from './sdk.js'

declare const chart: ReturnType<typeof mountHouseholdChart>
chart.setView('timeline')
chart.focus(42)
chart.setAppearance({ accentColour: '#7a3e9d' })
chart.setAppearance({ cornerRadius: '8px' })
projectEstate({ household: { name: 'x' }, people: [] }, { firstDeathYear: '2030' })
`

let declarations: Promise<Uint8Array> | undefined
/** The release's sdk.d.ts, built once for both tests. */
function releasedDeclarations(): Promise<Uint8Array> {
  declarations ??= buildChartRelease(CHART_VERSION).then((release) => release.get('sdk.d.ts')!)
  return declarations
}

/** Type-checks `source` beside the release's sdk.d.ts, as a partner's strict project would. */
async function compileAgainstRelease(source: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hearth-sdk-types-'))
  try {
    await writeFile(path.join(dir, 'sdk.d.ts'), await releasedDeclarations())
    const consumer = path.join(dir, 'consumer.ts')
    await writeFile(consumer, source)
    const program = ts.createProgram([consumer], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    })
    return ts
      .getPreEmitDiagnostics(program)
      .map(
        (diagnostic) =>
          `${diagnostic.file ? path.basename(diagnostic.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
      )
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe("the release's sdk.d.ts", () => {
  it('types every 0.2.0 and 0.3.0 call, option and event for a consumer', async () => {
    expect(await compileAgainstRelease(CONSUMER)).toEqual([])
  })

  it('reports their misuse', async () => {
    const errors = await compileAgainstRelease(MISUSE)
    expect(errors).toHaveLength(5)
    expect(errors.every((error) => error.startsWith('consumer.ts: '))).toBe(true)
    expect(errors[0]).toContain('"timeline"')
    expect(errors[2]).toContain('accentColour')
    expect(errors[4]).toContain("Type 'string' is not assignable to type 'number'")
  })
})
