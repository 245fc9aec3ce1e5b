// The job queue behind webhook attempts: pg-boss (https://github.com/timgit/pg-boss), in its own
// pgboss schema, which it creates and upgrades itself at start under a transaction-level advisory
// lock. On PostgreSQL it has its own small pool (DATABASE_URL), so that its polling never waits
// for the API's connections. On the embedded database it runs through pg-boss's `db` option on
// the store's one connection: parameterless scripts (its schema, its maintenance) through
// Store.runScript, everything else as one statement through Kysely, between the API's queries.
// Jobs that must commit with our own rows (a delivery's next attempt, the completion of the one
// that ran) go through transactionDb: the same statements, inside our transaction.
import PgBoss from 'pg-boss'
import { CompiledQuery, type Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { Store } from '../store/db.ts'

/** Each job is one attempt of one delivery. */
export const ATTEMPT_QUEUE = 'webhook-attempt'

export interface AttemptJob {
  deliveryId: string
  /** Queued because an admin sent the delivery again (recorded as a manual attempt). */
  manual: boolean
}

export interface QueueSettings {
  /** DATABASE_URL, for pg-boss's own pool on PostgreSQL. */
  databaseUrl: string | undefined
  /** How often pg-boss looks for jobs whose worker vanished (an instance killed mid-attempt). */
  maintenanceIntervalSeconds: number
}

/** pg-boss's Db: one statement with its values, or a script without any. */
function kyselyDb(db: Kysely<Database>, runScript: Store['runScript'] | undefined): PgBoss.Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      if (values === undefined && runScript) return { rows: await runScript(text) }
      // pg sends undefined as null; PGlite wants null said.
      const parameters = (values ?? []).map((value) => (value === undefined ? null : value))
      return { rows: (await db.executeQuery(CompiledQuery.raw(text, parameters))).rows as object[] }
    },
  }
}

/** pg-boss statements run inside the transaction `trx` (they commit or roll back with it). */
export function transactionDb(trx: Kysely<Database>): PgBoss.Db {
  return kyselyDb(trx, undefined)
}

export async function startQueue(
  store: Store,
  settings: QueueSettings,
  onError: (error: Error) => void,
): Promise<PgBoss> {
  const common = {
    // No cron schedules here: the timekeeper would only poll for nothing.
    schedule: false,
    supervise: true,
    migrate: true,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
    // Jobs done are kept a day (a look into a recent incident), then archived and dropped.
    archiveCompletedAfterSeconds: 86_400,
    deleteAfterDays: 7,
  }
  const boss =
    store.kind === 'postgres' && settings.databaseUrl
      ? new PgBoss({ ...common, connectionString: settings.databaseUrl, max: 3, application_name: 'hearth-webhooks' })
      : new PgBoss({ ...common, db: kyselyDb(store.db, (script) => store.runScript(script)) })
  boss.on('error', onError)
  await boss.start()
  // createQueue does nothing when the queue exists (pg-boss's create_queue: ON CONFLICT DO NOTHING).
  await boss.createQueue(ATTEMPT_QUEUE, { name: ATTEMPT_QUEUE, policy: 'standard' })
  return boss
}
