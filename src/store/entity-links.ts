// The links of a household's estate (who holds what): from a member or an entity to an entity of the
// same household. Plain queries; the rules are src/households/entity-links.ts's. The writes and the
// checks that read other links (sums of shares, duplicates, ownership reachability) run inside
// writeHousehold, with the household's row lock held, so no two writes to one household interleave.
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { BeneficiaryType, EntityKind, LinkType } from '../domain/estate-vocabulary.ts'
import { OWNING_LINK_TYPES } from '../domain/estate-vocabulary.ts'
import type { Link } from '../schemas/entity-link.ts'

/** A link as stored: exactly one of fromMemberId and fromEntityId is set. */
export interface LinkRow {
  fromMemberId: string | null
  fromEntityId: string | null
  toEntityId: string
  type: LinkType
  share: number | null
  beneficiaryType: BeneficiaryType | null
}

const OWNING = [...OWNING_LINK_TYPES]

function linkQuery(db: Kysely<Database>) {
  return db
    .selectFrom('entity_links as l')
    .select([
      'l.id',
      'l.from_member_id',
      'l.from_entity_id',
      'l.to_entity_id',
      'l.type',
      'l.share',
      'l.beneficiary_type',
      'l.created_at',
    ])
}

/** A link row as selected (or returned by an INSERT: an import's batch builds its events' links from them). */
export interface LinkSelection {
  id: string
  from_member_id: string | null
  from_entity_id: string | null
  to_entity_id: string
  type: LinkType
  share: number | null
  beneficiary_type: BeneficiaryType | null
  created_at: Date
}

/** The API's Link of a row: the one shape of the links list, the chart and household.replaced. */
export function linkOf(row: LinkSelection): Link {
  return {
    id: row.id,
    from: row.from_member_id ?? row.from_entity_id ?? '',
    fromType: row.from_member_id === null ? 'entity' : 'member',
    to: row.to_entity_id,
    type: row.type,
    share: row.share,
    beneficiaryType: row.beneficiary_type,
    createdAt: row.created_at.toISOString(),
  }
}

/** Every link of the household, oldest first, in the API's shape (the chart reads them so too). */
export async function listLinks(db: Kysely<Database>, householdId: string): Promise<Link[]> {
  const rows = await linkQuery(db).where('l.household_id', '=', householdId).orderBy('l.seq').execute()
  return rows.map(linkOf)
}

export interface LinksRead {
  version: number
  links: Link[]
}

/**
 * The household's links (only those to or from `entityId` when given) with its version, in one
 * statement so that the list and its ETag agree; undefined when the org has no such household, or
 * when `entityId` names no entity of it.
 */
export async function readLinks(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
  entityId?: string,
): Promise<LinksRead | undefined> {
  const rows = await db
    .selectFrom('households as h')
    .leftJoin('entity_links as l', (join) => {
      const own = join.onRef('l.household_id', '=', 'h.id')
      return entityId === undefined
        ? own
        : own.on((eb) => eb.or([eb('l.to_entity_id', '=', entityId), eb('l.from_entity_id', '=', entityId)]))
    })
    .select([
      'h.version',
      'l.id',
      'l.from_member_id',
      'l.from_entity_id',
      'l.to_entity_id',
      'l.type',
      'l.share',
      'l.beneficiary_type',
      'l.created_at',
    ])
    .$if(entityId !== undefined, (query) =>
      query.select(
        sql<boolean>`exists (SELECT 1 FROM entities e WHERE e.household_id = h.id AND e.id = ${entityId ?? null})`.as(
          'entity_found',
        ),
      ),
    )
    .where('h.org_id', '=', orgId)
    .where('h.id', '=', householdId)
    .orderBy('l.seq')
    .execute()
  const first = rows[0]
  if (!first) return undefined
  if (entityId !== undefined && !(first as { entity_found?: boolean }).entity_found) return undefined
  const links: Link[] = []
  for (const row of rows) {
    if (row.id === null || row.to_entity_id === null || row.type === null || row.created_at === null) continue
    links.push(
      linkOf({ ...row, id: row.id, to_entity_id: row.to_entity_id, type: row.type, created_at: row.created_at }),
    )
  }
  return { version: first.version, links }
}

