// A real HTTP receiver on loopback for the webhook tests: it records every request (headers and
// body) and answers as the test says: a status, a redirect, a closed connection, or a hold (the
// test releases it, or the client gives up).
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders
  body: string
  at: number
}

export type Answer =
  | { status: number; location?: string }
  | { close: true }
  /** Keeps the request open until the client gives up or release() is called. */
  | { hold: true }

export interface Receiver {
  url: string
  requests: ReceivedRequest[]
  /** What the next requests get (default 204). */
  answer(next: Answer | ((request: ReceivedRequest) => Answer)): void
  /** Answers every held request with `status`. */
  release(status?: number): void
  /** Requests whose body's id is `eventId`. */
  forEvent(eventId: string): ReceivedRequest[]
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = []
  const held: http.ServerResponse[] = []
  const sockets = new Set<Socket>()
  let answer: Answer | ((request: ReceivedRequest) => Answer) = { status: 204 }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      requests.push(received)
      const reply = typeof answer === 'function' ? answer(received) : answer
      if ('close' in reply) req.socket.destroy()
      else if ('hold' in reply) held.push(res)
      else {
        res.writeHead(reply.status, reply.location ? { location: reply.location } : {})
        res.end('ok')
      }
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    answer: (next) => {
      answer = next
    },
    release: (status = 204) => {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(status).end()
    },
    forEvent: (eventId) => requests.filter((request) => (JSON.parse(request.body) as { id: string }).id === eventId),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Verifies a request's signature with standardwebhooks, as a receiver would; throws when it does not verify. */
export function verifyRequest(secret: string, request: ReceivedRequest): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  })
}

/** Polls `check` until it answers something other than undefined (or false), for up to `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
