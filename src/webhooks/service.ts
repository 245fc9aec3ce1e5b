// Webhooks in a running instance: the job queue, the dispatcher and the attempt worker, started
// after the store has migrated and stopped before it closes (src/serve.ts). Every API process may
// run one: the dispatcher's row lock lets one dispatch at a time, and pg-boss hands each job to
// one worker. Tests start it themselves (test/helpers/app.ts never does).
import type PgBoss from 'pg-boss'
import type { Store } from '../store/db.ts'
import { deleteDeliveriesBefore } from '../store/webhook-deliveries.ts'
import { startQueue } from './queue.ts'
import { dispatchRound } from './dispatcher.ts'
import { AttemptWorker } from './worker.ts'
import { JobSettings } from './job-settings.ts'
import { systemResolver, type Resolver } from './address-guard.ts'

export interface WebhookSettings {
  databaseUrl: string | undefined
  production: boolean
  /** Longest one attempt may take, connection to last byte read (HEARTH_WEBHOOK_TIMEOUT). */
  attemptTimeoutMs: number
  /** Attempts one instance makes at once (HEARTH_WEBHOOK_CONCURRENCY). */
  concurrency: number
  /** Milliseconds one second of the retry schedule lasts (HEARTH_WEBHOOK_RETRY_UNIT_MS; 1000). */
  retryUnitMs: number
  /** Days the delivery log keeps finished deliveries (the change feed's retention). */
  retentionDays: number
  /** How often the dispatcher and an idle worker look for work (default 1000 ms). */
  pollIntervalMs?: number
  /** How often pg-boss puts back jobs whose worker vanished (default 30 s). */
  maintenanceIntervalSeconds?: number
  /** Time to record an attempt beyond its timeout, before its job's lease runs out (default 15 s). */
  recordMarginSeconds?: number
  /** Host name resolution for deliveries (default: the system's). */
  resolve?: Resolver
}

export interface WebhookService {
  /** Runs a dispatcher round now (tests; the loop runs them anyway). */
  dispatchNow(): Promise<void>
  /** Stops cleanly: attempts in flight are aborted and handed back to the queue. */
  close(): Promise<void>
  /** Stops as a killed process would (tests): attempts in flight keep their jobs until their leases run out. */
  halt(): Promise<void>
}

type Logger = (error: unknown, message: string) => void

const HOUR_MS = 3_600_000
/** How long a busy dispatcher waits between rounds that were not full. */
const GATHER_MS = 50

export async function startWebhooks(store: Store, settings: WebhookSettings, log: Logger): Promise<WebhookService> {
  const pollIntervalMs = settings.pollIntervalMs ?? 1000
  const boss: PgBoss = await startQueue(
    store,
    { databaseUrl: settings.databaseUrl, maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds ?? 30 },
    (error) => log(error, 'webhooks: the job queue reported an error'),
  )
  const jobs = new JobSettings(settings.attemptTimeoutMs, settings.recordMarginSeconds)
  const worker = new AttemptWorker(
    store.db,
    boss,
    {
      concurrency: settings.concurrency,
      pollIntervalMs,
      schedule: { unitMs: settings.retryUnitMs },
      send: {
        timeoutMs: settings.attemptTimeoutMs,
        production: settings.production,
        resolve: settings.resolve ?? systemResolver,
      },
      jobs,
    },
    log,
  )
  worker.start()

  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()
  /** Runs rounds while they come back full; answers whether the last one found events. */
  const round = async (): Promise<boolean> => {
    for (;;) {
      const result = await dispatchRound(store.db, boss, jobs, worker)
      worker.attemptLeased(result.leased)
      if (result.queued > 0) worker.notify()
      if (!result.more || stopped) return result.found
    }
  }
  const tick = () => {
    let busy = false
    running = round()
      .then((found) => {
        busy = found
      })
      .catch((error: unknown) => log(error, 'webhooks: a dispatcher round failed; the next one retries'))
      .finally(() => {
        // While events keep coming, the next round gathers for a moment rather than running at
        // once for the one or two that committed meanwhile: a round's fixed cost (its lock, the
        // horizon, its transaction) is then shared by many deliveries.
        if (!stopped) timer = setTimeout(tick, busy ? Math.min(GATHER_MS, pollIntervalMs) : pollIntervalMs)
      })
  }
  tick()
  const sweep = () =>
    void deleteDeliveriesBefore(store.db, new Date(Date.now() - settings.retentionDays * 24 * HOUR_MS)).catch(
      (error: unknown) => log(error, 'webhooks: could not forget old deliveries'),
    )
  const sweeper = setInterval(sweep, HOUR_MS).unref()

  const stop = async (end: () => Promise<void>) => {
    if (stopped) return
    stopped = true
    clearTimeout(timer)
    clearInterval(sweeper)
    await running
    await end()
    await boss.stop({ graceful: false, wait: true })
  }
  return {
    dispatchNow: async () => {
      await running
      await round()
    },
    close: () => stop(() => worker.close()),
    halt: () => stop(() => worker.halt()),
  }
}
