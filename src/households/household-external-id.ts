// A household's externalId names one household of its organization (the partial unique index
// households_org_external_id, migration 0015). The index decides, not a read before the write: two
// creates racing for one id cannot both pass. Its violation aborts the write's transaction, so the
// household that holds the id is read after it, and named in the refusal (409 with existingId), so
// that a sync job can switch to changing that household.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { findHouseholdByExternalId } from '../store/household-lookup.ts'
import { RuleViolation } from './rule-violation.ts'

/** A unique_violation of households_org_external_id (pg and PGlite both name the index in the message). */
export function violatesHouseholdExternalId(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '23505' && typeof message === 'string' && message.includes('households_org_external_id')
}

export function householdExternalIdTaken(
  externalId: string,
  existingId: string | undefined,
  field: string,
): RuleViolation {
  return new RuleViolation(
    'household_external_id_taken',
    `Another household of your organization already has externalId ${externalId}${existingId ? ` (${existingId})` : ''}; change that household, or send another id.`,
    field,
    existingId,
  )
}

/** Runs a write that may set a household's externalId; its violation of the index becomes household_external_id_taken. */
export async function guardingHouseholdExternalId<T>(
  db: Kysely<Database>,
  orgId: string,
  externalId: string | null | undefined,
  run: () => Promise<T>,
  field = '/externalId',
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (typeof externalId !== 'string' || !violatesHouseholdExternalId(error)) throw error
    const existing = await findHouseholdByExternalId(db, orgId, externalId)
    throw householdExternalIdTaken(externalId, existing?.id, field)
  }
}
