// SIGTERM on `hearth serve`: a request the server has received is answered in full (and its write
// kept), new connections are refused, and HEARTH_SHUTDOWN_TIMEOUT bounds the wait for a client
// that never finishes its request.
//
// "Received" is made certain with Expect: 100-continue: the server answers 100 Continue once it has
// read the request head, and only then does the test send SIGTERM, then the body.
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { freshPgliteDir, freshPostgresDatabase, storeKinds } from '../helpers/stores.ts'
import { call } from '../helpers/app.ts'
import { startServer, type ServerProcess } from '../helpers/cli.ts'
import { holdCreate } from '../helpers/held-request.ts'

const TIMEOUT = 120_000

describe.each(storeKinds())('graceful shutdown of hearth serve on %s', (kind) => {
  let server: ServerProcess | undefined
  let dataDir = ''
  let dropDatabase: (() => Promise<void>) | undefined

  /** Where the server keeps its data: a fresh PGlite directory, or a throw-away PostgreSQL database. */
  async function storeEnv(): Promise<Record<string, string>> {
    if (kind === 'pglite') {
      dataDir = freshPgliteDir()
      return { HEARTH_DATA_DIR: dataDir }
    }
    const database = await freshPostgresDatabase()
    dropDatabase = database.drop
    return { DATABASE_URL: database.url }
  }

  afterEach(async () => {
    await server?.stop('SIGKILL')
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    await dropDatabase?.()
    dropDatabase = undefined
  })

  it(
    'SIGTERM lets a received request finish (201, the household kept), refuses new connections, then exits 0',
    async () => {
      const env = await storeEnv()
      const started = await startServer(env)
      server = started.server
      const held = await holdCreate(started.banner.apiUrl, started.banner.demoKey ?? '', 'The In-Flight Family')

      server.child.kill('SIGTERM')
      // The listener closes at once: a new connection is refused while the held request is still open.
      await expect
        .poll(async () =>
          fetch(`${started.banner.apiUrl}/healthz`).then(
            () => 'accepted',
            () => 'refused',
          ),
        )
        .toBe('refused')
      held.finish()
      const answer = await held.response
      expect(answer.status).toBe(201)
      expect(await server.exited).toEqual({ code: 0, signal: null })

      // Opened again, the write is there.
      const again = await startServer(env)
      server = again.server
      const found = await call(`${again.banner.apiUrl}/api/v1/relationships?search=In-Flight`, again.banner.demoKey)
      expect((found.body.households as { name: string }[]).map((household) => household.name)).toEqual([
        'The In-Flight Family',
      ])
    },
    TIMEOUT,
  )

  it(
    'HEARTH_SHUTDOWN_TIMEOUT bounds the wait: a request whose body never comes is cut off and the server exits',
    async () => {
      const started = await startServer({ ...(await storeEnv()), HEARTH_SHUTDOWN_TIMEOUT: '1' })
      server = started.server
      const held = await holdCreate(started.banner.apiUrl, started.banner.demoKey ?? '', 'The Stalled Family')
      const outcome = held.response.then(
        () => 'answered',
        () => 'cut off',
      )
      server.child.kill('SIGTERM')
      expect(await server.exited).toEqual({ code: 0, signal: null })
      expect(await outcome).toBe('cut off')
      expect(server.stdout).toContain('shutdown timeout: closing the connections still open')
    },
    TIMEOUT,
  )
})
