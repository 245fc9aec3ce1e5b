import { describe, expect, it } from 'vitest'
import { parseFrameOrigin } from '../../src/domain/origins.ts'

describe('frame origins', () => {
  it('accepts bare https origins and http on localhost', () => {
    for (const origin of [
      'https://app.example.com',
      'https://app.example.com:8443',
      'http://localhost:3002',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ]) {
      expect(parseFrameOrigin(origin), origin).toEqual({ ok: true, origin })
    }
  })

  it('refuses paths, wildcards, null, other schemes, http elsewhere and non-normal forms', () => {
    for (const bad of [
      'https://app.example.com/',
      'https://app.example.com/path',
      'https://*.example.com',
      '*',
      'null',
      'ftp://example.com',
      'http://example.com',
      'javascript:alert(1)',
      'https://user:pw@example.com',
      'HTTPS://APP.EXAMPLE.COM',
      'https://example.com:443',
      'example.com',
      '',
    ]) {
      expect(parseFrameOrigin(bad).ok, bad).toBe(false)
    }
  })

  it('suggests the normal form', () => {
    expect(parseFrameOrigin('https://Example.com')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('https://example.com'),
    })
  })
})
