// Resolves an Authorization header to an API-key principal, or says precisely why not.
// Keys are taken only from the Authorization header: never from cookies or the query string.
import type { ResolvedApiKey } from '../store/api-keys.ts'
import { hashApiKey, isWellFormedApiKey } from './api-keys.ts'
import type { Principal } from './principal.ts'

export type BearerFailure = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired'
export type BearerResult = { ok: true; principal: Principal } | { ok: false; failure: BearerFailure }

/** Finds a key by its hash: the database, or the process's cache of it (api-key-cache.ts). */
export type ApiKeyLookup = (hash: string) => Promise<ResolvedApiKey | undefined>

export async function resolveBearer(
  findKey: ApiKeyLookup,
  authorization: string | undefined,
  now = new Date(),
): Promise<BearerResult> {
  if (authorization === undefined || authorization.trim() === '') return { ok: false, failure: 'missing' }
  const match = /^Bearer +(\S+) *$/i.exec(authorization)
  const token = match?.[1]
  if (token === undefined || !isWellFormedApiKey(token)) return { ok: false, failure: 'malformed' }
  const key = await findKey(hashApiKey(token))
  if (!key) return { ok: false, failure: 'unknown' }
  if (key.revokedAt) return { ok: false, failure: 'revoked' }
  if (key.expiresAt && key.expiresAt <= now) return { ok: false, failure: 'expired' }
  return {
    ok: true,
    principal: {
      kind: 'apiKey',
      id: key.id,
      orgId: key.orgId,
      permissions: key.permissions,
      rateLimits: key.rateLimits,
    },
  }
}
