// The embedded database is never opened by two processes: while `hearth serve` runs, hearth
// commands go through the server's control socket; a second server is refused; with no server,
// commands take turns on the directory's lock; a lock left by a dead process is ignored.
// One server is shared by the tests, which run in order and build on each other.
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { freshPgliteDir } from '../helpers/stores.ts'
import { call } from '../helpers/app.ts'
import {
  expectEndsAfterGivingBack,
  hearth,
  hearthJson,
  expectOneLineError,
  HearthProcess,
  KEY,
  killAll,
  lines,
  startServer,
  type Banner,
  type Result,
  type ServerProcess,
} from '../helpers/cli.ts'

const TIMEOUT = 120_000
const SAMPLES = SAMPLE_HOUSEHOLDS.length

let dataDir = ''
let env: Record<string, string> = {}
let server: ServerProcess
let banner: Banner
let secondServe: Promise<Result>
const lockFile = () => path.join(dataDir, 'hearth.lock')
const socketFile = () => path.join(dataDir, 'hearth.sock')
const lockHolder = () => JSON.parse(readFileSync(lockFile(), 'utf8')) as { pid: number; role: string; socket?: string }

function demo(): { key: string; orgId: string } {
  if (!banner.demoKey || !banner.demoOrgId) throw new Error(`no demo in the banner:\n${banner.text}`)
  return { key: banner.demoKey, orgId: banner.demoOrgId }
}

const list = (key: string, query = '') => call(`${banner.apiUrl}/api/v1/relationships${query}`, key)

beforeAll(async () => {
  dataDir = freshPgliteDir()
  env = { HEARTH_DATA_DIR: dataDir, HEARTH_RATE_LIMIT_MAX: '1000000', HEARTH_ORG_RATE_LIMIT_MAX: '1000000' }
  ;({ server, banner } = await startServer(env))
  // A second server on the same directory, started now so that its wait (15 s) overlaps the tests.
  secondServe = hearth(['serve'], { ...env, PORT: '0', HEARTH_EMBED_PORT: '0' }, TIMEOUT)
}, TIMEOUT)

afterAll(async () => {
  await killAll()
  rmSync(dataDir, { recursive: true, force: true })
}, TIMEOUT)

describe('while hearth serve runs on the embedded database', () => {
  let one = { orgId: '', keyId: '', key: '' }

  it(
    'commands go through the running server while it answers HTTP traffic; what they make works over HTTP at once',
    async () => {
      expect(lockHolder()).toMatchObject({ pid: server.pid, role: 'server', socket: socketFile() })
      let traffic = true
      const statuses: number[] = []
      const load = async () => {
        while (traffic) statuses.push((await list(demo().key, '?pageSize=2')).status)
      }
      const loads = [load(), load()]
      let results: Record<string, unknown>[]
      try {
        results = await Promise.all([
          hearthJson(['orgs', 'create', '--name', 'Concurrent One'], env),
          hearthJson(['orgs', 'create', '--name', 'Concurrent Two'], env),
          hearthJson(['keys', 'create', '--org', demo().orgId, '--permissions', 'relationships:read'], env),
          hearthJson(['origins', 'add', '--org', demo().orgId, '--origin', 'https://crm.example.com'], env),
          hearthJson(['migrate'], env),
        ])
      } finally {
        traffic = false
        await Promise.all(loads)
      }
      expect(statuses.length).toBeGreaterThan(0)
      expect(new Set(statuses)).toEqual(new Set([200]))
      const [created, , demoKey, origin, migrated] = results
      expect(origin).toEqual({ origin: 'https://crm.example.com', added: true })
      expect(migrated).toMatchObject({ applied: [] })
      // The server still holds the directory: the commands did not take it.
      expect(lockHolder().pid).toBe(server.pid)

      // A key made by the CLI works against the running server immediately: the CLI wrote into
      // the server's database, not into a second copy of the files.
      expect(demoKey?.key).toMatch(KEY)
      const withDemoKey = await list(String(demoKey?.key))
      expect(withDemoKey.status).toBe(200)
      expect(withDemoKey.body.total).toBe(SAMPLES)

      const orgId = String(created?.id)
      const key = await hearthJson(
        ['keys', 'create', '--org', orgId, '--permissions', 'relationships:read,relationships:write'],
        env,
      )
      one = { orgId, keyId: String(key.id), key: String(key.key) }
      const empty = await list(one.key)
      expect(empty.status).toBe(200)
      expect(empty.body.total).toBe(0)
      expect(await hearthJson(['samples', 'add', '--org', orgId], env)).toEqual({ added: SAMPLES, skipped: 0 })
      const filled = await list(one.key)
      expect(filled.body.total).toBe(SAMPLES)
    },
    TIMEOUT,
  )

  it(
    'hearth keys revoke makes the key get 401 at once; refusals from the server are exit 2',
    async () => {
      const [revoked, missing] = await Promise.all([
        hearthJson(['keys', 'revoke', one.keyId], env),
        hearth(['samples', 'add', '--org', randomUUID()], env),
      ])
      expect(revoked.id).toBe(one.keyId)
      const after = await list(one.key)
      expect(after.status).toBe(401)
      expect(after.body.code).toBe('api_key_revoked')
      expect((await list(demo().key)).status).toBe(200)

      expectOneLineError(missing, 2, 'no organization has the id')
    },
    TIMEOUT,
  )

  it(
    "a second hearth serve on the same data directory gives up with a message naming the running server's pid",
    async () => {
      const second = await secondServe
      expect(second.stdout).not.toContain('Hearth is running')
      expectOneLineError(
        second,
        1,
        `another Hearth server (pid ${server.pid}) is using the embedded database in ${dataDir}`,
        'Stop it first, or point HEARTH_DATA_DIR at another directory.',
      )
      // The first server is undisturbed.
      expect(lockHolder().pid).toBe(server.pid)
      expect((await list(demo().key)).status).toBe(200)
    },
    TIMEOUT,
  )

  it(
    'SIGTERM stops the server (exit 0, lock and socket removed); opened again, everything is there',
    async () => {
      server.child.kill('SIGTERM')
      const exit = await expectEndsAfterGivingBack(server, dataDir, () => !existsSync(lockFile()))
      expect(exit).toEqual({ code: 0, signal: null })
      expect(server.stderr).toContain('SIGTERM: finishing in-flight requests, then stopping')
      expect(existsSync(lockFile())).toBe(false)
      expect(existsSync(socketFile())).toBe(false)

      // No server now: the commands open the directory themselves.
      const [orgs, keys, origins] = await Promise.all([
        hearthJson(['orgs', 'list'], env),
        hearthJson(['keys', 'list', '--org', one.orgId], env),
        hearthJson(['origins', 'list', '--org', demo().orgId], env),
      ])
      const households = Object.fromEntries(
        (orgs.orgs as { name: string; households: number }[]).map((o) => [o.name, o.households]),
      )
      expect(households).toEqual({ 'Demo Wealth Partners': SAMPLES, 'Concurrent One': SAMPLES, 'Concurrent Two': 0 })
      const oneKeys = keys.keys as { id: string; revokedAt: string | null }[]
      expect(oneKeys.map((k) => k.id)).toEqual([one.keyId])
      expect(oneKeys[0]?.revokedAt).not.toBeNull()
      expect(origins).toEqual({ origins: ['https://crm.example.com'] })
      expect(existsSync(lockFile())).toBe(false)
    },
    TIMEOUT,
  )
})

