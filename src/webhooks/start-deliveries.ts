// Where a process's webhooks run: on PostgreSQL in a thread of their own at a lower CPU priority
// (delivery-thread.ts), so that deliveries never take the API's share of the cores; on the embedded
// database, whose one connection belongs to this process, beside the API (service.ts).
import type { Store } from '../store/db.ts'
import { startWebhooks, type WebhookSettings } from './service.ts'
import { DeliveryThread } from './start-delivery-thread.ts'

export function startDeliveries(
  store: Store,
  settings: Omit<WebhookSettings, 'resolve'>,
  statementTimeoutMs: number,
  log: (error: unknown, message: string) => void,
): Promise<{ close(): Promise<void> }> {
  if (store.kind === 'postgres' && settings.databaseUrl) {
    return DeliveryThread.start({ databaseUrl: settings.databaseUrl, statementTimeoutMs, settings }, log)
  }
  return startWebhooks(store, settings, log)
}
