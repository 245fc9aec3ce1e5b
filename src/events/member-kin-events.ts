// A member's relationships are listed on the other member too (a couple on both, a parent on the
// child), so a write to one member's relationships, or its removal, can change how other members
// read. The change feed promises that applying events reproduces every member, so each member
// whose JSON such a write changed gets its own member.updated: the members it shares or will share
// a kinship with are read before and after the write, and compared.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import type { EventOfWrite } from '../store/events.ts'
import { kinIds, readMembersJsonByIds } from '../store/members.ts'

export interface KinWatch {
  /** member.updated for each watched member (other than the written one) whose JSON changed. */
  changed(): Promise<EventOfWrite[]>
}

/** Reads, before a write to `memberId`, the members it is related to and those it is about to be. */
export async function watchKin(
  trx: Kysely<Database>,
  householdId: string,
  memberId: string | undefined,
  named: readonly string[],
): Promise<KinWatch> {
  const current = memberId === undefined ? [] : await kinIds(trx, householdId, memberId)
  const watched = [...new Set([...current, ...named])].filter((id) => id !== memberId)
  const before = await readMembersJsonByIds(trx, householdId, watched)
  return {
    async changed() {
      const after = await readMembersJsonByIds(trx, householdId, watched)
      return [...after]
        .filter(([id, body]) => before.get(id) !== body)
        .map(([, body]) => ({ type: 'member.updated', resources: { member: body } }))
    },
  }
}
