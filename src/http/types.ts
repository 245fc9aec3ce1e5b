// What routes declare about themselves, and what the hooks attach to a request.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Principal } from '../auth/principal.ts'
import type { RequiredPermission } from '../domain/permissions.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a route needs. Every /api route must set this or `public: true`. */
    permission?: RequiredPermission
    /** Reachable without credentials (the OpenAPI document, the reference page). */
    public?: boolean
    /** Needs a signed-in user's idp-session cookie, whatever the role (sign out); keys are not accepted. */
    signedIn?: boolean
    /** Served on a legacy /api/v1/households path: adds deprecation headers, counted apart. */
    legacy?: boolean
    /** Health and metrics: answered even when the instance sheds load (plugins/concurrency-limit.ts). */
    operational?: boolean
    /** Units of rate-limit budget the request costs, from its raw query (default 1; src/rate-limit/costs.ts). */
    rateLimitCost?: (query: unknown) => number
  }
  interface FastifyRequest {
    principal: Principal | null
    /** Gives back the request's rate-limit charge but `keep` units (a 304 keeps 0.1); sets the new headers. */
    refundRateLimit: ((keep: number) => Promise<void>) | null
    /** Units the request costs (its route's rateLimitCost of its query, 1 by default), set by the authentication hook. */
    rateLimitCost: number
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>
