// Chart token checks (DESIGN §4 "Chart tokens", "Chart protocol v1"): cheap checks on the unverified
// claims first, so a token that cannot pass never costs a metered key fetch; then the signature,
// audience and expiry against the embed origin's JWKS, fetched once per token id (that fetch is the
// render metering, and the only request the chart makes).
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose'
import { isRecord, type ErrorCode } from './protocol.ts'

const CLOCK_TOLERANCE_SECONDS = 30
/** Token ids whose key set is kept; a page sees one or a few tokens in its life. */
const KEPT_TOKEN_IDS = 16
/** Far above a real token (a few hundred characters); refuses junk before decoding it. */
const MAX_TOKEN_LENGTH = 8192

export type TokenCheck = { ok: true; jti: string } | { ok: false; code: ErrorCode; message: string }

type KeySet = ReturnType<typeof createLocalJWKSet>

export interface TokenVerifierOptions {
  /** The embed origin: the token's `aud`. */
  audience: string
  /** The JWKS for a render of this token id. */
  fetchKeys: (jti: string) => Promise<unknown>
}

export interface TokenVerifier {
  /** Checks `token` for a render message that came from `eventOrigin`. */
  verify(token: unknown, eventOrigin: string): Promise<TokenCheck>
}

export function createTokenVerifier({ audience, fetchKeys }: TokenVerifierOptions): TokenVerifier {
  const keysByTokenId = new Map<string, KeySet>()

  async function keysFor(jti: string): Promise<KeySet | null> {
    const kept = keysByTokenId.get(jti)
    if (kept) return kept
    try {
      const keys = createLocalJWKSet((await fetchKeys(jti)) as JSONWebKeySet)
      if (keysByTokenId.size >= KEPT_TOKEN_IDS) {
        const oldest = keysByTokenId.keys().next()
        if (!oldest.done) keysByTokenId.delete(oldest.value)
      }
      keysByTokenId.set(jti, keys)
      return keys
    } catch {
      // Not kept: a later render with the same token tries again.
      return null
    }
  }

  return {
    async verify(token, eventOrigin) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH)
        return refuse('token_invalid', 'The token is not a chart token (a signed JWT string).')
      let claims: Record<string, unknown>
      try {
        claims = decodeJwt(token)
      } catch {
        return refuse('token_invalid', 'The token is not a chart token (a signed JWT string).')
      }
      const { jti, exp, frameOrigin } = claims
      if (typeof jti !== 'string' || jti === '' || typeof exp !== 'number' || typeof frameOrigin !== 'string') {
        return refuse('token_invalid', 'The token lacks the jti, exp or frameOrigin claim of a chart token.')
      }
      if (exp <= Date.now() / 1000 - CLOCK_TOLERANCE_SECONDS)
        return refuse('token_expired', 'The token has expired; mint a new one.')
      if (frameOrigin !== eventOrigin) return originMismatch(frameOrigin, eventOrigin)

      const keys = await keysFor(jti)
      if (!keys)
        return refuse(
          'token_invalid',
          'The chart’s signing keys could not be fetched, so the token could not be checked.',
        )
      let verified: Record<string, unknown>
      try {
        verified = (
          await jwtVerify(token, keys, { algorithms: ['ES256'], audience, clockTolerance: CLOCK_TOLERANCE_SECONDS })
        ).payload
      } catch (error) {
        if (isRecord(error) && error.code === 'ERR_JWT_EXPIRED')
          return refuse('token_expired', 'The token has expired; mint a new one.')
        return refuse('token_invalid', 'The token’s signature, key or audience does not check out.')
      }
      if (verified.frameOrigin !== eventOrigin) return originMismatch(String(verified.frameOrigin), eventOrigin)
      return { ok: true, jti }
    },
  }
}

/** The embed origin's keys, fetched for a render of token `jti` (same origin, no credentials, no cache). */
export async function fetchChartKeys(jti: string): Promise<unknown> {
  const response = await fetch(`/.well-known/jwks.json?render=${encodeURIComponent(jti)}`, {
    cache: 'no-store',
    credentials: 'omit',
    redirect: 'error',
    referrerPolicy: 'no-referrer',
  })
  if (!response.ok) throw new Error(`the key set answered ${response.status}`)
  return response.json()
}

/**
 * Names both origins, so that whoever embeds the chart sees at once which one to change (the
 * token's claim is no secret from the page: it holds the token).
 */
function originMismatch(tokenOrigin: string, senderOrigin: string): TokenCheck {
  return refuse(
    'origin_mismatch',
    `The token was minted for the frame origin ${tokenOrigin}, but the render message came from ${senderOrigin}: mint the token with frameOrigin ${senderOrigin}, or render from ${tokenOrigin}.`,
  )
}

function refuse(code: ErrorCode, message: string): TokenCheck {
  return { ok: false, code, message }
}
