// The organization's webhook endpoints, for its admins: register one (its secret is shown once, in
// the answer), list, read, change (URL, types, description; enable again after the 3-day rule
// disabled it), remove, rotate the secret with an overlap, send a test message, read the delivery
// log with each delivery's attempts, and send a delivery again. Another organization's endpoint or
// delivery, an unknown id and a malformed one are the same 404. Writes only change rows; the
// dispatcher and the workers (src/webhooks/) send.
import type { Kysely } from 'kysely'
import { Type } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { deleteEndpoint, findEndpoint, listEndpoints } from '../../store/webhook-endpoints.ts'
import { findDelivery, listDeliveries, resendDelivery } from '../../store/webhook-deliveries.ts'
import {
  changeEndpoint,
  createEndpoint,
  rotateEndpointSecret,
  sendTestMessage,
  WebhookUrlError,
} from '../../webhooks/endpoint-operations.ts'
import { presentAttempt, presentDelivery, presentEndpoint } from '../../webhooks/present.ts'
import { decodeDeliveryCursor, encodeDeliveryCursor } from '../../webhooks/delivery-cursor.ts'
import { DELIVERY_PAGE } from '../../webhooks/endpoint-rules.ts'
import { RETRY_WAITS_SECONDS } from '../../webhooks/schedule.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { isUuid } from '../../domain/ids.ts'
import {
  CreateWebhookEndpointBody,
  DeliveriesQuery,
  RotateSecretBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryAnswer,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookSecretAnswer,
} from '../../schemas/webhooks.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs, underCliRules } from './organization-common.ts'

const PATH = '/api/v1/webhook-endpoints'
const ONE = `${PATH}/:endpointId`
const DELIVERIES = `${ONE}/deliveries`

const SCHEDULE_WORDS = `Attempts follow the retry schedule: at once, then after ${RETRY_WAITS_SECONDS.map(words).join(', ')} (each up to 10 % later), more than 3 days in all; an endpoint whose attempts have all failed for 3 days is disabled.`

