// The roles of an organization's users, the one list every other derives from: the principal, the
// users table's type, the API's schemas (/api/v1/me, /api/v1/users), what each role may do
// (permissions.ts), the demo people, the web app's session and role choices, and the CLI's help and
// checks. No imports: the CLI's help and the web app load it as it is.
//
// The database keeps its own copy in a CHECK: migration 0001's `role IN ('admin', 'advisor', 'viewer')`
// is released history and stays as written. A new migration that changes the roles builds its CHECK
// from this list (the same names, in this order), and test/integration/user-roles-check.test.ts fails
// when the CHECK of a freshly migrated database and this list disagree.
export const USER_ROLES = ['admin', 'advisor', 'viewer'] as const

export type UserRole = (typeof USER_ROLES)[number]

/** The role an invitation gives when it names none (`hearth users add`, the web app's invite form). */
export const DEFAULT_USER_ROLE: UserRole = 'advisor'

export function isUserRole(value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value)
}
