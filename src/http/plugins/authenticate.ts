// Authentication, cross-site checks, rate limiting and authorization, in that order, for every
// route that declares a permission (or `signedIn`). Routes under /api without either must say
// `public: true` (checked when routes are added), so nothing is left open by accident.
//
// Every request is rate limited (src/rate-limit/limiter.ts), charged its route's cost:
//   - with a credential: the key's (or user's) own budget and its organization's, at once;
//   - a failed authentication: its client address's failure budget, so credentials cannot be guessed fast;
//   - every other route (sign-in, the web app, docs, 404s): its client address's budget;
//   - health and metrics (routes marked `operational`): its client address's budget too, but counted
//     by this instance alone (`healthLimiter`), never in the shared store: a load balancer probing
//     ten instances, or a kubelet probing many pods, from one address would otherwise spend one
//     shared budget, get 429s and take every instance out of service at once.
//
// One credential resolver with a rule per credential type:
//   - an Authorization: Bearer header is an API key (never read from a cookie or the query);
//   - otherwise the idp-session cookie is a web app session (never read from a header);
//   - neither is 401 missing_credentials.
// Routes that act on the session itself (sign out) say `signedIn: true` and accept only the cookie.
import type { Kysely } from 'kysely'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Database } from '../../store/tables.ts'
import { resolveBearer, type ApiKeyLookup, type BearerFailure } from '../../auth/bearer.ts'
import { resolveSession, SESSION_COOKIE, sessionCookieAttributes, type SessionFailure } from '../../auth/sessions.ts'
import type { KeyUsageRecorder } from '../../auth/key-usage.ts'
import { describeRequirement, grants } from '../../domain/permissions.ts'
import type { BudgetRule, LimitDecision, RateLimiter } from '../../rate-limit/limiter.ts'
import { effectiveLimits, type DefaultLimits } from '../../rate-limit/org-limits.ts'
import type { Metrics, RateLimitScope } from '../../observability/metrics.ts'
import type { Principal } from '../../auth/principal.ts'
import { API_KEY_PREFIX } from '../../auth/api-keys.ts'
import { clientKey } from '../../net/client-key.ts'
import { ApiError, type ErrorCode } from '../errors.ts'
import { checkSameOrigin, UNSAFE_METHODS } from '../same-origin.ts'
import type { App } from '../types.ts'

interface Failure {
  code: ErrorCode
  message: string
}

const BEARER_FAILURES: Record<BearerFailure, Failure> = {
  missing: {
    code: 'missing_credentials',
    message: 'Send an API key in the Authorization header (Authorization: Bearer idx_…), or sign in to the web app.',
  },
  malformed: {
    code: 'invalid_credentials',
    message:
      'The Authorization header must be "Bearer idx_…" with a complete API key (42 characters, checksum included).',
  },
  unknown: {
    code: 'invalid_credentials',
    message: 'This API key is not known. Check that it was copied whole, or create a new one.',
  },
  revoked: { code: 'api_key_revoked', message: 'This API key was revoked. Create a new one with hearth keys create.' },
  expired: { code: 'api_key_expired', message: 'This API key has expired. Create a new one with hearth keys create.' },
}

const SESSION_FAILURES: Record<SessionFailure, Failure> = {
  invalid: { code: 'session_invalid', message: 'This session cookie is not valid. Sign in again.' },
  expired: { code: 'session_expired', message: 'Your session has expired. Sign in again.' },
  revoked: { code: 'session_revoked', message: 'This session was signed out. Sign in again.' },
}

const NO_SESSION: Failure = {
  code: 'missing_credentials',
  message: `This needs the ${SESSION_COOKIE} cookie of a signed-in user; API keys are not sessions.`,
}

// Where people mistakenly put keys; we never read them there, but we say so.
const MISPLACED_QUERY_KEYS = ['api_key', 'apikey', 'key', 'token', 'access_token']
const MISPLACED_HINT = ' API keys are read only from the Authorization header, never from the query string or cookies.'

