// Request bodies are JSON in UTF-8, nothing else: a text/plain or form body, or JSON declared in
// another charset, is 415 — never a string handed to a handler or bytes decoded the wrong way.
// Parsing itself is Fastify's (prototype-poisoning keys are refused).
import { ApiError } from '../errors.ts'
import type { App } from '../types.ts'

export function registerJsonParser(app: App): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  // PATCH bodies are JSON merge patches (RFC 7396); plain application/json is taken as one too.
  app.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      const charset = /;\s*charset\s*=\s*"?([^";]+)/i
        .exec(request.headers['content-type'] ?? '')?.[1]
        ?.trim()
        .toLowerCase()
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        done(
          new ApiError('unsupported_media_type', `Send JSON in UTF-8; charset=${charset} is not accepted.`),
          undefined,
        )
        return
      }
      // Fastify's own parser answers through done; its type allows a promise, which it never returns.
      void parseJson(request, body.toString(), done)
    },
  )
}