/** One link of the household, or undefined. */
export async function readLink(db: Kysely<Database>, householdId: string, linkId: string): Promise<Link | undefined> {
  const row = await linkQuery(db)
    .where('l.household_id', '=', householdId)
    .where('l.id', '=', linkId)
    .executeTakeFirst()
  return row && linkOf(row)
}

/** One link of the household with its version, or undefined when the org has no such household or link. */
export async function readLinkWithVersion(
  db: Kysely<Database>,
  orgId: string,
  householdId: string,
  linkId: string,
): Promise<{ version: number; link: Link } | undefined> {
  const row = await linkQuery(db)
    .innerJoin('households as h', 'h.id', 'l.household_id')
    .select('h.version')
    .where('h.org_id', '=', orgId)
    .where('h.id', '=', householdId)
    .where('l.id', '=', linkId)
    .executeTakeFirst()
  return row && { version: row.version, link: linkOf(row) }
}

/** A stored link's row, or undefined when the household has no link with this id. */
export async function readLinkRow(
  db: Kysely<Database>,
  householdId: string,
  linkId: string,
): Promise<(LinkRow & { id: string }) | undefined> {
  const row = await linkQuery(db)
    .where('l.household_id', '=', householdId)
    .where('l.id', '=', linkId)
    .executeTakeFirst()
  return (
    row && {
      id: row.id,
      fromMemberId: row.from_member_id,
      fromEntityId: row.from_entity_id,
      toEntityId: row.to_entity_id,
      type: row.type,
      share: row.share,
      beneficiaryType: row.beneficiary_type,
    }
  )
}

