// How busy the store's connections are, the same three numbers for both stores: PostgreSQL reads
// them from pg.Pool; PGlite has one connection, which single statements share and a transaction holds
// alone (pglite-thread.ts), so a thin driver wrapper counts who uses it and who waits.
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely'

export interface PoolStats {
  /** Connections open (PGlite: 1 while open). */
  total: number
  /** Open connections not serving a query. */
  idle: number
  /**
   * Queries (or transactions) waiting for a connection. PGlite: those held back by a transaction; a
   * transaction waiting for its turn counts as in use, and single statements go to the database's
   * thread, where they queue, at once.
   */
  waiting: number
}

/** Counts held and awaited connections of a single-connection dialect (PGlite). */
export class ConnectionUse {
  busy = 0
  waiting = 0

  stats(open: boolean): PoolStats {
    return open
      ? { total: 1, idle: this.busy > 0 ? 0 : 1, waiting: this.waiting }
      : { total: 0, idle: 0, waiting: this.waiting }
  }

  /** The dialect with its driver wrapped; everything else is the dialect's own. */
  wrap(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => new CountingDriver(dialect.createDriver(), this),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
    }
  }
}

class CountingDriver implements Driver {
  savepoint?: Driver['savepoint']
  rollbackToSavepoint?: Driver['rollbackToSavepoint']
  releaseSavepoint?: Driver['releaseSavepoint']

  constructor(
    private readonly inner: Driver,
    private readonly use: ConnectionUse,
  ) {
    // Kysely tests for these to know whether savepoints are supported: forward only what exists.
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner)
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner)
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner)
  }

  init(): Promise<void> {
    return this.inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.use.waiting++
    try {
      const connection = await this.inner.acquireConnection()
      this.use.busy++
      return connection
    } finally {
      this.use.waiting--
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.use.busy--
    return this.inner.releaseConnection(connection)
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings)
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection)
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection)
  }

  destroy(): Promise<void> {
    return this.inner.destroy()
  }
}
