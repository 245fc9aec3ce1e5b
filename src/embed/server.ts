// The embed origin (HEARTH_EMBED_PORT). It publishes the JWKS that chart tokens verify against,
// and will serve the pinned chart builds; everything else is a JSON 404.
import Fastify, { type FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { chartJwks } from './tokens.ts'

export function buildEmbedApp(db: Kysely<Database>): FastifyInstance {
  const app = Fastify({ logger: false })
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    // Short cache: a new key (rotation) must reach verifiers well within a token's 10 minutes.
    reply.header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*')
    return chartJwks(db)
  })
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).header('X-Content-Type-Options', 'nosniff').send({ error: `Nothing is served at ${request.url.split('?')[0]} on the embed origin yet.`, code: 'not_found' })
  })
  return app
}
