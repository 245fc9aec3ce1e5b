// Bulk imports (issue 17): one schema each for the import's progress and its lines' results, which
// feed the handlers' types and the OpenAPI document.
import { Type, type Static } from 'typebox'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'

const LINE_STATUSES = ['pending', 'created', 'updated', 'unchanged', 'error'] as const

const Import = Type.Object(
  {
    id: Uuid,
    status: StringEnum(['processing', 'done'] as const, {
      description: 'processing: lines are still pending; done: every line has its result.',
    }),
    createdAt: DateTime,
    finishedAt: Nullable(DateTime),
    lines: Type.Object(
      {
        total: Type.Integer({
          minimum: 0,
          description:
            'Lines of the upload to process: blank lines are skipped and not counted (line numbers still count them), so pending, created, updated, unchanged and error add up to it.',
        }),
        pending: Type.Integer({ minimum: 0 }),
        created: Type.Integer({ minimum: 0 }),
        updated: Type.Integer({ minimum: 0 }),
        unchanged: Type.Integer({ minimum: 0 }),
        error: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false, description: 'How many lines are in each state: the progress.' },
    ),
  },
  { title: 'Import', additionalProperties: false },
)
export type Import = Static<typeof Import>

export const ImportEnvelope = Type.Object({ import: Import }, { title: 'ImportEnvelope', additionalProperties: false })

const ImportLine = Type.Object(
  {
    line: Type.Integer({ minimum: 1, description: 'Its number in the upload, from 1.' }),
    status: StringEnum(LINE_STATUSES),
    externalId: Nullable(Type.String({ description: "The household's externalId, when the line named one." })),
    householdId: Nullable(Uuid),
    error: Nullable(
      Type.Object(
        {
          code: Type.String({
            description:
              'The code PUT …/by-external-id would have answered, or invalid_json, or import_external_id_repeated (an earlier line of the import names this externalId: the message says which; merge the two lines).',
          }),
          message: Type.String(),
          field: Nullable(Type.String({ description: 'A JSON Pointer into the line; "" is the whole line.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { title: 'ImportLine', additionalProperties: false },
)

export const ImportLineList = Type.Object(
  {
    lines: Type.Array(ImportLine),
    nextAfter: Nullable(Type.Integer({ description: 'Pass as after to read the next page; null on the last page.' })),
  },
  { title: 'ImportLineList', additionalProperties: false },
)

export const ImportParams = Type.Object({ id: Type.String({ description: 'The import id (a UUID).' }) })

export const ImportLinesQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(LINE_STATUSES, { description: 'Only the lines in this state (e.g. error).' })),
    after: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Lines after this line number.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: true, description: 'Unknown query parameters are ignored.' },
)
