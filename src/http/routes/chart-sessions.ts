// POST /api/v1/embed/chart-sessions: a partner's server mints a short-lived chart token for a
// registered frame origin. Every mint is recorded for metering.
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { ChartSession, ChartSessionBody } from '../../schemas/chart-session.ts'
import { CHART_VERSION } from '../../../chart/version.ts'
import { ErrorBody, RateLimitErrorBody } from '../../schemas/errors.ts'
import { parseFrameOrigin } from '../../domain/origins.ts'
import { isFrameOriginRegistered } from '../../store/origins.ts'
import { recordChartMint } from '../../store/chart-mints.ts'
import { loadChartSigner, mintChartToken, type ChartSigner } from '../../embed/tokens.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import type { Metrics } from '../../observability/metrics.ts'

export interface ChartSessionOptions {
  /** The API's public URL: the tokens' issuer. */
  issuer: string
  /** The embed origin: the tokens' audience and where the chart page is served. */
  embedOrigin: string
}

export function registerChartSessionRoutes(
  app: App,
  db: Kysely<Database>,
  options: ChartSessionOptions,
  metrics?: Pick<Metrics, 'chartMinted'>,
): void {
  const appOrigin = new URL(options.issuer).origin
  // Loaded once, on the first mint; a failed load is retried by the next mint.
  let signer: Promise<ChartSigner> | undefined
  const currentSigner = (): Promise<ChartSigner> => {
    signer ??= loadChartSigner(db).catch((error: unknown) => {
      signer = undefined
      throw error
    })
    return signer
  }
  app.post(
    '/api/v1/embed/chart-sessions',
    {
      config: { permission: 'embed:chart' },
      schema: {
        operationId: 'createChartSession',
        summary: 'Mint a chart token',
        description:
          "Called from the partner's server with an API key, or from the web app with the idp-session cookie. Needs embed:chart. The token lives 10 minutes and is bound to frameOrigin, which must be registered for the organization (a signed-in user may also name the web app's own origin).",
        tags: ['embed'],
        security: [{ BearerAuth: [] }, { SessionAuth: [] }],
        body: ChartSessionBody,
        response: {
          201: ChartSession,
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          413: ErrorBody,
          415: ErrorBody,
          429: RateLimitErrorBody,
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request)
      const parsed = parseFrameOrigin(request.body.frameOrigin)
      if (!parsed.ok)
        throw new ApiError('invalid_frame_origin', `frameOrigin: ${parsed.reason}`, { field: '/frameOrigin' })
      // The web app frames the chart on its own pages: a signed-in user may always mint for its origin.
      const appFrame = principal.kind === 'user' && parsed.origin === appOrigin
      if (!appFrame && !(await isFrameOriginRegistered(db, principal.orgId, parsed.origin))) {
        throw new ApiError(
          'frame_origin_not_registered',
          `${parsed.origin} is not registered for this organization; register it with: hearth origins add --org ${principal.orgId} --origin ${parsed.origin}`,
        )
      }
      const minted = await mintChartToken(await currentSigner(), {
        issuer: options.issuer,
        audience: options.embedOrigin,
        orgId: principal.orgId,
        frameOrigin: parsed.origin,
      })
      await recordChartMint(db, {
        jti: minted.jti,
        orgId: principal.orgId,
        actorType: principal.kind,
        actorId: principal.id,
        frameOrigin: parsed.origin,
      })
      metrics?.chartMinted()
      return reply.status(201).send({
        token: minted.token,
        expiresAt: minted.expiresAt.toISOString(),
        embedUrl: `${options.embedOrigin}/chart/v${CHART_VERSION}/index.html`,
      })
    },
  )
}
