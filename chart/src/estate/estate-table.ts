// The Estate view's totals table (also the print layout's totals and the text version's "totals"
// group): one row per bucket with its amount and the entities whose own value lands in it, largest
// first, then the estate total and the grand total. Built on the look-through (estate-lookthrough.ts),
// so no value is listed twice: an entity is listed with what its *direct* value contributes to each
// bucket, and the value of an entity it owns is listed under that entity, not again under the owner.
import { ESTATE_BUCKETS, type EstateBucket } from './estate-buckets.ts'
import type { EstateInput } from './estate-input.ts'
import type { EstateLookThrough } from './estate-lookthrough.ts'

export interface EstateTableEntry {
  entityId: string
  /** The entity's short name when it has one, else its name. */
  label: string
  /** What the entity's direct value puts in this bucket. */
  amount: number
}

export interface EstateTableRow {
  bucket: EstateBucket
  /** "Robert Chen's estate", "Joint", "Outside the estate"… */
  label: string
  amount: number
  entries: EstateTableEntry[]
}

export interface EstateTable {
  /** Rows in ESTATE_BUCKETS order; a bucket with nothing in it is left out. */
  rows: EstateTableRow[]
  estateTotal: number
  grandTotal: number
}

/** Amounts below a cent are float dust from splitting shares, not holdings. */
const CENT = 0.005

function bucketLabel(bucket: EstateBucket, input: EstateInput): string {
  const clientName = (role: string) => input.people.find((person) => person.role === role)?.name
  switch (bucket) {
    case 'primaryClient': {
      const name = clientName('primaryClient')
      return name === undefined ? "The client's estate" : `${name}'s estate`
    }
    case 'coClient': {
      const name = clientName('coClient')
      return name === undefined ? "The co-client's estate" : `${name}'s estate`
    }
    case 'joint':
      return 'Joint'
    case 'unassigned':
      return 'In the estate, no client named'
    case 'outside':
      return 'Outside the estate'
    case 'charity':
      return 'Charity'
  }
}

/** The totals table of a household from its look-through. */
export function estateTable(input: EstateInput, estate: EstateLookThrough): EstateTable {
  const labelOf = new Map(input.entities?.map((entity) => [entity.id, entity.shortName ?? entity.name]) ?? [])
  const rows: EstateTableRow[] = []
  for (const bucket of ESTATE_BUCKETS) {
    const amount = estate.totals[bucket]
    if (amount < CENT) continue
    const entries: EstateTableEntry[] = []
    for (const [entityId, entity] of estate.entities) {
      if (entity.carriedValue <= 0) continue
      // The carried value's split, scaled to the direct value: every part of an entity's carried
      // value flows on through the same holders, so its direct value splits in the same proportions.
      const share = entity.buckets[bucket] * (entity.directValue / entity.carriedValue)
      if (share >= CENT) entries.push({ entityId, label: labelOf.get(entityId) ?? entityId, amount: share })
    }
    entries.sort((a, b) => b.amount - a.amount || a.label.localeCompare(b.label))
    rows.push({ bucket, label: bucketLabel(bucket, input), amount, entries })
  }
  return { rows, estateTotal: estate.estateTotal, grandTotal: estate.grandTotal }
}
