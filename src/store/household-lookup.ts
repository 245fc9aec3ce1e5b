// Finding a household by the partner's own id (externalId, unique in an organization: migration
// 0015), with what a document write needs to know about it: its version, and the hash and version
// of the document that last wrote it whole.
import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface HouseholdByExternalId {
  id: string
  version: number
  documentHash: string | null
  documentVersion: number | null
}

export async function findHouseholdByExternalId(
  db: Kysely<Database>,
  orgId: string,
  externalId: string,
): Promise<HouseholdByExternalId | undefined> {
  const row = await db
    .selectFrom('households')
    .select(['id', 'version', 'document_hash', 'document_version'])
    .where('org_id', '=', orgId)
    .where('external_id', '=', externalId)
    .executeTakeFirst()
  return (
    row && {
      id: row.id,
      version: row.version,
      documentHash: row.document_hash,
      documentVersion: row.document_version,
    }
  )
}

/** The households of the organization that have these externalIds, by externalId (an import's batch looks its lines up at once). */
export async function findHouseholdsByExternalIds(
  db: Kysely<Database>,
  orgId: string,
  externalIds: readonly string[],
): Promise<Map<string, HouseholdByExternalId>> {
  if (externalIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('households')
    .select(['id', 'external_id', 'version', 'document_hash', 'document_version'])
    .where('org_id', '=', orgId)
    .where('external_id', 'in', externalIds)
    .execute()
  return new Map(
    rows.map((row) => [
      row.external_id ?? '',
      { id: row.id, version: row.version, documentHash: row.document_hash, documentVersion: row.document_version },
    ]),
  )
}

/** Records that `hash` is the document that wrote the household whole, giving it `version` (in that write's transaction). */
export async function recordDocument(
  trx: Kysely<Database>,
  householdId: string,
  hash: string,
  version: number,
): Promise<void> {
  await trx
    .updateTable('households')
    .set({ document_hash: hash, document_version: version })
    .where('id', '=', householdId)
    .execute()
}
