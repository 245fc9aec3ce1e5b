/** Who is calling: an API key (Authorization header) or a signed-in user (idp-session cookie). */
export type Principal = ApiKeyPrincipal | UserPrincipal

export interface ApiKeyPrincipal {
  kind: 'apiKey'
  /** The key's id. Rate limits and usage are counted per key; the audit log names it. */
  id: string
  orgId: string
  permissions: readonly string[]
}

export interface UserPrincipal {
  kind: 'user'
  /** The user's id. Rate limits are counted per user (all their sessions share one budget); the audit log names it. */
  id: string
  orgId: string
  /** What the user's role allows (ROLE_PERMISSIONS). */
  permissions: readonly string[]
  role: 'admin' | 'advisor' | 'viewer'
  /** The session the request came with: sign-out ends it. */
  sessionId: string
}
