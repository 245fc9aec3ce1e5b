import type { OrgRateLimits } from '../rate-limit/org-limits.ts'
import type { UserRole } from '../domain/user-roles.ts'

/** Who is calling: an API key (Authorization header) or a signed-in user (idp-session cookie). */
export type Principal = ApiKeyPrincipal | UserPrincipal

export interface ApiKeyPrincipal {
  kind: 'apiKey'
  /** The key's id. Rate limits and usage are counted per key; the audit log names it. */
  id: string
  orgId: string
  permissions: readonly string[]
  /** The organization's rate-limit overrides, read with the key. */
  rateLimits: OrgRateLimits
}

export interface UserPrincipal {
  kind: 'user'
  /** The user's id. Rate limits are counted per user (all their sessions share one budget); the audit log names it. */
  id: string
  orgId: string
  /** What the user's role allows (ROLE_PERMISSIONS). */
  permissions: readonly string[]
  role: UserRole
  /** The session the request came with: sign-out ends it. */
  sessionId: string
  /** The organization's rate-limit overrides, read with the session. */
  rateLimits: OrgRateLimits
  /** The address the identity provider verified at this session's sign-in: invitations to it can be accepted by switching. */
  verifiedEmail: string | null
}
