// The embed origin (HEARTH_EMBED_PORT): the released chart pages and their assets, the JWKS that
// chart tokens verify against, and nothing else (a JSON 404). It sets no cookies and reads none.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { recordChartRender } from '../store/chart-mints.ts'
import { chartJwks } from './tokens.ts'
import { chartPagePolicy } from './frame-ancestors.ts'
import { releasedVersions, type ChartFile, type ChartReleases } from './releases.ts'
import type { RateLimiter } from '../rate-limit/limiter.ts'
import { clientKey } from '../net/client-key.ts'
import { isUuid } from '../domain/ids.ts'
import { fastifyTrustProxy, type ProxyTrust } from '../net/trust-proxy.ts'

const IMMUTABLE = 'public, max-age=31536000, immutable'

export interface EmbedAppOptions {
  db: Kysely<Database>
  releases: ChartReleases
  /**
   * Per client address, for the answers that ask the database: the chart page and every JWKS
   * request (a verifier's fetch reads the keys too). The assets are immutable files from memory.
   */
  limiter: RateLimiter
  /** That budget: units per window (HEARTH_ADDRESS_RATE_LIMIT_MAX, HEARTH_RATE_LIMIT_WINDOW). */
  addressBudget: { limit: number; windowSeconds: number }
  /** HEARTH_TRUST_PROXY, as the API takes it: behind proxies, the client is the rightmost untrusted X-Forwarded-For hop. */
  trustProxy?: ProxyTrust
  /** The web app's origin (the API's public URL): its household pages frame the chart. */
  appOrigin?: string
}

export function buildEmbedApp({
  db,
  releases,
  limiter,
  addressBudget,
  trustProxy = 0,
  appOrigin,
}: EmbedAppOptions): FastifyInstance {
  const app = Fastify({ logger: false, trustProxy: fastifyTrustProxy(trustProxy) })
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff')
  })

  /** Whether the client may have one more database-backed answer; answers 429 itself when not. */
  const withinBudget = async (ip: string, reply: FastifyReply): Promise<boolean> => {
    // An IPv6 client's whole /64 is one budget (clientKey), not 2^64 of them.
    const decision = await limiter.consume([
      {
        policy: 'address',
        key: `embed:${clientKey(ip)}`,
        refusal: 'Too many requests from this address.',
        ...addressBudget,
      },
    ])
    reply.headers(decision.headers)
    if (decision.allowed) return true
    const resetAt = new Date(decision.resetAt).toISOString()
    reply
      .status(429)
      .send({ error: `Too many requests from this address; retry after ${resetAt}.`, code: 'rate_limited', resetAt })
    return false
  }

  // The chart fetches the keys with `?render=<token id>` once per token: that request is the
  // render metering, and it carries nothing else from the page. Every key fetch counts against the
  // address's budget: each one reads the signing keys from the database.
  app.get<{ Querystring: { render?: string } }>('/.well-known/jwks.json', async (request, reply) => {
    if (!(await withinBudget(request.ip, reply))) return reply
    const render = request.query.render
    if (typeof render === 'string' && isUuid(render)) {
      await recordChartRender(db, render.toLowerCase())
      reply.header('Cache-Control', 'no-store')
    } else {
      // Short cache: a new key (rotation) must reach verifiers well within a token's 10 minutes.
      reply.header('Cache-Control', 'public, max-age=300')
    }
    reply.header('Access-Control-Allow-Origin', '*')
    return chartJwks(db)
  })

  app.get('/chart/*', async (request, reply) => {
    const file = releases.get(request.url.split('?')[0] ?? '')
    if (!file) return notFound(reply, request.url, releases)
    if (file.isPage && !(await withinBudget(request.ip, reply))) return reply
    return sendChartFile(file, request.headers, reply, db, appOrigin)
  })

  app.setNotFoundHandler((request, reply) => notFound(reply, request.url, releases))
  return app
}

async function sendChartFile(
  file: ChartFile,
  headers: { referer?: string; 'if-none-match'?: string },
  reply: FastifyReply,
  db: Kysely<Database>,
  appOrigin: string | undefined,
): Promise<FastifyReply> {
  reply.header('ETag', file.etag).header('Content-Type', file.contentType)
  if (file.isPage) {
    // The bytes never change, but who may frame them does (hearth origins add/remove): browsers
    // revalidate the page every time and get the current policy, on a 304 too.
    reply
      .header('Content-Security-Policy', await chartPagePolicy(db, headers.referer, appOrigin))
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Referer')
      .header('Referrer-Policy', 'no-referrer')
  } else {
    // Public, credential-free files; the SDK, the schema and the example are for partner pages to load.
    reply.header('Cache-Control', IMMUTABLE).header('Access-Control-Allow-Origin', '*')
  }
  if (headers['if-none-match'] === file.etag) return reply.code(304).send()
  return reply.send(file.body)
}

function notFound(reply: FastifyReply, url: string, releases: ChartReleases): FastifyReply {
  const path = url.split('?')[0] ?? ''
  const versions = releasedVersions(releases).map((version) => `v${version}`)
  const hint = path.startsWith('/chart/')
    ? ` Pin a released version: ${versions.length > 0 ? versions.map((version) => `/chart/${version}/index.html`).join(', ') : 'none is released here (npm run chart:release)'}; there is no "latest".`
    : ''
  return reply
    .status(404)
    .send({ error: `Nothing is served at ${path} on the embed origin.${hint}`, code: 'not_found' })
}
