// Which errors mean "the database is slow, blocked or gone" rather than "the request is wrong": the
// API answers those 503 database_unavailable with Retry-After (http/plugins/errors.ts) and counts
// them by kind (db_errors_total). Both pg's and PostgreSQL's words for it, as they come through
// Kysely: SQLSTATE codes, Node socket codes, and pg's own messages, which carry no code.

/** `timeout`: the database was too slow or blocked (a statement timeout, no pool connection in time); `connection`: it was gone. */
export type DatabaseFault = 'timeout' | 'connection'
export const DATABASE_FAULTS: readonly DatabaseFault[] = ['timeout', 'connection']

// Our statement_timeout ("canceling statement due to statement timeout", 57014); pg's client-side
// limits: no free pool connection within connectionTimeoutMillis, no answer within query_timeout, a
// connection not set up in time.
const TIMEOUT_CODES = new Set(['57014', 'ETIMEDOUT'])
const TIMEOUT_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /due to connection timeout/i,
]

// PostgreSQL ending the connection (57P01 pg_terminate_backend or a shutdown, 57P02 a crashed
// backend, 57P03 starting up or recovering), connection exceptions (08…, which PgBouncer sends too),
// a refused or reset socket; pg's "Connection terminated unexpectedly" (the socket closed mid-query)
// and "… is not queryable" (the connection broke between two statements of a transaction: the next
// one, or the ROLLBACK, fails with it).
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'])
const CONNECTION_MESSAGES = [/Connection terminated/i, /is not queryable/i]

export function databaseFault(error: { code?: unknown; message: string }): DatabaseFault | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined
  if (
    (code !== undefined && TIMEOUT_CODES.has(code)) ||
    TIMEOUT_MESSAGES.some((pattern) => pattern.test(error.message))
  )
    return 'timeout'
  if (code !== undefined && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return 'connection'
  if (CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'connection'
  return undefined
}
