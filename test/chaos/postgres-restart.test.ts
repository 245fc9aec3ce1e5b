// Chaos: PostgreSQL itself restarts under read and write load — cleanly (pg_ctl restart -m fast:
// every connection ends with 57P01) and as after a crash or failover (-m immediate: connections
// drop without a word, and the server replays its WAL before it answers again). On a server of
// the test's own (test/helpers/throwaway-postgres.ts), never the shared one.
import { describe, it } from 'vitest'
import pg from 'pg'
import { ThrowawayPostgres, throwawayPostgresAvailable } from '../helpers/throwaway-postgres.ts'
import { CHAOS_TIMEOUT, chaosFile, chaosStore, runChaosScenario } from '../helpers/chaos.ts'

// CI has DATABASE_URL's server; the server binaries come with it.
const { cleanups, hasPostgres } = chaosFile()
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
      const { store, orgId, key } = await chaosStore(server.url('hearth'), cleanups)

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
    CHAOS_TIMEOUT,
  )
})
