// Bulk import (issue 17): POST /api/v1/imports takes JSON Lines, one household document per line
// (the body of PUT …/by-external-id, keyed by externalId), streams the lines into the database as
// they arrive — never the whole upload in memory — and answers 202 with the import; the instances'
// import workers process the lines in the background (src/imports/import-worker.ts). GET
// …/imports/{id} reports the progress, GET …/imports/{id}/lines each line's result. An import of
// another organization is 404, as one that does not exist. Its own plugin: the JSON Lines parser
// is registered for these routes only, so every other route still answers 415 to it.
import type { FastifyPluginAsync, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ImportEnvelope, ImportLineList, ImportLinesQuery, ImportParams } from '../../schemas/imports.ts'
import {
  deleteImport,
  insertImport,
  insertLines,
  linesNamingExternalIds,
  markReceived,
  readImport,
  readLines,
  type ImportSummary,
  type UploadedLine,
} from '../../store/imports.ts'
import { IMPORT_MAX_BYTES, IMPORT_MAX_LINE_BYTES, IMPORT_MEDIA_TYPES } from '../../imports/limits.ts'
import { LineSplitter } from '../../imports/line-splitter.ts'
import type { ImportWorker } from '../../imports/import-worker.ts'
import { isUuid } from '../../domain/ids.ts'
import { EXTERNAL_ID_PATTERN } from '../../domain/external-id.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import { authErrors } from './auth-errors.ts'

const IMPORTS_PATH = '/api/v1/imports'

/** Lines stored per INSERT, or fewer when they reach BATCH_BYTES. */
const BATCH_LINES = 2000
const BATCH_BYTES = 4 * 1024 * 1024
const MB = 1024 * 1024

const tooLarge = () =>
  new ApiError(
    'body_too_large',
    `An import is at most ${IMPORT_MAX_BYTES / MB} MB: split the file, and send each part as an import of its own.`,
  )

function importNotFound(): ApiError {
  return new ApiError('not_found', 'No import with this id in your organization.')
}

function importBody(summary: ImportSummary) {
  return {
    import: {
      id: summary.id,
      // An upload is answered once received, so 'receiving' is never seen through the API.
      status: summary.status === 'done' ? ('done' as const) : ('processing' as const),
      createdAt: summary.createdAt,
      finishedAt: summary.finishedAt,
      lines: summary.lines,
    },
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true })

/** A line as stored: its text, or its error when it cannot be (too long, not UTF-8, a NUL); null for a blank line. */
function storedLine(line: number, bytes: Buffer | null): UploadedLine | null {
  if (bytes === null)
    return {
      line,
      body: null,
      error: {
        code: 'body_too_large',
        message: `This line is longer than ${IMPORT_MAX_LINE_BYTES / MB} MB; a household is at most that.`,
        field: '',
      },
    }
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return { line, body: null, error: { code: 'invalid_json', message: 'This line is not UTF-8.', field: '' } }
  }
  if (text.trim() === '') return null
  if (text.includes('\u0000'))
    return {
      line,
      body: null,
      error: { code: 'invalid_json', message: 'This line has a NUL character: it is not JSON.', field: '' },
    }
  return { line, body: text }
}

const externalIdPattern = new RegExp(EXTERNAL_ID_PATTERN)

/**
 * The externalId a line names: its top-level externalId when it is a valid one, else null (the
 * line then fails when processed, as not JSON or not a document). Parsed here although the worker
 * parses the line again: what else could tell two lines of one household apart before they run?
 */
function namedExternalId(body: string): string | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const id = (parsed as { externalId?: unknown }).externalId
  return typeof id === 'string' && externalIdPattern.test(id) ? id : null
}

/**
 * Names each line's externalId and fails a line naming one that an earlier line of the import
 * named (stored before, or earlier in `batch`): an import's lines run in parallel, in no set order,
 * so two lines of one household would end as either, and the same file again would not be
 * unchanged. Failed now, the earlier line is the one applied, whatever the timing.
 */
async function refuseRepeatedExternalIds(db: Kysely<Database>, importId: string, batch: UploadedLine[]) {
  for (const line of batch) if (line.body !== null && !line.error) line.externalId = namedExternalId(line.body)
  const named = batch.flatMap((l) => (l.externalId ? [l.externalId] : []))
  const first = await linesNamingExternalIds(db, importId, [...new Set(named)])
  for (const line of batch) {
    if (!line.externalId) continue
    const earlier = first.get(line.externalId)
    if (earlier === undefined) {
      first.set(line.externalId, line.line)
      continue
    }
    line.error = {
      code: 'import_external_id_repeated',
      message: `Line ${earlier} of this import already names externalId "${line.externalId}": an import names each household once, since its lines are applied in parallel, in no set order. Merge the two lines into one (line ${earlier} is applied; this one is not).`,
      field: '/externalId',
    }
    // Never processed: its text is not kept.
    line.body = null
  }
}

/**
 * Stores the upload's lines as they stream in; answers how many it stored: blank lines are not,
 * so they are not counted either, and the counts by status add up to the total.
 */
