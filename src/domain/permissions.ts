// The permissions an API key can carry. households:* are the legacy names of relationships:*
// and grant exactly the same access on both the new and the legacy paths. A write permission
// implies read (as Stripe's restricted keys and GitHub's fine-grained tokens do): every write
// answers the record it wrote, so a key that may write could read through its writes anyway, and
// refusing it the GET of the same record only made the permissions read unlike they behave.
import type { UserRole } from './user-roles.ts'

export const PERMISSIONS = [
  'relationships:read',
  'relationships:write',
  'households:read',
  'households:write',
  'embed:chart',
  // The change feed (GET /api/v1/events): every change to every household, so a key of its own.
  'events:read',
] as const
export type Permission = (typeof PERMISSIONS)[number]

/**
 * Managing the organization itself: its API keys, embed origins, users and usage. Only the admin
 * role holds it, and no API key can carry it: a leaked key must not be able to mint more keys or
 * open the embed to another site.
 */
export const ORG_ADMIN = 'org:admin'

/** What a route asks for; the legacy names are accepted on keys, never required by routes. */
export type RequiredPermission =
  'relationships:read' | 'relationships:write' | 'embed:chart' | 'events:read' | typeof ORG_ADMIN

const EQUIVALENT: Record<RequiredPermission, readonly string[]> = {
  'relationships:read': ['relationships:read', 'households:read', 'relationships:write', 'households:write'],
  'relationships:write': ['relationships:write', 'households:write'],
  'embed:chart': ['embed:chart'],
  'events:read': ['events:read'],
  [ORG_ADMIN]: [ORG_ADMIN],
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value)
}

export function grants(held: readonly string[], required: RequiredPermission): boolean {
  return EQUIVALENT[required].some((permission) => held.includes(permission))
}

/** "relationships:read (or households:read)", for error messages. */
export function describeRequirement(required: RequiredPermission): string {
  const [canonical, ...aliases] = EQUIVALENT[required]
  return aliases.length ? `${canonical} (or ${aliases.join(', ')})` : String(canonical)
}

/**
 * What a signed-in user's role allows. viewer reads; advisor reads and writes households and
 * views charts (minting a chart token needs embed:chart); admin has every key permission and
 * manages the organization (org:admin).
 */
export const ROLE_PERMISSIONS: Record<UserRole, readonly string[]> = {
  viewer: ['relationships:read', 'households:read'],
  advisor: ['relationships:read', 'households:read', 'relationships:write', 'households:write', 'embed:chart'],
  admin: [...PERMISSIONS, ORG_ADMIN],
}
