// The bounds and choices of operator requests that the CLI's help states, apart from the request
// schemas (requests.ts): those load typebox, a third of a second that `hearth --help` does without.
// The user roles and the invitation's default role are domain/user-roles.ts.
export const MAX_KEY_DAYS = 3650
export const AUDIT_LIMIT = { default: 100, max: 10_000 } as const