function words(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${seconds / 60} min`
  return `${seconds / 3600} h`
}

const endpointNotFound = () => new ApiError('not_found', 'No webhook endpoint with this id in your organization.')
const deliveryNotFound = () =>
  new ApiError('not_found', 'No delivery with this id for this webhook endpoint in your organization.')

/** The endpoint id of a path, lower-cased; a malformed one names nothing (404). */
function endpointIdOf(params: { endpointId: string }): string {
  if (!isUuid(params.endpointId)) throw endpointNotFound()
  return params.endpointId.toLowerCase()
}

/** A write shared with the CLI: its refusals are 400s naming the field (a URL's: invalid_webhook_url). */
async function underWebhookRules<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation()
  } catch (error) {
    if (error instanceof WebhookUrlError) throw new ApiError('invalid_webhook_url', error.message, { field: '/url' })
    throw error
  }
}

export function registerWebhookEndpointRoutes(app: App, db: Kysely<Database>, production: boolean): void {
  const writeErrors = { 400: ErrorBody, ...authErrors, 413: ErrorBody, 415: ErrorBody }
  const oneErrors = { 400: ErrorBody, 404: ErrorBody, ...authErrors, 413: ErrorBody, 415: ErrorBody }

  app.get(
    PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'listWebhookEndpoints',
          'List webhook endpoints',
          "The organization's webhook endpoints, newest first, disabled ones included; never their secrets.",
        ),
        response: { 200: WebhookEndpointList, ...authErrors },
      },
    },
    async (request) => ({
      endpoints: (await listEndpoints(db, principalOf(request).orgId)).map((row) => presentEndpoint(row)),
    }),
  )

  app.post(
    PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'createWebhookEndpoint',
          'Register a webhook endpoint',
          `Registers an endpoint: from now on each event of the types it names (every type without eventTypes) is POSTed to it, following the Standard Webhooks specification (webhook-id: the event id, the same on every attempt, for de-duplication; webhook-timestamp; webhook-signature: v1,<HMAC-SHA256>). Answers 201 with the signing secret, shown only in this response. ${SCHEDULE_WORDS} In production, a URL whose host resolves to a private, loopback, link-local or otherwise non-public address is refused at each attempt.`,
          true,
        ),
        body: CreateWebhookEndpointBody,
        response: { 201: WebhookSecretAnswer, ...writeErrors },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await underCliRules(() =>
        underWebhookRules(() => createEndpoint(db, principalOf(request).orgId, request.body, production)),
      )
      return reply.status(201).send({ endpoint: presentEndpoint(endpoint), secret })
    },
  )

  app.get(
    ONE,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'getWebhookEndpoint',
          'Read a webhook endpoint',
          'One endpoint, without its secret.',
        ),
        params: WebhookEndpointParams,
        response: { 200: WebhookEndpoint, 404: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      const endpoint = await findEndpoint(db, principalOf(request).orgId, endpointIdOf(request.params))
      if (!endpoint) throw endpointNotFound()
      return presentEndpoint(endpoint)
    },
  )

  app.patch(
    ONE,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'updateWebhookEndpoint',
          'Change a webhook endpoint',
          'Changes the fields sent. enabled: true enables an endpoint again after it was disabled (clearing the reason and the 3-day clock): deliveries start again with new events, and its failed deliveries can be sent again one by one. Events that occurred while it was disabled make no deliveries: read them from the change feed (GET /api/v1/events, events:read) from the cursor of the last event processed. enabled: false stops deliveries to it.',
          true,
        ),
        params: WebhookEndpointParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: WebhookEndpoint, ...oneErrors },
      },
    },
    async (request) => {
      const id = endpointIdOf(request.params)
      const endpoint = await underCliRules(() =>
        underWebhookRules(() => changeEndpoint(db, principalOf(request).orgId, id, request.body, production)),
      )
      if (!endpoint) throw endpointNotFound()
      return presentEndpoint(endpoint)
    },
  )

  app.delete(
    ONE,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'deleteWebhookEndpoint',
          'Remove a webhook endpoint',
          'Removes the endpoint with its delivery log; nothing more is sent to it (an attempt already under way may still arrive).',
          true,
        ),
        params: WebhookEndpointParams,
        response: { 204: Type.Null({ description: 'Removed.' }), ...oneErrors },
      },
    },
    async (request, reply) => {
      if (!(await deleteEndpoint(db, principalOf(request).orgId, endpointIdOf(request.params))))
        throw endpointNotFound()
      return reply.status(204).send(null)
    },
  )

  app.post(
    `${ONE}/rotate-secret`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'rotateWebhookSecret',
          'Rotate the signing secret',
          'Makes a new secret, shown only in this response. For overlapSeconds (default one day) every delivery carries two signatures in webhook-signature, by the new and by the previous secret, so a receiver still holding the previous one keeps verifying while it switches; after that only the new one signs. Rotating again within the overlap ends the older secret at once.',
          true,
        ),
        params: WebhookEndpointParams,
        body: RotateSecretBody,
        response: { 200: WebhookSecretAnswer, ...oneErrors },
      },
      // Every field is optional, so an empty POST is the defaults (rather than 400 "body must be an object").
      preValidation: async (request) => {
        ;(request as { body: unknown }).body ??= {}
      },
    },
    async (request) => {
      const id = endpointIdOf(request.params)
      const rotated = await underCliRules(() =>
        rotateEndpointSecret(db, principalOf(request).orgId, id, request.body.overlapSeconds),
      )
      if (!rotated) throw endpointNotFound()
      return { endpoint: presentEndpoint(rotated.endpoint), secret: rotated.secret }
    },
  )

  app.post(
    `${ONE}/test`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'sendWebhookTest',
          'Send a test message',
          'Queues a message of type webhook.test (data: {endpointId, message}) with an id of its own, delivered like an event within seconds; answers 202 with its delivery, whose attempts the delivery log shows.',
          true,
        ),
        params: WebhookEndpointParams,
        response: { 202: WebhookDeliveryAnswer, ...oneErrors },
      },
    },
    async (request, reply) => {
      const delivery = await sendTestMessage(db, principalOf(request).orgId, endpointIdOf(request.params))
      if (!delivery) throw endpointNotFound()
      return reply.status(202).send({ delivery: presentDelivery(delivery) })
    },
  )

  app.get(
    DELIVERIES,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'listWebhookDeliveries',
          'Read the delivery log',
          `The endpoint's deliveries, newest first: each event (or test message) with its status, attempts, next attempt and last answer. ${SCHEDULE_WORDS} Deliveries are kept as long as the change feed keeps events (HEARTH_EVENT_RETENTION_DAYS).`,
        ),
        params: WebhookEndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryList, 400: ErrorBody, 404: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      const orgId = principalOf(request).orgId
      const endpointId = endpointIdOf(request.params)
      const before = request.query.before === undefined ? undefined : decodeDeliveryCursor(request.query.before)
      if (request.query.before !== undefined && !before)
        throw new ApiError(
          'invalid_query',
          'before is not a nextCursor this log gave out: pass one exactly as it came.',
          {
            field: '/before',
          },
        )
      if (!(await findEndpoint(db, orgId, endpointId))) throw endpointNotFound()
      const limit = request.query.limit ?? DELIVERY_PAGE.default
      const rows = await listDeliveries(db, { orgId, endpointId, status: request.query.status, before, limit })
      const last = rows.at(-1)
      return {
        deliveries: rows.map(presentDelivery),
        nextCursor:
          last && rows.length === limit ? encodeDeliveryCursor({ createdAt: last.created_at, id: last.id }) : null,
      }
    },
  )

  app.get(
    `${DELIVERIES}/:deliveryId`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'getWebhookDelivery',
          'Read a delivery and its attempts',
          'One delivery with every attempt: when, how long, the status code that came back or why none did (a timeout, a closed connection, a redirect, which is never followed). The body of the answer is never kept.',
        ),
        params: WebhookDeliveryParams,
        response: { 200: WebhookDeliveryDetail, 404: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      const endpointId = endpointIdOf(request.params)
      if (!isUuid(request.params.deliveryId)) throw deliveryNotFound()
      const found = await findDelivery(
        db,
        principalOf(request).orgId,
        endpointId,
        request.params.deliveryId.toLowerCase(),
      )
      if (!found) throw deliveryNotFound()
      return { delivery: presentDelivery(found.delivery), attempts: found.attempts.map(presentAttempt) }
    },
  )

  app.post(
    `${DELIVERIES}/:deliveryId/retry`,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'retryWebhookDelivery',
          'Send a delivery again',
          'Sends the delivery again within seconds, whatever its status, with the same webhook-id and body (and fresh signatures); the attempt is recorded as manual. A retry it was waiting for is replaced by this one; if it fails, the schedule goes on from its attempt count. Answers 202 with the delivery.',
          true,
        ),
        params: WebhookDeliveryParams,
        response: { 202: WebhookDeliveryAnswer, ...oneErrors },
      },
    },
    async (request, reply) => {
      const endpointId = endpointIdOf(request.params)
      if (!isUuid(request.params.deliveryId)) throw deliveryNotFound()
      const delivery = await resendDelivery(
        db,
        principalOf(request).orgId,
        endpointId,
        request.params.deliveryId.toLowerCase(),
      )
      if (!delivery) throw deliveryNotFound()
      return reply.status(202).send({ delivery: presentDelivery(delivery) })
    },
  )
}
