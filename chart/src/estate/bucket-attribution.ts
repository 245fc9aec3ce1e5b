// Which Estate-view bucket a held part of an entity goes to (look-through rule 4).
// - A part held by a member: the primary client's → primaryClient, the co-client's → coClient, anyone
//   else's → outside (it is in someone else's estate, not the clients'). When both clients directly
//   own the entity, both clients' parts of it go to joint.
// - An entity's own part (what its owners leave): a charity's (foundation, DAF, public charity) →
//   charity; else by the entity's estate side (its `estate`, else its kind's default): out → outside;
//   in → the clients among its grantors (owner links aside): one → that client's bucket, both → joint,
//   none → unassigned. Where the entity's `estate` is left to its kind's default, it speaks for its
//   own part only: the parts its owners hold are theirs and go where they go. An entity the payload
//   marks `estate: "out"` is outside as a whole, owners' parts included (estate-lookthrough.ts, rule 4).
import type { EstateEntity, EstateInput } from './estate-input.ts'
import type { EstateBucket } from './estate-buckets.ts'
import type { EntityKindRule } from './entity-kinds.ts'

type ClientRole = 'primaryClient' | 'coClient'

/** The client roles among `ids`' roles (people not in `roleOf` are not clients). */
function clientsAmong(ids: readonly string[], roleOf: ReadonlyMap<string, string>): Set<ClientRole> {
  const clients = new Set<ClientRole>()
  for (const id of ids) {
    const role = roleOf.get(id)
    if (role === 'primaryClient' || role === 'coClient') clients.add(role)
  }
  return clients
}

function clientsBucket(clients: ReadonlySet<ClientRole>): EstateBucket {
  if (clients.size === 2) return 'joint'
  if (clients.has('primaryClient')) return 'primaryClient'
  if (clients.has('coClient')) return 'coClient'
  return 'unassigned'
}

/** The bucket of a member's part of an entity whose member holders are `memberHolderIds`. */
export function memberPartBucket(
  memberId: string,
  memberHolderIds: readonly string[],
  roleOf: ReadonlyMap<string, string>,
): EstateBucket {
  const role = roleOf.get(memberId)
  if (role !== 'primaryClient' && role !== 'coClient') return 'outside'
  return clientsAmong(memberHolderIds, roleOf).size === 2 ? 'joint' : role
}

/** The bucket of an entity's own part. */
export function ownPartBucket(
  entity: EstateEntity,
  rule: EntityKindRule,
  input: EstateInput,
  roleOf: ReadonlyMap<string, string>,
): EstateBucket {
  if (rule.group === 'charity') return 'charity'
  if ((entity.estate ?? rule.estate) === 'out') return 'outside'
  const grantorIds = (input.links ?? [])
    .filter((link) => link.type === 'grantor' && link.to === entity.id)
    .map((link) => link.from)
  return clientsBucket(clientsAmong(grantorIds, roleOf))
}
