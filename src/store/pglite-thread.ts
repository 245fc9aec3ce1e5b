// The embedded database, seen from the API's thread: PGlite runs in a worker thread of its own
// (pglite-worker.ts), and statements go to it as messages. The API's event loop stays free while a
// statement runs: health checks, timers and requests that need no database are answered meanwhile,
// and the API's own work (HTTP, JSON, auth) runs on another core than the database's.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Worker } from 'node:worker_threads'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import { errorFrom } from '../thread-errors.ts'
import { type PgliteOpened, type PgliteReply, type PgliteRequest, type PgliteWorkerData } from './pglite-messages.ts'
import { startThread } from '../start-thread.ts'

interface Pending {
  resolve: (reply: PgliteReply & { ok: true }) => void
  reject: (error: Error) => void
}

type WasmModule = NonNullable<PgliteWorkerData['pgliteWasmModule']>
/** Node's WebAssembly global, which this project's lib (ES2024, no DOM) does not declare. */
const webAssembly = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly
const require = createRequire(import.meta.url)
let pgliteWasm: Promise<WasmModule | undefined> | undefined

/**
 * PostgreSQL's WebAssembly, compiled once per process and handed to every thread (a compiled module
 * crosses threads without a copy): each store opened after the first starts about 0.35 s sooner.
 * Undefined if the file is not where PGlite keeps it; PGlite then compiles it itself.
 */
function compiledPgliteWasm(): Promise<WasmModule | undefined> {
  pgliteWasm ??= readFile(path.join(path.dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm')).then(
    (bytes) => webAssembly.compile(bytes),
    () => undefined,
  )
  return pgliteWasm
}

/**
 * The thread is gone: said with PostgreSQL's code for a terminated connection, so that requests get
 * 503 database_unavailable (database-faults.ts), not 500.
 */
function threadEnded(code: number): Error {
  return Object.assign(new Error(`the embedded database's thread ended (exit code ${code})`), { code: '57P01' })
}

export class PgliteThread {
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private ended: Error | undefined

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PgliteReply) => this.settle(reply))
    // The thread failing (out of memory, a WebAssembly trap) fails what was waiting on it and what
    // comes after: the process goes on, and its requests get errors instead of hanging.
    worker.on('error', (error) => this.end(error))
    worker.on('exit', (code) => this.end(threadEnded(code)))
    // Idle, the thread does not keep the process alive; a statement in flight does (see send()).
    worker.unref()
  }

  /** Starts the thread and opens the data directory in it. */
  static async start(dataDir: string): Promise<PgliteThread> {
    const worker = await startThread(new URL('./pglite-worker.ts', import.meta.url), {
      dataDir,
      pgliteWasmModule: await compiledPgliteWasm(),
    } satisfies PgliteWorkerData)
    const opened = await new Promise<PgliteOpened>((resolve, reject) => {
      const exited = (code: number) => reject(threadEnded(code))
      worker.once('message', (message: PgliteOpened) => {
        worker.off('error', reject)
        worker.off('exit', exited)
        resolve(message)
      })
      worker.once('error', reject)
      worker.once('exit', exited)
    })
    if (!opened.opened) {
      await worker.terminate()
      throw errorFrom(opened.error)
    }
    return new PgliteThread(worker)
  }

  get closed(): boolean {
    return this.ended !== undefined
  }

  async query(sql: string, params: unknown[] = []): Promise<{ rows: unknown[]; affectedRows?: number }> {
    const reply = await this.send({ kind: 'query', sql, params })
    return {
      rows: reply.rows,
      ...(reply.affectedRows === undefined ? {} : { affectedRows: reply.affectedRows }),
    }
  }

  /** Runs a script of statements without parameters; answers the rows of the last one. */
  async exec(sql: string): Promise<unknown[]> {
    return (await this.send({ kind: 'exec', sql })).rows
  }

  async close(): Promise<void> {
    if (this.ended) return
    await this.send({ kind: 'close' })
    this.end(new Error('the embedded database is closed'))
    await this.worker.terminate()
  }

  private send(
    request: { kind: 'query'; sql: string; params: unknown[] } | { kind: 'exec'; sql: string } | { kind: 'close' },
  ) {
    if (this.ended) return Promise.reject(this.ended)
    const id = this.nextId++
    return new Promise<PgliteReply & { ok: true }>((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      if (this.pending.size === 1) this.worker.ref()
      try {
        this.worker.postMessage({ ...request, id } satisfies PgliteRequest)
      } catch (error) {
        // A value that cannot be sent (structured clone refused it): this request fails, nothing waits on it.
        this.pending.delete(id)
        if (this.pending.size === 0) this.worker.unref()
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    })
  }

  private settle(reply: PgliteReply): void {
    const waiting = this.pending.get(reply.id)
    if (!waiting) return
    this.pending.delete(reply.id)
    if (this.pending.size === 0) this.worker.unref()
    if (reply.ok) waiting.resolve(reply)
    else waiting.reject(errorFrom(reply.error))
  }

  private end(reason: Error): void {
    this.ended ??= reason
    for (const waiting of this.pending.values()) waiting.reject(reason)
    this.pending.clear()
  }
}

/**
 * Kysely's dialect for the embedded database's thread: PostgreSQL's SQL, and one connection, which
 * the driver hands to one query or transaction at a time (the others wait their turn, in order).
 */
export class PgliteThreadDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}
  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver(): Driver {
    return new OneConnectionDriver(new ThreadConnection(this.thread))
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db)
  }
}

class ThreadConnection implements DatabaseConnection {
  constructor(readonly thread: PgliteThread) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.thread.query(compiled.sql, [...compiled.parameters])
    const rows = result.rows as R[]
    // As PGlite's own Kysely dialect did: a count only when rows were affected.
    return result.affectedRows ? { rows, numAffectedRows: BigInt(result.affectedRows) } : { rows }
  }

  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled)
    for (let start = 0; start < rows.length; start += chunkSize) yield { rows: rows.slice(start, start + chunkSize) }
  }
}

class OneConnectionDriver implements Driver {
  private held = false
  private readonly waiting: (() => void)[] = []

  constructor(private readonly connection: ThreadConnection) {}

  init(): Promise<void> {
    return Promise.resolve()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.held = true
    return this.connection
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift()
    // The next in line takes the connection over as it is (held stays true); none: it is free.
    if (next) next()
    else this.held = false
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // As Kysely's PostgreSQL driver writes it: the isolation level and the access mode, when given.
    const parts = ['start transaction']
    if (settings.isolationLevel) parts.push(`isolation level ${settings.isolationLevel}`)
    if (settings.accessMode) parts.push(settings.accessMode)
    await connection.executeQuery(CompiledQuery.raw(parts.join(' ')))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy(): Promise<void> {
    await this.connection.thread.close()
  }
}
