// Every change to a household runs here: one transaction that first claims the version the caller
// read (If-Match), then does its work. A RuleViolation thrown by the work rolls everything back.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { claimHouseholdVersion, type ExpectedVersions } from '../store/household-record.ts'
import type { HouseholdFields } from './household-fields.ts'
import { householdNotFound, staleHousehold } from './rule-violation.ts'

export interface HouseholdWriteTarget {
  orgId: string
  id: string
  expected: ExpectedVersions
  /** Changes to the household's own fields, set in the same UPDATE that claims the version. */
  changes?: Partial<HouseholdFields>
}

/** The work's value and the household's new version. */
export interface Written<T> {
  value: T
  version: number
}

export function writeHousehold<T>(
  db: Kysely<Database>,
  target: HouseholdWriteTarget,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<Written<T>> {
  return db.transaction().execute(async (trx) => {
    const gate = await claimHouseholdVersion(trx, target.orgId, target.id, target.expected, target.changes)
    if (!gate.ok) throw gate.reason === 'stale' ? staleHousehold() : householdNotFound()
    return { value: await work(trx), version: gate.version }
  })
}
