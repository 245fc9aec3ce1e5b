// Named statements on the embedded database, for the statements marked to be prepared
// (prepared-statements.ts: the list page, the create, the read-back with its events). PGlite's
// query() parses and plans every statement again and makes six calls into WebAssembly for it
// (Parse, Describe, Bind, Describe, Execute, Sync, each its own round trip); a list page's statement
// took 2.8 ms that way, 1.4 ms as a named statement bound and executed in one call (bench/RESULTS.md,
// issue 18). Here a marked statement is parsed once per session under a name of its own, and each
// call sends Bind, Describe, Execute and Sync together. The session is the thread's one connection,
// so the names live as long as the database is open; the marked texts are few (a list's LIMIT is
// rounded, households.ts), so they are kept without a bound.
import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite'

const { serialize } = protocol

interface Statement {
  name: string
  /** The type of each parameter, as PostgreSQL inferred it when the statement was parsed. */
  parameterTypes: number[]
}

function joined(...messages: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(messages.reduce((length, message) => length + message.length, 0))
  let offset = 0
  for (const message of messages) {
    whole.set(message, offset)
    offset += message.length
  }
  return whole
}

export class NamedStatements {
  private readonly statements = new Map<string, Statement>()

  constructor(private readonly database: PGlite) {}

  async query(text: string, parameters: unknown[]): Promise<Results> {
    const statement = this.statements.get(text) ?? (await this.parse(text))
    const values = parameters.map((value, index) => this.serialized(value, statement.parameterTypes[index]))
    // An error (thrown by execProtocol) comes after the whole message, Sync included, has been
    // processed: the session is ready for the next statement, as after query().
    const result = await this.database.execProtocol(
      joined(
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ),
    )
    const [results] = parse.parseResults(result.messages, this.database.parsers)
    if (!results) throw new Error('a named statement gave no result')
    return results
  }

  private async parse(text: string): Promise<Statement> {
    const name = `hearth_${this.statements.size + 1}`
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
