// A PgBouncer of the test's own in transaction mode, in front of DATABASE_URL's PostgreSQL, set up
// as docs/scaling.md tells operators to. It trusts its clients and passes no password on: it needs a
// server that trusts loopback connections of DATABASE_URL's user, as CI's does. Debian's pgbouncer refuses to run as root, so as root it
// runs as the postgres user (setpriv execs it: the PID we hold is pgbouncer's own).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from '../../src/net/free-port.ts'
import { requirePart } from './environment.ts'
import { until } from './redis.ts'

const BINARY = '/usr/sbin/pgbouncer'

export function pgbouncerAvailable(): boolean {
  const probe = spawnSync(BINARY, ['--version'], { stdio: 'ignore' })
  return requirePart(
    'PgBouncer',
    probe.status === 0,
    'install pgbouncer (apt-get install pgbouncer) to test Hearth behind a pooler in transaction mode',
  )
}

/** pgbouncer running on `config`, with its output so far. */
interface Running {
  child: ChildProcess
  output: () => string
}

function launch(config: string): Running {
  const asRoot = process.getuid?.() === 0
  const [command, args] = asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', BINARY, config]]
    : [BINARY, [config]]
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let log = ''
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return { child, output: () => log }
}

export class ThrowawayPgBouncer {
  private constructor(
    private running: Running,
    private readonly dir: string,
    private readonly config: string,
    readonly port: number,
    private readonly user: string,
    private readonly database: string,
  ) {}

  /** Listens on a free loopback port; `serverConnections` per database and user, as default_pool_size. */
  static async start(postgresUrl: string, serverConnections: number): Promise<ThrowawayPgBouncer> {
    const server = new URL(postgresUrl)
    const user = decodeURIComponent(server.username) || 'postgres'
    const port = await freePort('127.0.0.1')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-pgbouncer-'))
    chmodSync(dir, 0o755)
    const config = path.join(dir, 'pgbouncer.ini')
    const users = path.join(dir, 'userlist.txt')
    writeFileSync(users, `"${user}" ""\n`, { mode: 0o644 })
    writeFileSync(
      config,
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || '5432'}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${users}`,
        'pool_mode = transaction',
        `default_pool_size = ${serverConnections}`,
        'max_client_conn = 500',
        // docs/scaling.md: pg sends statement_timeout at connect; the server's role setting applies instead.
        'ignore_startup_parameters = statement_timeout',
        '',
      ].join('\n'),
      { mode: 0o644 },
    )
    const bouncer = new ThrowawayPgBouncer(launch(config), dir, config, port, user, server.pathname.slice(1))
    try {
      await bouncer.answering()
    } catch (error) {
      await bouncer.stop()
      throw error
    }
    return bouncer
  }

  private async answering(): Promise<void> {
    const { child, output } = this.running
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`pgbouncer exited (${code}) before it answered:\n${output()}`))),
    )
    exited.catch(() => {
      // Raced below; this only keeps its rejection from going unhandled once the race is over.
    })
    await Promise.race([until(() => this.answers(this.database), 10_000, 'pgbouncer to answer'), exited])
  }

  /**
   * Kills pgbouncer (SIGKILL: every client and server connection ends at once, as in a crash or a
   * reset by the network) and starts it again on the same port; returns when it answers.
   */
  async restart(): Promise<void> {
    await this.end('SIGKILL')
    this.running = launch(this.config)
    await this.answering()
  }

  /** The URL of `database` through this bouncer. */
  url(database: string): string {
    return `postgres://${encodeURIComponent(this.user)}@127.0.0.1:${this.port}/${database}`
  }

  private async answers(database: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url(database) })
    client.on('error', () => {
      // Failures show in connect() and query() below, which answer false.
    })
    try {
      await client.connect()
      await client.query('SELECT 1')
      return true
    } catch {
      return false
    } finally {
      await client.end().catch(() => {
        // The probe has its answer; a failed close changes nothing.
      })
    }
  }

  /** What pgbouncer wrote, for a failing test's message. */
  get log(): string {
    return this.running.output()
  }

  /** SIGTERM by PID; SIGKILL if it is still there after 5 s (newer PgBouncers wait for their clients). */
  async stop(): Promise<void> {
    await this.end('SIGTERM')
    rmSync(this.dir, { recursive: true, force: true })
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const { child } = this.running
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child.once('exit', resolve))
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await gone
      clearTimeout(timer)
    }
  }
}
