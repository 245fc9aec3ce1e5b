// @hearth/api-client: a typed client of the Hearth API, and the verification of Hearth's webhooks.
// The types (./schema.js) are generated from the API's OpenAPI document (scripts/generate.ts).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch'
import { Webhook, WebhookVerificationError as SignatureError } from 'standardwebhooks'
import type { components, operations, paths } from './schema.js'

export type { components, operations, paths }

/** A client of every operation of the API, typed by path, method, parameters, body and answers. */
export type HearthClient = Client<paths>

export interface HearthClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The API's origin, e.g. https://api.hearth.example (the paths carry /api/v1). */
  baseUrl: string
  /** An API key, idx_…: sent as `Authorization: Bearer <key>` on every request. Keep it on your server. */
  apiKey: string
}

/**
 * A client of the Hearth API for one API key, built on openapi-fetch:
 *
 *   const hearth = createHearthClient({ baseUrl: 'https://api.hearth.example', apiKey: process.env.HEARTH_KEY! })
 *   const { data, error } = await hearth.GET('/api/v1/relationships', { params: { query: { pageSize: 50 } } })
 *
 * `data` is the typed body of a 2xx answer, `error` the typed `{error, code, requestId}` of any other.
 */
export function createHearthClient(options: HearthClientOptions): HearthClient {
  const { baseUrl, apiKey, headers, ...rest } = options
  if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('createHearthClient: apiKey is required')
  let origin: URL
  try {
    origin = new URL(baseUrl)
  } catch {
    throw new TypeError(
      `createHearthClient: baseUrl must be an absolute URL such as https://api.hearth.example, got ${JSON.stringify(baseUrl)}`,
    )
  }
  const merged = new Headers(headers instanceof Headers || Array.isArray(headers) ? headers : toHeaderRecord(headers))
  merged.set('authorization', `Bearer ${apiKey}`)
  return createClient<paths>({ ...rest, baseUrl: origin.href.replace(/\/+$/, ''), headers: merged })
}

function toHeaderRecord(headers: ClientOptions['headers']): Record<string, string> {
  const record: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === null || value === undefined) continue
    record[name] = Array.isArray(value) ? value.map(String).join(', ') : String(value)
  }
  return record
}

/**
 * What a Hearth webhook delivers: one event of the change feed (GET /api/v1/events), the same on every
 * delivery of it. `id` is also the delivery's `webhook-id`: de-duplicate on it.
 */
export interface HearthWebhookEvent {
  id: string
  /** e.g. household.created, member.updated, link.deleted. */
  type: string
  occurredAt: string
  householdId: string
  data: Record<string, unknown>
}

/** Why a delivery was refused. */
export type WebhookRefusal =
  /** webhook-id, webhook-timestamp or webhook-signature is missing (or the timestamp is not a number). */
  | 'missing_headers'
  /** The timestamp is more than 5 minutes old: a replay, or a clock far off. */
  | 'timestamp_too_old'
  /** The timestamp is more than 5 minutes ahead. */
  | 'timestamp_too_new'
  /** No v1 signature matches: forged, altered, or signed with another secret. */
  | 'invalid_signature'
  /** Signed correctly, but not a JSON object. */
  | 'invalid_body'

export class WebhookVerificationError extends Error {
  readonly reason: WebhookRefusal

  constructor(reason: WebhookRefusal, message: string) {
    super(message)
    this.name = 'WebhookVerificationError'
    this.reason = reason
  }
}

/** Request headers as Node (IncomingHttpHeaders), fetch (Headers) or a plain record give them. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

const SIGNED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const

/**
 * Verifies a webhook delivery per the Standard Webhooks spec and answers its event; throws a
 * WebhookVerificationError (with its `reason`) for anything else.
 *
 * - `rawBody`: the request body exactly as received, before any JSON parsing (a re-serialized body
 *   no longer matches its signature).
 * - `headers`: the request's headers; webhook-id, webhook-timestamp and webhook-signature are read.
 * - `secret`: the endpoint's signing secret, `whsec_<base64>`.
 *
 * A delivery is accepted when one of its v1 signatures is the HMAC-SHA256 of `id.timestamp.body`
 * under the secret and its timestamp is within 5 minutes of this machine's clock (a replayed old
 * delivery is refused). Within those 5 minutes the same delivery verifies again: remember the ids
 * you have handled and skip repeats.
 */
export function verifyWebhook(rawBody: string, headers: WebhookHeaders, secret: string): HearthWebhookEvent {
  if (typeof rawBody !== 'string')
    throw new TypeError('verifyWebhook: rawBody must be the body as a string, exactly as received')
  let webhook: Webhook
  try {
    webhook = new Webhook(secret)
  } catch (error) {
    throw new TypeError(
      `verifyWebhook: the secret is not a signing secret (whsec_ followed by base64): ${messageOf(error)}`,
      { cause: error },
    )
  }
  const signed: Record<string, string> = {}
  for (const name of SIGNED_HEADERS) {
    const value = headerValue(headers, name)
    if (value === undefined || value === '')
      throw new WebhookVerificationError('missing_headers', `Webhook refused: no ${name} header.`)
    signed[name] = value
  }
  let event: unknown
  try {
    event = webhook.verify(rawBody, signed, { jsonParse: false }) ?? JSON.parse(rawBody)
  } catch (error) {
    throw refusal(error)
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new WebhookVerificationError(
      'invalid_body',
      'Webhook refused: its signature is valid but its body is not a JSON object.',
    )
  }
  return event as HearthWebhookEvent
}

function refusal(error: unknown): WebhookVerificationError {
  if (error instanceof SyntaxError)
    return new WebhookVerificationError(
      'invalid_body',
      `Webhook refused: its signature is valid but its body is not JSON (${error.message}).`,
    )
  if (!(error instanceof SignatureError)) throw error
  switch (error.message) {
    case 'Message timestamp too old':
      return new WebhookVerificationError(
        'timestamp_too_old',
        'Webhook refused: its webhook-timestamp is more than 5 minutes old (a replayed delivery, or this clock is off).',
      )
    case 'Message timestamp too new':
      return new WebhookVerificationError(
        'timestamp_too_new',
        'Webhook refused: its webhook-timestamp is more than 5 minutes ahead (this clock is off?).',
      )
    case 'Missing required headers':
    case 'Invalid Signature Headers':
      return new WebhookVerificationError(
        'missing_headers',
        'Webhook refused: webhook-id, webhook-timestamp (in seconds) and webhook-signature are required.',
      )
    default:
      return new WebhookVerificationError(
        'invalid_signature',
        'Webhook refused: no signature matches this body under this secret (forged, altered in transit, or signed with another secret).',
      )
  }
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue
    if (typeof value === 'string') return value
    // Node joins repeated headers; webhook-signature lists its signatures space-separated.
    if (Array.isArray(value)) return value.join(' ')
  }
  return undefined
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
