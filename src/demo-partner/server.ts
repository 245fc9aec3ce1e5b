// The demo partner site (HEARTH_DEMO_PORT, with the demo on): a pretend advisor CRM on a third
// origin that embeds the household chart exactly as a partner would — the SDK and the example
// household loaded from the embed origin, a token endpoint on its own server that mints over real
// HTTP with the demo key, and a Content-Security-Policy a partner can copy.
//
// The demo key stays in this process: the page only ever sees `{token, expiresAt}`.
// While it runs, its two origins (http://localhost:<port>, http://127.0.0.1:<port>) are registered
// for the demo organization, so the chart lets them frame it; close() removes the ones it added.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFile } from 'node:fs/promises'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { addFrameOrigin, removeFrameOrigin } from '../store/origins.ts'
import { parseFrameOrigin } from '../domain/origins.ts'
import { projectPath } from '../project-files.ts'

export interface DemoPartnerOptions {
  db: Kysely<Database>
  /** The demo organization, whose origins list the partner's origins. */
  orgId: string
  /** An API key of the demo organization with embed:chart; never sent to the browser. */
  apiKey: string
  /** Where this process reaches the API, e.g. http://127.0.0.1:3000. */
  apiUrl: string
  /** Where browsers reach the embed origin, e.g. http://127.0.0.1:3001. */
  embedOrigin: string
  /** The pinned chart release the page mounts; undefined when none is released (the page says so). */
  chartVersion: string | undefined
  host: string
  port: number
}

export interface DemoPartner {
  /** The page, on an origin registered for the demo organization. */
  url: string
  /** The origins the page may be opened on. */
  origins: string[]
  close(): Promise<void>
}

const VERSION = /^\d+\.\d+\.\d+$/
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', ''])
const MAX_BODY_BYTES = 4096

interface Asset {
  type: string
  body: string
  headers?: Record<string, string>
}

