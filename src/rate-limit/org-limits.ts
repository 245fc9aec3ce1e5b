// Each organization's budgets: the instance defaults (HEARTH_ORG_RATE_LIMIT_MAX for the whole
// organization, HEARTH_RATE_LIMIT_MAX for each of its keys and users), replaced by the operator's
// override if any (hearth orgs limits), and lowered by the organization's own admins if they chose
// to (PATCH /api/v1/limits): the lower of the operator's and the admin's value is in force.
// They travel with the credential (read in the query that resolves it), so no extra query per request.

/** The orgs columns of migration 0008; null = not set. */
export interface OrgRateLimits {
  requests: number | null
  keyRequests: number | null
  adminRequests: number | null
  adminKeyRequests: number | null
}

export const NO_OVERRIDES: OrgRateLimits = { requests: null, keyRequests: null, adminRequests: null, adminKeyRequests: null }

/** The instance's defaults, from the configuration. */
export interface DefaultLimits {
  orgRequests: number
  keyRequests: number
  windowSeconds: number
}

export interface EffectiveLimits {
  /** The organization's budget (policy "org") and what the operator allows it (the admin's ceiling). */
  org: { limit: number; ceiling: number }
  /** Each key's or user's budget (policy "default") and its ceiling. */
  key: { limit: number; ceiling: number }
  windowSeconds: number
}

export function effectiveLimits(overrides: OrgRateLimits, defaults: DefaultLimits): EffectiveLimits {
  const orgCeiling = overrides.requests ?? defaults.orgRequests
  const keyCeiling = overrides.keyRequests ?? defaults.keyRequests
  return {
    org: { limit: Math.min(orgCeiling, overrides.adminRequests ?? orgCeiling), ceiling: orgCeiling },
    key: { limit: Math.min(keyCeiling, overrides.adminKeyRequests ?? keyCeiling), ceiling: keyCeiling },
    windowSeconds: defaults.windowSeconds,
  }
}

/** The columns as Kysely selections (joined from orgs), for the credential-resolving queries. */
export const ORG_LIMIT_COLUMNS = [
  'orgs.rate_limit_max as orgRateLimitMax',
  'orgs.key_rate_limit_max as orgKeyRateLimitMax',
  'orgs.admin_rate_limit_max as orgAdminRateLimitMax',
  'orgs.admin_key_rate_limit_max as orgAdminKeyRateLimitMax',
] as const

/** Reads the row those columns were selected into. */
export function orgLimitsOf(row: {
  orgRateLimitMax: number | null
  orgKeyRateLimitMax: number | null
  orgAdminRateLimitMax: number | null
  orgAdminKeyRateLimitMax: number | null
}): OrgRateLimits {
  return {
    requests: row.orgRateLimitMax,
    keyRequests: row.orgKeyRateLimitMax,
    adminRequests: row.orgAdminRateLimitMax,
    adminKeyRequests: row.orgAdminKeyRateLimitMax,
  }
}
