// Removing a member or an entity removes its links (foreign keys ON DELETE CASCADE); the change
// feed says so link by link, so that a copy kept from the events loses them too.
import type { EventOfWrite } from '../store/events.ts'

export function linkDeletedEvents(linkIds: readonly string[]): EventOfWrite[] {
  return linkIds.map((linkId) => ({ type: 'link.deleted', resources: { linkId: JSON.stringify(linkId) } }))
}
