import { describe, expect, it } from 'vitest'
import { isLoopbackHost } from '../../src/net/loopback.ts'
import { assertDevelopmentServicesOnLoopback } from '../../src/dev-idp/loopback-only.ts'
import { startDevIdentityProvider } from '../../src/dev-idp/server.ts'
import { ConfigError, loadConfig } from '../../src/config.ts'
import type { Listener } from '../../src/serve.ts'

const OIDC = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'hearth', OIDC_CLIENT_SECRET: 'secret' }

/** The refusal `hearth serve [--only <only>]` would give with this environment, or undefined. */
function refusal(env: Record<string, string>, only?: Listener): string | undefined {
  try {
    assertDevelopmentServicesOnLoopback(loadConfig(env), only)
    return undefined
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
}

describe('loopback addresses', () => {
  it('are 127.0.0.0/8, ::1 (and their IPv4-mapped and bracketed forms) and localhost; not all interfaces nor other names', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'LOCALHOST',
    ])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of [
      '0.0.0.0',
      '::',
      '[::]',
      '10.0.0.1',
      '192.168.1.5',
      '::ffff:10.0.0.1',
      'fe80::1',
      'example.com',
      'localhost.example.com',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(false)
  })
})

describe('the development sign-in and the demo off loopback', () => {
  it('are refused together, in one line naming every variable to set', () => {
    const envs: Record<string, string>[] = [
      { HOST: '0.0.0.0' },
      { HOST: '::', NODE_ENV: 'test' },
      { HOST: '10.0.0.5', NODE_ENV: 'development' },
    ]
    for (const env of envs) {
      const message = refusal(env) ?? ''
      expect(message).toBe(
        `HOST=${env.HOST ?? ''} is not a loopback address, and the passwordless development sign-in and the demo must only be reachable from this machine: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to sign in with your identity provider and HEARTH_DEMO=0 to turn the demo off, or HOST=127.0.0.1 to keep them here`,
      )
    }
  })

  it('name only what would start', () => {
    expect(refusal({ HOST: '0.0.0.0', HEARTH_DEMO: '0' })).toBe(
      'HOST=0.0.0.0 is not a loopback address, and the passwordless development sign-in must only be reachable from this machine: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET to sign in with your identity provider, or HOST=127.0.0.1 to keep it here',
    )
    expect(refusal({ HOST: '0.0.0.0', ...OIDC })).toBe(
      'HOST=0.0.0.0 is not a loopback address, and the demo must only be reachable from this machine: set HEARTH_DEMO=0 to turn the demo off, or HOST=127.0.0.1 to keep it here',
    )
    // hearth serve --only embed starts no sign-in; the demo still counts.
    expect(refusal({ HOST: '0.0.0.0' }, 'embed')).toMatch(/and the demo must only/)
  })

  it('are refused with a HEARTH_PUBLIC_URL that is not on this machine, even on a loopback HOST', () => {
    expect(refusal({ HOST: '127.0.0.1', HEARTH_PUBLIC_URL: 'https://hearth.example.com' })).toMatch(
      /^HEARTH_PUBLIC_URL=https:\/\/hearth\.example\.com is not on this machine, .* or HEARTH_PUBLIC_URL=http:\/\/127\.0\.0\.1:<PORT> to keep them here$/,
    )
    expect(refusal({ HOST: '127.0.0.1', HEARTH_PUBLIC_URL: 'http://localhost:3000' })).toBeUndefined()
    expect(refusal({ HOST: '::1', HEARTH_PUBLIC_URL: 'http://[::1]:3000' })).toBeUndefined()
  })

  it('are allowed on loopback, and nothing is refused when neither would start', () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) expect(refusal({ HOST: host }), host).toBeUndefined()
    expect(refusal({ HOST: '0.0.0.0', HEARTH_DEMO: '0', ...OIDC })).toBeUndefined()
    // Production starts neither (sign-in is not set up without OIDC_ISSUER; the demo is off).
    expect(refusal({ HOST: '0.0.0.0', NODE_ENV: 'production' })).toBeUndefined()
    expect(refusal({ HOST: '0.0.0.0', HEARTH_DEMO: '0' }, 'embed')).toBeUndefined()
    // hearth serve --only api, an instance among others, starts neither.
    expect(refusal({ HOST: '0.0.0.0' }, 'api')).toBeUndefined()
  })

  it('the development provider itself will not listen off loopback, whoever starts it', async () => {
    await expect(
      startDevIdentityProvider({ host: '0.0.0.0', port: 0, redirectUri: 'http://127.0.0.1:3000/auth/callback' }),
    ).rejects.toThrow(/listens on a loopback address only, not 0\.0\.0\.0/)
  })
})
