// Issues a new API key: generates it, stores its hash, and returns the key — the only time it
// exists outside the caller's hands.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { insertApiKey, type ApiKeyRecord } from '../store/api-keys.ts'
import { generateApiKey } from './api-keys.ts'

export interface KeyRequest {
  orgId: string
  name: string
  permissions: string[]
  expiresAt: Date | null
}

export async function issueApiKey(
  db: Kysely<Database>,
  request: KeyRequest,
): Promise<{ record: ApiKeyRecord; key: string }> {
  const generated = generateApiKey()
  const record = await insertApiKey(db, { ...request, prefix: generated.prefix, hash: generated.hash })
  return { record, key: generated.key }
}
