// A claimed batch of import lines, processed set-based where it can be: every line is checked in
// memory first, exactly as one line alone is (import-line.ts checkLine, then the document's plan:
// the same codes and JSON Pointers, a line that fails fails alone), the households the lines name
// are looked up at once, and then ONE transaction records every line's result and writes all the
// new households (store/document-batch-write.ts). That is the common case of a first import, and
// it costs a few statements per batch instead of about 16 per line.
//
// What is left to the per-line path (import-line.ts processLine), after the batch:
// - a line whose household exists and whose document changed (an update: planned against the
//   household's rows, under its lock);
// - the whole batch again, line by line, when its transaction fails for any reason but a lost
//   connection: a household created meanwhile under one of its externalIds (the unique index
//   refuses the INSERT), another file's batch, a bug. Nothing of the failed transaction remains,
//   and each line then gets its own precise result.
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { databaseFault } from '../store/database-faults.ts'
import { LineClaimLost, recordLines, type ClaimedLine, type LineOutcome } from '../store/imports.ts'
import { findHouseholdsByExternalIds } from '../store/household-lookup.ts'
import { insertDocumentHouseholds, type NewDocumentHousehold } from '../store/document-batch-write.ts'
import { changedOf, documentHash } from '../households/household-document.ts'
import { planDocument, type DocumentPlan } from '../households/document-plan.ts'
import { RuleViolation } from '../households/rule-violation.ts'
import { violatesHouseholdExternalId } from '../households/household-external-id.ts'
import { checkLine } from './import-line.ts'

const NOTHING_YET = { members: [], entities: [] } as const

/** How many lines are checked between two turns of the event loop (requests are served meanwhile). */
const CHECKED_PER_TURN = 25

/** A line with a valid document: its externalId, hash, and plan as a new household. */
interface PlannedLine {
  claimed: ClaimedLine
  externalId: string
  hash: string
  plan: DocumentPlan
}

/** The lines of one import, checked: results known without writing, lines with a plan, and lines for the per-line path. */
interface CheckedLines {
  settled: LineOutcome[]
  planned: PlannedLine[]
  oneByOne: ClaimedLine[]
}

async function checkLines(lines: readonly ClaimedLine[]): Promise<CheckedLines> {
  const checked: CheckedLines = { settled: [], planned: [], oneByOne: [] }
  for (const [i, claimed] of lines.entries()) {
    if (i > 0 && i % CHECKED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve))
    const line = checkLine(claimed.body)
    if ('error' in line) {
      checked.settled.push({
        line: claimed.line,
        status: 'error',
        externalId: null,
        householdId: null,
        error: line.error,
      })
      continue
    }
    const { document } = line
    try {
      // The plan of a new household: also every rule the per-line path checks before it reads a row.
      const plan = await planDocument(document, NOTHING_YET)
      checked.planned.push({ claimed, externalId: document.externalId, hash: documentHash(document), plan })
    } catch (error) {
      if (!(error instanceof RuleViolation)) {
        checked.oneByOne.push(claimed)
        continue
      }
      checked.settled.push({
        line: claimed.line,
        status: 'error',
        externalId: document.externalId,
        householdId: null,
        error: { code: error.code, message: error.message, field: error.field ?? null },
      })
    }
  }
  return checked
}

/**
 * Processes the lines of one import (one organization, one uploader): records the results it can
 * in one transaction with the new households, and answers the lines left to the per-line path.
 * Throws what the transaction or a look-up threw.
 */
async function processImportLines(db: Kysely<Database>, lines: readonly ClaimedLine[]): Promise<ClaimedLine[]> {
  const [first] = lines
  if (!first) return []
  const { importId, actor, claim } = first
  const { settled, planned, oneByOne } = await checkLines(lines)
  // No two lines of an import name one externalId: the upload failed the later ones
  // (import_external_id_repeated, the unique index import_lines_external_id), so each line here
  // is its household's only line.
  const existing = await findHouseholdsByExternalIds(
    db,
    actor.orgId,
    planned.map((p) => p.externalId),
  )
  const created: (NewDocumentHousehold & { line: number; externalId: string })[] = []
  for (const p of planned) {
    const household = existing.get(p.externalId)
    if (household === undefined)
      created.push({
        id: randomUUID(),
        hash: p.hash,
        plan: p.plan,
        changed: changedOf(p.plan),
        line: p.claimed.line,
        externalId: p.externalId,
      })
    // The same test as putHouseholdDocument's: this document wrote the household, which has not changed since.
    else if (household.documentHash === p.hash && household.documentVersion === household.version)
      settled.push({ line: p.claimed.line, status: 'unchanged', externalId: p.externalId, householdId: household.id })
    else oneByOne.push(p.claimed)
  }
  if (created.length === 0 && settled.length === 0) return oneByOne
  await db.transaction().execute(async (trx) => {
    await insertDocumentHouseholds(trx, actor, created)
    // Throws LineClaimLost when a line's lease ran out and another lane took it: the households are rolled back.
    await recordLines(trx, importId, claim, [
      ...settled,
      ...created.map((c): LineOutcome => ({
        line: c.line,
        status: 'created',
        externalId: c.externalId,
        householdId: c.id,
      })),
    ])
  })
  return oneByOne
}

/**
 * Processes a claimed batch set-based (see above) and answers the lines left for the per-line
 * path, in line order. Throws only a lost connection (the lines stay pending, and are claimed
 * again when their lease runs out).
 */
export async function processBatch(
  db: Kysely<Database>,
  claimed: readonly ClaimedLine[],
  log: (error: unknown, message: string) => void,
): Promise<ClaimedLine[]> {
  const byImport = new Map<string, ClaimedLine[]>()
  for (const line of claimed) byImport.set(line.importId, [...(byImport.get(line.importId) ?? []), line])
  const oneByOne: ClaimedLine[] = []
  for (const lines of byImport.values()) {
    try {
      oneByOne.push(...(await processImportLines(db, lines)))
    } catch (error) {
      if (databaseFault(error as Error) === 'connection') throw error
      // A household created meanwhile is expected (two imports naming one, processed at once):
      // not worth a log line, nor is a lease that ran out (each line then says so as it is
      // recorded, and only the lines this lane still holds are written). Anything else is.
      if (!violatesHouseholdExternalId(error) && !(error instanceof LineClaimLost))
        log(error, 'an import batch failed: its lines are done one by one')
      oneByOne.push(...lines)
    }
  }
  return oneByOne.sort((a, b) => (a.importId === b.importId ? a.line - b.line : a.importId < b.importId ? -1 : 1))
}
