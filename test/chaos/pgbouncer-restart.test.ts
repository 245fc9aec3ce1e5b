// Chaos: the PgBouncer in front of PostgreSQL is killed (SIGKILL: every client and server connection
// ends at once) and started again on its port, twice, while clients read and write through Hearth.
import { describe, it } from 'vitest'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import { pgbouncerAvailable, ThrowawayPgBouncer } from '../helpers/pgbouncer.ts'
import { CHAOS_TIMEOUT, chaosFile, chaosStore, databaseOf, repeatFault, runChaosScenario } from '../helpers/chaos.ts'

const { cleanups, hasPostgres } = chaosFile()
const runnable = hasPostgres && pgbouncerAvailable()

describe.runIf(runnable)('PgBouncer restarting under read and write load', () => {
  it(
    'hearth serve through it stays up, answers 503 database_unavailable meanwhile, loses nothing, and serves again',
    async () => {
      const database = await freshPostgresDatabase()
      cleanups.push(database.drop)
      const { store, orgId, key } = await chaosStore(database.url, cleanups)
      const bouncer = await ThrowawayPgBouncer.start(database.url, 4)
      cleanups.push(() => bouncer.stop())

      await runChaosScenario({
        label: 'PgBouncer restart',
        apiDatabaseUrl: bouncer.url(databaseOf(database.url)),
        db: store.db,
        orgId,
        key,
        fault: ({ load }) =>
          repeatFault(2, 0, async () => {
            await bouncer.restart()
            await load.progress(5, 'writes between PgBouncer restarts')
          }),
      })
    },
    CHAOS_TIMEOUT,
  )
})