export async function insertLink(db: Kysely<Database>, householdId: string, link: LinkRow): Promise<string> {
  const row = await db
    .insertInto('entity_links')
    .values({
      household_id: householdId,
      from_member_id: link.fromMemberId,
      from_entity_id: link.fromEntityId,
      to_entity_id: link.toEntityId,
      type: link.type,
      share: link.share,
      beneficiary_type: link.beneficiaryType,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function updateLinkShare(
  db: Kysely<Database>,
  linkId: string,
  values: { share: number | null; beneficiaryType: BeneficiaryType | null },
): Promise<void> {
  await db
    .updateTable('entity_links')
    .set({ share: values.share, beneficiary_type: values.beneficiaryType })
    .where('id', '=', linkId)
    .execute()
}

export async function deleteLink(db: Kysely<Database>, householdId: string, linkId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('entity_links')
    .where('household_id', '=', householdId)
    .where('id', '=', linkId)
    .returning('id')
    .executeTakeFirst()
  return deleted !== undefined
}

export async function linkCount(db: Kysely<Database>, householdId: string): Promise<number> {
  const row = await db
    .selectFrom('entity_links')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('household_id', '=', householdId)
    .executeTakeFirstOrThrow()
  return row.count
}

/** What an id names, seen from one household: its member, its entity, something of another household of the same organization, or nothing. */
export type LinkEnd =
  { is: 'member' } | { is: 'entity'; kind: EntityKind } | { is: 'otherHousehold' } | { is: 'nothing' }

export async function resolveLinkEnd(db: Kysely<Database>, householdId: string, id: string): Promise<LinkEnd> {
  const result = await sql<{ household_id: string; kind: EntityKind | null }>`
    SELECT m.household_id, NULL::text AS kind FROM members m JOIN households h ON h.id = m.household_id
    WHERE m.id = ${id} AND h.org_id = (SELECT org_id FROM households WHERE id = ${householdId})
    UNION ALL
    SELECT e.household_id, e.kind FROM entities e JOIN households h ON h.id = e.household_id
    WHERE e.id = ${id} AND h.org_id = (SELECT org_id FROM households WHERE id = ${householdId})
  `.execute(db)
  const row = result.rows[0]
  if (!row) return { is: 'nothing' }
  if (row.household_id !== householdId) return { is: 'otherHousehold' }
  return row.kind === null ? { is: 'member' } : { is: 'entity', kind: row.kind }
}

/** The types of the links to an entity and of those from it, each type once: what its kind must keep fitting. */
export async function linkTypesOf(
  db: Kysely<Database>,
  entityId: string,
): Promise<{ to: LinkType[]; from: LinkType[] }> {
  const rows = await db
    .selectFrom('entity_links')
    .select(['type', sql<boolean>`to_entity_id = ${entityId}`.as('incoming')])
    .where((eb) => eb.or([eb('to_entity_id', '=', entityId), eb('from_entity_id', '=', entityId)]))
    .distinct()
    .orderBy('type')
    .execute()
  return {
    to: rows.filter((row) => row.incoming).map((row) => row.type),
    from: rows.filter((row) => !row.incoming).map((row) => row.type),
  }
}

/** Whether a link of this type from this member or entity to this entity already exists. */
export async function linkExists(
  db: Kysely<Database>,
  householdId: string,
  link: Pick<LinkRow, 'fromMemberId' | 'fromEntityId' | 'toEntityId' | 'type'>,
): Promise<boolean> {
  const row = await db
    .selectFrom('entity_links')
    .select('id')
    .where('household_id', '=', householdId)
    .where('to_entity_id', '=', link.toEntityId)
    .where('type', '=', link.type)
    .where((eb) =>
      link.fromMemberId === null
        ? eb('from_entity_id', '=', link.fromEntityId)
        : eb('from_member_id', '=', link.fromMemberId),
    )
    .executeTakeFirst()
  return row !== undefined
}

/** The entity's shares as stored: its owners' and partners', and its primary beneficiaries', in ten-thousandths of a percent, leaving out one link (the one being changed). */
export async function sharesOf(
  db: Kysely<Database>,
  entityId: string,
  exceptLinkId?: string,
): Promise<{ owners: number; primaryBeneficiaries: number }> {
  const row = await db
    .selectFrom('entity_links')
    .select([
      sql<number>`coalesce(sum(share * 10000) FILTER (WHERE type IN (${sql.join(OWNING)})), 0)`.as('owners'),
      sql<number>`coalesce(sum(share * 10000) FILTER (WHERE type = 'beneficiary' AND beneficiary_type = 'primary'), 0)`.as(
        'primary_beneficiaries',
      ),
    ])
    .where('to_entity_id', '=', entityId)
    .$if(exceptLinkId !== undefined, (query) => query.where('id', '<>', exceptLinkId ?? ''))
    .executeTakeFirstOrThrow()
  return { owners: Math.round(row.owners), primaryBeneficiaries: Math.round(row.primary_beneficiaries) }
}

/**
 * Whether `ownerId` is reachable from `ownedId` through owning links (owner, generalPartner,
 * limitedPartner) between the household's entities, i.e. whether `ownedId` already owns `ownerId`
 * directly or through a chain, so that a link ownerId → ownedId would close a cycle. UNION (not
 * UNION ALL) stops the walk at entities already seen.
 */
export async function ownsThroughChain(
  db: Kysely<Database>,
  householdId: string,
  ownedId: string,
  ownerId: string,
): Promise<boolean> {
  const result = await sql<{ found: number }>`
    WITH RECURSIVE reach(id) AS (
      SELECT to_entity_id FROM entity_links
      WHERE household_id = ${householdId} AND from_entity_id = ${ownedId} AND type IN (${sql.join(OWNING)})
      UNION
      SELECT l.to_entity_id FROM entity_links l JOIN reach r ON l.from_entity_id = r.id
      WHERE l.household_id = ${householdId} AND l.type IN (${sql.join(OWNING)})
    )
    SELECT 1 AS found FROM reach WHERE id = ${ownerId} LIMIT 1
  `.execute(db)
  return result.rows.length > 0
}

/** The ids of the links from or to a member or an entity, oldest first (those its removal takes with it). */
export async function linkIdsOf(db: Kysely<Database>, householdId: string, endId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('entity_links')
    .select('id')
    .where('household_id', '=', householdId)
    .where((eb) =>
      eb.or([eb('from_member_id', '=', endId), eb('from_entity_id', '=', endId), eb('to_entity_id', '=', endId)]),
    )
    .orderBy('seq')
    .execute()
  return rows.map((row) => row.id)
}
