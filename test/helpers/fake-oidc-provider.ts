// A tiny OpenID provider for tests that need one to misbehave, which the development provider
// cannot be made to do. It stands outside Hearth as a real provider does: discovery document, JWKS,
// an authorization endpoint that sends the browser straight back (no sign-in page) with a code
// and the state, and a token endpoint (client_secret_basic, PKCE S256 checked, codes work once)
// that answers an ID token signed with its key.
//
// What the ID token says is set per test with `provider.identity` (who signs in) and
// `provider.tamper` (how the token lies: wrong nonce, another issuer, another audience, expired,
// or signed by a key that is not in the JWKS).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'

export type IdTokenTamper = 'nonce' | 'issuer' | 'audience' | 'expired' | 'signature'

export interface FakeIdentity {
  subject: string
  email?: string
  emailVerified?: boolean
  name?: string
}

export interface FakeOidcProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** Who the next authorizations sign in as. */
  identity: FakeIdentity
  /** How the next ID tokens lie; undefined: they are correct. */
  tamper: IdTokenTamper | undefined
  /** Token requests answered so far (to show a refused callback did or did not reach the provider). */
  tokenRequests: number
  close(): Promise<void>
}

export interface FakeOidcProviderOptions {
  /** The only redirect URI the client may use: Hearth's /auth/callback. */
  redirectUri: string
  /** 0 (default): any free port. */
  port?: number
  /** Default: a random one. */
  clientSecret?: string
  identity?: FakeIdentity
}

interface PendingCode {
  clientId: string
  redirectUri: string
  nonce: string | undefined
  codeChallenge: string
  identity: FakeIdentity
  tamper: IdTokenTamper | undefined
}

const KID = 'fake-1'

export async function startFakeOidcProvider(options: FakeOidcProviderOptions): Promise<FakeOidcProvider> {
  const signing = await generateKeyPair('RS256', { extractable: true })
  // Another key under the same kid: its signatures do not verify with the published key.
  const impostor = await generateKeyPair('RS256')
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid: KID, alg: 'RS256', use: 'sig' }
  const codes = new Map<string, PendingCode>()

  const server = http.createServer((request, response) => {
    void answer(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' })
      response.end(String(error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const provider: FakeOidcProvider = {
    issuer,
    clientId: 'hearth-test',
    clientSecret: options.clientSecret ?? randomBytes(18).toString('base64url'),
    identity: options.identity ?? { subject: 'fake-subject', email: 'someone@example.com', emailVerified: true },
    tamper: undefined,
    tokenRequests: 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }

  function json(response: http.ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
    response.end(JSON.stringify(body))
  }

  async function idToken(pending: PendingCode): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    const { identity, tamper } = pending
    const claims: Record<string, unknown> = {
      nonce: tamper === 'nonce' ? 'not-the-nonce-hearth-sent' : pending.nonce,
      ...(identity.email !== undefined
        ? { email: identity.email, email_verified: identity.emailVerified ?? false }
        : {}),
      ...(identity.name !== undefined ? { name: identity.name } : {}),
    }
    const expiresAt = tamper === 'expired' ? now - 3600 : now + 300
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setIssuer(tamper === 'issuer' ? 'https://evil.example' : issuer)
      .setAudience(tamper === 'audience' ? 'another-client' : pending.clientId)
      .setSubject(identity.subject)
      .setIssuedAt(tamper === 'expired' ? now - 7200 : now)
      .setExpirationTime(expiresAt)
      .sign(tamper === 'signature' ? impostor.privateKey : signing.privateKey)
  }

  async function answer(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', issuer)
    if (request.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
        scopes_supported: ['openid', 'email', 'profile'],
      })
      return
    }
    if (request.method === 'GET' && url.pathname === '/jwks') {
      json(response, 200, { keys: [publicJwk] })
      return
    }

    if (request.method === 'GET' && url.pathname === '/authorize') {
      const query = url.searchParams
      const state = query.get('state')
      const challenge = query.get('code_challenge')
      if (
        query.get('client_id') !== provider.clientId ||
        query.get('redirect_uri') !== options.redirectUri ||
        query.get('response_type') !== 'code' ||
        !(query.get('scope') ?? '').split(' ').includes('openid') ||
        query.get('code_challenge_method') !== 'S256' ||
        !challenge
      ) {
        response.writeHead(400, { 'Content-Type': 'text/plain' })
        return void response.end('invalid authorization request')
      }
      const code = randomBytes(24).toString('base64url')
      codes.set(code, {
        clientId: provider.clientId,
        redirectUri: options.redirectUri,
        nonce: query.get('nonce') ?? undefined,
        codeChallenge: challenge,
        identity: { ...provider.identity },
        tamper: provider.tamper,
      })
      const back = new URL(options.redirectUri)
      back.searchParams.set('code', code)
      if (state !== null) back.searchParams.set('state', state)
      response.writeHead(302, { Location: back.href })
      return void response.end()
    }

    if (request.method === 'POST' && url.pathname === '/token') {
      provider.tokenRequests += 1
      if (!clientAuthenticated(request.headers.authorization, provider.clientId, provider.clientSecret)) {
        json(response, 401, { error: 'invalid_client' })
        return
      }
      const form = new URLSearchParams(await readBody(request))
      const code = form.get('code') ?? ''
      const pending = codes.get(code)
      codes.delete(code)
      const verifier = form.get('code_verifier') ?? ''
      if (
        form.get('grant_type') !== 'authorization_code' ||
        form.get('redirect_uri') !== pending?.redirectUri ||
        createHash('sha256').update(verifier).digest('base64url') !== pending.codeChallenge
      ) {
        json(response, 400, { error: 'invalid_grant' })
        return
      }
      json(response, 200, {
        access_token: randomBytes(24).toString('base64url'),
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'openid email profile',
        id_token: await idToken(pending),
      })
      return
    }

    response.writeHead(404, { 'Content-Type': 'text/plain' })
    response.end('not found')
  }

  return provider
}

function clientAuthenticated(header: string | undefined, clientId: string, clientSecret: string): boolean {
  if (!header?.startsWith('Basic ')) return false
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return false
  const id = decodeURIComponent(decoded.slice(0, colon))
  const secret = Buffer.from(decodeURIComponent(decoded.slice(colon + 1)))
  const expected = Buffer.from(clientSecret)
  return id === clientId && secret.length === expected.length && timingSafeEqual(secret, expected)
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += String(chunk)
  return body
}
