// Members of one household and the kinships between them (member-to-member relationships; the
// table is member_relationships and the API's key `relationships`). Reads build the API's JSON in the
// database, in one statement with the household's version, so a list and its ETag always agree.
// Writes run inside writeHousehold (the household's row lock is held), so the checks made here
// (role taken, members known, no cycle) cannot race another write to the same household.
//
// Kinships are stored once per pair: spouse, partner and exSpouse with the smaller member id
// in from_member_id; parent with the parent in from_member_id and the child in to_member_id. A
// member "owns" (lists, and replaces when its kinships are sent) its mutual kinships
// and the links to its parents; links to its children belong to the children.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from './tables.ts'
import type { KinshipEntry, MemberFields } from '../domain/member-input.ts'
import { ONE_PER_HOUSEHOLD_ROLES } from '../domain/household-roles.ts'

export interface MembersJson {
  /** JSON text: an array of Member. */
  body: string
  version: number
}

export interface MemberJson {
  /** JSON text: a Member. */
  body: string
  version: number
}

// The other member's position is read by a subquery per relationship, not a join: a join may be
// planned as a hash join over every member of every household, rebuilt for each member listed (a
// database without statistics yet, e.g. during a first import with autovacuum off, planned it so:
// 0.45 s per household at 130,000 members); the subquery is always one primary-key look-up.
function memberJson(alias: string): RawBuilder<unknown> {
  const id = sql.ref(`${alias}.id`)
  return sql`json_build_object(
    'id', ${id},
    'name', ${sql.ref(`${alias}.name`)},
    'role', ${sql.ref(`${alias}.role`)},
    'birthDate', to_char(${sql.ref(`${alias}.birth_date`)}, 'YYYY-MM-DD'),
    'deathDate', to_char(${sql.ref(`${alias}.death_date`)}, 'YYYY-MM-DD'),
    'email', ${sql.ref(`${alias}.email`)},
    'externalId', ${sql.ref(`${alias}.external_id`)},
    'relationships', coalesce((
      SELECT json_agg(json_build_object('memberId', k.other, 'type', k.type, 'parentKind', k.parent_kind,
        'since', to_char(k.since, 'YYYY-MM-DD'), 'until', to_char(k.until, 'YYYY-MM-DD'))
        ORDER BY (SELECT o.position FROM members o WHERE o.id = k.other), k.other)
      FROM (
        SELECT CASE WHEN r.to_member_id = ${id} THEN r.from_member_id ELSE r.to_member_id END AS other,
          r.type, r.parent_kind, r.since, r.until
        FROM member_relationships r
        WHERE r.to_member_id = ${id} OR (r.from_member_id = ${id} AND r.type <> 'parent')
      ) k
    ), '[]'::json)
  )`
}

/**
 * The members of the household whose id is `householdId` (an SQL expression) as a JSON array, in
 * their order: the list GET answers, and the members of a household.replaced event (an import's
 * batch builds many at once with it, so both are the same text).
 */
export function membersArray(householdId: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`coalesce((
      SELECT json_agg(${memberJson('m')} ORDER BY m.position, m.id) FROM members m WHERE m.household_id = ${householdId}
    ), '[]'::json)`
}

/** The household's members (JSON array text) with its version, or undefined when the org has no such household. */
export async function readMembersJson(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
): Promise<MembersJson | undefined> {
  const result = await sql<MembersJson>`
    SELECT h.version, ${membersArray(sql.ref('h.id'))}::text AS body
    FROM households h WHERE h.org_id = ${orgId} AND h.id = ${householdId}
  `.execute(db)
  return result.rows[0]
}

/** One member (JSON text) with its household's version, or undefined when either is not found. */
export async function readMemberJson(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
  memberId: string,
): Promise<MemberJson | undefined> {
  const result = await sql<MemberJson>`
    SELECT h.version, ${memberJson('m')}::text AS body
    FROM households h JOIN members m ON m.household_id = h.id
    WHERE h.org_id = ${orgId} AND h.id = ${householdId} AND m.id = ${memberId}
  `.execute(db)
  return result.rows[0]
}

