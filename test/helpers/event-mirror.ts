// A partner's copy of an organization's households, kept only from the change feed: what the feed
// promises is that applying its events in order to an empty copy gives every household exactly as
// the API reads it. Tests compare such a copy with the API's own reads.

interface Identified {
  id: string
}

export interface MirroredHousehold {
  household: Record<string, unknown>
  members: Map<string, Identified>
  entities: Map<string, Identified>
  links: Map<string, Identified>
}

export interface FeedEvent {
  id: string
  type: string
  occurredAt: string
  householdId: string
  data: Record<string, unknown>
}

const byId = (items: unknown) => new Map((items as Identified[]).map((item) => [item.id, item]))

export class EventMirror {
  readonly households = new Map<string, MirroredHousehold>()

  apply(event: FeedEvent): void {
    const { data } = event
    if (event.type === 'household.deleted') {
      this.households.delete(event.householdId)
      return
    }
    if (event.type === 'household.replaced') {
      this.households.set(event.householdId, {
        household: data.household as Record<string, unknown>,
        members: byId(data.members),
        entities: byId(data.entities),
        links: byId(data.links),
      })
      return
    }
    const copy = this.households.get(event.householdId) ?? {
      household: {},
      members: new Map<string, Identified>(),
      entities: new Map<string, Identified>(),
      links: new Map<string, Identified>(),
    }
    copy.household = data.household as Record<string, unknown>
    const [kind, change] = event.type.split('.') as [string, string]
    const collection = { member: copy.members, entity: copy.entities, link: copy.links }[kind]
    if (collection) {
      if (change === 'deleted') collection.delete(data[`${kind}Id`] as string)
      else collection.set((data[kind] as Identified).id, data[kind] as Identified)
    }
    this.households.set(event.householdId, copy)
  }
}
