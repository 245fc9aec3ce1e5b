// `hearth serve` as a newcomer meets it: on an empty data directory it creates the demo
// organization and prints a curl line that works as pasted; restarts print a new demo key; the
// demo is off with HEARTH_DEMO=0 and in production; bad settings stop it with their name.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_HOUSEHOLDS } from '../../src/domain/sample-households.ts'
import { freePort } from '../../src/net/free-port.ts'
import { freshPgliteDir } from '../helpers/stores.ts'
import { call } from '../helpers/app.ts'
import {
  expectEndsAfterGivingBack,
  hearth,
  hearthJson,
  KEY,
  killAll,
  lines,
  ROOT,
  run,
  ServerProcess,
  startServer,
  until,
  UUID,
  type Banner,
  type Result,
} from '../helpers/cli.ts'

const TIMEOUT = 180_000
const SAMPLES = SAMPLE_HOUSEHOLDS.length
const DAY = 86_400_000

const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-serve-'))
const dirs: string[] = []

afterAll(async () => {
  await killAll()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  rmSync(parent, { recursive: true, force: true })
}, TIMEOUT)

function lockGone(dataDir: string): () => boolean {
  return () => !existsSync(path.join(dataDir, 'hearth.lock'))
}

async function stopCleanly(server: ServerProcess, dataDir: string): Promise<void> {
  server.child.kill('SIGTERM')
  expect(await expectEndsAfterGivingBack(server, dataDir, lockGone(dataDir))).toEqual({ code: 0, signal: null })
}

