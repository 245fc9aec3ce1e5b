// `hearth serve --workers <n>`: the API in several processes on one port, on PostgreSQL. The
// primary migrates once and keeps the one-per-machine services; a worker that ends is replaced
// while the others keep answering; workers that keep failing at start make the primary give up;
// SIGTERM stops them all. On the embedded database it refuses before touching anything.
import http from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMigrations } from '../../src/store/migrate.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import { call } from '../helpers/app.ts'
import { expectOneLineError, hearth, killAll, ServerProcess, until, workerPids, type Banner } from '../helpers/cli.ts'
import { HttpBrowser, signInOverHttp } from '../helpers/oidc-walk.ts'

const TIMEOUT = 180_000

afterAll(async () => {
  await killAll()
}, TIMEOUT)

/** The parent of a process, or undefined once it has ended (Linux /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const state = /^State:\s+(\S)/m.exec(status)?.[1]
    return state === 'Z' ? undefined : Number(/^PPid:\s+(\d+)/m.exec(status)?.[1])
  } catch {
    return undefined
  }
}

/** GET on a connection of its own (no keep-alive), so that each request is handed to a worker afresh. */
function getOnNewConnection(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent: false, headers: { authorization: `Bearer ${key}`, connection: 'close' } },
      (response) => {
        response.resume()
        response.once('end', () => resolve(response.statusCode ?? 0))
      },
    )
    request.once('error', reject)
  })
}

async function statuses(banner: Banner, count: number): Promise<number[]> {
  const url = `${banner.apiUrl}/api/v1/relationships?pageSize=1`
  return Promise.all(Array.from({ length: count }, () => getOnNewConnection(url, banner.demoKey ?? '')))
}

/** Waits for the primary's line about a worker that ended, and returns its replacement's pid. */
async function replacementOf(server: ServerProcess, pid: number, signal: string): Promise<number> {
  const pattern = new RegExp(`^worker ${pid} was ended by ${signal}; starting worker (\\d+) in its place$`, 'm')
  await until(() => pattern.test(server.stderr), `the primary did not replace worker ${pid}:\n${server.stderr}`)
  return Number(pattern.exec(server.stderr)?.[1])
}

describe('hearth serve --workers on the embedded database', () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-workers-'))
  const dataDir = path.join(parent, 'data')
  afterAll(() => rmSync(parent, { recursive: true, force: true }))

  it('refuses HEARTH_WORKERS=2 with one line and exit 2, creating no data directory', async () => {
    const result = await hearth(['serve'], { HEARTH_DATA_DIR: dataDir, HEARTH_WORKERS: '2' })
    expectOneLineError(
      result,
      2,
      'hearth serve: HEARTH_WORKERS=2 needs PostgreSQL (DATABASE_URL): the embedded database can be opened by one process only',
    )
    expect(existsSync(dataDir)).toBe(false)
  })

  it('refuses --workers 4 the same way; the flag wins over HEARTH_WORKERS', async () => {
    const result = await hearth(['serve', '--workers', '4'], { HEARTH_DATA_DIR: dataDir, HEARTH_WORKERS: '1' })
    expectOneLineError(result, 2, 'hearth serve: --workers 4 needs PostgreSQL (DATABASE_URL)')
    expect(existsSync(dataDir)).toBe(false)
  })

  it('says what --workers and HEARTH_WORKERS accept', async () => {
    for (const value of ['0', 'two', '65', '-1']) {
      const result = await hearth(['serve', '--workers', value], { HEARTH_DATA_DIR: dataDir })
      expectOneLineError(result, 2, '--workers must be a whole number from 1 to 64')
    }
    const fromEnv = await hearth(['serve'], { HEARTH_DATA_DIR: dataDir, HEARTH_WORKERS: 'many' })
    expectOneLineError(fromEnv, 2, 'HEARTH_WORKERS=many')
    expect(existsSync(dataDir)).toBe(false)
  })
})

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to test hearth serve --workers',
)

