// Creating, changing and deleting a household: the rules of its fields, the transaction, the audit
// entry, the version claim (If-Match) and, for a create, the Idempotency-Key. Refusals are thrown
// as RuleViolation (see rule-violation.ts).
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { CreateHouseholdBody, Household, UpdateHouseholdBody } from '../schemas/household.ts'
import { checkCreateBody, checkPatchBody, type FieldProblem, type HouseholdFields } from './household-fields.ts'
import { insertAuditedHousehold } from '../store/households.ts'
import { deleteHouseholdRow, type ExpectedVersions, type HouseholdJson } from '../store/household-record.ts'
import { claimIdempotencyKey, completeIdempotencyKey } from '../store/idempotency.ts'
import { recordAudit } from '../store/audit.ts'
import { writeHousehold } from './household-write.ts'
import { appendEvents, readHouseholdAppendingEvents } from '../store/events.ts'
import { jsonPointer } from '../domain/json-pointer.ts'
import { canonicalJson } from '../domain/canonical-json.ts'
import { householdNotFound, RuleViolation } from './rule-violation.ts'
import { guardingHouseholdExternalId } from './household-external-id.ts'

function refusedField(problem: FieldProblem): RuleViolation {
  return new RuleViolation('invalid_body', problem.message, jsonPointer(problem.field))
}

export interface CreateHouseholdInput {
  body: CreateHouseholdBody
  /** With a key, the same body again within 24 hours replays the first answer instead of creating another. */
  idempotencyKey?: string | undefined
  /** Where the new household is read (it depends on the path prefix the request came on; a replay repeats it). */
  locationOf: (id: string) => string
}

export interface CreatedHousehold {
  /** `replay`: an earlier request with the same Idempotency-Key and body created it. */
  kind: 'created' | 'replay'
  body: { household: Household }
  location: string
}

export async function createHousehold(
  db: Kysely<Database>,
  principal: Principal,
  input: CreateHouseholdInput,
): Promise<CreatedHousehold> {
  const checked = checkCreateBody(input.body)
  if (!checked.ok) throw refusedField(checked)
  // The audit names the fields the body set (not those that took a default, such as currency).
  const changed = Object.entries(input.body)
    .filter(([, value]) => value !== null)
    .map(([key]) => key)
    .sort()
  const { orgId } = principal
  return guardingHouseholdExternalId(db, orgId, checked.fields.externalId, () =>
    insertHouseholdOnce(db, principal, input, checked.fields, changed),
  )
}

async function insertHouseholdOnce(
  db: Kysely<Database>,
  principal: Principal,
  input: CreateHouseholdInput,
  fields: HouseholdFields,
  changed: readonly string[],
): Promise<CreatedHousehold> {
  const { orgId } = principal
  const key = input.idempotencyKey
  if (!key) {
    const household = await insertAuditedHousehold(db, principal, fields, changed)
    return { kind: 'created', body: { household }, location: input.locationOf(household.id) }
  }
  const requestHash = createHash('sha256').update(canonicalJson(input.body)).digest('hex')
  return db.transaction().execute(async (trx) => {
    const claim = await claimIdempotencyKey(trx, orgId, key, requestHash)
    if (claim.state === 'conflict') {
      throw new RuleViolation(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different body; use a new key for a new household.',
      )
    }
    if (claim.state === 'replay') {
      return { kind: 'replay', body: claim.response as { household: Household }, location: claim.location ?? '' }
    }
    const household = await insertAuditedHousehold(trx, principal, fields, changed)
    const body = { household }
    const location = input.locationOf(household.id)
    await completeIdempotencyKey(trx, orgId, key, body, location)
    return { kind: 'created', body, location }
  })
}

export interface UpdateHouseholdInput {
  id: string
  /** The versions the caller read (If-Match), or '*'. */
  expected: ExpectedVersions
  /** A JSON merge patch of the household's fields. */
  patch: UpdateHouseholdBody
}

/** Applies the patch; answers the household as JSON with its new version. */
export async function updateHousehold(
  db: Kysely<Database>,
  principal: Principal,
  input: UpdateHouseholdInput,
): Promise<HouseholdJson> {
  const checked = checkPatchBody(input.patch)
  if (!checked.ok) throw refusedField(checked)
  const { orgId } = principal
  const { id } = input
  const written = await guardingHouseholdExternalId(db, orgId, checked.fields.externalId, () =>
    writeHousehold(db, { orgId, id, expected: input.expected, changes: checked.fields }, async (trx) => {
      await recordAudit(trx, {
        actor: principal,
        action: 'household.update',
        householdId: id,
        changed: Object.keys(checked.fields),
      })
      return readHouseholdAppendingEvents(trx, orgId, id, [{ type: 'household.updated' }])
    }),
  )
  if (!written.value) throw householdNotFound()
  return written.value
}

export interface DeleteHouseholdInput {
  id: string
  expected: ExpectedVersions
}

/** Deletes the household with its members, their kinships and its assignments. */
export async function deleteHousehold(
  db: Kysely<Database>,
  principal: Principal,
  input: DeleteHouseholdInput,
): Promise<void> {
  const { id } = input
  await writeHousehold(db, { orgId: principal.orgId, id, expected: input.expected }, async (trx) => {
    await deleteHouseholdRow(trx, id)
    await recordAudit(trx, { actor: principal, action: 'household.delete', householdId: id, changed: [] })
    await appendEvents(trx, { orgId: principal.orgId, householdId: id, events: [{ type: 'household.deleted' }] })
  })
}
