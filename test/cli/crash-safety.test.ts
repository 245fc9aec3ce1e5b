// Crash safety: no acknowledged write is ever lost. Client loops create households, add members and
// rename them (under If-Match; creates under an Idempotency-Key) while a `hearth serve` process is
// killed with SIGKILL in the middle of their writes. Every write that was answered 2xx must be there
// afterwards, and the counters the triggers keep (members per household, households per org, the
// list total) must agree with the rows — for every household, acknowledged or not.
//
// - PostgreSQL: two instances on one database; one is killed while the clients write through both,
//   the clients carry on through the other, then the killed one starts again and takes traffic.
// - PGlite: one instance owns the data directory; it is killed mid-write twice, and each time the
//   directory must open again (the dead server's lock does not block it) with nothing missing.
import { existsSync, rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../src/store/db.ts'
import { lockPathOf } from '../../src/operator/data-dir-lock.ts'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPgliteDir, freshPostgresDatabase } from '../helpers/stores.ts'
import { createOrgWithKey } from '../helpers/app.ts'
import { killAll, startServer } from '../helpers/cli.ts'
import { checkDatabase, checkThroughApi, Ledger, startClients, Targets } from '../helpers/crash-clients.ts'

const TIMEOUT = 120_000
const QUIET = { HEARTH_DEMO: '0', HEARTH_RATE_LIMIT_MAX: '1000000', HEARTH_ORG_RATE_LIMIT_MAX: '1000000' }

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  await killAll()
  for (const cleanup of cleanups.reverse()) await cleanup()
}, TIMEOUT)

/** Milliseconds of each phase, for the summary line. */
class Laps {
  readonly ms: Record<string, number> = {}
  private last = performance.now()
  lap(phase: string): void {
    const now = performance.now()
    this.ms[phase] = Math.round(now - this.last)
    this.last = now
  }
}

function summary(what: string, ledger: Ledger, extra: Record<string, unknown>): void {
  console.info(
    `${what}: ${ledger.acks} acknowledged writes, ${ledger.households.size} acknowledged households, ${ledger.lost} requests without an answer, ${ledger.unknownCreates.size} creates left unknown, ${JSON.stringify(extra)}`,
  )
}

const hasPostgres = requirePart(
  'PostgreSQL',
  DATABASE_URL !== undefined,
  'set DATABASE_URL=postgres://… to test crash safety of two instances on PostgreSQL',
)

describe.runIf(hasPostgres)('two hearth serve instances on one PostgreSQL database', () => {
  it(
    'SIGKILL of one while clients write through both loses no acknowledged write; it starts again and counts stay consistent',
    async () => {
      const database = await freshPostgresDatabase()
      cleanups.push(database.drop)
      // Opening migrates the empty database; the org and its key are made in-process (createOrg, issueApiKey).
      const store: Store = await openStore({ databaseUrl: database.url, dataDir: '', poolMax: 2 })
      cleanups.push(() => store.close())
      const { orgId, key } = await createOrgWithKey(store.db)
      const env = { DATABASE_URL: database.url, ...QUIET }
      const laps = new Laps()

      const started = await Promise.all([startServer(env), startServer(env)])
      let a = started[0]
      const b = started[1]
      const killedUrl = a.banner.apiUrl
      laps.lap('start A and B')
      const targets = new Targets([a.banner.apiUrl, b.banner.apiUrl])
      const ledger = new Ledger()
      const clients = startClients(4, { targets, ledger, key, label: 'Postgres' })
      cleanups.push(async () => clients.abandon())

      // Killed with writes in flight at A (the clients keep going; what A was doing gets no answer).
      await clients.until(
        () => ledger.acks >= 40 && ledger.inFlightAt(killedUrl) > 0,
        '40 acknowledged writes with one in flight at A',
      )
      const inFlightAtKill = ledger.inFlightAt(killedUrl)
      laps.lap('writes before the kill')
      a.server.child.kill('SIGKILL')
      expect(await a.server.exited).toEqual({ code: null, signal: 'SIGKILL' })
      const acksAtKill = ledger.acks
      expect(ledger.acksByTarget.get(killedUrl)).toBeGreaterThan(0)

      // At once, while the clients go on through B: everything acknowledged so far, A's writes too,
      // is in the database, and the counters agree with the rows.
      await checkDatabase(store.db, orgId, ledger.snapshot(), ledger, false)

      // The clients carry on through B alone (requests to A are refused: not acknowledged).
      await clients.until(() => ledger.acks >= acksAtKill + 30 && ledger.lost > 0, '30 more writes through B')
      laps.lap('check, then writes through B')

      a = await startServer(env)
      targets.set(0, a.banner.apiUrl)
      laps.lap('restart A')
      await clients.until(
        () => (ledger.acksByTarget.get(a.banner.apiUrl) ?? 0) >= 15,
        '15 writes through the restarted A',
      )
      await clients.stop()
      laps.lap('writes through both')
      expect(ledger.serverErrors).toEqual([])

      const { total } = await checkThroughApi(ledger.households, targets.list(), key, true)
      await checkDatabase(store.db, orgId, ledger.households, ledger, true)
      laps.lap('final checks')
      summary('PostgreSQL', ledger, { inFlightAtKill, acksAtKill, households: total, ms: laps.ms })
      await Promise.all([a.server.stop(), b.server.stop()])
    },
    TIMEOUT,
  )
})

