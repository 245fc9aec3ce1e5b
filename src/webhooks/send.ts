// One delivery attempt: a signed POST to the endpoint, at most `timeoutMs` from the start (the
// host's resolution included) to the end of the response, so that a slow receiver or a hanging DNS
// server fails this attempt instead of holding a worker slot, or the job past its lease.
// Only a 2xx answer is a success. Redirects are never followed (the next hop was not checked
// against the address rules, and the signature was meant for the registered URL): a 3xx is a
// failure that names where it pointed. Connection failures are failures with a reason. At most
// the first KB of the answer is read, and none of it is kept. The connection is one of a pool of
// the checked address (connections.ts), kept open for the next attempt when the answer was read whole.
import http from 'node:http'
import https from 'node:https'
import { setMaxListeners } from 'node:events'
import { resolveForDelivery, AddressRefused, HostUnresolved, type Resolver } from './address-guard.ts'
import type { ConnectionPools } from './connections.ts'
import type { SignedHeaders } from './secrets.ts'

export interface SendSettings {
  timeoutMs: number
  production: boolean
  resolve: Resolver
}

export interface AttemptResult {
  succeeded: boolean
  /** The HTTP status, when an answer came. */
  responseStatus: number | null
  /** Why it failed, in words for the admin; null on success. */
  error: string | null
  durationMs: number
}

const USER_AGENT = 'Hearth-Webhooks/1 (+https://www.standardwebhooks.com/)'
const READ_AT_MOST = 1024

export async function sendAttempt(
  url: string,
  headers: SignedHeaders,
  body: string,
  settings: SendSettings,
  connections: ConnectionPools,
  stop: AbortSignal,
): Promise<AttemptResult> {
  const started = performance.now()
  const timeout = AbortSignal.timeout(settings.timeoutMs)
  const signal = AbortSignal.any([timeout, stop])
  // Each attempt adds a listener to the worker's stop signal; many attempts at once are expected.
  setMaxListeners(0, signal)
  const done = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  })
  // Which part the timeout interrupted, to say so: a name that never resolved is not a slow receiver.
  let resolving = false
  try {
    const target = new URL(url)
    if (settings.production && target.protocol !== 'https:')
      return done({ succeeded: false, responseStatus: null, error: 'refused: production delivers to https:// only' })
    resolving = true
    const address = await resolveForDelivery(target.hostname, settings.resolve, settings.production, signal)
    resolving = false
    const status = await post(target, connections.agentFor(target, address), headers, body, signal)
    if (status.code >= 200 && status.code < 300)
      return done({ succeeded: true, responseStatus: status.code, error: null })
    if (status.code >= 300 && status.code < 400)
      return done({
        succeeded: false,
        responseStatus: status.code,
        error: `answered ${status.code}, a redirect${status.location ? ` to ${status.location.slice(0, 200)}` : ''}: redirects are not followed; register the final URL`,
      })
    return done({ succeeded: false, responseStatus: status.code, error: `answered ${status.code}` })
  } catch (error) {
    return done({
      succeeded: false,
      responseStatus: null,
      error: failureWords(error, timeout, settings.timeoutMs, resolving),
    })
  }
}

function post(
  target: URL,
  agent: http.Agent,
  headers: SignedHeaders,
  body: string,
  signal: AbortSignal,
): Promise<{ code: number; location: string | undefined }> {
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        signal,
        // The pool of the address just checked: its sockets connect there and nowhere else.
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
        },
      },
      (response) => {
        let read = 0
        const answer = () => resolve({ code: response.statusCode ?? 0, location: response.headers.location })
        response.on('data', (chunk: Buffer) => {
          read += chunk.length
          // A long answer is not read on: its connection is closed rather than drained for reuse.
          if (read >= READ_AT_MOST) {
            response.destroy()
            answer()
          }
        })
        response.on('end', answer)
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

function failureWords(error: unknown, timeout: AbortSignal, timeoutMs: number, resolving: boolean): string {
  if (error instanceof AddressRefused) return `refused: ${error.message}`
  if (error instanceof HostUnresolved) return `the host name does not resolve (${error.message})`
  if (timeout.aborted && resolving) return `the host name did not resolve within ${timeoutMs / 1000} s`
  if (timeout.aborted) return `no complete answer within ${timeoutMs / 1000} s`
  // The stop signal's own reason (it ended the host's resolution) is a DOMException, without a code.
  if (error instanceof Error && error.name === 'AbortError') return 'stopped: the instance shut down during the attempt'
  const code = (error as NodeJS.ErrnoException).code
  switch (code) {
    case 'ABORT_ERR':
      return 'stopped: the instance shut down during the attempt'
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ECONNRESET':
      return 'the connection was closed before an answer'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve'
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable'
    default:
      if (error instanceof Error && error.message === 'socket hang up')
        return 'the connection was closed before an answer'
      return `failed: ${code ?? (error as Error).message}`.slice(0, 300)
  }
}