describe('first start on an empty data directory', () => {
  // A directory that does not exist yet, as for `npm start` in a fresh checkout.
  const dataDir = path.join(parent, 'data')
  const env = { HEARTH_DATA_DIR: dataDir }
  let server: ServerProcess
  let banner: Banner
  let early: Promise<Result>

  beforeAll(async () => {
    server = new ServerProcess(env)
    // A command run while the server is still creating the database (seconds, on an empty directory).
    await until(
      () => existsSync(path.join(dataDir, 'hearth.lock')) || server.exit !== undefined,
      'the server took no lock',
      TIMEOUT,
    )
    early = hearth(['orgs', 'list', '--json'], env, TIMEOUT)
    banner = await server.ready(TIMEOUT)
  }, TIMEOUT)

  it('the banner names the URLs and the database, and the demo organization it created', () => {
    expect(banner.text).toContain('Hearth is running')
    expect(banner.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(banner.embedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(banner.apiUrl).not.toBe(banner.embedUrl)
    expect(banner.text).toContain(`Database     embedded, in ${dataDir}`)
    expect(banner.text).toMatch(
      /Demo organization "Demo Wealth Partners" \([0-9a-f-]{36}\), created with sample households\./,
    )
    expect(banner.demoOrgId).toMatch(UUID)
    expect(banner.demoKey).toMatch(KEY)
    expect(banner.curl).toBe(
      `curl -s -H "Authorization: Bearer ${banner.demoKey}" "${banner.apiUrl}/api/v1/relationships?pageSize=3"`,
    )
    expect(banner.text).toContain('Turn the demo off with HEARTH_DEMO=0')
  })

  // oidc-provider's two warnings that do not apply to a development provider (src/dev-idp/quiet-provider.ts).
  it('the development identity provider starts without "Unsupported runtime" or in-memory adapter warnings', () => {
    expect(banner.text).toContain('(development identity provider: choose a demo person, no password)')
    for (const output of [server.stdout, server.stderr]) {
      expect(output).not.toContain('Unsupported runtime')
      expect(output).not.toContain('in-memory adapter')
    }
  })

  // The README's example is checked line by line, so that it says what a first start prints today
  // (a new migration changes its first line). "…" stands for what differs from run to run; the
  // README's ports are the defaults; log lines depend on HEARTH_LOG_LEVEL (warn here).
  it("the README's banner example is what a first start prints", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    const example = /On the first start, `npm start`[\s\S]*?```\n([\s\S]*?)\n```/.exec(readme)?.[1]
    if (example === undefined) throw new Error("no banner example in the README's opening")
    const printed = lines(server.stdout)
    let from = 0
    for (const line of lines(example).filter((l) => !l.startsWith('{"level"'))) {
      const pattern = new RegExp(
        `^${line
          .split('…')
          .map((part) =>
            part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/127\\.0\\.0\\.1:300\d/g, '127\\.0\\.0\\.1:\\d+'),
          )
          .join('.*')}$`,
      )
      const at = printed.findIndex((candidate, i) => i >= from && pattern.test(candidate))
      expect(at, `README line not printed (in this order): ${line}`).toBeGreaterThanOrEqual(0)
      from = at + 1
    }
  })

  it(
    'the curl line, run as printed, lists the sample households',
    async () => {
      const curl = await run('sh', ['-c', banner.curl ?? 'false'], env)
      expect(curl.code, curl.stderr).toBe(0)
      const body = JSON.parse(curl.stdout) as {
        households: Record<string, unknown>[]
        total: number
        page: number
        pageSize: number
      }
      expect(body).toMatchObject({ total: SAMPLES, page: 1, pageSize: 3 })
      expect(body.households).toHaveLength(3)

      const all = await call(`${banner.apiUrl}/api/v1/relationships?pageSize=100`, banner.demoKey)
      expect(all.status).toBe(200)
      const households = all.body.households as { name: string; isSample: boolean; members: unknown[] }[]
      expect(households).toHaveLength(SAMPLES)
      expect(households.map((h) => h.name).sort()).toEqual(SAMPLE_HOUSEHOLDS.map((s) => s.fields.name).sort())
      for (const household of households) {
        expect(household.isSample).toBe(true)
        expect(household.members.length).toBeGreaterThan(0)
      }
    },
    TIMEOUT,
  )

  it('the embed origin answers 404 JSON to everything', async () => {
    for (const [method, route] of [
      ['GET', '/'],
      ['GET', '/chart.js'],
      ['GET', '/api/v1/relationships'],
      ['POST', '/anything'],
    ] as const) {
      const response = await fetch(`${banner.embedUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${banner.demoKey ?? ''}` },
      })
      expect(response.status, `${method} ${route}`).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(((await response.json()) as { code: string }).code).toBe('not_found')
    }
  })

  // The lock names the socket before the socket listens: a command in that gap must wait, not fail.
  it(
    'a command run while the server is still starting waits for it',
    async () => {
      const result = await early
      expect(result.code, result.stderr).toBe(0)
      expect(lines(result.stderr)).toEqual([])
    },
    TIMEOUT,
  )

  it(
    'a restart prints a new demo key; the old one keeps working; demo keys are valid 30 days',
    async () => {
      await early // Nothing of the first start may still run.
      const firstKey = banner.demoKey ?? ''
      await stopCleanly(server, dataDir)

      const { server: again, banner: second } = await startServer(env)
      try {
        expect(second.demoOrgId).toBe(banner.demoOrgId)
        expect(second.text).not.toContain('created with sample households')
        expect(second.demoKey).toMatch(KEY)
        expect(second.demoKey).not.toBe(firstKey)
        for (const key of [firstKey, second.demoKey]) {
          const response = await call(`${second.apiUrl}/api/v1/relationships`, key)
          expect(response.status).toBe(200)
          expect(response.body.total).toBe(SAMPLES) // The restart added no second set of samples.
        }
        const keys = (await hearthJson(['keys', 'list', '--org', banner.demoOrgId ?? ''], env)).keys as {
          prefix: string
          expiresAt: string
        }[]
        expect(keys.map((k) => k.prefix).sort()).toEqual(
          [firstKey.slice(0, 12), (second.demoKey ?? '').slice(0, 12)].sort(),
        )
        for (const key of keys) {
          const left = Date.parse(key.expiresAt) - Date.now()
          expect(left).toBeGreaterThan(29 * DAY)
          expect(left).toBeLessThanOrEqual(30 * DAY)
        }
      } finally {
        await stopCleanly(again, dataDir)
      }
    },
    TIMEOUT,
  )
})

describe('the demo is off with HEARTH_DEMO=0 and with NODE_ENV=production', () => {
  const started: { name: string; dataDir: string; server: ServerProcess; banner: Banner; demoPort: number }[] = []

  beforeAll(async () => {
    const settings: { name: string; env: Record<string, string> }[] = [
      { name: 'HEARTH_DEMO=0', env: { HEARTH_DEMO: '0' } },
      { name: 'NODE_ENV=production', env: { NODE_ENV: 'production' } },
    ]
    await Promise.all(
      settings.map(async ({ name, env }) => {
        const dataDir = freshPgliteDir()
        dirs.push(dataDir)
        // A real port, so that "nothing listens there" means something.
        const demoPort = await freePort('127.0.0.1')
        const { server, banner } = await startServer({
          HEARTH_DATA_DIR: dataDir,
          HEARTH_DEMO_PORT: String(demoPort),
          ...env,
        })
        started.push({ name, dataDir, server, banner, demoPort })
      }),
    )
  }, TIMEOUT)

  it('no demo organization and no curl line', async () => {
    expect(started).toHaveLength(2)
    for (const { name, banner } of started) {
      expect(banner.text, name).toContain('Hearth is running')
      expect(banner.text, name).not.toContain('Demo organization')
      expect(banner.text, name).not.toContain('curl')
      expect(banner.text, name).not.toContain('idx_')
    }
  })

  it('no demo partner site: no banner line, nothing listening on HEARTH_DEMO_PORT', async () => {
    for (const { name, banner, demoPort } of started) {
      expect(banner.demoPartnerUrl, name).toBeUndefined()
      expect(banner.text, name).not.toContain('Demo partner')
      await expect(fetch(`http://127.0.0.1:${demoPort}/`), name).rejects.toThrow()
    }
  })

  // A server that never ran a query must still close PGlite on SIGTERM and exit.
  it(
    'a server that has not been used yet stops cleanly on SIGTERM',
    async () => {
      const idle = started.find((s) => s.name === 'HEARTH_DEMO=0')
      if (!idle) throw new Error('no HEARTH_DEMO=0 server')
      await stopCleanly(idle.server, idle.dataDir)
    },
    TIMEOUT,
  )

  it(
    'the database holds no organization',
    async () => {
      for (const { name, dataDir, server } of started) {
        // Through the running server or, with it gone (see above), on the directory directly.
        const orgs = await hearthJson(['orgs', 'list'], { HEARTH_DATA_DIR: dataDir })
        expect(orgs, name).toEqual({ orgs: [] })
        if (!server.exit) await stopCleanly(server, dataDir)
      }
    },
    TIMEOUT,
  )
})

