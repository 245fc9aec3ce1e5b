// What the API's thread and the embedded database's thread (pglite-worker.ts) say to each other.
import type { PGliteOptions } from '@electric-sql/pglite'

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

/** An error as it crosses threads: its message and PostgreSQL's fields (code, detail, constraint…). */
export interface ErrorFields {
  message: string
  fields: Record<string, string | number>
}

export type PgliteReply =
  { id: number; ok: true; rows: unknown[]; affectedRows?: number } | { id: number; ok: false; error: ErrorFields }

/** The worker's first message: it opened the data directory, or why it could not. */
export type PgliteOpened = { opened: true } | { opened: false; error: ErrorFields }

/** The string and number fields of an error (PGlite's DatabaseError carries code, detail, constraint…). */
export function errorFields(error: unknown): ErrorFields {
  const fields: Record<string, string | number> = {}
  if (typeof error === 'object' && error !== null) {
    for (const [name, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number') fields[name] = value
    }
  }
  return { message: error instanceof Error ? error.message : String(error), fields }
}

/** The error again on this side, with the same message and fields. */
export function errorFrom({ message, fields }: ErrorFields): Error {
  return Object.assign(new Error(message), fields)
}
