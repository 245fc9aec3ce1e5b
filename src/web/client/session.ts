// Who is signed in, from GET /api/v1/me, shared by every page.
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { UserRole } from '../../domain/user-roles.ts'

export interface Me {
  user: { id: string; email: string; name: string; role: UserRole }
  org: { id: string; name: string }
  permissions: string[]
  /** Every organization the person can work in; `current` is this session's, `invited` not accepted yet. */
  organizations: {
    id: string
    name: string
    role: UserRole
    current: boolean
    invited: boolean
  }[]
}

export const MeContext = createContext<Me | null>(null)

export function useMe(): Me {
  const me = useContext(MeContext)
  if (!me) throw new Error('useMe outside a signed-in page')
  return me
}

export function can(me: Me, permission: 'relationships:write' | 'embed:chart' | 'org:admin'): boolean {
  return me.permissions.includes(permission)
}
