// The embedded database's own thread: PGlite runs PostgreSQL compiled to WebAssembly on the thread
// that calls it, so in the API's thread every statement stopped the event loop for its whole length
// (a list page ~7 ms: no other request, health check or timer meanwhile). Here it runs beside the
// API's thread, which sends statements over a MessagePort (pglite-thread.ts) and goes on serving.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin'
import { VALUE_PARSERS } from './value-parsers.ts'
import { NamedStatements } from './pglite-named-statements.ts'
import { isMarkedForPreparing } from './prepared-statements.ts'
import { errorFields } from '../thread-errors.ts'
import { KEY_CHANGES_CHANNEL } from './key-changes.ts'
import {
  type PgliteNotification,
  type PgliteOpened,
  type PgliteReply,
  type PgliteRequest,
  type PgliteWorkerData,
} from './pglite-messages.ts'

async function answer(database: PGlite, named: NamedStatements, request: PgliteRequest): Promise<PgliteReply> {
  switch (request.kind) {
    case 'query': {
      const result = isMarkedForPreparing(request.sql)
        ? await named.query(request.sql, request.params)
        : await database.query(request.sql, request.params)
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

/**
 * PostgreSQL's page cache inside the WebAssembly heap. PGlite's default, 128 MB, is allocated and
 * touched at start, so it was a third of the process's memory however small the data (421 MB idle
 * with 100,000 households, bench/RESULTS.md, issue 18). A page that is not here is read from the
 * operating system's file cache, which keeps the data directory's pages anyway: with 32 MB the
 * bench's list, search, get and create at 100,000 households ran at the same rates as with 128 MB
 * (within the machine's noise), and the process peaked about 100 MB lower. At 16 MB search lost
 * 40 %: its index and heap pages no longer stayed.
 */
const SHARED_BUFFERS = '32MB'

async function serve(port: MessagePort, { dataDir, pgliteWasmModule }: PgliteWorkerData): Promise<void> {
  let database: PGlite
  try {
    database = await PGlite.create({
      dataDir,
      extensions: { pg_trgm, btree_gin },
      parsers: VALUE_PARSERS,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
      ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    })
  } catch (error) {
    // Said as a message, not thrown: the API's thread turns it into the error of opening the store.
    port.postMessage({ opened: false, error: errorFields(error) } satisfies PgliteOpened)
    port.close()
    return
  }
  try {
    // PGlite calls its listeners while it reads a statement's answer, before that answer is
    // replied: so the API's thread hears of a change to a key before the write's own reply. (It
    // skips notifications after an error in the same call: only a script (runScript, pg-boss's
    // own schema) could commit a key change and then fail, and none touches keys.)
    await database.listen(KEY_CHANGES_CHANNEL, () => {
      port.postMessage({ notification: KEY_CHANGES_CHANNEL } satisfies PgliteNotification)
    })
  } catch (error) {
    port.postMessage({ opened: false, error: errorFields(error) } satisfies PgliteOpened)
    await database.close()
    port.close()
    return
  }
  port.postMessage({ opened: true } satisfies PgliteOpened)
  const named = new NamedStatements(database)
  // One request after another, in the order sent: PGlite queues its own query() and exec(), but not
  // close(), which must come after every statement sent before it, nor the named statements'
  // execProtocol() calls, whose Parse and Bind must not interleave with another statement's.
  let previous = Promise.resolve()
  port.on('message', (request: PgliteRequest) => {
    previous = previous.then(() =>
      answer(database, named, request).then(
        (reply) => {
          port.postMessage(reply)
          if (request.kind === 'close') port.close()
        },
        (error: unknown) =>
          port.postMessage({ id: request.id, ok: false, error: errorFields(error) } satisfies PgliteReply),
      ),
    )
  })
}

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread (pglite-thread.ts starts it)')
await serve(parentPort, workerData as PgliteWorkerData)
