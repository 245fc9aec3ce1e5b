// Writing a household whole from a document keyed by the partner's own ids (PUT
// …/by-external-id/{externalId}, and each line of an import): create it when no household of the
// organization has the externalId, else replace it — members and entities matched by externalId
// keep their ids, missing ones are created, others deleted (document-plan.ts decides, with every
// rule of the records). One transaction (writeHousehold for a replace), with its audit entry and a
// household.replaced event carrying the household whole.
//
// The same document again changes nothing: the household keeps the SHA-256 of the document that
// last wrote it and the version that write gave it, and a document with that hash, while the
// household is still at that version, is `unchanged` — no transaction, no event. Any other write
// (a PATCH, a member added) moves the version, so the next document is written in full even if it
// is the same text.
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { HouseholdDocument } from '../schemas/household-document.ts'
import type { ExpectedVersions } from '../store/household-record.ts'
import { readHouseholdJson } from '../store/household-record.ts'
import { householdPartsJson } from '../store/household-document.ts'
import { findHouseholdByExternalId, recordDocument } from '../store/household-lookup.ts'
import { insertDocumentHousehold, readDocumentTarget, writeDocumentRows } from '../store/document-write.ts'
import { recordAudit, type AuditActor } from '../store/audit.ts'
import { appendEvents } from '../store/events.ts'
import { canonicalJson } from '../domain/canonical-json.ts'
import { planDocument, type DocumentPlan } from './document-plan.ts'
import { writeHousehold } from './household-write.ts'
import { householdExternalIdTaken, violatesHouseholdExternalId } from './household-external-id.ts'
import { householdNotFound, RuleViolation, staleHousehold } from './rule-violation.ts'

/** Bumped when what a document means changes, so that no stored hash claims a document written under other rules. */
const DOCUMENT_RULES = 'household-document/1'

export interface PutDocumentInput {
  externalId: string
  document: HouseholdDocument
  /**
   * `put`: HTTP PUT's preconditions — a replace needs `ifMatch` (428 without it), `createOnly`
   * (If-None-Match: *) refuses one. `import`: create or replace, whatever the version.
   */
  mode: 'put' | 'import'
  ifMatch?: ExpectedVersions | undefined
  createOnly?: boolean
  /** Runs in the write's transaction once the household is written (an import records its line's result). */
  alsoInTransaction?:
    | ((trx: Kysely<Database>, written: { kind: 'created' | 'updated'; householdId: string }) => Promise<void>)
    | undefined
  /** Whether to answer the household whole (PUT does; an import does not need it). */
  answerWhole?: boolean
}

export interface PutDocumentResult {
  kind: 'created' | 'updated' | 'unchanged'
  householdId: string
  version: number
  /** {household, members, entities, links} as JSON text, when asked for. */
  whole?: string
}

/** The hash a document is recognized by: its canonical JSON under the current rules. */
export function documentHash(document: HouseholdDocument): string {
  return createHash('sha256').update(DOCUMENT_RULES).update('\n').update(canonicalJson(document)).digest('hex')
}

function preconditionFailed(message: string): RuleViolation {
  return new RuleViolation('precondition_failed', message)
}

/** The audit's `changed`: the household fields the document sets and the parts it has (an import's batch records it too). */
export function changedOf(plan: DocumentPlan): string[] {
  const fields = Object.entries(plan.household)
    .filter(([, value]) => value !== null)
    .map(([name]) => name)
  const parts: [string, number][] = [
    ['members', plan.members.length + plan.deleteMemberIds.length],
    ['relationships', plan.kinships.length],
    ['entities', plan.entities.length + plan.deleteEntityIds.length],
    ['links', plan.links.length],
  ]
  return [...fields, ...parts.filter(([, n]) => n > 0).map(([name]) => name)]
}

/**
 * Appends household.replaced with the household whole, and records the document as the one that
 * gave the household its version (only while it keeps that version may the same document be
 * `unchanged`). Answers the whole as JSON text.
 */
async function emitReplaced(
  trx: Kysely<Database>,
  orgId: string,
  householdId: string,
  /** Undefined when the household was inserted with it. */
  hash: string | undefined,
): Promise<string> {
  const household = await readHouseholdJson(trx, orgId, householdId)
  if (!household) throw householdNotFound()
  const parts = await householdPartsJson(trx, orgId, householdId)
  await appendEvents(trx, {
    orgId,
    householdId,
    householdJson: household.body,
    events: [{ type: 'household.replaced', resources: parts }],
  })
  if (hash !== undefined) await recordDocument(trx, householdId, hash, household.version)
  return `{"household":${household.body},"members":${parts.members},"entities":${parts.entities},"links":${parts.links}}`
}

