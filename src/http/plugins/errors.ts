// One error handler for the whole API: every failure becomes {error, code, requestId} with
// the status of its code; validation errors say which field is wrong and what is allowed, in the
// sentence and as a JSON Pointer (`field`) that programs can place without reading the sentence;
// 5xx never leak internals (the details go to the log under the request id).
import type { FastifyError } from 'fastify'
import type { ErrorObject } from 'ajv'
import type { Duplex } from 'node:stream'
import { ApiError, ERRORS, type ErrorCode, type ErrorDetails } from '../errors.ts'
import type { App } from '../types.ts'
import { databaseFault, type DatabaseFault } from '../../store/database-faults.ts'
import { jsonPointer } from '../../domain/json-pointer.ts'
import { RuleViolation } from '../../households/rule-violation.ts'
import { apiErrorOf } from '../rule-violations.ts'

/** Fastify's own error codes that are the client's fault, and what we call them. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', message: 'The request body is larger than 1 MB.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the body as JSON with Content-Type: application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_header', message: 'Content-Length does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The body is empty; send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The body is not valid JSON.' },
}

export function describe(error: ErrorObject, part: string): string {
  const field = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : part
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return `${String(params.missingProperty)} is required`
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {})
      return `unknown field "${String(params.additionalProperty)}"${allowed.length ? `; the fields are: ${allowed.join(', ')}` : ''}`
    }
    case 'enum':
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`
    case 'type': {
      const noun: Record<string, string> = {
        integer: 'a whole number',
        object: 'an object',
        array: 'an array',
        null: 'null',
      }
      const types = String(params.type)
        .split(',')
        .map((t) => noun[t] ?? `a ${t}`)
      return `${field} must be ${types.join(' or ')}`
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`
  }
}

/**
 * The JSON Pointer of what a validation error is about, relative to the part of the request
 * validated (body, query string or headers). Ajv's instancePath is already a pointer; a missing or
 * unknown property is reported on its object, so the property is appended.
 */
export function fieldOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'required') return error.instancePath + jsonPointer(String(params.missingProperty))
  if (error.keyword === 'additionalProperties')
    return error.instancePath + jsonPointer(String(params.additionalProperty))
  return error.instancePath
}

/** `onDatabaseFault`: told of each request answered 503 database_unavailable, and why (for db_errors_total). */
export function registerErrorHandling(app: App, onDatabaseFault: (fault: DatabaseFault) => void): void {
  app.setErrorHandler((thrown: FastifyError | ApiError | RuleViolation, request, reply) => {
    // A use case's refusal answers as its ApiError, wherever in the request it was thrown.
    const error = thrown instanceof RuleViolation ? apiErrorOf(thrown) : thrown
    const send = (status: number, code: ErrorCode, message: string, extra: ErrorDetails = {}) =>
      reply.status(status).send({ error: message, code, requestId: request.id, ...extra })

    if (error instanceof ApiError) {
      reply.headers(error.headers)
      return send(error.status, error.code, error.message, error.extra)
    }
    if (error.validation) {
      const part = error.validationContext ?? 'request'
      const code: ErrorCode =
        part === 'querystring' ? 'invalid_query' : part === 'headers' ? 'invalid_header' : 'invalid_body'
      const first = error.validation[0] as ErrorObject | undefined
      if (!first) return send(400, code, `the ${part} is invalid`)
      return send(400, code, describe(first, part), { field: fieldOf(first) })
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined
    if (known) return send(ERRORS[known.code].status, known.code, known.message)
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // Some other client error from Fastify (for example a malformed URL). Say what it said.
      request.log.info({ err: error }, 'client error')
      return send(400, 'malformed_request', error.message)
    }
    const fault = databaseFault(error)
    if (fault) {
      onDatabaseFault(fault)
      request.log.warn({ err: error }, 'database unavailable')
      reply.header('Retry-After', '1')
      return send(
        503,
        'database_unavailable',
        'The database is unavailable or did not answer in time. Retry after Retry-After seconds (with the same Idempotency-Key or If-Match, a write applies at most once).',
      )
    }
    request.log.error({ err: error }, 'request failed')
    return send(
      500,
      'internal_error',
      `Something went wrong on our side. Quote request id ${request.id} if you report it.`,
    )
  })

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      error: `There is no ${request.method} ${request.url.split('?')[0]}. The API is described at /api/v1/openapi.json.`,
      code: 'not_found',
      requestId: request.id,
    })
  })
}

/**
 * Errors Node's HTTP parser meets before there is a request (oversized or malformed headers):
 * answered on the raw socket, in the same {error, code} shape as every other error.
 */
const CLIENT_ERRORS: Record<string, { code: ErrorCode; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'request_header_too_large',
    reason: 'Request Header Fields Too Large',
    message: 'The request line and headers are larger than 64 KB; send fewer ids per request.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    reason: 'Request Timeout',
    message: 'The request was not sent in full within the request timeout (HEARTH_REQUEST_TIMEOUT); send it again.',
  },
}
const MALFORMED = {
  code: 'malformed_request',
  reason: 'Bad Request',
  message: 'The request is not valid HTTP.',
} as const

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return
  const { code, reason, message } = (error.code && CLIENT_ERRORS[error.code]) || MALFORMED
  const body = JSON.stringify({ error: message, code })
  socket.end(
    `HTTP/1.1 ${ERRORS[code].status} ${reason}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
