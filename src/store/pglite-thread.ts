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
import {
  type PgliteNotification,
  type PgliteOpened,
  type PgliteReply,
  type PgliteRequest,
  type PgliteWorkerData,
} from './pglite-messages.ts'
import { KeyChangeCounter } from './key-changes.ts'
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

  /** What the thread's session hears on KEY_CHANGES_CHANNEL (see key-changes.ts). */
  readonly keyChanges = new KeyChangeCounter()

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: PgliteReply | PgliteNotification) => {
      if ('notification' in message) this.keyChanges.changed()
      else this.settle(message)
    })
    // The session LISTENs from before the thread said it opened.
    this.keyChanges.started()
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
    if (!this.ended) this.keyChanges.stopped()
    this.ended ??= reason
    for (const waiting of this.pending.values()) waiting.reject(reason)
    this.pending.clear()
  }
}

/**
 * Kysely's dialect for the embedded database's thread: PostgreSQL's SQL, and one connection, which
 * single statements share and a transaction has to itself (see SharedConnectionDriver).
 */
export class PgliteThreadDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}
  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver(): Driver {
    return new SharedConnectionDriver(this.thread)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db)
  }
}

/** What Kysely holds between acquiring the connection and releasing it: one per acquisition. */
class Lease implements DatabaseConnection {
  /** Began a transaction: holds the connection alone, or waits to. */
  inTransaction = false

  constructor(private readonly thread: PgliteThread) {}

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

/** The lease Kysely hands back: only this driver's own are ever handed to it. */
function leaseOf(connection: DatabaseConnection): Lease {
  if (!(connection instanceof Lease))
    throw new Error('a connection of another driver was handed to the embedded database')
  return connection
}

/**
 * The embedded database's one connection, shared by single statements and held alone by a
 * transaction.
 *
 * Single statements do not wait for each other: the database's thread runs what it is sent one after
 * another, in the order sent, so a statement is sent as soon as Kysely has it. When each one waited
 * for the previous one's answer to be taken in by the API's thread, the two threads took turns (a
 * list page under ten connections: the database's thread 73 % busy, the API's 35 %, one core between
 * them), and the database's thread sat idle whenever the API's was busy with another request.
 *
 * A transaction's statements must not interleave with anyone else's. Kysely acquires a connection and
 * then begins the transaction on it, so the lease that begins one stops sharing and waits until every
 * statement sent before is answered (no new lease is given out meanwhile); it then holds the
 * connection until it is released. Leases asked for meanwhile wait their turn, in order. Transactions
 * begun at the same time go one after the other, in the order they began.
 */
class SharedConnectionDriver implements Driver {
  /** Leases given out and not in a transaction: each may have a statement in flight. */
  private sharing = 0
  /** A transaction holds the connection. */
  private held = false
  /** Leases that began a transaction and wait for the connection, in order. */
  private readonly transactions: (() => void)[] = []
  /** Acquisitions waiting for a transaction to end, in order. */
  private readonly acquisitions: (() => void)[] = []

  constructor(private readonly thread: PgliteThread) {}

  init(): Promise<void> {
    return Promise.resolve()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Acquisitions wait only behind a transaction (next() gives every waiting one out once none is left).
    if (this.held || this.transactions.length > 0) {
      await new Promise<void>((resolve) => this.acquisitions.push(resolve))
    } else {
      this.sharing++
    }
    return new Lease(this.thread)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = leaseOf(connection)
    if (lease.inTransaction) {
      lease.inTransaction = false
      this.held = false
    } else {
      this.sharing--
    }
    this.next()
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const lease = leaseOf(connection)
    // A lease that began a transaction before (db.connection() keeps its lease across transactions)
    // holds the connection still; only a sharing lease has to wait for it.
    if (!lease.inTransaction) {
      lease.inTransaction = true
      this.sharing--
      const turn = new Promise<void>((resolve) => this.transactions.push(resolve))
      this.next()
      await turn
    }
    // As Kysely's PostgreSQL driver writes it: the isolation level and the access mode, when given.
    const parts = ['start transaction']
    if (settings.isolationLevel) parts.push(`isolation level ${settings.isolationLevel}`)
    if (settings.accessMode) parts.push(settings.accessMode)
    await lease.executeQuery(CompiledQuery.raw(parts.join(' ')))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async destroy(): Promise<void> {
    await this.thread.close()
  }

  /** Hands the connection on: to the first waiting transaction once nothing shared is in flight, else to every waiting acquisition. */
  private next(): void {
    if (this.held) return
    const transaction = this.transactions[0]
    if (transaction) {
      if (this.sharing > 0) return
      this.transactions.shift()
      this.held = true
      transaction()
      return
    }
    for (const acquired of this.acquisitions.splice(0)) {
      this.sharing++
      acquired()
    }
  }
}
