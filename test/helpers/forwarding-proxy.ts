// A real reverse proxy for tests of HEARTH_TRUST_PROXY: it appends the address it was reached from
// to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for, what load balancers do) and forwards the
// request from its own loopback address, so the server sees the proxy as its peer. Linux answers
// on all of 127.0.0.0/8, so each party can have an address of its own without any setup.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ForwardingProxy {
  url: string
  close(): Promise<void>
}

/** A proxy in front of `upstream` (http://127.0.0.1:port), connecting to it from `ownAddress`. */
export async function startForwardingProxy(upstream: string, ownAddress: string): Promise<ForwardingProxy> {
  const target = new URL(upstream)
  const server = http.createServer((request, response) => {
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ')
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        localAddress: ownAddress,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwardedFor },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    forwarded.on('error', () => response.writeHead(502).end())
    request.pipe(forwarded)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A GET from a chosen loopback address (fetch cannot choose its source address). */
export function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress, headers, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
  })
}