describe.runIf(hasPostgres)('hearth serve --workers 2 on PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> }
  let server: ServerProcess
  let banner: Banner

  beforeAll(async () => {
    database = await freshPostgresDatabase()
    server = new ServerProcess({ DATABASE_URL: database.url }, ['serve', '--workers', '2'])
    banner = await server.ready(TIMEOUT)
  }, TIMEOUT)

  afterAll(async () => {
    await server?.stop('SIGKILL')
    await database?.drop()
  }, TIMEOUT)

  it('the banner names two workers, both children of the primary', () => {
    const pids = workerPids(banner)
    expect(pids).toHaveLength(2)
    for (const pid of pids) expect(parentOf(pid)).toBe(server.pid)
    expect(banner.text).toContain('Database     PostgreSQL (DATABASE_URL)')
  })

  it('migrated once: one process applied the migrations, and each version is recorded once', async () => {
    const versions = readMigrations().map((migration) => migration.version)
    expect(server.stdout.match(/^Applied migrations /gm)).toHaveLength(1)
    expect(server.stdout).toContain(`the schema is at version ${Math.max(...versions)}.`)
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
      expect(rows.map((row) => row.version)).toEqual(versions)
    } finally {
      await client.end()
    }
  })

  it(
    "signs in through the development identity provider in the primary, and a chart token minted by a worker verifies against the embed origin's keys",
    async () => {
      const browser = new HttpBrowser()
      const { callback } = await signInOverHttp(browser, banner.apiUrl, { choice: { subject: 'demo-admin' } })
      expect(callback.status).toBe(303)
      const me = await browser.request(`${banner.apiUrl}/api/v1/me`)
      expect(me.status).toBe(200)

      const minted = await call(`${banner.apiUrl}/api/v1/embed/chart-sessions`, banner.demoKey, {
        body: { frameOrigin: banner.demoPartnerUrl },
      })
      expect(minted.status).toBe(201)
      const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', banner.embedUrl))
      const { payload } = await jwtVerify(String(minted.body.token), keys, {
        issuer: banner.apiUrl,
        audience: banner.embedUrl,
      })
      expect(payload.sub).toBe(banner.demoOrgId)
    },
    TIMEOUT,
  )

  it(
    'a worker killed with SIGKILL is replaced while the other answers; then the replacement answers for the other',
    async () => {
      expect(await statuses(banner, 40)).toEqual(Array(40).fill(200))
      const [first = 0, second = 0] = workerPids(banner)

      process.kill(first, 'SIGKILL')
      const third = await replacementOf(server, first, 'SIGKILL')
      // The primary no longer hands connections to the dead worker: every one is answered.
      expect(await statuses(banner, 40)).toEqual(Array(40).fill(200))
      await until(
        () => server.stderr.includes(`worker ${third} is listening (in place of ${first})\n`),
        'the replacement did not listen',
      )
      expect(parentOf(third)).toBe(server.pid)

      // Now the other original goes: what answers is the replacement (and the other's own replacement).
      process.kill(second, 'SIGKILL')
      const fourth = await replacementOf(server, second, 'SIGKILL')
      expect(await statuses(banner, 40)).toEqual(Array(40).fill(200))
      await until(
        () => server.stderr.includes(`worker ${fourth} is listening (in place of ${second})\n`),
        'the second replacement did not listen',
      )
      expect([parentOf(first), parentOf(second)]).toEqual([undefined, undefined])
      expect(server.exit).toBeUndefined()
    },
    TIMEOUT,
  )

  it(
    'SIGTERM: every worker ends, then the primary exits 0',
    async () => {
      const replacements = [...server.stderr.matchAll(/^worker \d+ .*; starting worker (\d+) in its place$/gm)].map(
        (match) => Number(match[1]),
      )
      const workers = [...workerPids(banner), ...replacements].filter((pid) => parentOf(pid) === server.pid)
      expect(workers).toHaveLength(2)
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
      for (const pid of workers) expect(parentOf(pid), `worker ${pid}`).toBeUndefined()
    },
    TIMEOUT,
  )
})

describe.runIf(hasPostgres)('hearth serve --workers when workers keep failing at start', () => {
  let database: { url: string; drop: () => Promise<void> }

  afterAll(async () => {
    await database?.drop()
  }, TIMEOUT)

  it(
    'gives up with one clear line and exit 1 instead of starting workers forever',
    async () => {
      database = await freshPostgresDatabase()
      const server = new ServerProcess({ DATABASE_URL: database.url }, ['serve', '--workers', '2'])
      const banner = await server.ready(TIMEOUT)
      const [first = 0] = workerPids(banner)
      // With the database gone, every new worker fails as it opens the store.
      await database.drop()
      process.kill(first, 'SIGKILL')
      const exit = await server.result(TIMEOUT)
      expect(exit.code, exit.stderr).toBe(1)
      expect(exit.stderr).toMatch(
        /^hearth serve: workers keep ending right after they start \(5 in a row; the last, \d+, exited with code 1\): stopping instead of starting more$/m,
      )
      expect(exit.stderr).toMatch(/^hearth serve failed: .*does not exist/m)
      for (const pid of workerPids(banner)) expect(parentOf(pid)).toBeUndefined()
    },
    TIMEOUT,
  )
})