/** A member's stored fields, or undefined when the household has no member with this id. */
export async function readMemberFields(
  trx: Kysely<Database>,
  householdId: string,
  memberId: string,
): Promise<MemberFields | undefined> {
  const row = await trx
    .selectFrom('members')
    .select(['name', 'role', 'birth_date', 'death_date', 'email', 'external_id'])
    .where('household_id', '=', householdId)
    .where('id', '=', memberId)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    name: row.name,
    role: row.role as MemberFields['role'],
    birthDate: row.birth_date,
    deathDate: row.death_date,
    email: row.email,
    externalId: row.external_id,
  }
}

/** Whether another member of the household already has this role (only primaryClient and coClient are unique). */
export async function roleTaken(
  trx: Kysely<Database>,
  householdId: string,
  role: MemberFields['role'],
  exceptMemberId?: string,
): Promise<boolean> {
  if (!ONE_PER_HOUSEHOLD_ROLES.has(role)) return false
  let query = trx.selectFrom('members').select('id').where('household_id', '=', householdId).where('role', '=', role)
  if (exceptMemberId !== undefined) query = query.where('id', '<>', exceptMemberId)
  return (await query.executeTakeFirst()) !== undefined
}

/** Whether another member of the household already has this externalId. */
export async function externalIdTaken(
  trx: Kysely<Database>,
  householdId: string,
  externalId: string,
  exceptMemberId?: string,
): Promise<boolean> {
  let query = trx
    .selectFrom('members')
    .select('id')
    .where('household_id', '=', householdId)
    .where('external_id', '=', externalId)
  if (exceptMemberId !== undefined) query = query.where('id', '<>', exceptMemberId)
  return (await query.executeTakeFirst()) !== undefined
}

/** Members in the household now (read under the household's lock, in a write). */
export async function memberCount(trx: Kysely<Database>, householdId: string): Promise<number> {
  const row = await trx.selectFrom('households').select('member_count').where('id', '=', householdId).executeTakeFirst()
  return row?.member_count ?? 0
}

