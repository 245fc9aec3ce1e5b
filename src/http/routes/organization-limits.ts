// The organization's rate limits, for its admins: GET shows the budgets in force, the window and
// what requests cost; PATCH lowers the organization's budget or each API key's, never
// above what the operator allows (hearth orgs limits, or the instance defaults): an admin can
// keep a runaway integration from spending the whole organization's budget, not buy more.
import type { Kysely } from 'kysely'
import type { Database } from '../../store/tables.ts'
import { findOrgRateLimits, setAdminRateLimits } from '../../store/org-limits.ts'
import { limitsView, type DefaultLimits, type OrgRateLimits } from '../../rate-limit/org-limits.ts'
import { COST_TABLE } from '../../rate-limit/costs.ts'
import { ORG_ADMIN } from '../../domain/permissions.ts'
import { Limits, LimitsChange } from '../../schemas/limits.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'
import { organizationOperationDocs } from './organization-common.ts'

const LIMITS_PATH = '/api/v1/limits'

/** `keysChanged` empties this process's key cache, which holds each key's organization's limits. */
export function registerOrganizationLimitRoutes(
  app: App,
  db: Kysely<Database>,
  defaults: DefaultLimits,
  keysChanged: () => void,
): void {
  const overridesOf = async (orgId: string): Promise<OrgRateLimits> => {
    const overrides = await findOrgRateLimits(db, orgId)
    // The caller's credential was just resolved through its organization's row.
    if (!overrides) throw new Error(`organization ${orgId} has no row`)
    return overrides
  }
  const answer = (overrides: OrgRateLimits): Limits => ({ ...limitsView(overrides, defaults), costs: [...COST_TABLE] })

  app.get(
    LIMITS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'getLimits',
          'Show rate limits',
          "The organization's budgets in force (units per sliding window), what the operator allows, and what requests cost.",
        ),
        response: { 200: Limits, ...authErrors },
      },
    },
    async (request) => answer(await overridesOf(principalOf(request).orgId)),
  )

  app.patch(
    LIMITS_PATH,
    {
      config: { permission: ORG_ADMIN },
      schema: {
        ...organizationOperationDocs(
          'lowerLimits',
          'Lower rate limits',
          "Lowers the organization's budget (requests) or each API key's (keyRequests) to at most what the operator allows; above it is 400 naming the ceiling. The organization's budget goes no lower than one signed-in user's budget (HEARTH_RATE_LIMIT_MAX, or the ceiling if that is lower), so the web app keeps working; lower is 400 naming the floor. null removes a lowering. Answers the limits in force.",
          true,
        ),
        body: LimitsChange,
        response: { 200: Limits, 400: ErrorBody, ...authErrors, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request) => {
      const orgId = principalOf(request).orgId
      const current = limitsView(await overridesOf(orgId), defaults)
      const { requests, keyRequests } = request.body
      if (typeof requests === 'number' && requests > current.organization.ceiling) {
        throw new ApiError(
          'invalid_body',
          `requests can be at most ${current.organization.ceiling}, what the operator allows this organization; ask your Hearth operator to raise it.`,
          { field: '/requests' },
        )
      }
      // Signed-in users spend the organization's budget too: below one user's budget, an admin
      // could lock the whole web app out, themselves included, with no way back but the operator.
      const floor = Math.min(defaults.keyRequests, current.organization.ceiling)
      if (typeof requests === 'number' && requests < floor) {
        throw new ApiError(
          'invalid_body',
          `requests can be no lower than ${floor}, one signed-in user's budget, so that the web app (and this page) keeps working for your organization.`,
          { field: '/requests' },
        )
      }
      if (typeof keyRequests === 'number' && keyRequests > current.perCredential.ceiling) {
        throw new ApiError(
          'invalid_body',
          `keyRequests can be at most ${current.perCredential.ceiling}, what the operator allows each API key; ask your Hearth operator to raise it.`,
          { field: '/keyRequests' },
        )
      }
      const set = await setAdminRateLimits(db, orgId, { requests, keyRequests })
      keysChanged()
      return answer(set ?? (await overridesOf(orgId)))
    },
  )
}
