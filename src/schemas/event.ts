// The change feed: GET /api/v1/events. One schema feeds validation, the types and OpenAPI.
import { Type, type Static } from 'typebox'
import { DateTime, StringEnum, Uuid } from './common.ts'
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '../events/event-types.ts'

export const EVENT_PAGE = { default: 100, max: 1000 } as const

const typeTable = Object.entries(EVENT_TYPES)
  .map(([type, meaning]) => `${type}: ${meaning}`)
  .join(' ')

const EventTypeName = StringEnum(EVENT_TYPE_NAMES, { description: typeTable })

const ChangeEvent = Type.Object(
  {
    id: Type.String({
      format: 'uuid',
      description:
        'Unique per event and the same on every delivery of it (the webhook-id of its webhooks): de-duplicate on it.',
    }),
    type: EventTypeName,
    occurredAt: DateTime,
    householdId: Uuid,
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'household: the household as GET answers it after the change (absent for household.deleted); and the resource the change concerned as its own GET answers it (member, entity, link; memberId, entityId or linkId when it was removed; members, entities and links for household.replaced).',
      },
    ),
  },
  { title: 'ChangeEvent', additionalProperties: false },
)

export const EventPage = Type.Object(
  {
    events: Type.Array(ChangeEvent, { maxItems: EVENT_PAGE.max }),
    nextCursor: Type.String({
      description:
        'Pass it as after to read on. Always present: when events is shorter than limit you have read everything committed so far, and the same cursor later returns only what came after.',
    }),
  },
  { title: 'EventPage', additionalProperties: false },
)

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A nextCursor from an earlier page; without it the feed starts at the oldest event kept.',
      }),
    ),
    types: Type.Optional(
      Type.Array(Type.String({ maxLength: 1000 }), {
        description: `Only these event types (${EVENT_TYPE_NAMES.join(', ')}); repeat the key and/or separate with commas.`,
        maxItems: 100,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: EVENT_PAGE.max,
        default: EVENT_PAGE.default,
        description: 'Events per page.',
      }),
    ),
  },
  { additionalProperties: false },
)
export type EventsQuery = Static<typeof EventsQuery>
