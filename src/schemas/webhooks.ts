// The webhook administration API (src/http/routes/webhook-endpoints.ts): endpoints, their secret
// (shown at creation and rotation only), and the delivery log with its attempts.
import { Type, type Static } from 'typebox'
import { EVENT_TYPE_NAMES } from '../events/event-types.ts'
import { WEBHOOK_URL_MAX, WEBHOOK_URL_RULE } from '../webhooks/endpoint-url.ts'
import {
  DESCRIPTION_MAX,
  MAX_OVERLAP_SECONDS,
  DEFAULT_OVERLAP_SECONDS,
  DELIVERY_PAGE,
  TEST_EVENT_TYPE,
} from '../webhooks/endpoint-rules.ts'
import { DateTime, Nullable, StringEnum, Uuid } from './common.ts'

const EventTypes = Type.Array(StringEnum(EVENT_TYPE_NAMES), {
  minItems: 1,
  description: `The event types to send (${EVENT_TYPE_NAMES.join(', ')}); null or absent: every type, including those added later.`,
})

export const WebhookEndpoint = Type.Object(
  {
    id: Uuid,
    url: Type.String({ description: `Where deliveries are POSTed: ${WEBHOOK_URL_RULE}.` }),
    description: Type.String(),
    eventTypes: Nullable(Type.Array(Type.String(), { description: 'null: every event type.' })),
    enabled: Type.Boolean({ description: 'false: nothing is sent to it (see disabledReason).' }),
    disabledReason: Nullable(
      Type.String({
        description:
          'Why it was disabled: by an admin, or because every attempt failed for 3 days (with the last error). Enable it again with PATCH enabled: true; events that occurred while it was disabled make no deliveries (read them from the change feed).',
      }),
    ),
    disabledAt: Nullable(DateTime),
    failingSince: Nullable(
      Type.String({
        format: 'date-time',
        description: 'Since when every attempt has failed (null once one succeeds); 3 days of it disable the endpoint.',
      }),
    ),
    previousSecretExpiresAt: Nullable(
      Type.String({
        format: 'date-time',
        description: 'After a rotation: until when the previous secret also signs each delivery.',
      }),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { title: 'WebhookEndpoint', additionalProperties: false, description: 'A webhook endpoint, without its secret.' },
)
export type WebhookEndpoint = Static<typeof WebhookEndpoint>

export const WebhookEndpointList = Type.Object(
  { endpoints: Type.Array(WebhookEndpoint, { description: 'Newest first.' }) },
  { title: 'WebhookEndpointList', additionalProperties: false },
)

export const WebhookSecretAnswer = Type.Object(
  {
    endpoint: WebhookEndpoint,
    secret: Type.String({
      description:
        'The signing secret (whsec_ and base64): shown only in this response. Verify deliveries with it (any Standard Webhooks library).',
    }),
  },
  { title: 'WebhookEndpointWithSecret', additionalProperties: false },
)

const Url = Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX, description: WEBHOOK_URL_RULE })
const Description = Type.String({
  maxLength: DESCRIPTION_MAX,
  description: `For people; trimmed, at most ${DESCRIPTION_MAX} characters.`,
})

export const CreateWebhookEndpointBody = Type.Object(
  { url: Url, description: Type.Optional(Description), eventTypes: Type.Optional(Nullable(EventTypes)) },
  { title: 'CreateWebhookEndpoint', additionalProperties: false },
)
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    eventTypes: Type.Optional(Nullable(EventTypes)),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'true enables it again (clearing disabledReason and the 3-day clock): deliveries start again with new events; those that occurred while it was disabled are only in the change feed. false stops deliveries to it (those pending fail as not sent, and new events make no deliveries).',
      }),
    ),
  },
  { title: 'UpdateWebhookEndpoint', additionalProperties: false, minProperties: 1 },
)
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>

export const RotateSecretBody = Type.Object(
  {
    overlapSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        description: `How long the current secret keeps signing beside the new one (default ${DEFAULT_OVERLAP_SECONDS}, one day; at most ${MAX_OVERLAP_SECONDS}, seven days; 0: at once only the new one).`,
      }),
    ),
  },
  { title: 'RotateWebhookSecret', additionalProperties: false },
)
export type RotateSecretBody = Static<typeof RotateSecretBody>

export const WebhookEndpointParams = Type.Object({ endpointId: Type.String() })
export const WebhookDeliveryParams = Type.Object({ endpointId: Type.String(), deliveryId: Type.String() })

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    endpointId: Uuid,
    eventId: Type.String({ format: 'uuid', description: 'The webhook-id header: the same on every attempt.' }),
    eventType: Type.String({ description: `An event type, or ${TEST_EVENT_TYPE} for a test message.` }),
    status: StringEnum(DELIVERY_STATUSES, {
      description:
        'pending: an attempt is due (at nextAttemptAt); succeeded: a 2xx came back; failed: no attempts are left (or the endpoint was disabled).',
    }),
    attempts: Type.Integer({ description: 'Attempts made so far.' }),
    nextAttemptAt: Nullable(DateTime),
    lastAttemptAt: Nullable(DateTime),
    lastResponseStatus: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    createdAt: DateTime,
  },
  { title: 'WebhookDelivery', additionalProperties: false },
)
export type WebhookDelivery = Static<typeof WebhookDelivery>

export const WebhookAttempt = Type.Object(
  {
    attempt: Type.Integer({ description: '1 for the first.' }),
    trigger: StringEnum(['schedule', 'manual'] as const, { description: 'manual: sent again by an admin.' }),
    at: DateTime,
    durationMs: Type.Integer(),
    succeeded: Type.Boolean(),
    responseStatus: Nullable(Type.Integer({ description: 'The HTTP status, when an answer came.' })),
    error: Nullable(
      Type.String({ description: 'Why it failed (a status, a timeout, a closed connection, a redirect…).' }),
    ),
  },
  { title: 'WebhookAttempt', additionalProperties: false },
)
export type WebhookAttempt = Static<typeof WebhookAttempt>

export const WebhookDeliveryList = Type.Object(
  {
    deliveries: Type.Array(WebhookDelivery, { description: 'Newest first.' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as before for the next (older) page; null at the end.' })),
  },
  { title: 'WebhookDeliveryList', additionalProperties: false },
)

export const WebhookDeliveryDetail = Type.Object(
  { delivery: WebhookDelivery, attempts: Type.Array(WebhookAttempt, { description: 'Oldest first.' }) },
  { title: 'WebhookDeliveryDetail', additionalProperties: false },
)

export const WebhookDeliveryAnswer = Type.Object(
  { delivery: WebhookDelivery },
  { title: 'WebhookDeliveryAnswer', additionalProperties: false },
)

export const DeliveriesQuery = Type.Object({
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: DELIVERY_PAGE.max, description: `Default ${DELIVERY_PAGE.default}.` }),
  ),
  before: Type.Optional(Type.String({ maxLength: 200, description: 'A nextCursor from the previous page.' })),
})
export type DeliveriesQuery = Static<typeof DeliveriesQuery>
