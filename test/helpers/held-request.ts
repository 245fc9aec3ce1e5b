// A create request held half-sent: the server has read its head (it answered 100 Continue) and waits
// for the body. Shutdown and load-shedding tests use it to have requests in flight for as long as
// they need, without sleeps.
import http from 'node:http'

export interface HeldRequest {
  /** Sends the rest of the body. */
  finish(): void
  /** Goes away without sending the rest: the connection is closed, `response` rejects. */
  abort(): void
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>
}

/** Starts POST /api/v1/relationships with `name` and resolves once the server is waiting for the body. */
export async function holdCreate(baseUrl: string, key: string, name: string): Promise<HeldRequest> {
  const body = JSON.stringify({ name })
  const request = http.request(new URL('/api/v1/relationships', baseUrl), {
    method: 'POST',
    // Its own connection: held requests must not queue behind each other in a shared agent.
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  })
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      request.once('response', (incoming) => {
        let text = ''
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        incoming.once('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: text }))
        incoming.once('error', reject)
      })
      request.once('error', reject)
    },
  )
  await new Promise<void>((resolve, reject) => {
    request.once('continue', () => resolve())
    request.once('error', reject)
    request.flushHeaders()
  })
  return { finish: () => request.end(body), abort: () => request.destroy(), response }
}
