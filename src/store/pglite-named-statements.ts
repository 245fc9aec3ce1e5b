// Named statements on the embedded database, for the statements marked to be prepared
// (prepared-statements.ts: list pages, the create, the read-back with its events). PGlite's query()
// parses and plans every statement again and makes six calls into WebAssembly for it (Parse,
// Describe, Bind, Describe, Execute, Sync, each its own round trip). Here a marked statement is
// parsed once per session under a name of its own, and each call sends Bind, Describe, Execute and
// Sync together: with 100,000 households the bench's list pages went 1.99x in ratio to the same
// run's ceiling (bench/RESULTS.md, issue 18, third part). The session is the thread's one connection;
// at most MAX_STATEMENTS names live at once, the least recently used closed first, so that no client
// can fill the WebAssembly heap (which never shrinks) with plans by varying its lists.
import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite'

const { serialize } = protocol

/** More than the marked texts in common use (a few list kinds and sizes, the create, the read-back). */
const MAX_STATEMENTS = 64

/** invalid_sql_statement_name: the name is gone (a DEALLOCATE in a script, say). */
const STATEMENT_MISSING = '26000'

interface Statement {
  name: string
  /** The type of each parameter, as PostgreSQL inferred it when the statement was parsed. */
  parameterTypes: number[]
}

/** Protocol messages sent together, in one call into WebAssembly. */
const joined = (...messages: Uint8Array[]): Uint8Array => Buffer.concat(messages)

export class NamedStatements {
  /** By text, least recently used first. */
  private readonly statements = new Map<string, Statement>()
  private named = 0

  constructor(private readonly database: PGlite) {}

  async query(text: string, parameters: unknown[]): Promise<Results> {
    const statement = await this.statement(text)
    const values = parameters.map((value, index) => this.serialized(value, statement.parameterTypes[index]))
    // An error (thrown by execProtocol) comes after the whole message, Sync included, has been
    // processed: the session is ready for the next statement, as after query().
    try {
      const result = await this.database.execProtocol(
        joined(
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ),
      )
      // parseResults answers one result per statement, at least one.
      return parse.parseResults(result.messages, this.database.parsers)[0]!
    } catch (error) {
      // Forgotten here too, so that the next call parses it again.
      if ((error as { code?: unknown }).code === STATEMENT_MISSING) this.statements.delete(text)
      throw error
    }
  }

  private async statement(text: string): Promise<Statement> {
    const known = this.statements.get(text)
    if (known) {
      // Now the most recently used.
      this.statements.delete(text)
      this.statements.set(text, known)
      return known
    }
    const oldest = this.statements.size >= MAX_STATEMENTS ? this.statements.entries().next().value : undefined
    if (oldest) {
      this.statements.delete(oldest[0])
      await this.database.execProtocol(joined(serialize.close({ type: 'S', name: oldest[1].name }), serialize.sync()))
    }
    const name = `hearth_${++this.named}`
    const described = await this.database.execProtocol(
      joined(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()),
    )
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(described.messages) }
    this.statements.set(text, statement)
    return statement
  }

  /** A parameter's text, as query() writes it: by the serializer of its inferred type, if any. */
  private serialized(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null
    const serializer = type === undefined ? undefined : this.database.serializers[type]
    if (serializer) return serializer(value)
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value)
    if (value instanceof Date) return value.toISOString()
    // query() would send "[object Object]": say what is wrong instead.
    throw new TypeError(
      `a parameter of PostgreSQL type ${type ?? 'unknown'} cannot be sent as a JavaScript ${typeof value}`,
    )
  }
}
