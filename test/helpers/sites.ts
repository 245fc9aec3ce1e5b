// Small static web sites on loopback ports, standing in for partner pages: each port is its own
// origin. Pages can be added while the site runs.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SiteFile {
  body: string | Uint8Array
  type: string
  headers?: Record<string, string>
}

export interface Site {
  origin: string
  set(path: string, file: SiteFile): void
  /** POST handlers, e.g. a partner server's token endpoint. */
  handle(path: string, handler: (body: string) => Promise<{ status: number; body: unknown }>): void
  close(): Promise<void>
}

export async function startSite(host = '127.0.0.1'): Promise<Site> {
  const files = new Map<string, SiteFile>()
  const handlers = new Map<string, (body: string) => Promise<{ status: number; body: unknown }>>()
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    if (request.method === 'POST') {
      const handler = handlers.get(path)
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      request.on('end', () => {
        if (!handler) return void response.writeHead(404).end()
        handler(body).then(
          (result) =>
            response.writeHead(result.status, { 'content-type': 'application/json' }).end(JSON.stringify(result.body)),
          (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
        )
      })
      return
    }
    const file = files.get(path)
    if (!file) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers }).end(file.body)
  })
  await new Promise<void>((resolve) => server.listen(0, host, resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://${host === '127.0.0.1' ? '127.0.0.1' : host}:${port}`,
    set: (path, file) => void files.set(path, file),
    handle: (path, handler) => void handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
