// Kinship from either side. The API stores a parent link on the child (the child's relationships
// list its parents), so "Ann is the parent of Cara", chosen on Ann's row, is a change of Cara's
// relationships: this module finds the children whose lists change and sends each its new list,
// one PATCH after another under the household's moving ETag.
import { api } from '../api.ts'
import type { Kinship, Member } from '../../../schemas/member.ts'

/** A member's relationships as the API reads them, to send back: what is not stated (null) is left out. */
export function kinshipsToSend(relationships: Member['relationships']): Kinship[] {
  return relationships.map(
    (kinship) => Object.fromEntries(Object.entries(kinship).filter(([, value]) => value !== null)) as Kinship,
  )
}

/** The ids of the members that list `parentId` as a parent. */
export function childrenOf(parentId: string, members: readonly Member[]): Set<string> {
  return new Set(
    members.filter((m) => m.relationships.some((r) => r.memberId === parentId && r.type === 'parent')).map((m) => m.id),
  )
}

export interface ChildChange {
  child: Member
  relationships: Kinship[]
}

/** The children whose relationships change so that `parentId` is the parent of exactly `wanted` (among members). */
export function parentOfChanges(
  parentId: string,
  wanted: ReadonlySet<string>,
  members: readonly Member[],
): ChildChange[] {
  const now = childrenOf(parentId, members)
  const changes: ChildChange[] = []
  for (const child of members) {
    if (child.id === parentId || wanted.has(child.id) === now.has(child.id)) continue
    // Whatever else the child had with this member is replaced: two members have one relationship.
    const kept = kinshipsToSend(child.relationships.filter((r) => r.memberId !== parentId))
    const relationships = wanted.has(child.id) ? [...kept, { memberId: parentId, type: 'parent' as const }] : kept
    changes.push({ child, relationships })
  }
  return changes
}

/**
 * Sends each child's new relationships under `etag` (read first when not known), moving on with
 * each answer's ETag; answers the last.
 */
export async function sendChildChanges(
  householdId: string,
  changes: readonly ChildChange[],
  etag: string | null,
): Promise<string | null> {
  const path = `/api/v1/relationships/${householdId}`
  let current = etag
  for (const change of changes) {
    current ??= (await api(path)).etag
    const answer = await api(`${path}/members/${change.child.id}`, {
      method: 'PATCH',
      body: { relationships: change.relationships },
      headers: current ? { 'if-match': current } : {},
    })
    current = answer.etag
  }
  return current
}
