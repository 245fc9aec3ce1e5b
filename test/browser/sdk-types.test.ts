// The SDK (sdk/household-chart.ts) is one self-contained module, so it spells out the payload types
// by hand; chart/payload.ts derives them from the schema the chart validates against. These
// assertions are checked by `tsc -p test/browser` (part of `npm run typecheck`, which has the DOM
// types the SDK needs): when the two drift apart, the type check fails. At run time they do nothing.
// Type-only imports: the SDK module itself is never loaded in Node.
import { describe, expectTypeOf, it } from 'vitest'
import type {
  ChartTheme,
  EntityKind as SdkEntityKind,
  HouseholdChartEntity,
  HouseholdChartLink,
  HouseholdChartPayload,
  HouseholdChartPerson,
  HouseholdChartRelationship,
} from '../../sdk/household-chart.ts'
import type { Entity, EntityKind, Link, Payload, Person, Relationship, Theme } from '../../chart/payload.ts'

describe('the SDK payload types', () => {
  it('are exactly the chart payload types (checked by tsc)', () => {
    expectTypeOf<HouseholdChartPayload>().toEqualTypeOf<Payload>()
    expectTypeOf<HouseholdChartPerson>().toEqualTypeOf<Person>()
    expectTypeOf<HouseholdChartRelationship>().toEqualTypeOf<Relationship>()
    expectTypeOf<HouseholdChartEntity>().toEqualTypeOf<Entity>()
    expectTypeOf<HouseholdChartLink>().toEqualTypeOf<Link>()
    expectTypeOf<ChartTheme>().toEqualTypeOf<Theme>()
    expectTypeOf<SdkEntityKind>().toEqualTypeOf<EntityKind>()
  })
})
