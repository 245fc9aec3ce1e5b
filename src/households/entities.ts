// Adding, changing and removing a household's entities (trusts, business entities, charities,
// holdings, parties), with their valuation history. Entities are part of the household: every
// change claims the household's version, so it moves its ETag. Refusals are thrown as
// RuleViolation (see rule-violation.ts); their `field` points into the entity's body.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Principal } from '../auth/principal.ts'
import type { CreateEntityBody, Entity, UpdateEntityBody } from '../schemas/entity.ts'
import { ESTATE_LIMITS, isParty } from '../domain/estate-vocabulary.ts'
import { checkEntityCreate, checkEntityPatch, type EntityFieldName, type EntityFields } from './entity-fields.ts'
import type { FieldProblem } from './field-declaration.ts'
import {
  deleteEntity as deleteEntityRow,
  entityCount,
  externalIdTaken,
  insertEntity,
  readEntityFields,
  readEntityJson,
  readHouseholdEntitiesJson,
  updateEntity as updateEntityRow,
  type EntityJson,
} from '../store/entities.ts'
import { recordValuation } from '../store/entity-valuations.ts'
import type { ExpectedVersions } from '../store/household-record.ts'
import { recordAudit } from '../store/audit.ts'
import { writeHousehold, type Written } from './household-write.ts'
import { checkKindKeepsLinks } from './entity-links.ts'
import { entityNotFound, householdNotFound, RuleViolation } from './rule-violation.ts'
import { appendEvents } from '../store/events.ts'
import { linkDeletedEvents } from '../events/removed-links.ts'
import { linkIdsOf } from '../store/entity-links.ts'

/** As many entities as one chart can draw. */
export const ENTITIES_MAX = ESTATE_LIMITS.entities

/** What a party cannot have, in the order a refusal names them. */
const PARTY_HELD: readonly EntityFieldName[] = ['value', 'valueAsOf', 'estate']

function refusedField(problem: FieldProblem<EntityFieldName>): RuleViolation {
  return new RuleViolation('invalid_body', problem.message, `/${problem.field}`)
}

/**
 * A party (corporate trustee, attorney's firm) with a value, valueAsOf or estate: refused,
 * pointing at the field the body sent when it sent one (else at kind, which made it a party).
 */
export function partyValue(fields: EntityFields, sent: readonly string[]): RuleViolation | undefined {
  if (!isParty(fields.kind)) return undefined
  const held = PARTY_HELD.filter((name) => fields[name] !== null)
  if (held.length === 0) return undefined
  const named = held.find((name) => sent.includes(name)) ?? (sent.includes('kind') ? 'kind' : held[0])
  return new RuleViolation(
    'entity_party_value',
    `A ${fields.kind} is a party: it holds no value and is never in an estate. Send value, valueAsOf and estate as null (or leave them out), or choose a kind that holds value.`,
    `/${named}`,
  )
}

function externalIdTakenViolation(externalId: string): RuleViolation {
  return new RuleViolation(
    'entity_external_id_taken',
    `Another entity of this household has externalId ${externalId}; send another one, or change that entity's first.`,
    '/externalId',
  )
}

/** A unique_violation of entities_external_id (pg and PGlite both name the index in the message). */
function violatesExternalIdIndex(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return code === '23505' && typeof message === 'string' && message.includes('entities_external_id')
}

/**
 * Runs an entity write; an externalId taken by a write that got past the check (one that does
 * not hold the household lock, such as a bulk load) is still entity_external_id_taken, not a 500.
 */
async function guardingExternalId<T>(run: () => Promise<T>, externalId: string | null | undefined): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (typeof externalId === 'string' && violatesExternalIdIndex(error)) throw externalIdTakenViolation(externalId)
    throw error
  }
}

export interface CreateEntityInput {
  householdId: string
  /** The household's versions the caller read (If-Match), or '*' when it sent none. */
  expected: ExpectedVersions
  body: CreateEntityBody
}

export interface CreatedEntity {
  entityId: string
  entity: EntityJson
  /** The household's new version. */
  version: number
}

