// Web app sessions: the idp-session cookie. Its value is 32 random bytes (base64url, 43
// characters), shown to the browser once and stored only as a SHA-256 hash. Sessions are read
// only from that cookie — never from a header or the query string — and API keys never from it.
//
// Lifetime: a session ends at whichever comes first of
//   - SESSION_IDLE_TIMEOUT_MS without use (12 hours: a working day plus a lunch break; the expiry
//     slides forward with use, written at most once per SESSION_TOUCH_INTERVAL_MS so that reads do
//     not each cost a write — a session may therefore live up to one interval less than the idle
//     timeout after its last use, never more);
//   - SESSION_ABSOLUTE_LIFETIME_MS after sign-in (7 days), however busy, so a stolen cookie
//     cannot be kept alive forever;
//   - sign out (that session) or sign out everywhere (all of the user's sessions).
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import {
  findSessionByHash,
  insertSession,
  revokeSession,
  revokeUserSessions,
  touchSession,
  type SessionRecord,
} from '../store/sessions.ts'
import { ROLE_PERMISSIONS } from '../domain/permissions.ts'
import type { UserPrincipal } from './principal.ts'

export const SESSION_COOKIE = 'idp-session'
export const SESSION_IDLE_TIMEOUT_MS = 12 * 3600_000
const SESSION_ABSOLUTE_LIFETIME_MS = 7 * 24 * 3600_000
const SESSION_TOUCH_INTERVAL_MS = 60_000

const VALUE_BYTES = 32
const VALUE_PATTERN = /^[A-Za-z0-9_-]{43}$/

export function hashSessionValue(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export interface SessionLifetime {
  idleTimeoutMs: number
  absoluteLifetimeMs: number
}

const DEFAULT_LIFETIME: SessionLifetime = {
  idleTimeoutMs: SESSION_IDLE_TIMEOUT_MS,
  absoluteLifetimeMs: SESSION_ABSOLUTE_LIFETIME_MS,
}

/** Starts a session for a user (after sign-in). The value is for the cookie and is not kept. */
export async function createSession(
  db: Kysely<Database>,
  /** verifiedEmail: what the provider verified at this sign-in; switching organizations may accept invitations to it. */
  user: { id: string; orgId: string; verifiedEmail?: string | undefined },
  now = new Date(),
  lifetime: SessionLifetime = DEFAULT_LIFETIME,
): Promise<{ value: string; session: SessionRecord }> {
  const value = randomBytes(VALUE_BYTES).toString('base64url')
  const absoluteExpiresAt = new Date(now.getTime() + lifetime.absoluteLifetimeMs)
  const idleExpiresAt = new Date(Math.min(now.getTime() + lifetime.idleTimeoutMs, absoluteExpiresAt.getTime()))
  const session = await insertSession(db, {
    tokenHash: hashSessionValue(value),
    userId: user.id,
    orgId: user.orgId,
    createdAt: now,
    idleExpiresAt,
    absoluteExpiresAt,
    verifiedEmail: user.verifiedEmail ?? null,
  })
  return { value, session }
}

export type SessionFailure = 'invalid' | 'expired' | 'revoked'
export type SessionResult = { ok: true; principal: UserPrincipal } | { ok: false; failure: SessionFailure }

/** Resolves a cookie value to the signed-in user, or says why not. Keeps the idle expiry sliding. */
export async function resolveSession(
  db: Kysely<Database>,
  value: string,
  now = new Date(),
  idleTimeoutMs = SESSION_IDLE_TIMEOUT_MS,
): Promise<SessionResult> {
  if (!VALUE_PATTERN.test(value)) return { ok: false, failure: 'invalid' }
  const session = await findSessionByHash(db, hashSessionValue(value))
  if (!session) return { ok: false, failure: 'invalid' }
  if (session.revokedAt) return { ok: false, failure: 'revoked' }
  if (session.idleExpiresAt <= now || session.absoluteExpiresAt <= now) return { ok: false, failure: 'expired' }
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    await touchSession(db, session.id, now, new Date(now.getTime() + idleTimeoutMs))
  }
  return {
    ok: true,
    principal: {
      kind: 'user',
      id: session.userId,
      orgId: session.orgId,
      permissions: ROLE_PERMISSIONS[session.role],
      role: session.role,
      sessionId: session.id,
      rateLimits: session.rateLimits,
      verifiedEmail: session.verifiedEmail,
    },
  }
}

/** Sign out: ends this session. */
export async function endSession(db: Kysely<Database>, sessionId: string): Promise<void> {
  await revokeSession(db, sessionId)
}

/** Sign out everywhere: ends every session of the user; answers how many were live. */
export async function endAllSessions(db: Kysely<Database>, userId: string): Promise<number> {
  return revokeUserSessions(db, userId)
}

export interface SessionCookieAttributes {
  httpOnly: true
  sameSite: 'lax'
  path: '/'
  secure: boolean
}

/**
 * The cookie's attributes. Secure always, except when the app's public URL is plain http on
 * localhost / 127.0.0.1 / [::1] (development), where a Secure cookie would never be sent back.
 */
export function sessionCookieAttributes(publicUrl: string): SessionCookieAttributes {
  const url = new URL(publicUrl)
  const plainLocal = url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: !plainLocal }
}