export interface AuthDependencies {
  db: Kysely<Database>
  /** Resolves an API key's hash (through the process's key cache, src/auth/api-key-cache.ts). */
  findApiKey: ApiKeyLookup
  limiter: RateLimiter
  /** Counts health and metrics requests (`operational` routes) in this process only: see the top of this file. */
  healthLimiter: RateLimiter
  usage: KeyUsageRecorder
  /** The app's public URL (scheme://host[:port]): the only origin cookie-authenticated writes may come from. */
  publicUrl: string
  /** Counts 429s by scope (rate_limit_refusals_total). */
  metrics: Pick<Metrics, 'rateLimitRefused'>
  /** The instance's budgets: per credential and per organization (overridden per org), per client address. */
  limits: DefaultLimits & { addressRequests: number }
}

type Resolution =
  { ok: true; principal: Principal } | { ok: false; failure: Failure; type: 'bearer' | 'session' | 'none' }

export function registerAuthentication(app: App, deps: AuthDependencies): void {
  const ownOrigin = new URL(deps.publicUrl).origin
  const cookieAttributes = sessionCookieAttributes(deps.publicUrl)

  app.decorateRequest('principal', null)
  app.decorateRequest('refundRateLimit', null)
  app.decorateRequest('rateLimitCost', 1)

  app.addHook('onRoute', (route) => {
    const config = route.config ?? {}
    if (route.url.startsWith('/api/') && !config.permission && !config.signedIn && !config.public) {
      throw new Error(`route ${String(route.method)} ${route.url} must declare a permission, signedIn or public: true`)
    }
    if (config.signedIn && config.public)
      throw new Error(`route ${String(route.method)} ${route.url} cannot be both signedIn and public`)
  })

  /** Per-type rules: keys only from the Authorization header, sessions only from the cookie. */
  async function resolveCredential(request: FastifyRequest, sessionOnly: boolean): Promise<Resolution> {
    const authorization = request.headers.authorization
    if (!sessionOnly && authorization !== undefined && authorization.trim() !== '') {
      const result = await resolveBearer(deps.findApiKey, authorization)
      return result.ok ? result : { ok: false, failure: BEARER_FAILURES[result.failure], type: 'bearer' }
    }
    const cookie = request.cookies[SESSION_COOKIE]
    if (cookie !== undefined && cookie !== '') {
      const result = await resolveSession(deps.db, cookie)
      if (result.ok) return result
      const failure = SESSION_FAILURES[result.failure]
      const hint = cookie.startsWith(API_KEY_PREFIX) ? MISPLACED_HINT : ''
      return { ok: false, failure: { code: failure.code, message: failure.message + hint }, type: 'session' }
    }
    if (sessionOnly) return { ok: false, failure: NO_SESSION, type: 'none' }
    const hint = misplacedKey(request.query, request.headers.cookie) ? MISPLACED_HINT : ''
    const missing = BEARER_FAILURES.missing
    return { ok: false, failure: { code: missing.code, message: missing.message + hint }, type: 'none' }
  }

  const windowSeconds = deps.limits.windowSeconds
  // Keyed by clientKey: an IPv6 client's whole /64 is one budget, not 2^64 of them.
  const addressRule = (
    policy: 'address' | 'auth-failure' | 'health',
    ip: string,
    limit: number,
    refusal: string,
  ): BudgetRule => ({
    policy,
    key: clientKey(ip),
    limit,
    windowSeconds,
    refusal,
  })

  /** Charges the rules; sets the headers; 429 when a budget has no room. */
  async function charge(
    reply: FastifyReply,
    rules: BudgetRule[],
    cost: number,
    scope: (refusedBy: BudgetRule) => RateLimitScope,
    limiter = deps.limiter,
  ): Promise<LimitDecision> {
    const decision = await limiter.consume(rules, cost)
    reply.headers(decision.headers)
    if (!decision.allowed) {
      const refusedBy = decision.refusedBy ?? rules[0]
      if (refusedBy) deps.metrics.rateLimitRefused(scope(refusedBy))
      throw rateLimited(decision.resetAt, refusedBy?.refusal ?? 'This request is over its budget.')
    }
    return decision
  }

  async function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Extract<Resolution, { ok: false }>,
  ): Promise<never> {
    // Failed authentications are limited per client address, so credentials cannot be guessed fast.
    const failures = addressRule(
      'auth-failure',
      request.ip,
      deps.limits.keyRequests,
      'Too many failed authentications from this address.',
    )
    await charge(reply, [failures], 1, () => 'auth_failure')
    // A dead session cookie is of no further use to the browser: tell it to drop it.
    if (result.type === 'session') reply.clearCookie(SESSION_COOKIE, cookieAttributes)
    const challenge =
      result.type === 'bearer' ? 'Bearer realm="hearth", error="invalid_token"' : 'Bearer realm="hearth"'
    throw new ApiError(result.failure.code, result.failure.message, {}, { 'WWW-Authenticate': challenge })
  }

  app.addHook('onRequest', async (request, reply) => {
    const { permission: required, signedIn, rateLimitCost, operational } = request.routeOptions.config
    const cost = rateLimitCost?.(request.query) ?? 1
    request.rateLimitCost = cost
    if (operational) {
      const probes = addressRule(
        'health',
        request.ip,
        deps.limits.addressRequests,
        'Too many health or metrics requests from this address to this instance.',
      )
      await charge(reply, [probes], cost, () => 'address', deps.healthLimiter)
      return
    }
    if (!required && !signedIn) {
      const address = addressRule(
        'address',
        request.ip,
        deps.limits.addressRequests,
        'Too many requests from this address.',
      )
      await charge(reply, [address], cost, () => 'address')
      return
    }

    const result = await resolveCredential(request, signedIn === true)
    if (!result.ok) return refuse(request, reply, result)
    const principal = result.principal

    // Before the budget is touched: another site must not be able to spend a user's requests.
    if (principal.kind === 'user' && UNSAFE_METHODS.has(request.method)) {
      const verdict = checkSameOrigin(request.headers, ownOrigin)
      if (!verdict.ok) {
        throw new ApiError(
          'cross_site_request',
          `This write with the ${SESSION_COOKIE} cookie was refused: ${verdict.reason}.`,
        )
      }
    }

    // Keys are limited one by one, a user's sessions share the user's budget, and all of an
    // organization's keys and users share its budget too: five keys are not five budgets.
    const limits = effectiveLimits(principal.rateLimits, deps.limits)
    // The organization's per-key override is for its API keys (integrations); a signed-in
    // person keeps the instance's budget, so that an admin who lowers it cannot lock themselves out.
    const ownLimit = principal.kind === 'apiKey' ? limits.key.limit : deps.limits.keyRequests
    const own: BudgetRule = {
      policy: 'default',
      key: principal.kind === 'apiKey' ? `credential:${principal.id}` : `user:${principal.id}`,
      limit: ownLimit,
      windowSeconds,
      refusal: `${principal.kind === 'apiKey' ? 'This API key' : 'Your user'} used up its request budget (${ownLimit} units per ${windowSeconds} s).`,
    }
    const org: BudgetRule = {
      policy: 'org',
      key: principal.orgId,
      limit: limits.org.limit,
      windowSeconds,
      refusal: `Your organization used up its request budget (${limits.org.limit} units per ${windowSeconds} s), shared by all its keys and users.`,
    }
    const decision = await charge(reply, [own, org], cost, (refusedBy) =>
      refusedBy.policy === 'org' ? 'org' : principal.kind === 'apiKey' ? 'credential' : 'user',
    )

    if (principal.kind === 'apiKey') deps.usage.record(principal.id, request.routeOptions.config.legacy === true)
    if (required && !grants(principal.permissions, required)) {
      const message =
        principal.kind === 'apiKey'
          ? `This API key lacks the permission ${describeRequirement(required)}.`
          : `Your role (${principal.role}) does not allow this: it needs ${describeRequirement(required)}.`
      throw new ApiError('missing_permission', message)
    }
    request.principal = principal
    request.refundRateLimit = async (keep) => {
      reply.headers(await deps.limiter.refund(decision, keep))
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
  return new ApiError('rate_limited', `${message} Retry after ${at} (Retry-After says in how many seconds).`, {
    resetAt: at,
  })
}

function misplacedKey(query: unknown, cookie: string | undefined): boolean {
  const inQuery = typeof query === 'object' && query !== null && MISPLACED_QUERY_KEYS.some((name) => name in query)
  return inQuery || (cookie ?? '').includes(API_KEY_PREFIX)
}
