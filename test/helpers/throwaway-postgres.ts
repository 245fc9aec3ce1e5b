// A PostgreSQL server of the test's own, in a temporary directory on a free loopback port, that the
// test may restart or stop as it likes (the shared server on DATABASE_URL must never be restarted).
// initdb and the server refuse to run as root, so as root they run as the postgres user (setpriv),
// as test/helpers/pgbouncer.ts runs pgbouncer. Trust authentication, user postgres; fsync off: the
// data is thrown away, and a crash of the machine is not what these tests are about.
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../src/net/free-port.ts'
import { requirePart } from './environment.ts'

// Debian's layout: /usr/lib/postgresql/<major>/bin, whichever major is installed (the newest).
const INSTALLED = '/usr/lib/postgresql'
const BIN = path.join(INSTALLED, newestMajor() ?? 'none', 'bin')

function newestMajor(): string | undefined {
  try {
    return readdirSync(INSTALLED)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a))[0]
  } catch {
    return undefined
  }
}

export function throwawayPostgresAvailable(): boolean {
  const probe = spawnSync(path.join(BIN, 'pg_ctl'), ['--version'], { stdio: 'ignore' })
  return requirePart(
    'PostgreSQL server binaries',
    probe.status === 0,
    `install PostgreSQL's server (${INSTALLED}/<major>/bin: initdb, pg_ctl) to test Hearth while PostgreSQL restarts`,
  )
}

/** `immediate`: the server stops without a checkpoint, as a crash or a failover would; `fast`: a clean restart. */
export type RestartMode = 'fast' | 'immediate'

export class ThrowawayPostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  private get dataDir(): string {
    return path.join(this.dir, 'data')
  }

  /** initdb, then start (about 3 s). */
  static async start(): Promise<ThrowawayPostgres> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-postgres-'))
    const server = new ThrowawayPostgres(dir, await freePort('127.0.0.1'))
    try {
      if (asRoot()) chownSync(dir, postgresUser().uid, postgresUser().gid)
      await server.run('initdb', [
        '-D',
        server.dataDir,
        '-U',
        'postgres',
        '--auth=trust',
        '--no-sync',
        '-E',
        'UTF8',
        '--locale=C',
      ])
      await server.pgCtl(['start'])
    } catch (error) {
      rmSync(dir, { recursive: true, force: true })
      throw error
    }
    return server
  }

  /** The URL of `database` on this server. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`
  }

  /** Stops the server (every connection ends) and starts it again on the same port; returns when it accepts connections. */
  async restart(mode: RestartMode): Promise<void> {
    await this.pgCtl(['restart', '-m', mode])
  }

  /** Stops it for good and deletes its files. */
  async stop(): Promise<void> {
    try {
      if (existsSync(path.join(this.dataDir, 'postmaster.pid'))) await this.pgCtl(['stop', '-m', 'immediate'])
    } finally {
      rmSync(this.dir, { recursive: true, force: true })
    }
  }

  /** What the server logged, for a failing test's message. */
  get log(): string {
    try {
      return readFileSync(path.join(this.dir, 'server.log'), 'utf8').slice(-20_000)
    } catch {
      return ''
    }
  }

  // Asynchronous, so that the test's clients keep sending requests while the server restarts.
  private pgCtl(args: string[]): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c full_page_writes=off -c max_connections=100`
    return this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      ...args,
    ])
  }

  private async run(program: string, args: string[]): Promise<void> {
    const file = path.join(BIN, program)
    const [command, argv] = asRoot()
      ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', file, ...args]]
      : [file, args]
    try {
      await promisify(execFile)(command, argv, { encoding: 'utf8', timeout: 90_000 })
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string }
      throw new Error(
        `${program} ${args.join(' ')} failed: ${String(error)}\n${stdout ?? ''}\n${stderr ?? ''}\n${this.log}`,
        { cause: error },
      )
    }
  }
}

function asRoot(): boolean {
  return process.getuid?.() === 0
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'))
  const [, , uid, gid] = line?.split(':') ?? []
  if (uid === undefined || gid === undefined) throw new Error('there is no postgres user to run the server as')
  return { uid: Number(uid), gid: Number(gid) }
}
