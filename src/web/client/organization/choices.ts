// What the organization pages offer to choose from, in words: the users' roles and a new key's permissions.
import type { Permission } from '../../../domain/permissions.ts'
import { USER_ROLES, type UserRole } from '../../../domain/user-roles.ts'

/** Every role must have its words: a role added to USER_ROLES does not compile here until it does. */
const ROLE_WORDS: Readonly<Record<UserRole, { label: string; hint: string }>> = {
  admin: { label: 'Admin', hint: 'everything, including these admin pages' },
  advisor: { label: 'Advisor', hint: 'reads and edits households, views charts' },
  viewer: { label: 'Viewer', hint: 'reads households' },
}

export const ROLES: readonly { value: UserRole; label: string; hint: string }[] = USER_ROLES.map((value) => ({
  value,
  ...ROLE_WORDS[value],
}))

export function roleLabel(role: string): string {
  return ROLES.find((r) => r.value === role)?.label ?? role
}

/**
 * The permissions a new key can be given. households:read and households:write are left out on
 * purpose: they are the legacy names of relationships:read and relationships:write and grant
 * exactly the same access, on the new paths and on the deprecated /api/v1/households ones alike
 * (src/domain/permissions.ts), so a new key never needs them and offering both would only make
 * people wonder which to tick. Keys created with them earlier still list them, with a note.
 */
export const NEW_KEY_PERMISSIONS: readonly { value: Permission; label: string; hint: string }[] = [
  { value: 'relationships:read', label: 'relationships:read', hint: 'list, search and read households' },
  {
    value: 'relationships:write',
    label: 'relationships:write',
    hint: 'create, change and delete households, and read them',
  },
  { value: 'embed:chart', label: 'embed:chart', hint: 'mint chart tokens for your embed origins' },
]

/** What a legacy permission name stands for, to say so next to it. */
export const LEGACY_PERMISSIONS: Readonly<Record<string, string>> = {
  'households:read': 'relationships:read',
  'households:write': 'relationships:write',
}
