// The event as the change feed sends it ({id, type, occurredAt, householdId, data}), built by the
// database. One expression for every reader, because the README promises that a webhook's body is
// exactly the feed's event: the feed (events.ts readFeed) and the webhook dispatcher
// (webhook-dispatch.ts) both select it, so a field added or a format changed reaches both at once.
import { sql, type RawBuilder } from 'kysely'

/**
 * json_build_object(...) of the row of `events` aliased `alias` (unqualified columns without one).
 * JSON, not text: callers cast it (::text) where they want the text as sent.
 */
export function eventJson(alias?: string): RawBuilder<unknown> {
  const column = (name: string) => sql.ref(alias === undefined ? name : `${alias}.${name}`)
  return sql`json_build_object(
    'id', ${column('id')}, 'type', ${column('type')},
    'occurredAt', to_char(${column('occurred_at')} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'householdId', ${column('household_id')}, 'data', ${column('data')}::json)`
}