/** Adds a member after the household's others; returns its id. */
export async function insertMember(trx: Kysely<Database>, householdId: string, fields: MemberFields): Promise<string> {
  const row = await trx
    .insertInto('members')
    .values({
      household_id: householdId,
      name: fields.name,
      role: fields.role,
      birth_date: fields.birthDate,
      death_date: fields.deathDate,
      email: fields.email,
      external_id: fields.externalId,
      position: sql<number>`coalesce((SELECT max(position) + 1 FROM members WHERE household_id = ${householdId}), 0)`,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateMember(trx: Kysely<Database>, memberId: string, fields: MemberFields): Promise<void> {
  await trx
    .updateTable('members')
    .set({
      name: fields.name,
      role: fields.role,
      birth_date: fields.birthDate,
      death_date: fields.deathDate,
      email: fields.email,
      external_id: fields.externalId,
    })
    .where('id', '=', memberId)
    .execute()
}

/** Deletes a member; its kinships (both the ones it owns and its children's links to it) go with it. */
export async function deleteMember(trx: Kysely<Database>, householdId: string, memberId: string): Promise<boolean> {
  const deleted = await trx
    .deleteFrom('members')
    .where('household_id', '=', householdId)
    .where('id', '=', memberId)
    .returning('id')
    .executeTakeFirst()
  return deleted !== undefined
}

export interface KinshipRefusal {
  ok: false
  code: 'relationship_member_unknown' | 'relationship_conflict' | 'relationship_cycle'
  message: string
  /** The other member of the refused relationship; absent when parent links as a whole make a cycle. */
  memberId?: string
}

/**
 * Replaces the kinships the member owns (see the top of this file) with `kinships`
 * (already free of self-references and repeats), then checks the household's parent links for a
 * cycle. A refusal leaves rows written: the caller must roll back (throw).
 */
export async function replaceKinships(
  trx: Kysely<Database>,
  householdId: string,
  memberId: string,
  kinships: readonly KinshipEntry[],
): Promise<{ ok: true } | KinshipRefusal> {
  const others = kinships.map((r) => r.memberId)
  if (others.length > 0) {
    const known = new Set(
      (
        await trx
          .selectFrom('members')
          .select('id')
          .where('household_id', '=', householdId)
          .where('id', 'in', others)
          .execute()
      ).map((row) => row.id),
    )
    const unknown = others.find((id) => !known.has(id))
    if (unknown !== undefined) {
      return {
        ok: false,
        code: 'relationship_member_unknown',
        memberId: unknown,
        message: `memberId ${unknown} is not a member of this household.`,
      }
    }
  }

  await trx
    .deleteFrom('member_relationships')
    .where('household_id', '=', householdId)
    .where((eb) =>
      eb.or([
        eb('to_member_id', '=', memberId),
        eb.and([eb('from_member_id', '=', memberId), eb('type', '<>', 'parent')]),
      ]),
    )
    .execute()
  if (kinships.length === 0) return { ok: true }

  // What is left between this member and another is a link to one of its children.
  const children = new Set(
    (
      await trx
        .selectFrom('member_relationships')
        .select('to_member_id')
        .where('from_member_id', '=', memberId)
        .where('to_member_id', 'in', others)
        .execute()
    ).map((row) => row.to_member_id),
  )
  for (const kinship of kinships) {
    if (!children.has(kinship.memberId)) continue
    if (kinship.type === 'parent') {
      return {
        ok: false,
        code: 'relationship_cycle',
        memberId: kinship.memberId,
        message: `Member ${kinship.memberId} is this member's child, so cannot also be their parent.`,
      }
    }
    return {
      ok: false,
      code: 'relationship_conflict',
      memberId: kinship.memberId,
      message: `Member ${kinship.memberId} is this member's child; two members have at most one relationship (change the child's parent link first).`,
    }
  }

  await trx
    .insertInto('member_relationships')
    .values(
      kinships.map((r) => {
        const details = { type: r.type, parent_kind: r.parentKind, since: r.since, until: r.until }
        if (r.type === 'parent')
          return { household_id: householdId, from_member_id: r.memberId, to_member_id: memberId, ...details }
        const [from, to] = r.memberId < memberId ? [r.memberId, memberId] : [memberId, r.memberId]
        return { household_id: householdId, from_member_id: from, to_member_id: to, ...details }
      }),
    )
    .execute()

  if (kinships.some((r) => r.type === 'parent') && (await hasAncestryCycle(trx, householdId))) {
    return {
      ok: false,
      code: 'relationship_cycle',
      message: 'These parent links would make someone their own ancestor.',
    }
  }
  return { ok: true }
}

/** Whether the household's parent links form a cycle: Kahn's algorithm, without recursion. */
async function hasAncestryCycle(trx: Kysely<Database>, householdId: string): Promise<boolean> {
  const edges = await trx
    .selectFrom('member_relationships')
    .select(['from_member_id', 'to_member_id'])
    .where('household_id', '=', householdId)
    .where('type', '=', 'parent')
    .execute()
  return hasCycle(edges.map((edge) => [edge.from_member_id, edge.to_member_id]))
}

/** Whether a directed graph given by its edges has a cycle. */
export function hasCycle(edges: readonly (readonly [string, string])[]): boolean {
  const children = new Map<string, string[]>()
  const incoming = new Map<string, number>()
  for (const [from, to] of edges) {
    const list = children.get(from)
    if (list) list.push(to)
    else children.set(from, [to])
    incoming.set(to, (incoming.get(to) ?? 0) + 1)
    if (!incoming.has(from)) incoming.set(from, 0)
  }
  const ready = [...incoming].filter(([, count]) => count === 0).map(([node]) => node)
  let removed = 0
  while (ready.length > 0) {
    const node = ready.pop()!
    removed++
    for (const child of children.get(node) ?? []) {
      const left = (incoming.get(child) ?? 0) - 1
      incoming.set(child, left)
      if (left === 0) ready.push(child)
    }
  }
  return removed < incoming.size
}

/** The members who share a kinship with `memberId`, either way round. */
export async function kinIds(trx: Kysely<Database>, householdId: string, memberId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('member_relationships')
    .select(sql<string>`CASE WHEN from_member_id = ${memberId} THEN to_member_id ELSE from_member_id END`.as('id'))
    .where('household_id', '=', householdId)
    .where((eb) => eb.or([eb('from_member_id', '=', memberId), eb('to_member_id', '=', memberId)]))
    .execute()
  return rows.map((row) => row.id)
}

/** These members of the household as JSON texts (Member), by id; ids that are not members are left out. */
export async function readMembersJsonByIds(
  trx: Kysely<Database>,
  householdId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const result = await sql<{ id: string; body: string }>`
    SELECT m.id, ${memberJson('m')}::text AS body FROM members m
    WHERE m.household_id = ${householdId} AND m.id = ANY(${[...ids]}::uuid[])
  `.execute(trx)
  return new Map(result.rows.map((row) => [row.id, row.body]))
}
