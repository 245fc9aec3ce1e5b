// The change feed: GET /api/v1/events, the organization's events in the order their writes
// committed (src/store/events.ts), paged by an opaque cursor, for a partner that mirrors
// households. Needs events:read. A cursor older than the retention is 410, never a silent gap.
import type { Kysely } from 'kysely'
import type { Static } from 'typebox'
import type { Database } from '../../store/tables.ts'
import { readFeed, readPurgedPosition, type FeedPosition } from '../../store/events.ts'
import { EventPage, EventsQuery, EVENT_PAGE } from '../../schemas/event.ts'
import { ErrorBody } from '../../schemas/errors.ts'
import { isEventType, type EventType } from '../../events/event-types.ts'
import { decodeEventCursor, encodeEventCursor } from '../../events/event-cursor.ts'
import { ApiError } from '../errors.ts'
import { principalOf } from '../plugins/authenticate.ts'
import type { App } from '../types.ts'
import { authErrors } from './auth-errors.ts'

const EVENTS_PATH = '/api/v1/events'

/** The largest seq: a cursor at (tx, LAST_SEQ) is past every event of transaction tx. */
const LAST_SEQ = Number.MAX_SAFE_INTEGER

function typesOf(query: EventsQuery): EventType[] | undefined {
  if (query.types === undefined) return undefined
  const types = new Set<EventType>()
  for (const name of query.types.flatMap((value) => value.split(',')).map((value) => value.trim())) {
    if (name === '') continue
    if (!isEventType(name))
      throw new ApiError('invalid_query', `types: ${JSON.stringify(name)} is not an event type`, { field: '/types' })
    types.add(name)
  }
  return types.size > 0 ? [...types] : undefined
}

async function cursorOf(
  db: Kysely<Database>,
  query: EventsQuery,
  retentionDays: number,
): Promise<FeedPosition | undefined> {
  if (query.after === undefined) return undefined
  const cursor = decodeEventCursor(query.after)
  if (!cursor) {
    throw new ApiError('invalid_event_cursor', 'after is not a nextCursor the change feed gave out.', {
      field: '/after',
    })
  }
  const purged = await readPurgedPosition(db)
  if (!isAfter(cursor, purged)) {
    throw new ApiError(
      'event_cursor_expired',
      `after is older than the ${retentionDays} days events are kept, and events after it are gone: read the relationships again in full, then follow the feed without after (or from the nextCursor of a new read).`,
      { field: '/after' },
    )
  }
  return cursor
}

export function registerEventRoutes(app: App, db: Kysely<Database>, retentionDays: number): void {
  app.get(
    EVENTS_PATH,
    {
      config: { permission: 'events:read' },
      schema: {
        operationId: 'listEvents',
        summary: 'Read the change feed',
        tags: ['Events'],
        description: `Every change to the organization's relationships (households), members, relationships between members, assignments, entities and links, in the order the changes committed: applying them in order to an empty copy reproduces every household. Each event is written in the same transaction as its change, so an event exists exactly when its change committed, and no event appears behind a cursor already handed out, however many instances write at once. Events are kept ${retentionDays} days (HEARTH_EVENT_RETENTION_DAYS); an after older than that is 410 event_cursor_expired. Pages of limit events (default ${EVENT_PAGE.default}); nextCursor is always present. Needs events:read.`,
        querystring: EventsQuery,
        response: { 200: EventPage, 400: ErrorBody, 410: ErrorBody, ...authErrors },
      },
    },
    async (request, reply) => {
      const query = request.query
      const types = typesOf(query)
      const after = await cursorOf(db, query, retentionDays)
      const limit = query.limit ?? EVENT_PAGE.default
      const page = await readFeed(db, { orgId: principalOf(request).orgId, after, types, limit })
      const last = page.rows.at(-1)
      // A full page continues after its last event. A shorter one has every event committed below
      // the horizon, so the next read may start there (it skips the other organizations' events),
      // unless the cursor it was given is further on already.
      const horizon = { tx: page.horizon - 1, seq: LAST_SEQ }
      const next: FeedPosition =
        last && page.rows.length === limit ? last : after && isAfter(after, horizon) ? after : horizon
      const body = `{"events":[${page.rows.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(encodeEventCursor({ tx: next.tx, seq: next.seq }))}}`
      return reply.type('application/json; charset=utf-8').send(body as unknown as Static<typeof EventPage>)
    },
  )
}

/** Whether position a comes after position b in the feed's order. */
function isAfter(a: FeedPosition, b: FeedPosition): boolean {
  return a.tx > b.tx || (a.tx === b.tx && a.seq > b.seq)
}