export async function createEntity(
  db: Kysely<Database>,
  principal: Principal,
  input: CreateEntityInput,
): Promise<CreatedEntity> {
  const { householdId, body } = input
  const checked = checkEntityCreate(body)
  if (!checked.ok) throw refusedField(checked)
  const fields = checked.fields
  const party = partyValue(fields, Object.keys(body))
  if (party) throw party
  const { orgId } = principal
  const written = await guardingExternalId(
    () =>
      writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
        if ((await entityCount(trx, householdId)) >= ENTITIES_MAX) {
          throw new RuleViolation(
            'household_entities_limit',
            `A household has at most ${ENTITIES_MAX} entities; remove one before adding another.`,
            '',
          )
        }
        if (fields.externalId !== null && (await externalIdTaken(trx, householdId, fields.externalId)))
          throw externalIdTakenViolation(fields.externalId)
        const entityId = await insertEntity(trx, householdId, fields)
        if (fields.value !== null)
          await recordValuation(trx, householdId, entityId, { value: fields.value, valueAsOf: fields.valueAsOf })
        const changed = (Object.keys(fields) as EntityFieldName[]).filter((name) => fields[name] !== null)
        await recordAudit(trx, { actor: principal, action: 'entity.create', householdId, entityId, changed })
        const entity = await readEntityJson(trx, orgId, householdId, entityId)
        if (entity)
          await appendEvents(trx, {
            orgId,
            householdId,
            events: [{ type: 'entity.created', resources: { entity: entity.body } }],
          })
        return { entityId, entity }
      }),
    fields.externalId,
  )
  if (!written.value.entity) throw householdNotFound()
  return { entityId: written.value.entityId, entity: written.value.entity, version: written.version }
}

export interface UpdateEntityInput {
  householdId: string
  entityId: string
  expected: ExpectedVersions
  /** A JSON merge patch of the entity's fields. */
  patch: UpdateEntityBody
}

/** Applies the patch (and records a valuation when value or valueAsOf changes); answers the entity with the household's new version. */
export async function updateEntity(
  db: Kysely<Database>,
  principal: Principal,
  input: UpdateEntityInput,
): Promise<Written<EntityJson>> {
  const { householdId, entityId, patch } = input
  // Each sent field's own rules, before taking the household's lock; the rules between fields on the merged entity inside.
  const checked = checkEntityPatch(patch)
  if (!checked.ok) throw refusedField(checked)
  const changes = checked.fields
  const sent = Object.keys(patch)
  const { orgId } = principal
  const written = await guardingExternalId(
    () =>
      writeHousehold(db, { orgId, id: householdId, expected: input.expected }, async (trx) => {
        const current = await readEntityFields(trx, householdId, entityId)
        if (!current) throw entityNotFound()
        const merged: EntityFields = { ...current, ...changes }
        const party = partyValue(merged, sent)
        if (party) throw party
        if (merged.kind !== current.kind) await checkKindKeepsLinks(trx, entityId, merged.kind)
        if (
          merged.externalId !== null &&
          merged.externalId !== current.externalId &&
          (await externalIdTaken(trx, householdId, merged.externalId, entityId))
        )
          throw externalIdTakenViolation(merged.externalId)
        await updateEntityRow(trx, entityId, changes)
        if (merged.value !== current.value || merged.valueAsOf !== current.valueAsOf)
          await recordValuation(trx, householdId, entityId, { value: merged.value, valueAsOf: merged.valueAsOf })
        await recordAudit(trx, { actor: principal, action: 'entity.update', householdId, entityId, changed: sent })
        const entity = await readEntityJson(trx, orgId, householdId, entityId)
        if (entity)
          await appendEvents(trx, {
            orgId,
            householdId,
            events: [{ type: 'entity.updated', resources: { entity: entity.body } }],
          })
        return entity
      }),
    patch.externalId,
  )
  if (!written.value) throw entityNotFound()
  return { value: written.value, version: written.version }
}

export interface DeleteEntityInput {
  householdId: string
  entityId: string
  expected: ExpectedVersions
}

/** Removes the entity with its links and valuations; answers the household's new version. */
export async function deleteEntity(
  db: Kysely<Database>,
  principal: Principal,
  input: DeleteEntityInput,
): Promise<{ version: number }> {
  const { householdId, entityId } = input
  const written = await writeHousehold(
    db,
    { orgId: principal.orgId, id: householdId, expected: input.expected },
    async (trx) => {
      const links = await linkIdsOf(trx, householdId, entityId)
      if (!(await deleteEntityRow(trx, householdId, entityId))) throw entityNotFound()
      await recordAudit(trx, { actor: principal, action: 'entity.delete', householdId, entityId, changed: [] })
      await appendEvents(trx, {
        orgId: principal.orgId,
        householdId,
        events: [
          { type: 'entity.deleted', resources: { entityId: JSON.stringify(entityId) } },
          ...linkDeletedEvents(links),
        ],
      })
    },
  )
  return { version: written.version }
}

/**
 * The household's entities as the API answers them, in the order they were added. For a caller
 * that has checked the household is the organization's (the chart, inside its transaction).
 */
export async function listEntities(db: Kysely<Database>, householdId: string): Promise<Entity[]> {
  return JSON.parse(await readHouseholdEntitiesJson(db, householdId)) as Entity[]
}
