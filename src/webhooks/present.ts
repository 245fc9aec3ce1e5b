// Webhook rows as the API (and the CLI's --json) show them.
import type { WebhookEndpointRow } from '../store/webhook-endpoints.ts'
import type { AttemptRow, DeliveryRow } from '../store/webhook-deliveries.ts'
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../schemas/webhooks.ts'

const iso = (value: Date | null): string | null => value?.toISOString() ?? null

export function presentEndpoint(row: WebhookEndpointRow, now = new Date()): WebhookEndpoint {
  const overlap = row.previous_secret_expires_at
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    failingSince: iso(row.failing_since),
    previousSecretExpiresAt: overlap && overlap.getTime() > now.getTime() ? overlap.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastAttemptAt: iso(row.last_attempt_at),
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
  }
}

export function presentAttempt(row: AttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    trigger: row.trigger,
    at: row.at.toISOString(),
    durationMs: row.duration_ms,
    succeeded: row.succeeded,
    responseStatus: row.response_status,
    error: row.error,
  }
}
