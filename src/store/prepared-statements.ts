// Named prepared statements for the hottest statements: the create, the read-back with its events,
// and list pages (households.ts says which). On the embedded database pglite-named-statements.ts
// runs the same marked statements as named statements of its one session. Each statement PostgreSQL receives is parsed,
// analysed and planned again; for a create (a household, its audit entry and its event in one
// statement) that is more than a third of the database's CPU: 0.71 ms per statement against 0.50
// when prepared (one backend's CPU over 3,000 of them; bench/RESULTS.md, issue 17). A statement
// opens with PREPARED_MARK and its name to be prepared once per connection and then only bound
// and executed. The text must be the same on every call (its values are parameters): the name
// carries a hash of the text, so a different text is a different statement, never a wrong one.
//
// Poolers. PgBouncer in transaction mode before 1.21 (and 1.21+ without max_prepared_statements)
// hands each transaction a server connection of its choosing, where the statement may not exist.
// So statements are prepared only when this process talks to PostgreSQL itself: at start, the
// server's own address and port (inet_server_addr/port) must be the ones we connected to, which
// a pooler in between changes (detectDirectConnection). HEARTH_PREPARED_STATEMENTS says it outright
// (on: a pooler that keeps prepared statements; off: never). And should a statement ever be
// missing all the same (26000), preparing stops for the process from then on.
import { createHash } from 'node:crypto'
import type pg from 'pg'

/** How a prepared statement's text begins: `/* prepared: <name> *\/`. */
const PREPARED_MARK = '/* prepared: '

/** The SQL comment that marks a statement to prepare, named `name` (letters, digits, dashes). */
export function preparedMark(name: string): string {
  return `${PREPARED_MARK}${name} */`
}

/** Whether `text` is marked to be prepared (see preparedMark). */
export function isMarkedForPreparing(text: string): boolean {
  return text.startsWith(PREPARED_MARK)
}

/** invalid_sql_statement_name: a Bind named a statement this server connection has never seen. */
const STATEMENT_MISSING = '26000'

export type PreparedStatementsSetting = 'auto' | 'on' | 'off'

export class PreparedStatements {
  private names = new Map<string, string>()

  constructor(
    private enabled: boolean,
    private readonly warn: (message: string) => void,
  ) {}

  /** Decided once the first connection has told whether a pooler is in between. */
  enable(enabled: boolean): void {
    this.enabled = enabled
  }

  /** Sends the client's marked statements as named ones while preparing is on. */
  attach(client: pg.Client): void {
    const send = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<unknown>
    const query = async (config: unknown, values?: unknown): Promise<unknown> => {
      if (!this.enabled || typeof config !== 'string' || !isMarkedForPreparing(config)) return send(config, values)
      try {
        return await send({ name: this.nameOf(config), text: config, values }, undefined)
      } catch (error) {
        if ((error as { code?: unknown }).code === STATEMENT_MISSING) this.stop()
        throw error
      }
    }
    client.query = query as pg.Client['query']
  }

  private nameOf(text: string): string {
    let name = this.names.get(text)
    if (name === undefined) {
      const label = text.slice(PREPARED_MARK.length, text.indexOf(' */'))
      name = `${label}_${createHash('sha256').update(text).digest('hex').slice(0, 12)}`
      this.names.set(text, name)
    }
    return name
  }

  private stop(): void {
    if (!this.enabled) return
    this.enabled = false
    this.warn(
      'hearth: a prepared statement was missing on its server connection (a connection pooler in transaction mode?); statements are no longer prepared in this process. Set HEARTH_PREPARED_STATEMENTS=off behind such a pooler.',
    )
  }
}

/**
 * Whether `client` talks to PostgreSQL itself: the address and port the server says this
 * connection reached are the ones the client connected to. A pooler in between (PgBouncer on its
 * own port or host) answers with PostgreSQL's, so it is told apart; so is a Unix socket, whose
 * server address is NULL, since a pooler may listen on one too.
 */
export async function detectDirectConnection(client: pg.Client): Promise<boolean> {
  const result = await client.query<{ address: string | null; port: number | null }>(
    'SELECT host(inet_server_addr()) AS address, inet_server_port() AS port',
  )
  const server = result.rows[0]
  const socket = (client as unknown as { connection: { stream: { remoteAddress?: string; remotePort?: number } } })
    .connection.stream
  if (!server?.address || server.port === null || !socket.remoteAddress) return false
  return server.port === socket.remotePort && sameAddress(server.address, socket.remoteAddress)
}

function sameAddress(a: string, b: string): boolean {
  const plain = (address: string) => address.replace(/^::ffff:/, '')
  return plain(a) === plain(b)
}
