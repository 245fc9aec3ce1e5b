// The webhook pages' view of the admin API (src/schemas/webhooks.ts) and their words. The types are
// written out here rather than imported: that schema module reaches node:net (through the URL rule's
// loopback check), which the browser build and its type check do not have. The event types come
// from the list the API documents itself (src/events/event-types.ts, plain data).
import { EVENT_TYPES, type EventType } from '../../../events/event-types.ts'
import { DEFAULT_OVERLAP_SECONDS, DESCRIPTION_MAX, TEST_EVENT_TYPE } from '../../../webhooks/endpoint-rules.ts'

export { DESCRIPTION_MAX, TEST_EVENT_TYPE }

/** GET /api/v1/webhook-endpoints/{id}: an endpoint, never its secret. */
export interface WebhookEndpoint {
  id: string
  url: string
  description: string
  /** null: every event type, including those added later. */
  eventTypes: string[] | null
  enabled: boolean
  disabledReason: string | null
  disabledAt: string | null
  failingSince: string | null
  /** After a rotation: until when the previous secret also signs. */
  previousSecretExpiresAt: string | null
  createdAt: string
  updatedAt: string
}

export interface WebhookEndpointList {
  endpoints: WebhookEndpoint[]
}

/** The answer of a registration and of a rotation: the only time the secret is shown. */
export interface WebhookSecretAnswer {
  endpoint: WebhookEndpoint
  secret: string
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed'

export interface WebhookDelivery {
  id: string
  endpointId: string
  eventId: string
  eventType: string
  status: DeliveryStatus
  attempts: number
  nextAttemptAt: string | null
  lastAttemptAt: string | null
  lastResponseStatus: number | null
  lastError: string | null
  createdAt: string
}

export interface WebhookDeliveryList {
  deliveries: WebhookDelivery[]
  nextCursor: string | null
}

export interface WebhookAttempt {
  attempt: number
  trigger: 'schedule' | 'manual'
  at: string
  durationMs: number
  succeeded: boolean
  responseStatus: number | null
  error: string | null
}

export interface WebhookDeliveryDetail {
  delivery: WebhookDelivery
  attempts: WebhookAttempt[]
}

export interface WebhookDeliveryAnswer {
  delivery: WebhookDelivery
}

export const ENDPOINTS_PATH = '/api/v1/webhook-endpoints'

export function endpointPath(id: string): string {
  return `${ENDPOINTS_PATH}/${encodeURIComponent(id)}`
}

/** The endpoint's page in the web app. */
export function endpointPage(id: string): string {
  return `/admin/webhooks/${encodeURIComponent(id)}`
}

/** Every event type an endpoint can ask for, with the API's own description, in the API's order. */
export const EVENT_TYPE_CHOICES: readonly { value: EventType; description: string }[] = (
  Object.keys(EVENT_TYPES) as EventType[]
).map((value) => ({ value, description: EVENT_TYPES[value] }))

export const DELIVERY_STATUS_LABELS: Readonly<Record<DeliveryStatus, string>> = {
  pending: 'Pending',
  succeeded: 'Delivered',
  failed: 'Failed',
}

/** How long the previous secret keeps signing after a rotation, as offered (seconds). */
export const OVERLAP_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: DEFAULT_OVERLAP_SECONDS, label: '1 day (recommended)' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 0, label: 'No overlap: the current secret stops signing at once' },
]

/** "webhook.test" as people read it; event types stay as the API names them. */
export function eventTypeLabel(type: string): string {
  return type === TEST_EVENT_TYPE ? `${type} (test event)` : type
}

/** What came back for an attempt: "HTTP 500", the error without a status, or nothing yet. */
export function answerText(responseStatus: number | null, error: string | null): string {
  if (responseStatus === null) return error ?? ''
  // "answered 500" says nothing more than the status; a redirect's words do (where it pointed).
  return error && error !== `answered ${responseStatus}`
    ? `HTTP ${responseStatus} — ${error}`
    : `HTTP ${responseStatus}`
}

// What the endpoint's page did before going back to the list (it was deleted), said there once.
let messageForList = ''

export function leaveMessageForList(text: string): void {
  messageForList = text
}

export function takeMessageForList(): string {
  const text = messageForList
  messageForList = ''
  return text
}
