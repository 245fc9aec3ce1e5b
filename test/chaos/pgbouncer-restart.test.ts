// Chaos: the PgBouncer in front of PostgreSQL is killed (SIGKILL: every client and server connection
// ends at once) and started again on its port, twice, while clients read and write through Hearth.
import { afterAll, describe, it } from 'vitest'
import { openStore } from '../../src/store/db.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import { pgbouncerAvailable, ThrowawayPgBouncer } from '../helpers/pgbouncer.ts'
import { createOrgWithKey } from '../helpers/app.ts'
import { killAll } from '../helpers/cli.ts'
import { databaseOf, repeatFault, runChaosScenario } from '../helpers/chaos.ts'

const TIMEOUT = 90_000
const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  await killAll()
  for (const cleanup of cleanups.reverse()) await cleanup()
}, TIMEOUT)

const hasPostgres = requirePart('PostgreSQL', DATABASE_URL !== undefined, 'set DATABASE_URL=postgres://… to run the chaos tests on PostgreSQL')
const runnable = hasPostgres && pgbouncerAvailable()

describe.runIf(runnable)('PgBouncer restarting under read and write load', () => {
  it(
    'hearth serve through it stays up, answers 503 database_unavailable meanwhile, loses nothing, and serves again',
    async () => {
      const database = await freshPostgresDatabase()
      cleanups.push(database.drop)
      const store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 2 })
      cleanups.push(store.close)
      const { orgId, key } = await createOrgWithKey(store.db)
      const bouncer = await ThrowawayPgBouncer.start(database.url, 4)
      cleanups.push(() => bouncer.stop())

      await runChaosScenario({
        label: 'PgBouncer restart',
        apiDatabaseUrl: bouncer.url(databaseOf(database.url)),
        db: store.db,
        orgId,
        key,
        fault: ({ load }) => repeatFault(2, 0, async () => {
          await bouncer.restart()
          await load.progress(5, 'writes between PgBouncer restarts')
        }),
      })
    },
    TIMEOUT,
  )
})
