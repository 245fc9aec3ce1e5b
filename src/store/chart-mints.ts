import { sql, type Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface ChartMint {
  jti: string
  orgId: string
  /** Who minted: an API key, or a signed-in user of the web app. */
  actorType: 'apiKey' | 'user'
  /** The key's or the user's id. */
  actorId: string
  frameOrigin: string
}

/** A render can only follow a mint within the token's life; a little more for clock skew. */
const RENDER_WINDOW = '15 minutes'

/** Records a minted chart token for metering. */
export async function recordChartMint(db: Kysely<Database>, mint: ChartMint): Promise<void> {
  await db
    .insertInto('chart_mints')
    .values({
      jti: mint.jti,
      org_id: mint.orgId,
      actor_type: mint.actorType,
      key_id: mint.actorId,
      frame_origin: mint.frameOrigin,
    })
    .execute()
}

/**
 * Records that a chart received the token (the first time only: a token is one render session,
 * however many payloads the host sends with it). Unknown or stale token ids change nothing.
 */
export async function recordChartRender(db: Kysely<Database>, jti: string): Promise<boolean> {
  const result = await db
    .updateTable('chart_mints')
    .set({ rendered_at: sql<Date>`now()` })
    .where('jti', '=', jti)
    .where('rendered_at', 'is', null)
    .where('created_at', '>', sql<Date>`now() - ${RENDER_WINDOW}::interval`)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export interface ChartUsageRow {
  /** UTC day, YYYY-MM-DD. */
  day: string
  frameOrigin: string
  mints: number
  renders: number
}

/** Mints and renders per frame origin per UTC day, from `since` (a YYYY-MM-DD day, UTC) on. */
export async function chartUsage(db: Kysely<Database>, orgId: string, since: string): Promise<ChartUsageRow[]> {
  const result = await sql<ChartUsageRow>`
    WITH events AS (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, frame_origin, 1 AS mint, 0 AS render
        FROM chart_mints WHERE org_id = ${orgId} AND created_at >= ${since}::date AT TIME ZONE 'UTC'
      UNION ALL
      SELECT (rendered_at AT TIME ZONE 'UTC')::date, frame_origin, 0, 1
        FROM chart_mints
       WHERE org_id = ${orgId} AND rendered_at >= ${since}::date AT TIME ZONE 'UTC'
         -- a render follows its mint within minutes: this keeps the scan on (org_id, created_at)
         AND created_at >= (${since}::date - 1) AT TIME ZONE 'UTC'
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day, frame_origin AS "frameOrigin", sum(mint)::int AS mints, sum(render)::int AS renders
      FROM events GROUP BY day, frame_origin ORDER BY day, frame_origin
  `.execute(db)
  return result.rows
}
