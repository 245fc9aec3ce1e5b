// Headers every API response carries: the request id, no caching of tenant data, no MIME
// sniffing; and on the legacy /api/v1/households paths, the deprecation headers (RFC 9745,
// RFC 8594) that point at the successor.
import type { App } from '../types.ts'

/** When the /api/v1/households paths were deprecated in favour of /api/v1/relationships. */
const LEGACY_PATHS_DEPRECATED_AT = new Date('2026-11-01T00:00:00Z')

export function registerResponseHeaders(app: App, options: { householdsSunset?: string | undefined }): void {
  const deprecation = `@${Math.floor(LEGACY_PATHS_DEPRECATED_AT.getTime() / 1000)}`
  const sunset = options.householdsSunset ? new Date(options.householdsSunset).toUTCString() : undefined

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id)
    reply.header('X-Content-Type-Options', 'nosniff')
    const config = request.routeOptions.config
    if (config.permission) reply.header('Cache-Control', 'no-store')
    if (config.legacy) {
      reply.header('Deprecation', deprecation)
      reply.header('Link', '</api/v1/relationships>; rel="successor-version"')
      if (sunset) reply.header('Sunset', sunset)
    }
    return payload
  })
}
