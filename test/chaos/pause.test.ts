// Chaos: the database pauses. A transaction of the test's own holds an ACCESS EXCLUSIVE lock on
// households, so every read and write of households blocks (as behind a long migration, a stuck
// vacuum or a stalled disk). Hearth's statement timeout (HEARTH_STATEMENT_TIMEOUT_MS, 1500 ms here)
// must turn each blocked request into a 503 database_unavailable instead of holding it, while the
// process stays up; once the lock goes, everything works and nothing acknowledged is missing.
import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import {
  CHAOS_TIMEOUT,
  chaosFile,
  chaosStore,
  databaseErrorsCounted,
  isDatabaseUnavailable,
  runChaosScenario,
} from '../helpers/chaos.ts'

const { cleanups, hasPostgres } = chaosFile()

/** One request while the lock is held; aborted (and so failed) if it hangs for 10 s, far beyond the statement timeout. */
async function duringPause(
  url: string,
  key: string,
  init: { method: string; body?: unknown },
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(url, {
    method: init.method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, text: await response.text(), headers: response.headers }
}

describe.runIf(hasPostgres)('the database paused by a held lock, under read and write load', () => {
  it(
    'blocked reads and writes answer 503 database_unavailable instead of hanging; the process stays up; after the lock everything works and nothing is lost',
    async () => {
      const database = await freshPostgresDatabase()
      cleanups.push(database.drop)
      const { store, orgId, key } = await chaosStore(database.url, cleanups)

      await runChaosScenario({
        label: 'Paused',
        apiDatabaseUrl: database.url,
        db: store.db,
        orgId,
        key,
        fault: async ({ apiUrl }) => {
          const holder = new pg.Client({ connectionString: database.url })
          await holder.connect()
          try {
            await holder.query('BEGIN')
            await holder.query('LOCK TABLE households IN ACCESS EXCLUSIVE MODE')
            const [list, create] = await Promise.all([
              duringPause(`${apiUrl}/api/v1/relationships?pageSize=5`, key, { method: 'GET' }),
              duringPause(`${apiUrl}/api/v1/relationships`, key, { method: 'POST', body: { name: 'Paused probe' } }),
            ])
            for (const answer of [list, create])
              expect(
                isDatabaseUnavailable(answer.status, answer.text, answer.headers),
                `${answer.status} ${answer.text}`,
              ).toBe(true)
            // Blocked, not gone: counted as timeouts.
            expect((await databaseErrorsCounted(apiUrl)).timeout).toBeGreaterThanOrEqual(2)
          } finally {
            await holder.query('ROLLBACK')
            await holder.end()
          }
        },
      })
      // The probe's create was refused, not applied later.
      const probes = await store.db
        .selectFrom('households')
        .select('id')
        .where('org_id', '=', orgId)
        .where('name', '=', 'Paused probe')
        .execute()
      expect(probes).toEqual([])
    },
    CHAOS_TIMEOUT,
  )
})
