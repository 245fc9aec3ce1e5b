import type { Kysely } from 'kysely'
import type { Database } from './tables.ts'

export interface ChartMint {
  jti: string
  orgId: string
  keyId: string
  frameOrigin: string
}

/** Records a minted chart token for metering. */
export async function recordChartMint(db: Kysely<Database>, mint: ChartMint): Promise<void> {
  await db.insertInto('chart_mints').values({ jti: mint.jti, org_id: mint.orgId, key_id: mint.keyId, frame_origin: mint.frameOrigin }).execute()
}