describe('hearth serve on an embedded PGlite directory', () => {
  it(
    'SIGKILL mid-write, twice: the directory opens again each time and every acknowledged write is there',
    async () => {
      const dataDir = freshPgliteDir()
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }))
      const setup = await openStore({ dataDir })
      const { orgId, key } = await createOrgWithKey(setup.db)
      await setup.close()
      const env = { HEARTH_DATA_DIR: dataDir, ...QUIET }
      const laps = new Laps()

      let { server, banner } = await startServer(env)
      laps.lap('start')
      const targets = new Targets([banner.apiUrl])
      const ledger = new Ledger()
      const clients = startClients(6, { targets, ledger, key, label: 'PGlite' })
      cleanups.push(async () => clients.abandon())
      const inFlightAtKills: number[] = []

      for (const round of [1, 2]) {
        const url = banner.apiUrl
        await clients.until(
          () => ledger.acks >= round * 30 && ledger.inFlightAt(url) > 0,
          `${round * 30} acknowledged writes with one in flight`,
        )
        inFlightAtKills.push(ledger.inFlightAt(url))
        laps.lap(`writes ${round}`)
        server.child.kill('SIGKILL')
        expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' })
        // The dead server's lock is still there: the next start must see that its holder is gone.
        expect(existsSync(lockPathOf(dataDir))).toBe(true)

        ;({ server, banner } = await startServer(env))
        laps.lap(`restart ${round}`)
        // The clients wait for a new origin, so nobody writes yet (unless the port came back the
        // same): what the restarted server shows is exactly what survived the kill.
        await checkThroughApi(ledger.snapshot(), [banner.apiUrl], key, banner.apiUrl !== url)
        targets.set(0, banner.apiUrl)
        laps.lap(`check ${round}`)
      }
      await clients.until(() => ledger.acks >= 80, '80 acknowledged writes')
      await clients.stop()
      laps.lap('writes 3')
      expect(ledger.serverErrors).toEqual([])
      expect(ledger.lost).toBeGreaterThan(0)

      const { total } = await checkThroughApi(ledger.households, [banner.apiUrl], key, true)

      server.child.kill('SIGTERM')
      expect(await server.exited).toEqual({ code: 0, signal: null })
      const store = await openStore({ dataDir })
      try {
        await checkDatabase(store.db, orgId, ledger.households, ledger, true)
      } finally {
        await store.close()
      }
      laps.lap('final checks')
      summary('PGlite', ledger, { inFlightAtKills, households: total, ms: laps.ms })
    },
    TIMEOUT,
  )
})
