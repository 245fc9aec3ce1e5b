// The imports and import_lines tables (migration 0015): an upload's lines stored as they stream
// in, claimed in small batches by the instances that process them, and each line's result.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'
import type { AuditActor } from './audit.ts'

export type LineStatus = 'pending' | 'created' | 'updated' | 'unchanged' | 'error'

/** A line as the upload stores it: its body, or (refused before it was stored: not UTF-8, too long) its error. */
export interface UploadedLine {
  line: number
  body: string | null
  /** The externalId the line names, as far as the upload reads it (the line's top-level string), if any. */
  externalId?: string | null
  error?: LineError
}

export interface LineError {
  code: string
  message: string
  field: string | null
}

export async function insertImport(db: Kysely<Database>, actor: AuditActor): Promise<string> {
  const row = await db
    .insertInto('imports')
    .values({ org_id: actor.orgId, actor_type: actor.kind, actor_id: actor.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Stores a batch of lines in one statement (arrays unnested: one round trip however many lines). */
export async function insertLines(db: Kysely<Database>, importId: string, lines: readonly UploadedLine[]) {
  if (lines.length === 0) return
  await sql`
    INSERT INTO import_lines (import_id, line, body, status, external_id, error_code, error_message, error_field)
    SELECT ${importId}::uuid, l.line, l.body, CASE WHEN l.code IS NULL THEN 'pending' ELSE 'error' END,
      l.external_id, l.code, l.message, l.field
    FROM unnest(${lines.map((l) => l.line)}::int[], ${lines.map((l) => l.body)}::text[],
      ${lines.map((l) => l.externalId ?? null)}::text[],
      ${lines.map((l) => l.error?.code ?? null)}::text[], ${lines.map((l) => l.error?.message ?? null)}::text[],
      ${lines.map((l) => l.error?.field ?? null)}::text[]) AS l(line, body, external_id, code, message, field)
  `.execute(db)
}

/**
 * The lines of this import already stored that name each of these externalIds (the first, when
 * several did: only a line that is no error holds one, import_lines_external_id).
 */
export async function linesNamingExternalIds(
  db: Kysely<Database>,
  importId: string,
  externalIds: readonly string[],
): Promise<Map<string, number>> {
  if (externalIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('import_lines')
    .select(['external_id', 'line'])
    .where('import_id', '=', importId)
    .where('external_id', 'in', [...externalIds])
    .where('status', '<>', 'error')
    .execute()
  return new Map(rows.map((r) => [r.external_id ?? '', r.line]))
}

/** The upload is complete: the lines are ready to be processed. */
export async function markReceived(db: Kysely<Database>, importId: string, totalLines: number): Promise<void> {
  await db
    .updateTable('imports')
    .set({ status: 'processing', total_lines: totalLines })
    .where('id', '=', importId)
    .execute()
}

/** An upload that failed part way: it and its lines are forgotten. */
export async function deleteImport(db: Kysely<Database>, importId: string): Promise<void> {
  await db.deleteFrom('imports').where('id', '=', importId).execute()
}

/** Uploads left 'receiving' by an instance that stopped mid-upload, after a grace: never processed, so deleted. */
export async function deleteAbandonedUploads(db: Kysely<Database>, before: Date): Promise<void> {
  await db.deleteFrom('imports').where('status', '=', 'receiving').where('created_at', '<', before).execute()
}

export interface ImportSummary {
  id: string
  status: 'receiving' | 'processing' | 'done'
  createdAt: string
  finishedAt: string | null
  lines: Record<LineStatus | 'total', number>
}

/** The organization's import with its counts by status; undefined for another organization's (or none). */
export async function readImport(
  db: Kysely<Database>,
  orgId: string,
  importId: string,
): Promise<ImportSummary | undefined> {
  const row = await db
    .selectFrom('imports')
    .select(['id', 'status', 'created_at', 'finished_at', 'total_lines'])
    .where('org_id', '=', orgId)
    .where('id', '=', importId)
    .executeTakeFirst()
  if (!row) return undefined
  const counts = await db
    .selectFrom('import_lines')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('import_id', '=', importId)
    .groupBy('status')
    .execute()
  const lines: ImportSummary['lines'] = {
    total: row.total_lines,
    pending: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    error: 0,
  }
  for (const count of counts) lines[count.status] = count.n
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    lines,
  }
}

export interface LineResult {
  line: number
  status: LineStatus
  externalId: string | null
  householdId: string | null
  error: LineError | null
}

/** Lines of an import after line `after`, in order, only those with `status` when given. */
export async function readLines(
  db: Kysely<Database>,
  importId: string,
  query: { status?: LineStatus | undefined; after: number; limit: number },
): Promise<LineResult[]> {
  let select = db
    .selectFrom('import_lines')
    .select(['line', 'status', 'external_id', 'household_id', 'error_code', 'error_message', 'error_field'])
    .where('import_id', '=', importId)
    .where('line', '>', query.after)
  if (query.status) select = select.where('status', '=', query.status)
  const rows = await select.orderBy('line').limit(query.limit).execute()
  return rows.map((r) => ({
    line: r.line,
    status: r.status,
    externalId: r.external_id,
    householdId: r.household_id,
    error: r.error_code === null ? null : { code: r.error_code, message: r.error_message ?? '', field: r.error_field },
  }))
}

export interface ClaimedLine {
  importId: string
  orgId: string
  actor: AuditActor
  line: number
  body: string
  /** The claim's token: the line's result is recorded only while the line is still under it (recordLines). */
  claim: string
}

/**
 * The lane recording a line's result no longer holds it: its lease ran out while it worked on it
 * (waiting on a household's lock, say), and another lane claimed it, or already recorded its
 * result. Thrown inside the household write's transaction, so that the write is rolled back
 * instead of applying the line a second time.
 */
export class LineClaimLost extends Error {
  constructor(
    readonly importId: string,
    readonly lines: readonly number[],
  ) {
    super(
      `Import ${importId}: line(s) ${lines.join(', ')} are no longer claimed by this lane (the lease ran out and another lane took them).`,
    )
    this.name = 'LineClaimLost'
  }
}

/** Arbitrary constant naming the import claims' advisory lock among others (migrate.ts has its own). */
const CLAIM_LOCK = 7_301_517

/**
 * Claims up to `limit` pending lines for `leaseMs`: lines no one claims, or whose claim ran out (its
 * instance stopped), in line order. The claims of all lanes and instances take turns on a
 * transaction-level advisory lock (a claim is one short statement, so a turn lasts milliseconds):
 * two lanes claiming at the same moment each skipped the other's locked rows as it went, and split
 * the next lines between them (one lane lines 1–5, the other 6–9), so that a file's two lines for
 * one household ran in two batches at once, in either order. Taking turns, each claim is the next
 * run of lines, and a household's lines within it apply in line order (import-batch.ts).
 */
export async function claimLines(db: Kysely<Database>, limit: number, leaseMs: number): Promise<ClaimedLine[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx)
    return claimNextLines(trx, limit, leaseMs)
  })
}

