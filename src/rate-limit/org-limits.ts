// Each organization's budgets: the instance defaults (HEARTH_ORG_RATE_LIMIT_MAX for the whole
// organization, HEARTH_RATE_LIMIT_MAX for each of its API keys), replaced by the operator's
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

export const NO_OVERRIDES: OrgRateLimits = {
  requests: null,
  keyRequests: null,
  adminRequests: null,
  adminKeyRequests: null,
}

/** The instance's defaults, from the configuration. */
export interface DefaultLimits {
  orgRequests: number
  keyRequests: number
  windowSeconds: number
}

export interface EffectiveLimits {
  /** The organization's budget (policy "org") and what the operator allows it (the admin's ceiling). */
  org: { limit: number; ceiling: number }
  /** Each API key's budget (policy "default") and its ceiling; signed-in users keep the instance default. */
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

/** One budget as the CLI and GET /api/v1/limits show it. */
export interface BudgetView {
  /** In force: units per window. */
  limit: number
  /** What the operator allows (the instance default, or the operator's override). */
  ceiling: number
  operatorOverride: number | null
  /** What the organization's admins lowered it to, if they did (in force only below the ceiling). */
  adminLowered: number | null
}

export interface LimitsView {
  windowSeconds: number
  organization: BudgetView
  perCredential: BudgetView
}

export function limitsView(overrides: OrgRateLimits, defaults: DefaultLimits): LimitsView {
  const effective = effectiveLimits(overrides, defaults)
  return {
    windowSeconds: effective.windowSeconds,
    organization: { ...effective.org, operatorOverride: overrides.requests, adminLowered: overrides.adminRequests },
    perCredential: {
      ...effective.key,
      operatorOverride: overrides.keyRequests,
      adminLowered: overrides.adminKeyRequests,
    },
  }
}
