// Hearth with sign-in through one identity provider, on a port known before it listens (the
// provider must know the callback URL, which is under the app's public URL).
import { startApp, type TestApp, type TestConfig } from './app.ts'
import type { TestStore } from './stores.ts'
import { freePort } from '../../src/net/free-port.ts'
import { CALLBACK_PATH, OidcSignIn } from '../../src/auth/oidc.ts'

export interface SignInApp {
  url: string
  api: TestApp
  oidc: OidcSignIn
}

export async function startSignInApp(
  store: TestStore,
  provider: (redirectUri: string) => Promise<{ issuer: string; clientId: string; clientSecret: string }>,
  /** Other settings of the app (e.g. its rate limits). */
  overrides: TestConfig = {},
): Promise<SignInApp> {
  const port = await freePort('127.0.0.1')
  const url = `http://127.0.0.1:${port}`
  const settings = await provider(`${url}${CALLBACK_PATH}`)
  const oidc = new OidcSignIn(
    store.db,
    { issuer: settings.issuer, clientId: settings.clientId, clientSecret: settings.clientSecret },
    url,
  )
  const api = await startApp(store, { ...overrides, publicUrl: url, port, oidc })
  return { url, api, oidc }
}