async function claimNextLines(db: Kysely<Database>, limit: number, leaseMs: number): Promise<ClaimedLine[]> {
  // A new token each claim, even of a line whose lease ran out: the lane that had it cannot record it any more.
  const claim = randomUUID()
  const result = await sql<{
    import_id: string
    line: number
    body: string | null
    org_id: string
    actor_type: 'apiKey' | 'user'
    actor_id: string
  }>`
    WITH claimable AS (
      SELECT l.import_id, l.line FROM import_lines l
      WHERE l.status = 'pending' AND (l.claimed_until IS NULL OR l.claimed_until < clock_timestamp())
        AND l.import_id IN (SELECT id FROM imports WHERE status = 'processing')
      ORDER BY l.import_id, l.line
      LIMIT ${limit}
      FOR UPDATE OF l SKIP LOCKED
    )
    UPDATE import_lines t SET claimed_until = clock_timestamp() + ${`${leaseMs} milliseconds`}::interval,
      claim_token = ${claim}::uuid
    FROM claimable c, imports i
    WHERE t.import_id = c.import_id AND t.line = c.line AND i.id = t.import_id
    RETURNING t.import_id, t.line, t.body, i.org_id, i.actor_type, i.actor_id
  `.execute(db)
  return result.rows
    .sort((a, b) => (a.import_id === b.import_id ? a.line - b.line : a.import_id < b.import_id ? -1 : 1))
    .map((r) => ({
      importId: r.import_id,
      orgId: r.org_id,
      actor: { kind: r.actor_type, id: r.actor_id, orgId: r.org_id },
      line: r.line,
      body: r.body ?? '',
      claim,
    }))
}

