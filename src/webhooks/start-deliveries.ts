// Where a process's webhooks run: on PostgreSQL in a thread of their own at a lower CPU priority
// (delivery-thread.ts), so that deliveries never take the API's share of the cores; on the embedded
// database, whose one connection belongs to this process, beside the API (service.ts). Their
// settings come from the configuration (HEARTH_WEBHOOK_*), for `hearth serve` and the bench alike.
import type { Config } from '../config.ts'
import type { Store } from '../store/db.ts'
import { startWebhooks } from './service.ts'
import { DeliveryThread } from './start-delivery-thread.ts'

export function startDeliveries(
  store: Store,
  config: Config,
  log: (error: unknown, message: string) => void,
): Promise<{ close(): Promise<void> }> {
  const settings = {
    databaseUrl: config.databaseUrl,
    production: config.production,
    attemptTimeoutMs: config.webhookTimeoutSeconds * 1000,
    concurrency: config.webhookConcurrency,
    retryUnitMs: config.webhookRetryUnitMs,
    retentionDays: config.eventRetentionDays,
  }
  if (store.kind === 'postgres' && config.databaseUrl) {
    return DeliveryThread.start(
      { databaseUrl: config.databaseUrl, statementTimeoutMs: config.statementTimeoutMs, settings },
      log,
    )
  }
  return startWebhooks(store, settings, log)
}
