// Chart tokens: short-lived ES256 JWTs that the embedded chart verifies offline against the JWKS
// published on the embed origin. ES256 because browsers verify it with WebCrypto everywhere.
// Claims: iss (the API), sub (the org), aud (the embed origin), frameOrigin, jti, iat, exp.
import { randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { activeSigningKey, insertSigningKey, publicSigningKeys } from '../store/signing-keys.ts'

const CHART_TOKEN_ALGORITHM = 'ES256'
const CHART_TOKEN_LIFETIME_SECONDS = 10 * 60

export interface ChartSigner {
  kid: string
  privateKey: CryptoKey | Uint8Array
}

/** The signing key shared by every instance; made on first use. */
export async function loadChartSigner(db: Kysely<Database>): Promise<ChartSigner> {
  let stored = await activeSigningKey(db)
  if (!stored) {
    const { publicKey, privateKey } = await generateKeyPair(CHART_TOKEN_ALGORITHM, { extractable: true })
    const kid = randomUUID()
    await insertSigningKey(db, {
      kid,
      algorithm: CHART_TOKEN_ALGORITHM,
      publicJwk: { ...(await exportJWK(publicKey)) },
      privateJwk: { ...(await exportJWK(privateKey)) },
    })
    // Another instance may have made one at the same moment: everyone takes the oldest.
    stored = await activeSigningKey(db)
    if (!stored) throw new Error('no signing key after creating one')
  }
  return { kid: stored.kid, privateKey: await importJWK(stored.privateJwk as JWK, stored.algorithm) }
}

export interface ChartTokenClaims {
  issuer: string
  audience: string
  orgId: string
  frameOrigin: string
}

export async function mintChartToken(
  signer: ChartSigner,
  claims: ChartTokenClaims,
  now = new Date(),
): Promise<{ token: string; jti: string; expiresAt: Date }> {
  const jti = randomUUID()
  const issuedAt = Math.floor(now.getTime() / 1000)
  const expiresAt = new Date((issuedAt + CHART_TOKEN_LIFETIME_SECONDS) * 1000)
  const token = await new SignJWT({ frameOrigin: claims.frameOrigin })
    .setProtectedHeader({ alg: CHART_TOKEN_ALGORITHM, kid: signer.kid, typ: 'JWT' })
    .setIssuer(claims.issuer)
    .setSubject(claims.orgId)
    .setAudience(claims.audience)
    .setJti(jti)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + CHART_TOKEN_LIFETIME_SECONDS)
    .sign(signer.privateKey)
  return { token, jti, expiresAt }
}

/** The JSON Web Key Set of every signing key's public half. */
export async function chartJwks(db: Kysely<Database>): Promise<{ keys: JWK[] }> {
  const keys = await publicSigningKeys(db)
  return {
    keys: keys.map((key) => ({ ...(key.publicJwk as JWK), kid: key.kid, alg: CHART_TOKEN_ALGORITHM, use: 'sig' })),
  }
}