/** The household whole as JSON text, read in one transaction (for an unchanged PUT, which writes nothing). */
async function readWhole(db: Kysely<Database>, orgId: string, householdId: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const household = await readHouseholdJson(trx, orgId, householdId)
    if (!household) throw householdNotFound()
    const parts = await householdPartsJson(trx, orgId, householdId)
    return `{"household":${household.body},"members":${parts.members},"entities":${parts.entities},"links":${parts.links}}`
  })
}

async function create(
  db: Kysely<Database>,
  principal: AuditActor,
  input: PutDocumentInput,
  plan: DocumentPlan,
  hash: string,
): Promise<PutDocumentResult> {
  const { orgId } = principal
  return db.transaction().execute(async (trx) => {
    const { id, version } = await insertDocumentHousehold(trx, orgId, plan.household, hash)
    await writeDocumentRows(trx, id, plan, true)
    await recordAudit(trx, { actor: principal, action: 'household.create', householdId: id, changed: changedOf(plan) })
    const whole = await emitReplaced(trx, orgId, id, undefined)
    await input.alsoInTransaction?.(trx, { kind: 'created', householdId: id })
    return { kind: 'created' as const, householdId: id, version, ...(input.answerWhole ? { whole } : {}) }
  })
}

async function replace(
  db: Kysely<Database>,
  principal: AuditActor,
  input: PutDocumentInput,
  householdId: string,
  expected: ExpectedVersions,
  household: DocumentPlan['household'],
  hash: string,
): Promise<PutDocumentResult> {
  const { orgId } = principal
  const written = await writeHousehold(db, { orgId, id: householdId, expected, changes: household }, async (trx) => {
    // Planned again under the household's lock, against the rows it holds now.
    const plan = await planDocument(input.document, await readDocumentTarget(trx, householdId))
    await writeDocumentRows(trx, householdId, plan, false)
    await recordAudit(trx, { actor: principal, action: 'household.replace', householdId, changed: changedOf(plan) })
    const whole = await emitReplaced(trx, orgId, householdId, hash)
    await input.alsoInTransaction?.(trx, { kind: 'updated', householdId })
    return whole
  })
  return {
    kind: 'updated',
    householdId,
    version: written.version,
    ...(input.answerWhole ? { whole: written.value } : {}),
  }
}

/**
 * Creates or replaces the household whose externalId is `input.externalId` with the document
 * (valid against HouseholdDocument; its externalId, when it has one, is the path's). Refusals are
 * thrown as RuleViolation.
 */
export async function putHouseholdDocument(
  db: Kysely<Database>,
  principal: AuditActor,
  input: PutDocumentInput,
): Promise<PutDocumentResult> {
  const { externalId } = input
  const document: HouseholdDocument = { ...input.document, externalId }
  const hash = documentHash(document)
  // Every rule that needs no stored row, before any is read: a refused document costs no query.
  const early = await planDocument(document, { members: [], entities: [] })
  for (let attempt = 0; ; attempt++) {
    const existing = await findHouseholdByExternalId(db, principal.orgId, externalId)
    if (!existing) {
      if (input.mode === 'put' && input.ifMatch !== undefined)
        throw preconditionFailed(
          `No household of your organization has externalId ${externalId}, so If-Match names none: send the document without If-Match to create it.`,
        )
      try {
        return await create(db, principal, { ...input, document }, early, hash)
      } catch (error) {
        // Another write took the externalId meanwhile: go again, and find it.
        if (violatesHouseholdExternalId(error) && attempt === 0) continue
        if (violatesHouseholdExternalId(error)) throw householdExternalIdTaken(externalId, undefined, '/externalId')
        throw error
      }
    }
    let expected: ExpectedVersions = '*'
    if (input.mode === 'put') {
      if (input.createOnly)
        throw preconditionFailed(
          `A household of your organization already has externalId ${externalId} (If-None-Match: * creates only): read it, then replace it with its ETag in If-Match.`,
        )
      if (input.ifMatch === undefined)
        throw new RuleViolation(
          'precondition_required',
          `A household of your organization already has externalId ${externalId}: replacing it needs If-Match with its ETag (or *), so that no change is lost.`,
        )
      expected = input.ifMatch
      if (expected !== '*' && !expected.includes(existing.version)) throw staleHousehold()
    }
    if (existing.documentHash === hash && existing.documentVersion === existing.version)
      return {
        kind: 'unchanged',
        householdId: existing.id,
        version: existing.version,
        ...(input.answerWhole ? { whole: await readWhole(db, principal.orgId, existing.id) } : {}),
      }
    return replace(db, principal, { ...input, document }, existing.id, expected, early.household, hash)
  }
}
