// The logs never hold a secret or a client's data: a real `hearth serve` at the most verbose log
// level goes through sign-in, API keys (good, misplaced and wrong), a session cookie, a chart token,
// household metadata and failing requests; then its whole output is searched for each of them.
// Every error body and response carries the request id the logs name.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshPgliteDir } from '../helpers/stores.ts'
import { call } from '../helpers/app.ts'
import { startServer, type Banner, type ServerProcess } from '../helpers/cli.ts'
import { HttpBrowser, signInOverHttp } from '../helpers/oidc-walk.ts'

const TIMEOUT = 120_000
const METADATA_MARKER = 'metadata-marker-7f3a9c'

describe('what the logs hold', () => {
  let server: ServerProcess
  let banner: Banner
  let dataDir = ''
  const secrets = new Map<string, string>()

  beforeAll(async () => {
    dataDir = freshPgliteDir()
    ;({ server, banner } = await startServer({ HEARTH_DATA_DIR: dataDir, HEARTH_LOG_LEVEL: 'trace' }))
    const key = banner.demoKey ?? ''
    secrets.set('the demo API key', key)
    const api = `${banner.apiUrl}/api/v1`

    // A key used well, misplaced in the query, and wrong; metadata written and read back.
    const created = await call(`${api}/relationships`, key, {
      body: { name: 'The Logged Family', metadata: { note: METADATA_MARKER } },
    })
    expect(created.status).toBe(201)
    secrets.set('household metadata', METADATA_MARKER)
    const id = (created.body.household as { id: string }).id
    await call(`${api}/relationships/${id}`, key)
    await call(`${api}/relationships?api_key=${key}`, undefined)
    const wrongKey = `${key.slice(0, -4)}AAAA`
    secrets.set('a wrong key', wrongKey)
    await call(`${api}/relationships`, wrongKey)
    // Failing requests: bad JSON that carries the key, an invalid body, an unknown route.
    await call(`${api}/relationships`, key, { body: `{"name": "${key}"` })
    await call(`${api}/relationships`, key, { body: { name: '', metadata: { note: METADATA_MARKER } } })
    await call(`${api}/nowhere`, key)

    // A chart token for a registered origin.
    const minted = await call(`${api}/embed/chart-sessions`, key, { body: { frameOrigin: banner.demoPartnerUrl } })
    expect(minted.status).toBe(201)
    secrets.set('a chart token', String(minted.body.token))

    // A real sign-in through the development provider, then the cookie in use and signed out.
    const browser = new HttpBrowser()
    const { callback } = await signInOverHttp(browser, banner.apiUrl, { choice: { subject: 'demo-admin' } })
    expect(callback.status).toBe(303)
    const cookie = browser.jar.get(banner.apiUrl, 'idp-session') ?? ''
    secrets.set('the idp-session cookie', cookie)
    const code = callback.url.searchParams.get('code') ?? ''
    secrets.set('the authorization code', code)
    await browser.request(`${api}/me`)
    await browser.request(`${banner.apiUrl}/auth/sign-out`, { method: 'POST', form: {} })
    await browser.request(`${api}/me`)

    await server.stop('SIGTERM')
  }, TIMEOUT)

  afterAll(async () => {
    await server?.stop('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('logs structured JSON lines', () => {
    const jsonLines = server.stdout.split('\n').filter((line) => line.startsWith('{'))
    expect(jsonLines.length).toBeGreaterThan(0)
    for (const line of jsonLines) expect(() => JSON.parse(line) as unknown).not.toThrow()
  })

  it('holds none of the keys, cookies, tokens, codes or metadata used', () => {
    // The banner prints the demo key on purpose (a curl line to paste); it is not a log line.
    expect(server.stdout).toContain(banner.text)
    const output = server.stdout.replace(banner.text, '') + server.stderr
    for (const [what, secret] of secrets) {
      expect(secret.length, what).toBeGreaterThan(8)
      expect(output.includes(secret), `the logs hold ${what}`).toBe(false)
    }
  })
})