async function receive(db: Kysely<Database>, importId: string, stream: Readable): Promise<number> {
  const splitter = new LineSplitter(IMPORT_MAX_LINE_BYTES)
  let batch: UploadedLine[] = []
  let batchBytes = 0
  let received = 0
  let stored = 0
  const add = async (line: number, bytes: Buffer | null) => {
    const uploaded = storedLine(line, bytes)
    if (!uploaded) return
    stored++
    batch.push(uploaded)
    batchBytes += bytes?.length ?? 0
    if (batch.length >= BATCH_LINES || batchBytes >= BATCH_BYTES) {
      await refuseRepeatedExternalIds(db, importId, batch)
      await insertLines(db, importId, batch)
      batch = []
      batchBytes = 0
    }
  }
  // for await reads one chunk at a time: while a batch is written, the socket is not read.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    received += chunk.length
    if (received > IMPORT_MAX_BYTES) throw tooLarge()
    for (const { line, bytes } of splitter.push(chunk)) await add(line, bytes)
  }
  for (const { line, bytes } of splitter.end()) await add(line, bytes)
  await refuseRepeatedExternalIds(db, importId, batch)
  await insertLines(db, importId, batch)
  return stored
}

export interface ImportRoutesOptions {
  db: Kysely<Database>
  worker: ImportWorker
}

export const importRoutes: FastifyPluginAsync<ImportRoutesOptions, RawServerDefault, TypeBoxTypeProvider> = async (
  app,
  { db, worker },
) => {
  // The body is handed over as the stream it is; a declared length over the limit is refused
  // before a byte of it is read.
  app.addContentTypeParser([...IMPORT_MEDIA_TYPES], (request, payload, done) => {
    const length = Number(request.headers['content-length'] ?? 0)
    if (length > IMPORT_MAX_BYTES) {
      done(tooLarge(), undefined)
      return
    }
    done(null, payload)
  })

  app.post(
    IMPORTS_PATH,
    {
      config: { permission: 'relationships:write' },
      schema: {
        operationId: 'createImport',
        summary: 'Import households (JSON Lines)',
        tags: ['imports'],
        description: [
          `A bulk import: Content-Type application/x-ndjson (or application/jsonl), one household per line, each a HouseholdDocument (the body of PUT /api/v1/relationships/by-external-id/{externalId}) with its externalId, which names the household: a household of your organization with it is replaced whole, else one is created. Blank lines are skipped.`,
          `At most ${IMPORT_MAX_BYTES / MB} MB (413 body_too_large, before the body is read when Content-Length says more) and ${IMPORT_MAX_LINE_BYTES / MB} MB a line.`,
          'The lines are stored as they arrive, then the answer is 202 with the import and its Location; they are processed in the background, several at a time, each in its own transaction with its event (household.replaced) and audit entry.',
          "Each line's result is recorded: created, updated, unchanged (the household is as that line says since the last time it was written so: nothing is written, no event), or error, with the code, sentence and JSON Pointer PUT would have answered (invalid_json for a line that is not JSON). A line that fails fails alone. An import names each household once (its lines run in parallel, in no set order): a line naming an externalId an earlier line named fails at upload with import_external_id_repeated (field /externalId), and the earlier line is applied.",
          'Importing the same file again changes nothing: every line is unchanged. An import survives a restart: unfinished lines are taken up again (within a minute) from the first unprocessed one. Needs relationships:write or households:write.',
        ].join(' '),
        response: {
          202: ImportEnvelope,
          400: ErrorBody,
          408: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const mediaType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
      if (!(IMPORT_MEDIA_TYPES as readonly string[]).includes(mediaType))
        throw new ApiError(
          'unsupported_media_type',
          `Send an import as JSON Lines: Content-Type ${IMPORT_MEDIA_TYPES.join(' or ')}, one household per line.`,
        )
      const principal = principalOf(request)
      const importId = await insertImport(db, principal)
      let lines: number
      try {
        lines = await receive(db, importId, request.body as Readable)
        await markReceived(db, importId, lines)
      } catch (error) {
        // Half an upload is no import: nothing of it is processed.
        await deleteImport(db, importId).catch(() => undefined)
        throw error
      }
      worker.kick()
      const summary = await readImport(db, principal.orgId, importId)
      if (!summary) throw importNotFound()
      reply.header('Location', `${IMPORTS_PATH}/${importId}`)
      return reply.status(202).send(importBody(summary))
    },
  )

  app.get(
    `${IMPORTS_PATH}/:id`,
    {
      config: { permission: 'relationships:read' },
      schema: {
        operationId: 'getImport',
        summary: 'Get an import',
        tags: ['imports'],
        description:
          "An import's progress: its status and how many lines are pending, created, updated, unchanged or refused. Another organization's import is 404. Needs relationships:read or households:read.",
        params: ImportParams,
        response: { 200: ImportEnvelope, 404: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw importNotFound()
      const summary = await readImport(db, principalOf(request).orgId, request.params.id.toLowerCase())
      if (!summary) throw importNotFound()
      return importBody(summary)
    },
  )

  app.get(
    `${IMPORTS_PATH}/:id/lines`,
    {
      config: { permission: 'relationships:read' },
      schema: {
        operationId: 'listImportLines',
        summary: "List an import's lines",
        tags: ['imports'],
        description:
          "Each line's result, in line order, a page at a time (after: the last line number of the page before; nextAfter gives it). status=error lists the refused lines with their code, message and JSON Pointer. Needs relationships:read or households:read.",
        params: ImportParams,
        querystring: ImportLinesQuery,
        response: { 200: ImportLineList, 400: ErrorBody, 404: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      const { id } = request.params
      if (!isUuid(id)) throw importNotFound()
      const summary = await readImport(db, principalOf(request).orgId, id.toLowerCase())
      if (!summary) throw importNotFound()
      const limit = request.query.limit ?? 100
      const lines = await readLines(db, summary.id, {
        status: request.query.status,
        after: request.query.after ?? 0,
        limit,
      })
      const last = lines.at(-1)
      return { lines, nextAfter: lines.length === limit && last ? last.line : null }
    },
  )
}
