// Sign-in with OpenID Connect: the authorization code flow with PKCE (openid-client), against any
// standard provider, or the development one. The provider proves who someone is; what they may do
// is decided here, from the invitations (users) of each organization.
//
// Each sign-in's state, nonce and PKCE verifier are made here and kept server-side for
// ATTEMPT_LIFETIME_MS, keyed by the state's hash; the browser holds the state in a cookie scoped to
// /auth. The callback must bring that same state back in both the URL and the cookie (so a sign-in
// started in one browser cannot be finished in another), and it takes the attempt once, so a state
// and its code cannot be replayed. openid-client then checks the ID token: signature, issuer,
// audience, expiry and nonce.
import { createHash } from 'node:crypto'
import * as client from 'openid-client'
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { insertSignInAttempt, takeSignInAttempt } from '../store/sign-in-attempts.ts'
import { signInIdentity, type Identity, type OrganizationChoice, type SignedInUser } from '../store/user-identities.ts'
import { clientKey } from '../net/client-key.ts'

export interface OidcSettings {
  issuer: string
  clientId: string
  clientSecret: string
}

export const SIGN_IN_STATE_COOKIE = 'hearth-sign-in'
export const CALLBACK_PATH = '/auth/callback'
export const ATTEMPT_LIFETIME_MS = 10 * 60_000
const SCOPE = 'openid email profile'

export type SignInFailure =
  | { reason: 'provider_unreachable'; detail: string }
  | { reason: 'provider_error'; detail: string }
  | { reason: 'state_mismatch' }
  | { reason: 'attempt_unknown' }
  | { reason: 'token_rejected'; detail: string }
  | { reason: 'not_invited'; email: string | undefined }

/** A verified identity: signed in to its one organization, or to choose among several (nothing bound yet). */
export type SignInResult =
  | { ok: true; kind: 'signed_in'; user: SignedInUser; identity: Identity; returnTo: string }
  | { ok: true; kind: 'choose'; choices: OrganizationChoice[]; identity: Identity; returnTo: string }
  | { ok: false; failure: SignInFailure }

export class OidcSignIn {
  private configuration: Promise<client.Configuration> | undefined

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: OidcSettings,
    /** The app's public URL: the callback is CALLBACK_PATH under it. */
    private readonly publicUrl: string,
  ) {}

  get issuer(): string {
    return this.settings.issuer
  }

  /** Discovery once, and again after a failure (the provider may come back). */
  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        undefined,
        client.ClientSecretBasic(this.settings.clientSecret),
        // The ID token's signature is checked against the provider's JWKS too (openid-client skips
        // that by default for tokens from the token endpoint, trusting TLS alone). Plain http only
        // for a provider on this machine (the development one).
        {
          execute: isLoopbackHttp(this.settings.issuer)
            ? // openid-client marks it deprecated only so that it stands out; the loopback provider needs it.
              // eslint-disable-next-line @typescript-eslint/no-deprecated
              [client.allowInsecureRequests, client.enableNonRepudiationChecks]
            : [client.enableNonRepudiationChecks],
        },
      )
      .catch((error: unknown) => {
        this.configuration = undefined
        throw error
      })
    return this.configuration
  }

  /**
   * Starts a sign-in: answers where to send the browser and the state for its cookie. The attempt
   * is stored under the client's address, which keeps only its newest few (sign-in-attempts.ts);
   * an IPv6 client's whole /64 counts as one address (clientKey), or it could keep 2^64 times as many.
   */
  async start(
    returnTo: string,
    clientAddress: string,
    now = new Date(),
  ): Promise<{ ok: true; redirectTo: string; state: string } | { ok: false; failure: SignInFailure }> {
    let configuration: client.Configuration
    try {
      configuration = await this.discover()
    } catch (error) {
      return { ok: false, failure: { reason: 'provider_unreachable', detail: (error as Error).message } }
    }
    const state = client.randomState()
    const nonce = client.randomNonce()
    const codeVerifier = client.randomPKCECodeVerifier()
    await insertSignInAttempt(
      this.db,
      hashState(state),
      { codeVerifier, nonce, returnTo, clientAddress: clientKey(clientAddress) },
      now,
      new Date(now.getTime() + ATTEMPT_LIFETIME_MS),
    )
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl(),
      scope: SCOPE,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    })
    return { ok: true, redirectTo: url.href, state }
  }

  /** Finishes a sign-in from the callback URL the browser arrived at and the state in its cookie. */
  async finish(callbackUrl: URL, cookieState: string | undefined, now = new Date()): Promise<SignInResult> {
    const state = callbackUrl.searchParams.get('state')
    if (!state || !cookieState || state !== cookieState) return { ok: false, failure: { reason: 'state_mismatch' } }
    // Taken before anything else: whatever happens next, this state (and its code) is spent.
    const attempt = await takeSignInAttempt(this.db, hashState(state), now)
    if (!attempt) return { ok: false, failure: { reason: 'attempt_unknown' } }
    const providerError = callbackUrl.searchParams.get('error')
    if (providerError) {
      const description = callbackUrl.searchParams.get('error_description')
      return {
        ok: false,
        failure: { reason: 'provider_error', detail: description ? `${providerError}: ${description}` : providerError },
      }
    }

    let configuration: client.Configuration
    try {
      configuration = await this.discover()
    } catch (error) {
      return { ok: false, failure: { reason: 'provider_unreachable', detail: (error as Error).message } }
    }
    let claims: client.IDToken
    try {
      // Only the parameters the provider sent back count, read against our own callback URL.
      const current = new URL(this.callbackUrl())
      current.search = callbackUrl.search
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      })
      const idToken = tokens.claims()
      if (!idToken) throw new Error('the provider sent no ID token')
      claims = idToken
    } catch (error) {
      return { ok: false, failure: { reason: 'token_rejected', detail: (error as Error).message } }
    }

    const email = typeof claims.email === 'string' ? claims.email : undefined
    const identity = {
      issuer: claims.iss,
      subject: claims.sub,
      verifiedEmail: email !== undefined && claims.email_verified === true ? email : undefined,
    }
    const outcome = await signInIdentity(this.db, identity, now)
    switch (outcome.kind) {
      case 'not_invited':
        // Only a verified address is named: an unverified one may well have been invited, but cannot bind.
        return { ok: false, failure: { reason: 'not_invited', email: identity.verifiedEmail } }
      case 'choose':
        return { ok: true, kind: 'choose', choices: outcome.choices, identity, returnTo: attempt.returnTo }
      case 'signed_in':
        return { ok: true, kind: 'signed_in', user: outcome.user, identity, returnTo: attempt.returnTo }
    }
  }

  callbackUrl(): string {
    return new URL(CALLBACK_PATH, this.publicUrl).href
  }
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex')
}

function isLoopbackHttp(issuer: string): boolean {
  const url = new URL(issuer)
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
}