export async function startDemoPartner(options: DemoPartnerOptions): Promise<DemoPartner> {
  const { embedOrigin, chartVersion } = options
  if (new URL(embedOrigin).origin !== embedOrigin)
    throw new Error(`the embed origin ${embedOrigin} is not a bare origin`)
  if (chartVersion !== undefined && !VERSION.test(chartVersion))
    throw new Error(`${chartVersion} is not a chart version`)

  const assets = await loadAssets(embedOrigin, chartVersion)
  let allowedOrigins = new Set<string>()
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: `the demo partner failed: ${(error as Error).message}` })
      else response.destroy()
    })
  })

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    if (path === '/chart-token') {
      if (request.method !== 'POST') {
        sendJson(response, 405, { error: 'POST /chart-token' }, { allow: 'POST' })
        return
      }
      return mintForPage(request, response)
    }
    const asset = request.method === 'GET' || request.method === 'HEAD' ? assets.get(path) : undefined
    if (!asset) {
      sendJson(response, 404, { error: `nothing at ${request.method ?? 'GET'} ${path}` })
      return
    }
    response.writeHead(200, {
      'content-type': asset.type,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...asset.headers,
    })
    response.end(request.method === 'HEAD' ? undefined : asset.body)
  }

  /**
   * The partner's own token endpoint. The frame origin is the origin the browser is on, taken
   * from the Host header — but only the registered ones are accepted, so the demo key is never
   * used to mint for an origin someone made up.
   */
  async function mintForPage(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    await drain(request)
    const frameOrigin = `http://${request.headers.host ?? ''}`
    if (!allowedOrigins.has(frameOrigin)) {
      sendJson(response, 400, {
        error: `this demo mints tokens only for ${[...allowedOrigins].join(' and ')}, not for Host ${request.headers.host ?? '(none)'}`,
      })
      return
    }
    // A page on another origin may not spend the demo's tokens (browsers send Origin on every POST).
    const origin = request.headers.origin
    if (origin !== undefined && origin !== frameOrigin) {
      sendJson(response, 403, { error: `cross-origin requests from ${origin} are refused` })
      return
    }

    const answer = await fetch(`${options.apiUrl}/api/v1/embed/chart-sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ frameOrigin }),
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await answer.json().catch(() => ({}))) as { token?: unknown; expiresAt?: unknown; error?: unknown }
    if (answer.status !== 201 || typeof body.token !== 'string' || typeof body.expiresAt !== 'string') {
      sendJson(response, 502, {
        error: `the Hearth API answered ${answer.status}: ${typeof body.error === 'string' ? body.error : 'no token'}`,
      })
      return
    }
    // Only what the page needs: never the key, and nothing else of the API's answer.
    sendJson(response, 200, { token: body.token, expiresAt: body.expiresAt }, { 'cache-control': 'no-store' })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  allowedOrigins = new Set([`http://localhost:${port}`, `http://127.0.0.1:${port}`])
  const listenHost = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host
  // A specific loopback address such as [::1] is an origin too (http is allowed only for loopback).
  const own = parseFrameOrigin(`http://${listenHost}:${port}`)
  if (!WILDCARD_HOSTS.has(options.host) && own.ok) allowedOrigins.add(own.origin)

  const added: string[] = []
  try {
    for (const origin of allowedOrigins) if (await addFrameOrigin(options.db, options.orgId, origin)) added.push(origin)
  } catch (error) {
    await closeServer(server)
    throw error
  }
  const url = own.ok && !WILDCARD_HOSTS.has(options.host) ? own.origin : `http://127.0.0.1:${port}`
  return {
    url,
    origins: [...allowedOrigins],
    async close() {
      await closeServer(server)
      // Leaves what it found: an origin someone registered by hand stays registered.
      for (const origin of added) await removeFrameOrigin(options.db, options.orgId, origin)
    },
  }
}

/** The page, its script and stylesheet, with the embed origin and the pinned version filled in. */
async function loadAssets(embedOrigin: string, chartVersion: string | undefined): Promise<Map<string, Asset>> {
  const read = (name: string) => readFile(projectPath('src', 'demo-partner', 'public', name), 'utf8')
  const fill = (text: string) =>
    text.replaceAll('%EMBED_ORIGIN%', embedOrigin).replaceAll('%CHART_VERSION%', chartVersion ?? '')
  const [page, script, noRelease, stylesheet, icon] = await Promise.all([
    read('index.html'),
    read('app.js'),
    read('no-release.js'),
    read('styles.css'),
    read('favicon.svg'),
  ])
  return new Map<string, Asset>([
    ['/', { type: 'text/html; charset=utf-8', body: fill(page), headers: pageHeaders(embedOrigin) }],
    ['/app.js', { type: 'text/javascript; charset=utf-8', body: chartVersion ? fill(script) : noRelease }],
    ['/styles.css', { type: 'text/css; charset=utf-8', body: stylesheet }],
    ['/favicon.svg', { type: 'image/svg+xml', body: icon }],
  ])
}

/** The headers a partner's page needs to embed the chart, and no more than it needs. */
function pageHeaders(embedOrigin: string): Record<string, string> {
  return {
    // script-src: the SDK module comes from the embed origin; connect-src: example.json does too;
    // frame-src: the chart itself. No 'unsafe-inline' anywhere: the SDK styles the iframe
    // through the CSSOM, which style-src does not govern.
    'content-security-policy': `default-src 'self'; script-src 'self' ${embedOrigin}; connect-src 'self' ${embedOrigin}; frame-src ${embedOrigin}; style-src 'self'`,
    // The strictest referrer policy, on purpose: the SDK's iframe still sends its origin (and only
    // that) to the embed origin, whose frame-ancestors needs it.
    'referrer-policy': 'no-referrer',
  }
}

function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body))
}

/** Reads and discards the request body (the token endpoint takes none), refusing a large one. */
function drain(request: http.IncomingMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) request.destroy(new Error('request body too large'))
    })
    request.on('end', () => resolve())
    request.on('error', reject)
  })
}

/** Stops accepting, lets a request in flight finish (a mint takes at most 10 s), drops idle keep-alives. */
function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeIdleConnections()
  })
}
