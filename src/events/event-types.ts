// The kinds of change the change feed and the webhooks report: one per write a partner can make.
// Each event's data carries the household as GET answers it after the write (absent once it is
// deleted) and the resource the write concerned, as the API answers it, so that applying the
// events in order reproduces every household, member, entity and link exactly.

export const EVENT_TYPES = {
  'household.created': 'A household was created. data: {household}.',
  'household.updated': "The household's own fields changed. data: {household}.",
  'household.deleted': 'The household was deleted, with everything in it. data: {}.',
  'household.replaced':
    'The household was written whole (PUT …/chart, PUT by externalId, an import line): data: {household, members, entities, links}, its complete state.',
  'member.created': 'A member was added. data: {household, member}.',
  'member.updated':
    "A member changed: its fields, or its relationships (a change to one member's relationships also updates each other member whose list it changes). data: {household, member}.",
  'member.deleted':
    'A member was removed with its relationships and links (the members whose relationships named it and the links it had each get their own event). data: {household, memberId}.',
  'assignments.updated': "The household's advisors changed. data: {household} (household.assignments).",
  'entity.created': 'An entity was added. data: {household, entity}.',
  'entity.updated': 'An entity changed. data: {household, entity}.',
  'entity.deleted': 'An entity was removed (its links each get a link.deleted). data: {household, entityId}.',
  'link.created': 'A link was added. data: {household, link}.',
  'link.updated': 'A link changed. data: {household, link}.',
  'link.deleted': 'A link was removed. data: {household, linkId}.',
} as const

export type EventType = keyof typeof EVENT_TYPES

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[]

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value)
}
