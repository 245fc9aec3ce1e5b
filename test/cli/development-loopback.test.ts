// The passwordless development sign-in and the demo listen only on this machine: `hearth serve`
// with a non-loopback HOST (or HEARTH_PUBLIC_URL) and either of them on exits 2 with one line that
// names the variables to set, before it opens the database or listens anywhere, whatever NODE_ENV
// says. Without them (an OIDC provider and HEARTH_DEMO=0) it starts on any address.
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freshPgliteDir } from '../helpers/stores.ts'
import { expectOneLineError, hearth, killAll, ServerProcess, startServer, until } from '../helpers/cli.ts'

const TIMEOUT = 120_000
const parent = mkdtempSync(path.join(os.tmpdir(), 'hearth-loopback-'))
const dirs: string[] = []
/** An OIDC provider's settings; Hearth asks the provider only when someone signs in. */
const OIDC = { OIDC_ISSUER: 'http://127.0.0.1:9/', OIDC_CLIENT_ID: 'hearth', OIDC_CLIENT_SECRET: 'secret' }

afterAll(async () => {
  await killAll()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  rmSync(parent, { recursive: true, force: true })
}, TIMEOUT)

/** `hearth serve` that must refuse: a data directory that does not exist yet shows it opened nothing. */
async function refused(env: Record<string, string>, ...says: string[]): Promise<void> {
  const dataDir = path.join(parent, `refused-${dirs.length}`)
  dirs.push(dataDir)
  const result = await hearth(['serve'], {
    HEARTH_DATA_DIR: dataDir,
    PORT: '0',
    HEARTH_EMBED_PORT: '0',
    HEARTH_DEMO_PORT: '0',
    HEARTH_IDP_PORT: '0',
    ...env,
  })
  expectOneLineError(result, 2, ...says)
  expect(result.stdout).toBe('')
  expect(existsSync(dataDir), 'the database was not opened').toBe(false)
}

describe('hearth serve off loopback', () => {
  // Each variant of the message is in test/unit/development-loopback.test.ts; here the real process.
  it(
    'refuses the development sign-in and the demo on all interfaces, whatever NODE_ENV says',
    async () => {
      await refused(
        { HOST: '0.0.0.0', NODE_ENV: 'development' },
        'HOST=0.0.0.0 is not a loopback address',
        'the passwordless development sign-in and the demo',
        'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
        'HEARTH_DEMO=0',
        'HOST=127.0.0.1',
      )
    },
    TIMEOUT,
  )

  it(
    'starts on all interfaces with an identity provider and the demo off (production: test/unit/development-loopback.test.ts)',
    async () => {
      const dataDir = freshPgliteDir()
      dirs.push(dataDir)
      const { server, banner } = await startServer({
        HEARTH_DATA_DIR: dataDir,
        HOST: '0.0.0.0',
        HEARTH_DEMO: '0',
        ...OIDC,
      })
      expect(banner.apiUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
      expect(banner.text).toContain('(OIDC_ISSUER)')
      expect(banner.demoKey).toBeUndefined()
      expect((await fetch(`${banner.apiUrl}/healthz`)).status).toBe(200)
      expect(await server.stop()).toEqual({ code: 0, signal: null })
    },
    TIMEOUT,
  )

  it(
    'starts on all interfaces with --only api, which runs neither the development sign-in nor the demo',
    async () => {
      const dataDir = freshPgliteDir()
      dirs.push(dataDir)
      const server = new ServerProcess({ HEARTH_DATA_DIR: dataDir, HOST: '0.0.0.0' }, ['serve', '--only', 'api'])
      await until(() => /^ {2}Database .*\n/m.test(server.stdout) || server.exit !== undefined, 'a banner', TIMEOUT)
      expect(server.stdout, server.stderr).toContain('Sign-in      not set up')
      expect(server.stdout).not.toContain('Demo organization')
      const apiUrl = /^ {2}API\s+(http:\/\/\S+)/m.exec(server.stdout)?.[1] ?? ''
      expect(apiUrl).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
      expect((await fetch(`${apiUrl}/healthz`)).status).toBe(200)
      expect(await server.stop()).toEqual({ code: 0, signal: null })
    },
    TIMEOUT,
  )
})
