// Web app sessions (the idp-session cookie), one query each. Rows are found by the hash of the
// cookie value; src/auth/sessions.ts owns the value, the durations and what counts as valid.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { UserRole } from '../domain/user-roles.ts'
import { ORG_LIMIT_COLUMNS, orgLimitsOf, type OrgRateLimits } from '../rate-limit/org-limits.ts'

export interface SessionRecord {
  id: string
  userId: string
  orgId: string
  createdAt: Date
  lastSeenAt: Date
  idleExpiresAt: Date
  absoluteExpiresAt: Date
  revokedAt: Date | null
  /** The address the identity provider verified at sign-in (null: none, or a session not made by sign-in). */
  verifiedEmail: string | null
}

/** A session with its user's current role (a role change applies to live sessions at once). */
export interface SessionWithUser extends SessionRecord {
  role: UserRole
  /** The session's organization's rate-limit overrides (read in the same query). */
  rateLimits: OrgRateLimits
}

const columns = [
  'sessions.id',
  'sessions.user_id as userId',
  'sessions.org_id as orgId',
  'sessions.created_at as createdAt',
  'sessions.last_seen_at as lastSeenAt',
  'sessions.idle_expires_at as idleExpiresAt',
  'sessions.absolute_expires_at as absoluteExpiresAt',
  'sessions.revoked_at as revokedAt',
  'sessions.verified_email as verifiedEmail',
] as const

export interface NewSession {
  tokenHash: string
  userId: string
  orgId: string
  createdAt: Date
  idleExpiresAt: Date
  absoluteExpiresAt: Date
  verifiedEmail: string | null
}

export async function insertSession(db: Kysely<Database>, session: NewSession): Promise<SessionRecord> {
  return db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      org_id: session.orgId,
      last_seen_at: session.createdAt,
      idle_expires_at: session.idleExpiresAt,
      absolute_expires_at: session.absoluteExpiresAt,
      verified_email: session.verifiedEmail,
    })
    .returning(columns)
    .executeTakeFirstOrThrow()
}

export async function findSessionByHash(db: Kysely<Database>, tokenHash: string): Promise<SessionWithUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('orgs', 'orgs.id', 'sessions.org_id')
    .select([...columns, 'users.role'])
    .select(ORG_LIMIT_COLUMNS)
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst()
  if (!row) return undefined
  const { orgRateLimitMax, orgKeyRateLimitMax, orgAdminRateLimitMax, orgAdminKeyRateLimitMax, ...session } = row
  return {
    ...session,
    rateLimits: orgLimitsOf({ orgRateLimitMax, orgKeyRateLimitMax, orgAdminRateLimitMax, orgAdminKeyRateLimitMax }),
  }
}

/**
 * Records use of a live session: moves last_seen_at and the idle expiry forward, never back and
 * never past the absolute expiry. Does nothing to a revoked session.
 */
export async function touchSession(db: Kysely<Database>, id: string, seenAt: Date, idleExpiresAt: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({
      last_seen_at: sql<Date>`greatest(last_seen_at, ${seenAt})`,
      idle_expires_at: sql<Date>`least(absolute_expires_at, greatest(idle_expires_at, ${idleExpiresAt}))`,
    })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Ends one session (sign out). Revoking twice keeps the first time. Answers whether it exists. */
export async function revokeSession(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Ends every live session of a user (sign out everywhere); answers how many it ended. */
export async function revokeUserSessions(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * Forgets sessions that ended more than a day ago (expired or signed out). Their cookies were
 * already refused; afterwards they are refused as unknown (session_invalid) instead.
 */
export async function deleteEndedSessions(db: Kysely<Database>, now: Date): Promise<number> {
  const before = new Date(now.getTime() - 86_400_000)
  const result = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('idle_expires_at', '<', before),
        eb('absolute_expires_at', '<', before),
        eb('revoked_at', '<', before),
      ]),
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
