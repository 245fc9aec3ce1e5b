// What differs between the two prefixes the household routes are served on: /api/v1/relationships,
// and the deprecated /api/v1/households (the legacy options). Computed once per registration of
// the household routes plugin (household-routes.ts) and handed to each group of routes.
import type { RequiredPermission } from '../../domain/permissions.ts'

const RELATIONSHIPS_PATH = '/api/v1/relationships'
const HOUSEHOLDS_PATH = '/api/v1/households'

const security: Record<string, string[]>[] = [{ BearerAuth: [] }, { SessionAuth: [] }]

export interface HouseholdSurface {
  legacy: boolean
  /** The collection's path: /api/v1/relationships or /api/v1/households. */
  base: string
  /** What every operation's document says about its prefix: tag, deprecation, security. */
  docs: { tags: string[]; deprecated: true | undefined; security: Record<string, string[]>[] }
  /** A route's config: its permission, and whether it is on the legacy prefix (deprecation headers, counted apart). */
  config: (permission: RequiredPermission) => { permission: RequiredPermission; legacy: boolean }
  /** "Deprecated alias of METHOD /api/v1/relationships{path}. " on the legacy prefix, nothing on the current one. */
  alias: (method: string, path: string) => string
  /** The operation id or wording of this prefix: `current` on /relationships, `old` on /households. */
  pick: (current: string, old: string) => string
}

export function householdSurface(legacy: boolean): HouseholdSurface {
  return {
    legacy,
    base: legacy ? HOUSEHOLDS_PATH : RELATIONSHIPS_PATH,
    docs: { tags: [legacy ? 'households (deprecated)' : 'relationships'], deprecated: legacy || undefined, security },
    config: (permission) => ({ permission, legacy }),
    alias: (method, path) => (legacy ? `Deprecated alias of ${method} ${RELATIONSHIPS_PATH}${path}. ` : ''),
    pick: (current, old) => (legacy ? old : current),
  }
}
