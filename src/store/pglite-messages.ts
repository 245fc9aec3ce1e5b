// What the API's thread and the embedded database's thread (pglite-worker.ts) say to each other.
import type { PGliteOptions } from '@electric-sql/pglite'
import type { ErrorFields } from '../thread-errors.ts'

export type PgliteRequest =
  | { id: number; kind: 'query'; sql: string; params: unknown[] }
  /** A script of several statements without parameters; answers the rows of the last one. */
  | { id: number; kind: 'exec'; sql: string }
  | { id: number; kind: 'close' }

/** What the thread is started with: the data directory, and PostgreSQL's WebAssembly if compiled already. */
export interface PgliteWorkerData {
  dataDir: string
  pgliteWasmModule: PGliteOptions['pgliteWasmModule']
}

export type PgliteReply =
  { id: number; ok: true; rows: unknown[]; affectedRows?: number } | { id: number; ok: false; error: ErrorFields }

/**
 * A notification on a channel the thread's session listens to (KEY_CHANGES_CHANNEL), passed on as
 * it arrives: before the reply of the statement whose commit sent it.
 */
export interface PgliteNotification {
  notification: string
}

/** The worker's first message: it opened the data directory, or why it could not. */
export type PgliteOpened = { opened: true } | { opened: false; error: ErrorFields }