describe('hearth serve --only api: the API alone, as one instance among several', () => {
  it(
    'starts neither the development identity provider nor the demo, and writes no demo organization',
    async () => {
      const dataDir = freshPgliteDir()
      dirs.push(dataDir)
      // Real ports, so that "nothing listens there" means something.
      const idpPort = await freePort('127.0.0.1')
      const demoPort = await freePort('127.0.0.1')
      const env = { HEARTH_DATA_DIR: dataDir, HEARTH_IDP_PORT: String(idpPort), HEARTH_DEMO_PORT: String(demoPort) }
      const server = new ServerProcess(env, ['serve', '--only', 'api'])
      await until(() => /^ {2}Database .*\n/m.test(server.stdout) || server.exit !== undefined, 'a banner', TIMEOUT)
      const text = server.stdout
      expect(text, server.stderr).toContain('Hearth is running')
      const apiUrl = /^ {2}API\s+(http:\/\/\S+)/m.exec(text)?.[1] ?? ''
      expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(text).toContain('Sign-in      not set up: set OIDC_ISSUER')
      expect(text).not.toContain('development identity provider')
      expect(text).not.toContain('Embed origin')
      expect(text).not.toContain('Demo')
      expect(text).not.toContain('idx_')
      await expect(fetch(`http://127.0.0.1:${idpPort}/`)).rejects.toThrow()
      await expect(fetch(`http://127.0.0.1:${demoPort}/`)).rejects.toThrow()
      expect((await fetch(`${apiUrl}/healthz`)).status).toBe(200)
      // Through the running server's control socket.
      expect(await hearthJson(['orgs', 'list'], env)).toEqual({ orgs: [] })
      await stopCleanly(server, dataDir)
    },
    TIMEOUT,
  )
})

describe('invalid settings', () => {
  it(
    'PORT=abc (and other bad values) stop hearth serve with a message naming the variable',
    async () => {
      const cases: [Record<string, string>, string][] = [
        [{ PORT: 'abc' }, 'PORT=abc is not a whole number'],
        [{ HEARTH_EMBED_PORT: '70000' }, 'HEARTH_EMBED_PORT=70000 is not valid'],
        [{ HEARTH_DEMO: 'maybe' }, 'HEARTH_DEMO=maybe must be 1 or 0'],
      ]
      await Promise.all(
        cases.map(async ([settings, message], i) => {
          const dataDir = path.join(parent, `invalid-${i}`)
          const result = await hearth(['serve'], { HEARTH_DATA_DIR: dataDir, ...settings }, TIMEOUT)
          expect(result.code, result.stderr).not.toBe(0)
          expect(result.code).not.toBeNull()
          expect(result.stdout).not.toContain('Hearth is running')
          expect(lines(result.stderr)).toHaveLength(1)
          expect(result.stderr).toContain(message)
          expect(existsSync(dataDir)).toBe(false)
        }),
      )
    },
    TIMEOUT,
  )

  it(
    'npm start runs hearth serve: PORT=abc stops it the same way',
    async () => {
      const dataDir = path.join(parent, 'npm-start')
      const result = await run('npm', ['start', '--silent'], { HEARTH_DATA_DIR: dataDir, PORT: 'abc' }, TIMEOUT)
      expect(result.code).not.toBe(0)
      expect(result.code).not.toBeNull()
      expect(result.stderr).toContain('hearth serve: PORT=abc is not a whole number')
      expect(existsSync(dataDir)).toBe(false)
    },
    TIMEOUT,
  )
})
