// How long the change feed keeps events. A cursor is refused (410) once its position is older than
// the retention; events are deleted a day later, so nothing after a cursor still accepted is ever
// gone (a transaction would have to stay open for a day to write an event that old).

export const EVENT_RETENTION_DAYS = 30
const PURGE_GRACE_DAYS = 1
const DAY_MS = 86_400_000

/** Events that occurred before this instant may be deleted. */
export function eventPurgeLine(retentionDays: number, now = Date.now()): Date {
  return new Date(now - (retentionDays + PURGE_GRACE_DAYS) * DAY_MS)
}
