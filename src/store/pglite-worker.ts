// The embedded database's own thread: PGlite runs PostgreSQL compiled to WebAssembly on the thread
// that calls it, so in the API's thread every statement stopped the event loop for its whole length
// (a list page ~7 ms: no other request, health check or timer meanwhile). Here it runs beside the
// API's thread, which sends statements over a MessagePort (pglite-thread.ts) and goes on serving.
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { VALUE_PARSERS } from './value-parsers.ts'
import { errorFields, type PgliteOpened, type PgliteReply, type PgliteRequest } from './pglite-messages.ts'

const port = parentPort
if (!port) throw new Error('pglite-worker.ts runs as a worker thread (pglite-thread.ts starts it)')
const { dataDir } = workerData as { dataDir: string }

let database: PGlite
try {
  database = await PGlite.create({ dataDir, extensions: { pg_trgm, btree_gin }, parsers: VALUE_PARSERS })
} catch (error) {
  port.postMessage({ opened: false, error: errorFields(error) } satisfies PgliteOpened)
  port.close()
  throw error
}
port.postMessage({ opened: true } satisfies PgliteOpened)

async function answer(request: PgliteRequest): Promise<PgliteReply> {
  switch (request.kind) {
    case 'query': {
      const result = await database.query(request.sql, request.params)
      return {
        id: request.id,
        ok: true,
        rows: result.rows,
        ...(result.affectedRows === undefined ? {} : { affectedRows: result.affectedRows }),
      }
    }
    case 'exec': {
      const results = await database.exec(request.sql)
      return { id: request.id, ok: true, rows: results.at(-1)?.rows ?? [] }
    }
    case 'close':
      await database.close()
      return { id: request.id, ok: true, rows: [] }
  }
}

// PGlite runs one statement at a time and queues the rest in order, so requests are taken as they come.
port.on('message', (request: PgliteRequest) => {
  answer(request).then(
    (reply) => {
      port.postMessage(reply)
      if (request.kind === 'close') port.close()
    },
    (error: unknown) =>
      port.postMessage({ id: request.id, ok: false, error: errorFields(error) } satisfies PgliteReply),
  )
})
