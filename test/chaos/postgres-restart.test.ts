// Chaos: PostgreSQL itself restarts under read and write load — cleanly (pg_ctl restart -m fast:
// every connection ends with 57P01) and as after a crash or failover (-m immediate: connections
// drop without a word, and the server replays its WAL before it answers again). On a server of
// the test's own (test/helpers/throwaway-postgres.ts), never the shared one.
import { afterAll, describe, it } from 'vitest'
import pg from 'pg'
import { openStore } from '../../src/store/db.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { ThrowawayPostgres, throwawayPostgresAvailable } from '../helpers/throwaway-postgres.ts'
import { createOrgWithKey } from '../helpers/app.ts'
import { killAll } from '../helpers/cli.ts'
import { runChaosScenario } from '../helpers/chaos.ts'

const TIMEOUT = 90_000
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  await killAll()
  for (const cleanup of cleanups.reverse()) await cleanup()
}, TIMEOUT)

// CI has DATABASE_URL's server; the server binaries come with it.
const hasPostgres = requirePart('PostgreSQL', DATABASE_URL !== undefined, 'set DATABASE_URL=postgres://… to run the chaos tests on PostgreSQL')
const runnable = hasPostgres && throwawayPostgresAvailable()

describe.runIf(runnable)('PostgreSQL restarting under read and write load', () => {
  it(
    'hearth serve stays up through a fast and an immediate restart, answers 503 database_unavailable meanwhile, loses nothing, and serves again',
    async () => {
      const server = await ThrowawayPostgres.start()
      cleanups.push(() => server.stop())
      const admin = new pg.Client({ connectionString: server.url() })
      await admin.connect()
      await admin.query('CREATE DATABASE hearth')
      await admin.end()
      // The checks' own connections are ended by the restarts too: they reconnect like Hearth's.
      const store = await openStore({ databaseUrl: server.url('hearth'), dataDir: '', poolMax: 2 })
      cleanups.push(store.close)
      const { orgId, key } = await createOrgWithKey(store.db)

      await runChaosScenario({
        label: 'PostgreSQL restart',
        apiDatabaseUrl: server.url('hearth'),
        db: store.db,
        orgId,
        key,
        fault: async ({ load }) => {
          await server.restart('fast')
          await load.progress(5, 'writes after the fast restart')
          await server.restart('immediate')
        },
      })
    },
    TIMEOUT,
  )
})
