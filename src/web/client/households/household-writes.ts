// What the household page gives its sections: the household as read, which editor is open (one at
// a time), and `write`, which sends a change under If-Match with the household's current ETag.
// Members, assignments, entities, links and the household's fields share that one ETag: any
// change to any of them moves it, so a write made from a stale page is refused (412) instead of undoing someone's work.
import type { ApiResponse } from '../api.ts'
import type { User } from '../../../schemas/organization.ts'
import type { Member } from '../../../schemas/member.ts'
import type { Household } from '../../../schemas/household.ts'
import type { Entity, Link } from './estate-wire.ts'

export type Editor =
  | { kind: 'details' }
  | { kind: 'assignments' }
  | { kind: 'member'; memberId: string }
  | { kind: 'newMember' }
  | { kind: 'entity'; entityId: string }
  | { kind: 'newEntity' }
  /** Who holds what in one entity: its links, and a form to add one. */
  | { kind: 'links'; entityId: string }
  | null

/** How a write ended. Refused writes were already explained on the page (412 reloads, 404). */
export type WriteResult<T> = { ok: true; value: T } | { ok: false }

export interface HouseholdPageContext {
  household: Household
  members: Member[]
  /** The household's trusts, businesses, charities, holdings and parties, and who holds what. */
  entities: Entity[]
  links: Link[]
  /** The org's users, for admins (GET /api/v1/users); null for everyone else. */
  users: User[] | null
  canWrite: boolean
  editor: Editor
  setEditor(editor: Editor): void
  /**
   * Sends a write with If-Match: the current ETag, then reads the household again. On 412 it
   * reloads and says in words that someone else changed it; on 404 the page says it is gone.
   * Other problems (400: a field's rule) are thrown for the form to show next to the field.
   */
  write<T>(request: (ifMatch: string) => Promise<ApiResponse<T>>, success?: string): Promise<WriteResult<T>>
}
