import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.ts'

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      embedPort: 3001,
      demo: true,
      rateLimitMax: 600,
      rateLimitWindowSeconds: 60,
    })
    expect(config.dataDir.endsWith('/data')).toBe(true)
  })

  it('takes REDIS_URL as redis:// or rediss://, unset by default', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined()
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl).toBe('redis://127.0.0.1:6379')
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.com:6380/2' }).redisUrl).toBe(
      'rediss://cache.example.com:6380/2',
    )
  })

  it('turns the demo off in production and with HEARTH_DEMO=0', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false)
    expect(loadConfig({ NODE_ENV: 'production', HEARTH_DEMO: '1' }).demo).toBe(false)
    expect(loadConfig({ HEARTH_DEMO: '0' }).demo).toBe(false)
  })

  it('names the variable in every error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT=abc/)
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT=70000/)
    expect(() => loadConfig({ HEARTH_RATE_LIMIT_MAX: '0' })).toThrow(/HEARTH_RATE_LIMIT_MAX/)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/)
    expect(() => loadConfig({ HEARTH_DEMO: 'maybe' })).toThrow(/HEARTH_DEMO/)
    expect(() => loadConfig({ HEARTH_HOUSEHOLDS_SUNSET: '2027-13-45' })).toThrow(/HEARTH_HOUSEHOLDS_SUNSET/)
  })

  describe('HEARTH_TRUST_PROXY', () => {
    it('is off (0) unset, with 0, and with the old false words', () => {
      for (const value of [undefined, '', '0', 'false', 'no', 'off'])
        expect(loadConfig({ HEARTH_TRUST_PROXY: value }).trustProxy, String(value)).toBe(0)
    })

    it('takes a hop count, 1 to 10: 1 now means one proxy in front, not every hop', () => {
      expect(loadConfig({ HEARTH_TRUST_PROXY: '1' }).trustProxy).toBe(1)
      expect(loadConfig({ HEARTH_TRUST_PROXY: '3' }).trustProxy).toBe(3)
      expect(() => loadConfig({ HEARTH_TRUST_PROXY: '11' })).toThrow(/^HEARTH_TRUST_PROXY=11 is more proxies than 10/)
    })

    it('takes proxy addresses and CIDR ranges, IPv4 and IPv6, comma-separated', () => {
      expect(loadConfig({ HEARTH_TRUST_PROXY: '10.0.0.0/8,192.168.1.5' }).trustProxy).toEqual([
        '10.0.0.0/8',
        '192.168.1.5',
      ])
      expect(loadConfig({ HEARTH_TRUST_PROXY: ' 10.1.2.3 , fd00::/32, ::1 ' }).trustProxy).toEqual([
        '10.1.2.3',
        'fd00::/32',
        '::1',
      ])
    })

    it('takes ranges down to a /8 of IPv4, a /32 of IPv6 and a /104 of IPv4-mapped IPv6', () => {
      for (const value of [
        '10.0.0.0/8',
        '2001:db8::/32',
        '::ffff:10.0.0.0/104',
        '::ffff:a00:0/104',
        '::/100',
        '::1/128',
      ]) {
        expect(loadConfig({ HEARTH_TRUST_PROXY: value }).trustProxy, value).toEqual([value])
      }
    })

    it('refuses wider ranges, which trust most hops as /0 does, with a one-line ConfigError saying what to write', () => {
      for (const [value, entry] of [
        ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/1'],
        ['10.0.0.0/7', '10.0.0.0/7'],
        ['::ffff:0:0/96', '::ffff:0:0/96'],
        ['::ffff:0.0.0.0/97', '::ffff:0.0.0.0/97'],
        ['::ffff:10.0.0.0/103', '::ffff:10.0.0.0/103'],
        ['::/32', '::/32'],
        ['::/80', '::/80'],
        ['2000::/3', '2000::/3'],
        ['fd00::/8', 'fd00::/8'],
        ['2001:db8::/31', '2001:db8::/31'],
      ]) {
        let message = ''
        try {
          loadConfig({ HEARTH_TRUST_PROXY: value })
        } catch (error) {
          expect(error, value).toBeInstanceOf(ConfigError)
          message = (error as Error).message
        }
        expect(message.startsWith(`HEARTH_TRUST_PROXY=${value}: "${entry}" is wider than a /`), message).toBe(true)
        expect(message, value).not.toContain('\n')
        expect(message, value).toContain("list your proxies' own addresses or narrower ranges")
      }
    })

    it('refuses "trust every hop" in every spelling, with a one-line ConfigError saying what to write', () => {
      for (const value of ['true', 'TRUE', 'yes', 'on', '*', 'all', '0.0.0.0/0', '::/0', '10.0.0.0/8,0.0.0.0/0']) {
        expect(() => loadConfig({ HEARTH_TRUST_PROXY: value }), value).toThrow(ConfigError)
        try {
          loadConfig({ HEARTH_TRUST_PROXY: value })
        } catch (error) {
          const message = (error as Error).message
          expect(message, value).toMatch(/^HEARTH_TRUST_PROXY=/)
          expect(message, value).not.toContain('\n')
          expect(message, value).toMatch(/every/)
        }
      }
      expect(() => loadConfig({ HEARTH_TRUST_PROXY: 'true' })).toThrow(
        /write the number of proxies in front of Hearth \(e\.g\. 1\) or their addresses \(e\.g\. 10\.0\.0\.0\/8,192\.168\.1\.5\)/,
      )
    })

    it('refuses what is not an address or a range, naming the entry', () => {
      for (const [value, entry] of [
        ['proxy.example.com', 'proxy.example.com'],
        ['10.0.0.0/8,', ''],
        ['10.0.0.0/33', '10.0.0.0/33'],
        ['fd00::/129', 'fd00::/129'],
        ['10.0.0.0/8/1', '10.0.0.0/8/1'],
        ['-1', '-1'],
        ['1.5', '1.5'],
      ]) {
        expect(() => loadConfig({ HEARTH_TRUST_PROXY: value }), value).toThrow(ConfigError)
        expect(() => loadConfig({ HEARTH_TRUST_PROXY: value }), value).toThrow(`"${entry}"`)
      }
    })
  })

  it('takes HEARTH_WORKERS from 1 (the default) to 64', () => {
    expect(loadConfig({}).workers).toBe(1)
    expect(loadConfig({ HEARTH_WORKERS: '4' }).workers).toBe(4)
    expect(() => loadConfig({ HEARTH_WORKERS: '0' })).toThrow(/HEARTH_WORKERS=0/)
    expect(() => loadConfig({ HEARTH_WORKERS: '65' })).toThrow(/HEARTH_WORKERS=65/)
    expect(() => loadConfig({ HEARTH_WORKERS: 'two' })).toThrow(/HEARTH_WORKERS=two/)
  })

  describe('sign-in with an identity provider', () => {
    const all = { OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'hearth', OIDC_CLIENT_SECRET: 's3cret' }

    it('takes none (the development provider outside production) or all three', () => {
      expect(loadConfig({})).toMatchObject({
        oidcIssuer: undefined,
        oidcClientId: undefined,
        oidcClientSecret: undefined,
      })
      expect(loadConfig(all)).toMatchObject({
        oidcIssuer: 'https://login.example.com',
        oidcClientId: 'hearth',
        oidcClientSecret: 's3cret',
      })
      // Empty is unset.
      expect(loadConfig({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' }).oidcIssuer).toBeUndefined()
    })

    it('refuses some without the others, naming all three', () => {
      const partial = [
        { OIDC_ISSUER: all.OIDC_ISSUER },
        { OIDC_CLIENT_ID: all.OIDC_CLIENT_ID },
        { OIDC_CLIENT_SECRET: all.OIDC_CLIENT_SECRET },
        { OIDC_ISSUER: all.OIDC_ISSUER, OIDC_CLIENT_ID: all.OIDC_CLIENT_ID },
        { OIDC_ISSUER: all.OIDC_ISSUER, OIDC_CLIENT_SECRET: all.OIDC_CLIENT_SECRET },
        { OIDC_CLIENT_ID: all.OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: all.OIDC_CLIENT_SECRET },
        { ...all, OIDC_CLIENT_SECRET: '' },
      ]
      for (const env of partial) {
        expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError)
        expect(() => loadConfig(env)).toThrow(/OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET/)
      }
    })

    it('needs an http(s) issuer URL', () => {
      expect(() => loadConfig({ ...all, OIDC_ISSUER: 'login.example.com' })).toThrow(ConfigError)
      expect(() => loadConfig({ ...all, OIDC_ISSUER: 'login.example.com' })).toThrow(/OIDC_ISSUER=login\.example\.com/)
    })

    it('parses HEARTH_IDP_PORT (default 3003)', () => {
      expect(loadConfig({}).idpPort).toBe(3003)
      expect(loadConfig({ HEARTH_IDP_PORT: '4100' }).idpPort).toBe(4100)
      expect(loadConfig({ HEARTH_IDP_PORT: '0' }).idpPort).toBe(0)
      expect(() => loadConfig({ HEARTH_IDP_PORT: 'x' })).toThrow(ConfigError)
      expect(() => loadConfig({ HEARTH_IDP_PORT: 'x' })).toThrow(/HEARTH_IDP_PORT=x/)
      expect(() => loadConfig({ HEARTH_IDP_PORT: '70000' })).toThrow(/HEARTH_IDP_PORT=70000/)
    })
  })
})
