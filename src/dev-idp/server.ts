// The development identity provider: a real OpenID Connect provider (oidc-provider) on its own
// port, so that `npm start` offers sign-in without any outside account. Its sign-in page lists the
// demo people and takes any other address too; choosing one signs that identity in at once, with
// no password. It proves identity only — Hearth decides access — and it never runs in production.
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import type Provider from 'oidc-provider'
import type { Configuration } from 'oidc-provider'
import { exportJWK, generateKeyPair } from 'jose'
import { DEMO_PEOPLE } from '../domain/demo-people.ts'
import { identityOf, signInPage } from './sign-in-page.ts'
import { isLoopbackHost } from '../net/loopback.ts'
import { createQuietProvider } from './quiet-provider.ts'

export interface DevIdentityProvider {
  issuer: string
  clientId: string
  clientSecret: string
  close(): Promise<void>
}

export interface DevIdentityProviderOptions {
  host: string
  port: number
  /** Where the provider may send the browser back to: Hearth's /auth/callback. */
  redirectUri: string
}

const CLIENT_ID = 'hearth-dev'

export async function startDevIdentityProvider(options: DevIdentityProviderOptions): Promise<DevIdentityProvider> {
  // hearth serve refuses earlier with the variables to set (loopback-only.ts); this holds for any caller.
  if (!isLoopbackHost(options.host))
    throw new Error(
      `the development identity provider signs anyone in without a password: it listens on a loopback address only, not ${options.host}`,
    )
  // The issuer names the port, so listen first and hand requests to the provider once it exists.
  let handle: http.RequestListener = (_request, response) => response.writeHead(503).end()
  const server = http.createServer((request, response) => handle(request, response))
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const issuer = `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`
  const clientSecret = randomBytes(24).toString('base64url')
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })

  const configuration: Configuration = {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), use: 'sig', alg: 'RS256', kid: 'dev' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The ID token carries the email and name itself, as most real providers' do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    // Seconds. Short, as a real provider's: a sign-in takes a minute, a provider session a working day.
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    findAccount: (_ctx, subject) => {
      const identity = identityOf(subject)
      if (!identity) return undefined
      return {
        accountId: subject,
        claims: () => ({ sub: subject, email: identity.email, email_verified: true, name: identity.name }),
      }
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Hearth is this provider's only client: there is nothing to consent to.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId
      const clientId = ctx.oidc.client?.clientId
      if (!accountId || !clientId) return undefined
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  }
  const provider = await createQuietProvider(issuer, configuration)
  const providerCallback = provider.callback()

  handle = (request, response) => {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(new URL(request.url ?? '/', issuer).pathname)
    if (!match) return void providerCallback(request, response)
    void answerInteraction(provider, options.redirectUri, request, response, match[2] !== undefined).catch(() => {
      if (!response.headersSent) response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' })
      response.end('This sign-in has expired or is not valid. Go back to Hearth and sign in again.')
    })
  }

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

async function answerInteraction(
  provider: Provider,
  redirectUri: string,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  submitted: boolean,
) {
  const details = await provider.interactionDetails(request, response)
  if (!submitted) {
    const body = signInPage(details.uid, DEMO_PEOPLE)
    // form-action covers the redirects after the form too: the provider's own /auth, then Hearth's callback.
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(redirectUri).origin}; frame-ancestors 'none'; base-uri 'none'`,
      'Cache-Control': 'no-store',
    })
    return void response.end(body)
  }
  if (request.method !== 'POST') return void response.writeHead(405).end()
  const form = new URLSearchParams(await readBody(request))
  const subject =
    form.get('subject') || (form.get('email') ? `email:${(form.get('email') ?? '').trim().toLowerCase()}` : '')
  if (!identityOf(subject)) {
    response.writeHead(303, { Location: `/interaction/${details.uid}` })
    return void response.end()
  }
  await provider.interactionFinished(
    request,
    response,
    { login: { accountId: subject } },
    { mergeWithLastSubmission: false },
  )
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) {
    body += String(chunk)
    if (body.length > 4096) throw new Error('form too large')
  }
  return body
}
