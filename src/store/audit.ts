// The audit log: every write to a household, by whom, and which fields it touched (names only,
// never values: metadata may hold anything).
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { Principal } from '../auth/principal.ts'

export type AuditAction =
  | 'household.create'
  | 'household.update'
  | 'household.delete'
  | 'household.replace'
  | 'member.create'
  | 'member.update'
  | 'member.delete'
  | 'assignments.set'
  | 'entity.create'
  | 'entity.update'
  | 'entity.delete'
  | 'link.create'
  | 'link.update'
  | 'link.delete'
  | 'chart.import'

/** Who wrote: what the log records of a principal (an import's worker writes for the one who uploaded it). */
export type AuditActor = Pick<Principal, 'kind' | 'id' | 'orgId'>

export interface AuditEntry {
  actor: AuditActor
  action: AuditAction
  householdId: string
  /** The member a member.* action concerned. */
  memberId?: string
  /** The entity an entity.* action concerned. */
  entityId?: string
  /** The link a link.* action concerned. */
  linkId?: string
  changed: readonly string[]
}

/** Records one write; runs in the write's own transaction, so a rolled-back write leaves no entry. */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      org_id: entry.actor.orgId,
      actor_type: entry.actor.kind,
      actor_id: entry.actor.id,
      action: entry.action,
      household_id: entry.householdId,
      member_id: entry.memberId ?? null,
      entity_id: entry.entityId ?? null,
      link_id: entry.linkId ?? null,
      changed: [...entry.changed].sort(),
    })
    .execute()
}

export interface AuditRow {
  at: string
  actorType: 'apiKey' | 'user'
  actorId: string
  action: string
  householdId: string | null
  memberId: string | null
  entityId: string | null
  linkId: string | null
  changed: string[]
}

/** The organization's log, oldest first, optionally for one household; at most `limit` rows. */
export async function listAudit(
  db: Kysely<Database>,
  orgId: string,
  householdId: string | undefined,
  limit: number,
): Promise<AuditRow[]> {
  let query = db
    .selectFrom('audit_log')
    .select([
      'at',
      'actor_type',
      'actor_id',
      'action',
      'household_id',
      'member_id',
      'entity_id',
      'link_id',
      'changed',
      'id',
    ])
    .where('org_id', '=', orgId)
  if (householdId !== undefined) query = query.where('household_id', '=', householdId)
  const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute()
  return rows.reverse().map((row) => ({
    at: row.at.toISOString(),
    actorType: row.actor_type,
    actorId: row.actor_id,
    action: row.action,
    householdId: row.household_id,
    memberId: row.member_id,
    entityId: row.entity_id,
    linkId: row.link_id,
    changed: row.changed,
  }))
}
