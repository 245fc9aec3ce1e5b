// The rate-limit overrides of an organization (migration 0008; what they mean is in
// src/rate-limit/org-limits.ts): read and changed by the operator (hearth orgs limits) and by the
// organization's admins (GET/PATCH /api/v1/limits). Requests read them with their credential.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { ORG_LIMIT_COLUMNS, orgLimitsOf, type OrgRateLimits } from '../rate-limit/org-limits.ts'

/** A change: a number sets it, null clears it (back to what is above it), absent leaves it. */
export interface LimitChange {
  requests?: number | null
  keyRequests?: number | null
}

export async function findOrgRateLimits(db: Kysely<Database>, orgId: string): Promise<OrgRateLimits | undefined> {
  const row = await db.selectFrom('orgs').select(ORG_LIMIT_COLUMNS).where('orgs.id', '=', orgId).executeTakeFirst()
  return row && orgLimitsOf(row)
}

/** The operator's overrides (the ceiling the organization's admins work under). */
export async function setOperatorRateLimits(
  db: Kysely<Database>,
  orgId: string,
  change: LimitChange,
): Promise<OrgRateLimits | undefined> {
  return update(db, orgId, { rate_limit_max: change.requests, key_rate_limit_max: change.keyRequests })
}

/** The organization's own admins' lowering of them. */
export async function setAdminRateLimits(
  db: Kysely<Database>,
  orgId: string,
  change: LimitChange,
): Promise<OrgRateLimits | undefined> {
  return update(db, orgId, { admin_rate_limit_max: change.requests, admin_key_rate_limit_max: change.keyRequests })
}

async function update(
  db: Kysely<Database>,
  orgId: string,
  columns: Partial<
    Record<
      'rate_limit_max' | 'key_rate_limit_max' | 'admin_rate_limit_max' | 'admin_key_rate_limit_max',
      number | null | undefined
    >
  >,
): Promise<OrgRateLimits | undefined> {
  // Object.entries drops the `undefined` of a Partial's values from their type, not from the values.
  const entries: [string, number | null | undefined][] = Object.entries(columns)
  const values = Object.fromEntries(entries.filter(([, value]) => value !== undefined))
  if (Object.keys(values).length === 0) return findOrgRateLimits(db, orgId)
  const row = await db
    .updateTable('orgs')
    .set(values)
    .where('orgs.id', '=', orgId)
    .returning(ORG_LIMIT_COLUMNS)
    .executeTakeFirst()
  return row && orgLimitsOf(row)
}
