// What an organization's admins (the API) and the operator (the CLI) may do with webhook
// endpoints, under one set of rules: the URL rule (endpoint-url.ts), known event types, at most
// MAX_ENDPOINTS per organization, a new secret at creation and at each rotation (returned once).
// orgId undefined is the operator, who may name any organization's endpoint. A refusal is an
// OperatorError naming the field (the API answers it as 400 with that field; WebhookUrlError as
// invalid_webhook_url).
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { OperatorError } from '../operator/requests.ts'
import { isEventType, EVENT_TYPE_NAMES } from '../events/event-types.ts'
import {
  countEndpoints,
  findEndpoint,
  insertEndpoint,
  rotateSecret,
  updateEndpoint,
  type WebhookEndpointRow,
} from '../store/webhook-endpoints.ts'
import { insertTestDelivery, type DeliveryRow } from '../store/webhook-deliveries.ts'
import { parseEndpointUrl } from './endpoint-url.ts'
import { newWebhookSecret } from './secrets.ts'
import {
  DEFAULT_OVERLAP_SECONDS,
  DESCRIPTION_MAX,
  MAX_ENDPOINTS,
  MAX_OVERLAP_SECONDS,
  TEST_EVENT_TYPE,
} from './endpoint-rules.ts'

export class WebhookUrlError extends OperatorError {}

export interface EndpointInput {
  url: string
  description?: string | undefined
  /** null or undefined: every type. */
  eventTypes?: string[] | null | undefined
}

function checkedUrl(text: string, production: boolean): string {
  const parsed = parseEndpointUrl(text, production)
  if (!parsed.ok) throw new WebhookUrlError(`url ${parsed.reason}`, 'url')
  return parsed.url
}

function checkedDescription(text: string): string {
  const description = text.trim()
  if (description.length > DESCRIPTION_MAX)
    throw new OperatorError(`description must be at most ${DESCRIPTION_MAX} characters`, 'description')
  return description
}

function checkedTypes(types: string[] | null | undefined): string[] | null {
  if (types === null || types === undefined) return null
  const unknown = types.filter((type) => !isEventType(type))
  if (unknown.length > 0)
    throw new OperatorError(
      `unknown event type ${unknown.join(', ')}; the types are: ${EVENT_TYPE_NAMES.join(', ')}`,
      'eventTypes',
    )
  if (types.length === 0)
    throw new OperatorError('eventTypes names no type: leave it out (or null) for every type', 'eventTypes')
  return [...new Set(types)]
}

export async function createEndpoint(
  db: Kysely<Database>,
  orgId: string,
  input: EndpointInput,
  production: boolean,
): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  const url = checkedUrl(input.url, production)
  const description = checkedDescription(input.description ?? '')
  const eventTypes = checkedTypes(input.eventTypes)
  // Counted outside a lock: two concurrent creations may pass the bound by one, which is harmless.
  if ((await countEndpoints(db, orgId)) >= MAX_ENDPOINTS)
    throw new OperatorError(
      `the organization already has ${MAX_ENDPOINTS} webhook endpoints, the most it may have: remove one first`,
    )
  const secret = newWebhookSecret()
  return { endpoint: await insertEndpoint(db, { orgId, url, description, eventTypes, secret }), secret }
}

export interface EndpointPatch {
  url?: string | undefined
  description?: string | undefined
  eventTypes?: string[] | null | undefined
  enabled?: boolean | undefined
}

export function changeEndpoint(
  db: Kysely<Database>,
  orgId: string | undefined,
  id: string,
  patch: EndpointPatch,
  production: boolean,
): Promise<WebhookEndpointRow | undefined> {
  return updateEndpoint(db, orgId, id, {
    ...(patch.url !== undefined ? { url: checkedUrl(patch.url, production) } : {}),
    ...(patch.description !== undefined ? { description: checkedDescription(patch.description) } : {}),
    ...('eventTypes' in patch && patch.eventTypes !== undefined ? { eventTypes: checkedTypes(patch.eventTypes) } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
  })
}

export async function rotateEndpointSecret(
  db: Kysely<Database>,
  orgId: string | undefined,
  id: string,
  overlapSeconds: number = DEFAULT_OVERLAP_SECONDS,
): Promise<{ endpoint: WebhookEndpointRow; secret: string } | undefined> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS)
    throw new OperatorError(`overlapSeconds must be a whole number from 0 to ${MAX_OVERLAP_SECONDS}`, 'overlapSeconds')
  const secret = newWebhookSecret()
  const endpoint = await rotateSecret(db, orgId, id, secret, new Date(Date.now() + overlapSeconds * 1000))
  return endpoint && { endpoint, secret }
}

/**
 * Queues a test message to the endpoint, with an id of its own, so that a receiver's
 * de-duplication never drops a real event for it (a disabled endpoint's is recorded as not sent:
 * enable it first). Answers undefined when the endpoint is not there.
 */
export async function sendTestMessage(
  db: Kysely<Database>,
  orgId: string | undefined,
  endpointId: string,
): Promise<DeliveryRow | undefined> {
  const endpoint = await findEndpoint(db, orgId, endpointId)
  if (!endpoint) return undefined
  const id = randomUUID()
  const payload = JSON.stringify({
    id,
    type: TEST_EVENT_TYPE,
    occurredAt: new Date().toISOString(),
    householdId: null,
    data: { endpointId: endpoint.id, message: 'A test message from Hearth: your endpoint received it.' },
  })
  return insertTestDelivery(db, {
    orgId: endpoint.org_id,
    endpointId: endpoint.id,
    eventId: id,
    eventType: TEST_EVENT_TYPE,
    payload,
  })
}
