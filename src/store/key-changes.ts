// Tells this process when API keys may have changed in the database, made by any process: the
// triggers of migration 0020 notify the channel KEY_CHANGES_CHANNEL when such a change commits.
// The API's key cache (src/auth/api-key-cache.ts) keeps a resolved key only while changes are
// watched, and only what it read within one generation (no change seen since the read began).
//
// On PostgreSQL a connection of its own LISTENs. It is opened only when this process reaches
// PostgreSQL itself (prepared-statements.ts, detectDirectConnection): through a pooler in
// transaction mode LISTEN does not hold, so there is no watch and every request reads its key
// (so too over a Unix socket, which that check cannot tell from a pooler's).
// While that connection is down (a restart, a failover, pg_terminate_backend) changes go unseen:
// the watch stops, says so on stderr, and opens a new connection a second later. A connection
// that dies without a word (a failover or a dropped route sends no reset, and a LISTEN connection
// only ever receives) is found by a query every 10 s, which must answer within 5 s.
//
// On the embedded database, its one session LISTENs and its thread passes each notification on
// (pglite-worker.ts).
import pg from 'pg'

/** The channel migration 0020's triggers notify. */
export const KEY_CHANGES_CHANNEL = 'hearth_api_keys'

export interface KeyChangeWatch {
  /** Whether changes are seen now: without that, nothing read may be kept. */
  readonly watching: boolean
  /** Goes up at each change seen, and whenever watching stops or starts again. */
  readonly generation: number
}

/** A watch that never watches: a pooler in between, or a test without one. */
export const NO_KEY_CHANGE_WATCH: KeyChangeWatch = { watching: false, generation: 0 }

/** The state both stores' watches keep; their connections tell it what happened. */
export class KeyChangeCounter implements KeyChangeWatch {
  watching = false
  generation = 0

  changed(): void {
    this.generation++
  }

  started(): void {
    this.watching = true
    this.generation++
  }

  stopped(): void {
    this.watching = false
    this.generation++
  }
}

/** How the watch checks its connection and comes back (tests shorten them). */
export interface WatchTimings {
  reconnectMs: number
  heartbeatMs: number
  /** How long connecting, LISTEN and each heartbeat may take before the connection counts as lost. */
  timeoutMs: number
}

const TIMINGS: WatchTimings = { reconnectMs: 1000, heartbeatMs: 10_000, timeoutMs: 5000 }

/** Watches on a LISTEN connection of its own, opened again after it is lost, until closed. */
export class PostgresKeyChangeWatch {
  readonly counter = new KeyChangeCounter()
  private client: pg.Client | undefined
  private retry: NodeJS.Timeout | undefined
  private heartbeat: NodeJS.Timeout | undefined
  private closed = false
  /** The operator was told that changes go unheard (said once, until they are heard again). */
  private unheard = false

  constructor(
    private readonly connectionString: string,
    private readonly warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
    private readonly timings: WatchTimings = TIMINGS,
  ) {}

  /** Opens the connection; a failure is retried in the background, not thrown. */
  async start(): Promise<void> {
    if (this.closed) return
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'hearth-key-changes',
      connectionTimeoutMillis: this.timings.timeoutMs,
      query_timeout: this.timings.timeoutMs,
      keepAlive: true,
    })
    this.client = client
    // A lost connection emits 'error' then 'end'; each stops the watch (once) and plans a new one.
    const lost = (error?: unknown) => {
      if (this.client !== client) return
      this.client = undefined
      clearInterval(this.heartbeat)
      if (!this.unheard)
        this.warn(
          `hearth: the connection that hears of API key changes is down (${error instanceof Error ? error.message : 'it ended'}); every request reads its key until it is back`,
        )
      this.unheard = true
      this.counter.stopped()
      void client.end().catch(() => undefined)
      this.reconnectLater()
    }
    client.on('error', lost)
    client.on('end', () => lost())
    client.on('notification', (message) => {
      if (message.channel === KEY_CHANGES_CHANNEL && this.client === client) this.counter.changed()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`)
    } catch (error) {
      lost(error)
      return
    }
    if (this.client !== client) return
    // Watching from here on: anything read before this moment belongs to an older generation.
    this.counter.started()
    if (this.unheard) this.warn('hearth: hearing of API key changes again; resolved keys are kept again')
    this.unheard = false
    this.heartbeat = setInterval(() => {
      client.query('SELECT 1').catch(lost)
    }, this.timings.heartbeatMs)
    this.heartbeat.unref()
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return
    this.retry = setTimeout(() => {
      this.retry = undefined
      void this.start()
    }, this.timings.reconnectMs)
    this.retry.unref()
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    clearInterval(this.heartbeat)
    const client = this.client
    this.client = undefined
    this.counter.stopped()
    await client?.end().catch(() => undefined)
  }
}
