import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import { ORG_LIMIT_COLUMNS, orgLimitsOf, type OrgRateLimits } from '../rate-limit/org-limits.ts'

export interface ApiKeyRecord {
  id: string
  orgId: string
  name: string
  prefix: string
  permissions: string[]
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
  lastUsedAt: Date | null
}

const columns = [
  'id',
  'org_id as orgId',
  'name',
  'prefix',
  'permissions',
  'created_at as createdAt',
  'expires_at as expiresAt',
  'revoked_at as revokedAt',
  'last_used_at as lastUsedAt',
] as const

export interface NewApiKey {
  orgId: string
  name: string
  prefix: string
  hash: string
  permissions: string[]
  expiresAt: Date | null
}

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<ApiKeyRecord> {
  return db
    .insertInto('api_keys')
    .values({
      org_id: key.orgId,
      name: key.name,
      prefix: key.prefix,
      secret_hash: key.hash,
      permissions: key.permissions,
      expires_at: key.expiresAt,
    })
    .returning(columns)
    .executeTakeFirstOrThrow()
}

/** A key as authentication resolves it: with its organization's rate-limit overrides. */
export type ResolvedApiKey = ApiKeyRecord & { rateLimits: OrgRateLimits }

/**
 * The key with its organization's rate-limit overrides, for authentication (through the process's
 * cache, src/auth/api-key-cache.ts). Migration 0020 notifies a change to any column this depends on;
 * a column added here that can change must be added to its triggers.
 */
export async function findApiKeyByHash(db: Kysely<Database>, hash: string): Promise<ResolvedApiKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('orgs', 'orgs.id', 'api_keys.org_id')
    .select(columns.map((column) => `api_keys.${column}` as const))
    .select(ORG_LIMIT_COLUMNS)
    .where('api_keys.secret_hash', '=', hash)
    .executeTakeFirst()
  if (!row) return undefined
  const { orgRateLimitMax, orgKeyRateLimitMax, orgAdminRateLimitMax, orgAdminKeyRateLimitMax, ...key } = row
  return {
    ...key,
    rateLimits: orgLimitsOf({ orgRateLimitMax, orgKeyRateLimitMax, orgAdminRateLimitMax, orgAdminKeyRateLimitMax }),
  }
}

/** The organization's keys, oldest first (the CLI) or newest first (the admin API); ties by id. */
export async function listApiKeys(
  db: Kysely<Database>,
  orgId: string,
  order: 'asc' | 'desc' = 'asc',
): Promise<ApiKeyRecord[]> {
  return db
    .selectFrom('api_keys')
    .select(columns)
    .where('org_id', '=', orgId)
    .orderBy('created_at', order)
    .orderBy('id', order)
    .execute()
}

/**
 * Revokes the key; returns it, or undefined if there is no such key (in `orgId`, when given: the
 * organization administration API acts inside the caller's organization, the CLI's operator on
 * any). Revoking twice keeps the first time.
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  id: string,
  orgId?: string,
): Promise<ApiKeyRecord | undefined> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
  if (orgId !== undefined) query = query.where('org_id', '=', orgId)
  return query.returning(columns).executeTakeFirst()
}

export interface KeyUsage {
  keyId: string
  day: string
  legacy: boolean
  calls: number
  lastUsedAt: Date
}

/** Adds batched call counts and moves last_used_at forward (never back). */
export async function recordKeyUsage(db: Kysely<Database>, usage: KeyUsage[]): Promise<void> {
  if (usage.length === 0) return
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('api_key_usage')
      .values(usage.map((u) => ({ key_id: u.keyId, day: u.day, legacy: u.legacy, calls: u.calls })))
      .onConflict((oc) =>
        oc.columns(['key_id', 'day', 'legacy']).doUpdateSet({ calls: sql`api_key_usage.calls + excluded.calls` }),
      )
      .execute()
    const latest = new Map<string, Date>()
    for (const u of usage) {
      const seen = latest.get(u.keyId)
      if (!seen || seen < u.lastUsedAt) latest.set(u.keyId, u.lastUsedAt)
    }
    for (const [keyId, at] of latest) {
      await trx
        .updateTable('api_keys')
        .set({ last_used_at: sql<Date>`greatest(last_used_at, ${at})` })
        .where('id', '=', keyId)
        .execute()
    }
  })
}

export interface ApiKeyUsageRow {
  /** UTC day, YYYY-MM-DD. */
  day: string
  keyId: string
  keyName: string
  keyPrefix: string
  /** Every call of the key that day. */
  calls: number
  /** Those of them on the deprecated /api/v1/households paths. */
  legacyCalls: number
}

/** Calls per key per UTC day, from `since` (a YYYY-MM-DD day, UTC) on; revoked keys included. */
export async function apiKeyUsage(db: Kysely<Database>, orgId: string, since: string): Promise<ApiKeyUsageRow[]> {
  const result = await sql<ApiKeyUsageRow>`
    SELECT to_char(u.day, 'YYYY-MM-DD') AS day, u.key_id AS "keyId", k.name AS "keyName", k.prefix AS "keyPrefix",
           sum(u.calls)::int AS calls, coalesce(sum(u.calls) FILTER (WHERE u.legacy), 0)::int AS "legacyCalls"
      FROM api_key_usage u JOIN api_keys k ON k.id = u.key_id
     WHERE k.org_id = ${orgId} AND u.day >= ${since}::date
     GROUP BY u.day, u.key_id, k.name, k.prefix
     ORDER BY u.day, k.name, u.key_id
  `.execute(db)
  return result.rows
}
