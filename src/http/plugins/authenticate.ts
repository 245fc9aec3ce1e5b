// Authentication, rate limiting and authorization, in that order, for every route that
// declares a permission. Routes without `permission` must say `public: true` (checked when
// routes are added), so nothing is left open by accident.
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { resolveBearer, type BearerFailure } from '../../auth/bearer.ts'
import type { KeyUsageRecorder } from '../../auth/key-usage.ts'
import { describeRequirement, grants } from '../../domain/permissions.ts'
import type { RateLimiter } from '../../rate-limit/limiter.ts'
import type { Principal } from '../../auth/principal.ts'
import { ApiError, type ErrorCode } from '../errors.ts'
import type { App } from '../types.ts'

const FAILURES: Record<BearerFailure, { code: ErrorCode; message: string }> = {
  missing: { code: 'missing_credentials', message: 'Send an API key in the Authorization header: Authorization: Bearer idx_…' },
  malformed: {
    code: 'invalid_credentials',
    message: 'The Authorization header must be "Bearer idx_…" with a complete API key (42 characters, checksum included).',
  },
  unknown: { code: 'invalid_credentials', message: 'This API key is not known. Check that it was copied whole, or create a new one.' },
  revoked: { code: 'api_key_revoked', message: 'This API key was revoked. Create a new one with hearth keys create.' },
  expired: { code: 'api_key_expired', message: 'This API key has expired. Create a new one with hearth keys create.' },
}

// Where people mistakenly put keys; we never read them there, but we say so.
const MISPLACED_QUERY_KEYS = ['api_key', 'apikey', 'key', 'token', 'access_token']

export interface AuthDependencies {
  db: Kysely<Database>
  limiter: RateLimiter
  usage: KeyUsageRecorder
}

export function registerAuthentication(app: App, deps: AuthDependencies): void {
  app.decorateRequest('principal', null)
  app.decorateRequest('refundRateLimit', null)

  app.addHook('onRoute', (route) => {
    const config = route.config ?? {}
    if (route.url.startsWith('/api/') && !config.permission && !config.public) {
      throw new Error(`route ${route.method} ${route.url} must declare a permission or public: true`)
    }
  })

  app.addHook('onRequest', async (request, reply) => {
    const required = request.routeOptions.config.permission
    if (!required) return

    const result = await resolveBearer(deps.db, request.headers.authorization)
    if (!result.ok) {
      // Failed authentications are limited per client address, so keys cannot be guessed fast.
      const decision = await deps.limiter.consume(`auth-failure:${request.ip}`)
      reply.headers(decision.headers)
      if (!decision.allowed) throw rateLimited(decision.resetAt, 'Too many failed authentications from this address.')
      const failure = FAILURES[result.failure]
      const hint =
        result.failure === 'missing' && misplacedKey(request.query, request.headers.cookie)
          ? ' API keys are read only from the Authorization header, never from the query string or cookies.'
          : ''
      const challenge = result.failure === 'missing' ? 'Bearer realm="hearth"' : 'Bearer realm="hearth", error="invalid_token"'
      throw new ApiError(failure.code, failure.message + hint, {}, { 'WWW-Authenticate': challenge })
    }

    const principal = result.principal
    const limitKey = `credential:${principal.id}`
    const decision = await deps.limiter.consume(limitKey)
    reply.headers(decision.headers)
    if (!decision.allowed) throw rateLimited(decision.resetAt, 'This credential used up its request budget for the current window.')

    deps.usage.record(principal.id, request.routeOptions.config.legacy === true)
    if (!grants(principal.permissions, required)) {
      throw new ApiError('missing_permission', `This API key lacks the permission ${describeRequirement(required)}.`)
    }
    request.principal = principal
    request.refundRateLimit = async () => {
      reply.headers((await deps.limiter.refund(limitKey)).headers)
    }
  })
}

/** The caller of a route that declares a permission (the hook above always sets it there). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new Error('route reached without a principal: does it declare a permission?')
  return request.principal
}

function rateLimited(resetAt: number, message: string): ApiError {
  const at = new Date(resetAt).toISOString()
  return new ApiError('rate_limited', `${message} It resets at ${at}.`, { resetAt: at })
}

function misplacedKey(query: unknown, cookie: string | undefined): boolean {
  const inQuery = typeof query === 'object' && query !== null && MISPLACED_QUERY_KEYS.some((name) => name in query)
  return inQuery || (cookie ?? '').includes('idx_')
}
