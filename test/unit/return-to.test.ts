// Where sign-in returns to: only a path of this app, never another site (an open redirect) nor
// back into /auth; anything doubtful is /households.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { safeReturnTo } from '../../src/http/routes/sign-in.ts'

const HOME = '/households'

describe('safeReturnTo', () => {
  it('keeps a path of the app, with its query and fragment', () => {
    for (const path of [
      '/households',
      '/households?q=smith',
      '/households/7d2c?tab=chart&x=1',
      '/admin/users',
      '/households?q=a%2Fb#top',
      '/',
    ]) {
      expect(safeReturnTo(path)).toBe(path)
    }
  })

  it('is /households when there is nothing to return to', () => {
    expect(safeReturnTo(undefined)).toBe(HOME)
    expect(safeReturnTo('')).toBe(HOME)
  })

  it('never leaves the app: absolute URLs, scheme-relative and backslash tricks', () => {
    for (const attempt of [
      'https://evil.example',
      'http://evil.example/households',
      '//evil.example',
      '//evil.example/households',
      '/\\evil.example',
      '\\\\evil.example',
      '\\/evil.example',
      '/\\/evil.example',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'evil.example',
      'households',
      ' /households',
      '?returnTo=//evil.example',
      '#//evil.example',
    ]) {
      expect(safeReturnTo(attempt), attempt).toBe(HOME)
    }
  })

  it('never returns into /auth (the callback, or sign-in again)', () => {
    expect(safeReturnTo('/auth/callback')).toBe(HOME)
    expect(safeReturnTo('/auth/callback?code=x&state=y')).toBe(HOME)
    expect(safeReturnTo('/auth/sign-in?returnTo=/households')).toBe(HOME)
    expect(safeReturnTo('/auth')).toBe(HOME)
  })

  it('sees /auth through percent-escapes and dot segments, as the browser and the router will', () => {
    for (const attempt of [
      '/%61uth/callback',
      '/%61%75%74%68/sign-in',
      '/x/../auth/callback',
      '/x/%2e%2e/auth/callback',
      '/./auth/sign-in',
      '/auth%2Fcallback',
      '/%E0%A4%A',
    ]) {
      expect(safeReturnTo(attempt), attempt).toBe(HOME)
    }
    // Paths that only look alike stay.
    for (const path of ['/authors', '/households?next=/auth/callback', '/households#/auth/']) {
      expect(safeReturnTo(path), path).toBe(path)
    }
  })

  it('refuses control characters (header splitting, tabs and newlines browsers strip) and backslashes anywhere', () => {
    for (const attempt of [
      '/households\r\nSet-Cookie: a=b',
      '/households\n',
      '/\t/evil.example',
      '/\u0000',
      '/households\u001f',
      '/a\\b',
    ]) {
      expect(safeReturnTo(attempt), JSON.stringify(attempt)).toBe(HOME)
    }
  })

  it('percent-encodes what a Location header cannot carry as it is (spaces, beyond ASCII), and refuses broken UTF-16', () => {
    expect(safeReturnTo('/households?q=Zoë €')).toBe('/households?q=Zo%C3%AB%20%E2%82%AC')
    expect(safeReturnTo('/households?q=a%20b')).toBe('/households?q=a%20b')
    expect(safeReturnTo('/households?q=👪')).toBe('/households?q=%F0%9F%91%AA')
    expect(safeReturnTo('/households?q=\ud800')).toBe(HOME)
  })

  it('refuses a very long path', () => {
    expect(safeReturnTo(`/households?q=${'a'.repeat(2000)}`)).toBe(HOME)
    const longest = `/${'a'.repeat(1999)}`
    expect(safeReturnTo(longest)).toBe(longest)
  })

  it('whatever it is given, answers a single-slash path outside /auth, without control characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `/${s}`),
          fc.webUrl(),
          fc.string().map((s) => `//${s}`),
        ),
        (candidate) => {
          const answer = safeReturnTo(candidate)
          expect(answer).toMatch(/^\/(?![/\\])/)
          expect(answer.startsWith('/auth/')).toBe(false)
          const path = decodeURIComponent(new URL(answer, 'https://hearth.example').pathname)
          expect(path === '/auth' || path.startsWith('/auth/')).toBe(false)
          expect(answer).toMatch(/^[\x21-\x7e]+$/) // printable ASCII: a valid Location header, no backslash below
          expect(answer).not.toContain('\\')
          // As a browser reads it against the app's origin, it stays on that origin.
          expect(new URL(answer, 'https://hearth.example').origin).toBe('https://hearth.example')
        },
      ),
    )
  })
})