describe('with no server running', () => {
  it(
    'two hearth commands started at the same time both succeed (they take turns on the lock)',
    async () => {
      const [a, b] = await Promise.all([
        hearth(['orgs', 'create', '--name', 'Together A', '--json'], env),
        hearth(['samples', 'add', '--org', demo().orgId, '--json'], env),
      ])
      expect(a.code, a.stderr).toBe(0)
      expect(b.code, b.stderr).toBe(0)
      expect(JSON.parse(lines(b.stdout).at(-1) ?? '')).toEqual({ added: 0, skipped: SAMPLES })
      const orgs = (await hearthJson(['orgs', 'list'], env)).orgs as { name: string }[]
      expect(orgs.map((o) => o.name)).toContain('Together A')
      expect(existsSync(lockFile())).toBe(false)
    },
    TIMEOUT,
  )

  it(
    'a lock (and socket file) left by a dead process blocks neither a command nor a server',
    async () => {
      const dead = spawnSync(process.execPath, ['-e', '']).pid
      const stale = () => {
        writeFileSync(
          lockFile(),
          JSON.stringify({ pid: dead, role: 'server', socket: socketFile(), since: new Date().toISOString() }),
        )
        writeFileSync(socketFile(), '')
      }
      stale()
      const orgs = await hearth(['orgs', 'list', '--json'], env)
      expect(orgs.code, orgs.stderr).toBe(0)
      expect(existsSync(lockFile())).toBe(false)

      stale()
      const { server: restarted } = await startServer(env)
      expect(lockHolder().pid).toBe(restarted.pid)
      const through = await hearth(['orgs', 'list', '--json'], env)
      expect(through.code, through.stderr).toBe(0)
      restarted.child.kill('SIGTERM')
      const exit = await expectEndsAfterGivingBack(restarted, dataDir, () => !existsSync(lockFile()))
      expect(exit).toEqual({ code: 0, signal: null })
      expect(existsSync(socketFile())).toBe(false)
    },
    TIMEOUT,
  )
})

// A data directory too long for a Unix socket path: the socket moves to a private temp directory,
// named by its absolute path in the lock, so commands from any folder reach the server.
describe('a data directory with a long path', () => {
  it(
    'the server starts, and a command run from another folder goes through it',
    async () => {
      const base = mkdtempSync(path.join(os.tmpdir(), 'hearth-long-'))
      const longDir = path.join(base, `data-${'x'.repeat(100)}`)
      renameSync(freshPgliteDir(), longDir)
      try {
        const longEnv = { HEARTH_DATA_DIR: longDir }
        const { server: longServer } = await startServer(longEnv)
        const result = await new HearthProcess(['orgs', 'list', '--json'], longEnv, { cwd: base }).result()
        expect(result.code, result.stderr).toBe(0)
        longServer.child.kill('SIGTERM')
        expect(
          await expectEndsAfterGivingBack(longServer, longDir, () => !existsSync(path.join(longDir, 'hearth.lock'))),
        ).toEqual({ code: 0, signal: null })
      } finally {
        await killAll()
        rmSync(base, { recursive: true, force: true })
      }
    },
    TIMEOUT,
  )
})
