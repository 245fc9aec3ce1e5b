// One line of an import, processed: parsed as JSON, validated against the one HouseholdDocument
// schema (the body of PUT …/by-external-id, with the same validator settings and messages as the
// API's), and written through the same use case (putHouseholdDocument), whose transaction also
// records the line's result — so a line is applied once even if the instance dies mid-import.
// Any refusal fails this line alone, with its code, sentence and JSON Pointer.
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { HouseholdDocument } from '../schemas/household-document.ts'
import { putHouseholdDocument } from '../households/household-document.ts'
import { RuleViolation } from '../households/rule-violation.ts'
import { describe, fieldOf } from '../http/plugins/errors.ts'
import { recordLine, type ClaimedLine, type LineError } from '../store/imports.ts'

function compileDocument() {
  // As src/app.ts validates bodies: no coercion, no defaults, the first error.
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: false,
    allErrors: false,
    verbose: true,
    coerceTypes: false,
  })
  addFormats.default(ajv)
  return ajv.compile<HouseholdDocument>(HouseholdDocument)
}
const validDocument = compileDocument()

/** The line's document, or its problem before any household is read: not JSON, not a document, no externalId. */
export function checkLine(
  body: string,
): { document: HouseholdDocument & { externalId: string } } | { error: LineError } {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return {
      error: { code: 'invalid_json', message: 'This line is not valid JSON: each line is one JSON object.', field: '' },
    }
  }
  if (!validDocument(parsed)) {
    const first = validDocument.errors?.[0]
    return {
      error: first
        ? { code: 'invalid_body', message: describe(first, 'line'), field: fieldOf(first) }
        : { code: 'invalid_body', message: 'the line is invalid', field: '' },
    }
  }
  if (parsed.externalId == null)
    return {
      error: {
        code: 'invalid_body',
        message: 'externalId is required on each import line: it names the household (your own id for it).',
        field: '/externalId',
      },
    }
  return { document: { ...parsed, externalId: parsed.externalId } }
}

/**
 * Processes one claimed line and records its result. Throws only what is not the line's fault: the
 * database, or LineClaimLost (another lane took the line; nothing of this lane's write remains).
 */
export async function processLine(db: Kysely<Database>, claimed: ClaimedLine): Promise<void> {
  const checked = checkLine(claimed.body)
  if ('error' in checked) {
    await recordLine(db, claimed, { status: 'error', externalId: null, householdId: null, error: checked.error })
    return
  }
  const { externalId } = checked.document
  try {
    const result = await putHouseholdDocument(db, claimed.actor, {
      externalId,
      document: checked.document,
      mode: 'import',
      // Throws LineClaimLost when another lane took the line meanwhile: the write is then rolled back.
      alsoInTransaction: async (trx, written) => {
        await recordLine(trx, claimed, { status: written.kind, externalId, householdId: written.householdId })
      },
    })
    if (result.kind === 'unchanged')
      await recordLine(db, claimed, { status: 'unchanged', externalId, householdId: result.householdId })
  } catch (error) {
    if (!(error instanceof RuleViolation)) throw error
    await recordLine(db, claimed, {
      status: 'error',
      externalId,
      householdId: null,
      error: { code: error.code, message: error.message, field: error.field ?? null },
    })
  }
}
