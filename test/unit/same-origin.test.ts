// The cross-site rule for cookie writes, and when the session cookie may drop Secure.
import { describe, expect, it } from 'vitest'
import { checkSameOrigin } from '../../src/http/same-origin.ts'
import { sessionCookieAttributes } from '../../src/auth/sessions.ts'

const OWN = 'https://app.example.com'

describe('checkSameOrigin', () => {
  it.each([
    [{ origin: OWN }, true],
    [{ 'sec-fetch-site': 'same-origin' }, true],
    [{ 'sec-fetch-site': 'Same-Origin', origin: OWN }, true],
    [{}, false],
    [{ origin: 'null' }, false],
    [{ origin: 'https://app.example.com.evil.example' }, false],
    [{ origin: 'https://APP.example.com' }, false],
    [{ origin: 'http://app.example.com' }, false],
    [{ origin: `${OWN}:8443` }, false],
    [{ 'sec-fetch-site': 'none' }, false],
    [{ 'sec-fetch-site': 'same-site' }, false],
    [{ 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' }, false],
    [{ origin: [OWN, OWN] }, false],
  ])('%j → %s', (headers, ok) => {
    expect(checkSameOrigin(headers, OWN).ok).toBe(ok)
  })
})

describe('sessionCookieAttributes', () => {
  it.each([
    ['http://localhost:3000', false],
    ['http://127.0.0.1:3000', false],
    ['http://[::1]:3000', false],
    ['https://localhost:3000', true],
    ['http://hearth.internal:3000', true],
    ['https://app.example.com', true],
  ])('%s → Secure %s', (url, secure) => {
    expect(sessionCookieAttributes(url)).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', secure })
  })
})
