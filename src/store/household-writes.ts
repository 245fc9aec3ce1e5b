// Every change to a household runs here: one transaction that first claims the version the caller
// read (If-Match), then does its work. A refusal thrown by the work rolls everything back.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { claimHouseholdVersion, type ExpectedVersions } from './household-record.ts'
import type { HouseholdFields } from '../domain/household-input.ts'

export type WriteOutcome<T> = { ok: true; value: T; version: number } | { ok: false; reason: 'not_found' | 'stale' }

export function writeHousehold<T>(
  db: Kysely<Database>,
  /** `changes` to the household's own fields are set in the same UPDATE that claims the version. */
  target: { orgId: string; id: string; expected: ExpectedVersions; changes?: Partial<HouseholdFields> },
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<WriteOutcome<T>> {
  return db.transaction().execute(async (trx) => {
    const gate = await claimHouseholdVersion(trx, target.orgId, target.id, target.expected, target.changes)
    if (!gate.ok) return gate
    return { ok: true, value: await work(trx), version: gate.version }
  })
}
