// The organization's usage, for its admins: chart tokens minted and charts rendered per frame
// origin, and API calls per key (legacy paths apart), per UTC day — what `hearth usage` reports
// about charts, plus the calls the keys made.
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { chartUsage } from '../../store/chart-mints.ts'
import { apiKeyUsage } from '../../store/api-keys.ts'
import { isCalendarDate, USAGE_EARLIEST_DAY as EARLIEST } from '../../operator/requests.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { Usage, USAGE_DEFAULT_DAYS as DEFAULT_DAYS, UsageQuery } from '../../schemas/organization.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs } from './organization-common.ts'

const USAGE_PATH = '/api/v1/usage'

export function registerOrganizationUsageRoutes(app: App, db: Kysely<Database>): void {
  app.get(
    USAGE_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'getUsage',
          'Usage',
          `Chart tokens minted and rendered per frame origin, and API calls per key, per UTC day from since (default: ${DEFAULT_DAYS} days ago) to today. since that is not a real YYYY-MM-DD day from ${EARLIEST} on is 400 invalid_query.`,
        ),
        querystring: UsageQuery,
        response: { 200: Usage, 400: ErrorBody, ...authErrors },
      },
    },
    async (request) => {
      const since = request.query.since ?? new Date(Date.now() - DEFAULT_DAYS * 86_400_000).toISOString().slice(0, 10)
      if (!isCalendarDate(since) || since < EARLIEST) {
        throw new ApiError(
          'invalid_query',
          `since must be a day written YYYY-MM-DD (UTC), from ${EARLIEST} on; got "${since}"`,
          { field: '/since' },
        )
      }
      const orgId = principalOf(request).orgId
      const [chart, apiCalls] = await Promise.all([chartUsage(db, orgId, since), apiKeyUsage(db, orgId, since)])
      return { since, chart, apiCalls }
    },
  )
}
