// The embed origin (HEARTH_EMBED_PORT). It will serve the pinned chart builds; until then it
// answers every request with a JSON 404 so that nothing else is ever served from this origin.
import Fastify, { type FastifyInstance } from 'fastify'

export function buildEmbedApp(): FastifyInstance {
  const app = Fastify({ logger: false })
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).header('X-Content-Type-Options', 'nosniff').send({ error: `Nothing is served at ${request.url.split('?')[0]} on the embed origin yet.`, code: 'not_found' })
  })
  return app
}