export interface LineOutcome {
  line: number
  status: Exclude<LineStatus, 'pending'>
  externalId: string | null
  householdId: string | null
  error?: LineError
}

/**
 * Records a claimed line's result (in the household write's own transaction, when it wrote one);
 * its body is no longer needed. Throws LineClaimLost when the line is no longer this claim's.
 */
export async function recordLine(
  db: Kysely<Database>,
  claimed: Pick<ClaimedLine, 'importId' | 'line' | 'claim'>,
  result: Omit<LineOutcome, 'line'>,
): Promise<number> {
  return recordLines(db, claimed.importId, claimed.claim, [{ line: claimed.line, ...result }])
}

/**
 * Records the results of many lines of one import, claimed together under `claim`, in one
 * statement (an import's batch records all of its lines in its own transaction), and answers how
 * many it recorded. Only a line still pending AND still under this claim is written: a line
 * recorded once keeps its result, and a line whose lease ran out and that another lane claimed
 * is that lane's. When any line was not recorded, it throws LineClaimLost, so that the caller's
 * transaction, and the households it wrote for those lines, is rolled back: the lines are then
 * applied once, by the lane that holds them.
 */
export async function recordLines(
  db: Kysely<Database>,
  importId: string,
  claim: string,
  results: readonly LineOutcome[],
): Promise<number> {
  if (results.length === 0) return 0
  const updated = await sql<{ line: number }>`
    UPDATE import_lines t SET status = r.status, external_id = r.external_id, household_id = r.household_id,
      error_code = r.code, error_message = r.message, error_field = r.field, body = NULL, claimed_until = NULL
    FROM unnest(${results.map((r) => r.line)}::int[], ${results.map((r) => r.status)}::text[],
      ${results.map((r) => r.externalId)}::text[], ${results.map((r) => r.householdId)}::uuid[],
      ${results.map((r) => r.error?.code ?? null)}::text[], ${results.map((r) => r.error?.message ?? null)}::text[],
      ${results.map((r) => r.error?.field ?? null)}::text[])
      AS r(line, status, external_id, household_id, code, message, field)
    WHERE t.import_id = ${importId} AND t.line = r.line AND t.status = 'pending' AND t.claim_token = ${claim}::uuid
    RETURNING t.line
  `.execute(db)
  if (updated.rows.length < results.length) {
    const recorded = new Set(updated.rows.map((r) => r.line))
    throw new LineClaimLost(
      importId,
      results.filter((r) => !recorded.has(r.line)).map((r) => r.line),
    )
  }
  return updated.rows.length
}

/** Marks done the processing imports of these ids that have no pending line left. */
export async function finishImports(db: Kysely<Database>, importIds: readonly string[]): Promise<void> {
  if (importIds.length === 0) return
  await sql`
    UPDATE imports i SET status = 'done', finished_at = clock_timestamp()
    WHERE i.id = ANY(${[...importIds]}::uuid[]) AND i.status = 'processing'
      AND NOT EXISTS (SELECT 1 FROM import_lines l WHERE l.import_id = i.id AND l.status = 'pending')
  `.execute(db)
}
