// The Estate view's totals table (chart/src/estate/estate-table.ts) on the shipped example and on a
// chain: each bucket's amount, the entities listed under it with what their own value contributes
// (so an owned entity's value is listed once, under that entity), the order and the labels.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Payload } from '../../chart/payload.ts'
import type { EstateInput } from '../../chart/src/estate/estate-input.ts'
import { lookThroughEstate } from '../../chart/src/estate/estate-lookthrough.ts'
import { estateTable } from '../../chart/src/estate/estate-table.ts'

const M = 1_000_000
const example = JSON.parse(readFileSync(new URL('../../chart/example.json', import.meta.url), 'utf8')) as Payload

describe('the Estate view totals table', () => {
  it('lists the example by bucket, each entity with what its own value contributes', () => {
    const table = estateTable(example, lookThroughEstate(example))
    // Joint 9.08M = the revocable trust's own 6.2M + 60 % of the LLC's 4.8M (2.88M), listed under the LLC.
    // Outside 10.42M = ILIT 5.0M + SLAT 3.5M + 40 % of the LLC (1.92M). No client has an estate of their own.
    expect(table.rows.map((row) => [row.bucket, row.label, Math.round(row.amount)])).toEqual([
      ['joint', 'Joint', 9.08 * M],
      ['outside', 'Outside the estate', 10.42 * M],
    ])
    const [joint, outside] = table.rows
    expect(joint?.entries.map((entry) => [entry.entityId, Math.round(entry.amount)])).toEqual([
      ['rlt', 6.2 * M],
      ['llc', 2.88 * M],
    ])
    expect(outside?.entries.map((entry) => [entry.entityId, Math.round(entry.amount)])).toEqual([
      ['ilit', 5 * M],
      ['slat', 3.5 * M],
      ['llc', 1.92 * M],
    ])
    // Every entry of a row adds up to the row: 6.2 + 2.88 = 9.08; 5 + 3.5 + 1.92 = 10.42.
    for (const row of table.rows) {
      expect(row.entries.reduce((sum, entry) => sum + entry.amount, 0)).toBeCloseTo(row.amount, 4)
    }
    expect(table.estateTotal).toBeCloseTo(9.08 * M, 4)
    expect(table.grandTotal).toBeCloseTo(19.5 * M, 4)
  })

  it("names each client's own estate, and lists a chain's values once, under the entity that holds them", () => {
    const household: EstateInput = {
      people: [
        { id: 'eliz', name: 'Elizabeth Park', role: 'primaryClient' },
        { id: 'will', name: 'William Park', role: 'coClient' },
      ],
      entities: [
        { id: 'flp', name: 'Park Family Limited Partnership', shortName: 'Park FLP', kind: 'flp', value: 1 * M },
        { id: 'llc', name: 'Park Ranch LLC', kind: 'llc', value: 4 * M },
        { id: 'home', name: 'Residence', kind: 'realEstate', value: 2 * M },
      ],
      links: [
        { from: 'eliz', to: 'flp', type: 'limitedPartner', share: 100 },
        { from: 'flp', to: 'llc', type: 'owner', share: 50 },
        { from: 'will', to: 'llc', type: 'owner', share: 50 },
        { from: 'will', to: 'home', type: 'owner', share: 100 },
      ],
    }
    const table = estateTable(household, lookThroughEstate(household))
    // Elizabeth: the FLP's own 1M + half the LLC's 4M through the FLP (2M) = 3M.
    // William: the other half of the LLC (2M) + the residence (2M) = 4M. Nothing is joint: they own
    // different entities (the LLC is not owned by both directly: Elizabeth's half comes through the FLP).
    expect(table.rows.map((row) => [row.label, Math.round(row.amount)])).toEqual([
      ["Elizabeth Park's estate", 3 * M],
      ["William Park's estate", 4 * M],
    ])
    expect(table.rows[0]?.entries.map((entry) => [entry.label, Math.round(entry.amount)])).toEqual([
      ['Park Ranch LLC', 2 * M],
      ['Park FLP', 1 * M],
    ])
    // The residence and the LLC are 2M each in William's row: equal amounts go by label.
    expect(table.rows[1]?.entries.map((entry) => entry.label)).toEqual(['Park Ranch LLC', 'Residence'])
    // 3 + 4 = 7M = 1 + 4 + 2: every value once.
    expect(table.estateTotal).toBeCloseTo(7 * M, 4)
    expect(table.grandTotal).toBeCloseTo(7 * M, 4)
  })

  it('leaves out empty buckets and entities without value', () => {
    const household: EstateInput = {
      people: [{ id: 'ann', name: 'Ann', role: 'primaryClient' }],
      entities: [
        { id: 'daf', name: 'Giving Fund', kind: 'daf', value: 250_000 },
        { id: 'empty', name: 'Empty LLC', kind: 'llc' },
      ],
    }
    const table = estateTable(household, lookThroughEstate(household))
    expect(table.rows).toEqual([
      {
        bucket: 'charity',
        label: 'Charity',
        amount: 250_000,
        entries: [{ entityId: 'daf', label: 'Giving Fund', amount: 250_000 }],
      },
    ])
    expect(table.estateTotal).toBe(0)
  })
})
