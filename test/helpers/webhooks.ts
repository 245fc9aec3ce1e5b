// The webhook machinery as the webhook tests run it: short attempt timeouts, a fast poll and
// pg-boss maintenance every second, and a retry schedule whose second lasts `retryUnitMs`.
import { startWebhooks, type WebhookService, type WebhookSettings } from '../../src/webhooks/service.ts'
import { insertEndpoint, type WebhookEndpointRow } from '../../src/store/webhook-endpoints.ts'
import { newWebhookSecret } from '../../src/webhooks/secrets.ts'
import type { Store } from '../../src/store/db.ts'

export const TEST_ATTEMPT_TIMEOUT_MS = 2000

export function startTestWebhooks(
  store: Store & { env: Record<string, string> },
  overrides: Partial<WebhookSettings> = {},
): Promise<WebhookService> {
  return startWebhooks(
    store,
    {
      databaseUrl: store.env.DATABASE_URL,
      production: false,
      attemptTimeoutMs: TEST_ATTEMPT_TIMEOUT_MS,
      concurrency: 4,
      retryUnitMs: 1,
      retentionDays: 30,
      pollIntervalMs: 200,
      maintenanceIntervalSeconds: 1,
      recordMarginSeconds: 2,
      ...overrides,
    },
    (error, message) => console.error(message, error),
  )
}

/** An endpoint registered directly in the store, with its secret. */
export async function addEndpoint(
  store: Store,
  orgId: string,
  url: string,
  eventTypes: string[] | null = null,
): Promise<WebhookEndpointRow & { secret: string }> {
  const secret = newWebhookSecret()
  const endpoint = await insertEndpoint(store.db, { orgId, url, description: '', eventTypes, secret })
  return { ...endpoint, secret }
}
