// The chart's kind table (chart/src/estate/entity-kinds.ts) is built from the records API's one
// declaration (src/domain/estate-vocabulary.ts): the two hold the same kinds with the same groups and
// estate defaults, and every kind of payload 0.1.x is still known.
import { describe, expect, it } from 'vitest'
import { ENTITY_KIND_RULES, entityKindRule, isPartyKind } from '../../chart/src/estate/entity-kinds.ts'
import { PAYLOAD_0_1_ENTITY_KINDS as CHART_0_1_KINDS } from '../../chart/payload.ts'
import { defaultEstateSide, ENTITY_KINDS, entityGroupOf, isParty } from '../../src/domain/estate-vocabulary.ts'

describe("the chart's entity kinds", () => {
  it('are the records API kinds, each with the same group and estate default', () => {
    expect(Object.keys(ENTITY_KIND_RULES).sort()).toEqual([...ENTITY_KINDS].sort())
    for (const kind of ENTITY_KINDS) {
      expect(entityKindRule(kind), kind).toEqual({ group: entityGroupOf(kind), estate: defaultEstateSide(kind) })
      expect(isPartyKind(kind), kind).toBe(isParty(kind))
    }
  })

  it('include every kind of payload 0.1.x', () => {
    for (const kind of CHART_0_1_KINDS) expect(entityKindRule(kind), kind).toBeDefined()
  })

  it('know nothing of a kind outside the table, including Object.prototype names', () => {
    expect(entityKindRule('spaceship')).toBeUndefined()
    expect(entityKindRule('toString')).toBeUndefined()
    expect(isPartyKind('toString')).toBe(false)
  })
})
