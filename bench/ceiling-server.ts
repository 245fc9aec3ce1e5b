// The "ceiling": the fastest a Node HTTP server on this machine can answer the same load with a
// response of the same size — node:http, no routing, validation, database or serialization; a
// fixed, prebuilt body. API req/s ÷ ceiling req/s says how much of the machine's HTTP capacity
// the application's own work leaves. Runs in its own process, like the API.
//
// The parent sets the body size and status per case over IPC ({ size, status }) and waits for the
// reply before loading it, so one process serves every case.
import http from 'node:http'
import type { ListeningMessage } from './child.ts'

export interface CeilingShape {
  size: number
  status: number
}

function isShape(message: unknown): message is CeilingShape {
  const candidate = message as Partial<CeilingShape> | null
  return typeof candidate?.size === 'number' && typeof candidate.status === 'number'
}

/** A JSON-looking body of exactly `size` bytes (the bytes' content does not change the cost). */
function bodyOf(size: number): Buffer {
  if (size < 2) return Buffer.alloc(size, ' ')
  return Buffer.concat([Buffer.from('"'), Buffer.alloc(size - 2, 'x'), Buffer.from('"')])
}

let shape: CeilingShape = { size: 2, status: 200 }
let body = bodyOf(shape.size)

const server = http.createServer((request, response) => {
  // Read the request body (the create case posts JSON) before answering, as the API must.
  request.resume()
  request.once('end', () => {
    response.writeHead(shape.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    })
    response.end(body)
  })
})
// Same keep-alive behaviour as Fastify's defaults, so connection handling is not the difference.
server.keepAliveTimeout = 72_000

if (!process.send) throw new Error('bench/ceiling-server.ts must be started by bench/run.ts')
process.on('message', (message) => {
  if (!isShape(message)) return
  shape = message
  body = bodyOf(message.size)
  process.send?.({ type: 'ready', size: body.length })
})

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address === 'string')
    throw new Error('the ceiling server is not listening on a TCP port')
  const message: ListeningMessage = { type: 'listening', port: address.port }
  process.send?.(message)
})

const shutdown = () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
process.on('disconnect', shutdown)
