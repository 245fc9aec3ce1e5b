// Redis for the shared rate-limit tests: the run's Redis (REDIS_URL, shared with other test files
// and whatever else uses it, so tests touch only keys under their own prefix, never FLUSHALL), and
// throw-away redis-server processes the outage tests may kill (by their own PID only).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { freePort } from '../../src/net/free-port.ts'
import { REDIS_URL, requirePart } from './environment.ts'

/** True when REDIS_URL is set; otherwise a loud skip (or a failure under HEARTH_REQUIRE_ALL=1). */
export function redisAvailable(): boolean {
  return requirePart(
    'Redis',
    REDIS_URL !== undefined,
    'set REDIS_URL=redis://127.0.0.1:6379 to test shared rate limits',
  )
}

/** True when a redis-server binary is on PATH (the outage tests start and kill their own). */
export function redisServerAvailable(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' })
  return requirePart(
    'redis-server',
    probe.status === 0,
    'install redis-server (apt-get install redis-server) to test rate limits through a Redis outage',
  )
}

/** A key prefix no other test (or run) uses, under the service's own `hearth:rl:` namespace. */
export function testPrefix(): string {
  return `hearth:rl:test-${randomBytes(6).toString('hex')}:`
}

/** Deletes this test's keys only. */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true })
  await client.connect()
  try {
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      if (keys.length > 0) await client.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    client.disconnect()
  }
}

/** A redis-server of this test's own on a free loopback port, with nothing saved to disk. */
export class ThrowawayRedis {
  private child: ChildProcess | undefined

  private constructor(readonly port: number) {}

  static async start(): Promise<ThrowawayRedis> {
    const server = new ThrowawayRedis(await freePort('127.0.0.1'))
    await server.restart()
    return server
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** Starts redis-server on this port (again) and waits until it answers PING. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running')
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    )
    this.child = child
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it answered`))),
    )
    exited.catch(() => {
      // Raced below; this only keeps its rejection from going unhandled once the race is over.
    })
    await Promise.race([waitForPing(this.url), exited])
  }

  /** SIGKILL by PID, as a crash would; resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child
    if (!child) return
    this.child = undefined
    if (child.exitCode !== null || child.signalCode !== null) return
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGKILL')
    await gone
  }
}

/** Polls PING (a fresh connection each time) until it answers, for at most `deadlineMs`. */
async function waitForPing(url: string, deadlineMs = 10_000): Promise<void> {
  await until(
    async () => {
      const client = new Redis(url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      })
      client.on('error', () => {
        // Failures show in connect() and ping() below, which answer false.
      })
      try {
        await client.connect()
        return (await client.ping()) === 'PONG'
      } catch {
        return false
      } finally {
        client.disconnect()
      }
    },
    deadlineMs,
    `redis-server at ${url} to answer`,
  )
}

/** Polls `condition` every 20 ms until it holds; fails after `deadlineMs` naming what it waited for. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  deadlineMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${deadlineMs} ms for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
