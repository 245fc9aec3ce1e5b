// The web app on the API origin: its pages (one shell; the client draws each page) and its
// content-hashed assets. The pages carry a strict CSP; assets are immutable.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App } from '../http/types.ts'
import { webAssets, ASSET_PREFIX, type Asset } from './assets.ts'
import { appPolicy, shellPage } from './pages.ts'

/** Paths the client draws; anything else under them is the client's own "not found". */
const APP_PAGES = ['/households', '/households/*', '/admin', '/admin/*', '/signed-out']

export function registerWebRoutes(app: App, options: { embedOrigin: string }): void {
  const policy = appPolicy(options.embedOrigin)

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/households', 302))

  const shell = async (_request: FastifyRequest, reply: FastifyReply) => {
    const assets = await webAssets()
    return reply
      .header('Content-Security-Policy', policy)
      .header('Cache-Control', 'no-cache')
      .header('Referrer-Policy', 'same-origin')
      .type('text/html; charset=utf-8')
      .send(shellPage(assets))
  }
  for (const page of APP_PAGES) app.get(page, { schema: { hide: true } }, shell)

  app.get(`${ASSET_PREFIX}*`, { schema: { hide: true } }, async (request, reply) => {
    const assets = await webAssets()
    const asset = assets.files.get(request.url.split('?')[0] ?? '')
    if (!asset)
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send('No such asset: the app was updated; reload the page.')
    return sendAsset(request, reply, asset)
  })
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .header('Vary', 'Accept-Encoding')
    .type(asset.contentType)
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('Content-Encoding', 'gzip').send(asset.gzipped)
  }
  return reply.send(asset.body)
}
