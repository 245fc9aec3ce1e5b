// A browser's walk through sign-in, over plain HTTP: fetch with redirect 'manual' and a cookie jar,
// so every hop (Hearth's /auth/sign-in, the provider's pages and redirects, Hearth's callback) is
// a real request whose status, Location and Set-Cookie a test can look at.
//
// The jar keeps cookies per origin (scheme, host and port) and honours Path, Max-Age and Expires:
// enough for Hearth and oidc-provider, which both set host-only cookies.
import { CALLBACK_PATH, SIGN_IN_STATE_COOKIE } from '../../src/auth/oidc.ts'

interface StoredCookie {
  name: string
  value: string
  path: string
}

class CookieJar {
  private readonly byOrigin = new Map<string, StoredCookie[]>()

  /** Takes the Set-Cookie headers of a response to a request for `url`. */
  take(url: URL, setCookies: string[]): void {
    for (const header of setCookies) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim())
      const equals = pair.indexOf('=')
      if (equals <= 0) continue
      const name = pair.slice(0, equals)
      const value = pair.slice(equals + 1)
      let path = defaultPath(url)
      let expired = false
      for (const attribute of attributes) {
        const [key = '', raw = ''] = attribute.split('=', 2)
        const lower = key.toLowerCase()
        if (lower === 'path' && raw.startsWith('/')) path = raw
        if (lower === 'max-age' && Number(raw) <= 0) expired = true
        if (lower === 'expires' && Date.parse(raw) <= Date.now()) expired = true
      }
      const kept = (this.byOrigin.get(url.origin) ?? []).filter(
        (cookie) => !(cookie.name === name && cookie.path === path),
      )
      if (!expired) kept.push({ name, value, path })
      this.byOrigin.set(url.origin, kept)
    }
  }

  /** The Cookie header a browser would send with a request for `url`, if any. */
  header(url: URL): string | undefined {
    const cookies = (this.byOrigin.get(url.origin) ?? []).filter((cookie) => pathMatches(url.pathname, cookie.path))
    // Longer paths first, as browsers send them.
    cookies.sort((a, b) => b.path.length - a.path.length)
    return cookies.length ? cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') : undefined
  }

  get(origin: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(origin).origin)?.find((cookie) => cookie.name === name)?.value
  }

  delete(origin: string, name: string): void {
    const key = new URL(origin).origin
    this.byOrigin.set(
      key,
      (this.byOrigin.get(key) ?? []).filter((cookie) => cookie.name !== name),
    )
  }
}

function defaultPath(url: URL): string {
  const last = url.pathname.lastIndexOf('/')
  return last <= 0 ? '/' : url.pathname.slice(0, last)
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/'
}

/** One request and its answer, body read. */
export interface Hop {
  url: URL
  status: number
  headers: Headers
  /** Raw Set-Cookie headers of this answer. */
  setCookies: string[]
  location: URL | undefined
  body: string
}

/** A browser without a renderer: one cookie jar, redirects followed by hand. */
export class HttpBrowser {
  readonly jar = new CookieJar()

  /**
   * One request with the jar's cookies, its Set-Cookie kept. `cookie` sends this Cookie header
   * instead of the jar's (a forged or replayed one); the answer's cookies are still kept.
   */
  async request(
    url: string | URL,
    init: {
      method?: string
      form?: Record<string, string>
      json?: unknown
      cookie?: string
      headers?: Record<string, string>
    } = {},
  ): Promise<Hop> {
    const target = new URL(url)
    // Headers a browser adds itself (Origin, Sec-Fetch-Site) are the test's to set: fetch in Node sends none.
    const headers: Record<string, string> = { ...init.headers }
    const cookie = init.cookie ?? this.jar.header(target)
    if (cookie) headers.cookie = cookie
    let body: string | undefined
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(init.form).toString()
    }
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(init.json)
    }
    const response = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    })
    const setCookies = response.headers.getSetCookie()
    this.jar.take(target, setCookies)
    const location = response.headers.get('location')
    return {
      url: target,
      status: response.status,
      headers: response.headers,
      setCookies,
      location: location === null ? undefined : new URL(location, target),
      body: await response.text(),
    }
  }

  /** Follows redirects from `url` until an answer that is not one, or a URL `stop` accepts (not requested). */
  async follow(
    url: string | URL,
    stop: (url: URL) => boolean = () => false,
    limit = 10,
  ): Promise<{ hops: Hop[]; stoppedAt: URL | undefined }> {
    const hops: Hop[] = []
    let next: URL | undefined = new URL(url)
    while (next) {
      if (stop(next)) return { hops, stoppedAt: next }
      if (hops.length >= limit) throw new Error(`more than ${limit} redirects from ${String(url)}`)
      const hop = await this.request(next)
      hops.push(hop)
      next = hop.status >= 300 && hop.status < 400 ? hop.location : undefined
    }
    return { hops, stoppedAt: undefined }
  }
}

/** Who to be at the development provider's sign-in page: a demo person, or any address. */
export type DevIdpChoice = { subject: string } | { email: string }

export interface WalkToCallback {
  /** Hearth's answer to GET /auth/sign-in. */
  start: Hop
  /** Where the provider sent the browser back to (Hearth's callback, with code and state): not yet requested. */
  callbackUrl: URL
  /** The state cookie Hearth set for this sign-in. */
  stateCookie: string | undefined
}

/**
 * GET /auth/sign-in?returnTo=… at the app, then through the provider until it sends the browser
 * back to the app's callback, which is not requested yet. At the development provider's sign-in
 * page (/interaction/{uid}) it posts `choice`; a provider with no page (the fake one) redirects
 * straight back.
 */
export async function walkToCallback(
  browser: HttpBrowser,
  appUrl: string,
  options: { returnTo?: string; choice?: DevIdpChoice } = {},
): Promise<WalkToCallback> {
  const signInUrl = new URL('/auth/sign-in', appUrl)
  if (options.returnTo !== undefined) signInUrl.searchParams.set('returnTo', options.returnTo)
  const start = await browser.request(signInUrl)
  if (start.status !== 302 || !start.location)
    throw new Error(`/auth/sign-in answered ${start.status}, not a redirect: ${start.body.slice(0, 300)}`)
  const stateCookie = browser.jar.get(appUrl, SIGN_IN_STATE_COOKIE)
  const atCallback = (url: URL) => url.origin === new URL(appUrl).origin && url.pathname === CALLBACK_PATH

  let { hops, stoppedAt } = await browser.follow(start.location, atCallback)
  for (let pages = 0; !stoppedAt; pages += 1) {
    const page = hops.at(-1)
    const interaction = page?.status === 200 ? /^\/interaction\/([\w-]+)$/.exec(page.url.pathname) : null
    if (!page || !interaction || pages > 0) {
      throw new Error(
        `the provider did not send the browser back: ${page?.status ?? '-'} at ${page?.url.href ?? '?'}: ${page?.body.slice(0, 300) ?? ''}`,
      )
    }
    const choice = options.choice ?? { subject: 'demo-advisor' }
    const posted = await browser.request(new URL(`${page.url.pathname}/login`, page.url), {
      form: 'subject' in choice ? { subject: choice.subject } : { email: choice.email },
    })
    if (posted.status < 300 || posted.status >= 400 || !posted.location)
      throw new Error(`the sign-in form answered ${posted.status}: ${posted.body.slice(0, 300)}`)
    ;({ hops, stoppedAt } = await browser.follow(posted.location, atCallback))
  }
  return { start, callbackUrl: stoppedAt, stateCookie }
}

/** The whole walk: sign-in, the provider, and the callback (requested with the browser's cookies). */
export async function signInOverHttp(
  browser: HttpBrowser,
  appUrl: string,
  options: { returnTo?: string; choice?: DevIdpChoice } = {},
) {
  const walk = await walkToCallback(browser, appUrl, options)
  const callback = await browser.request(walk.callbackUrl)
  return { ...walk, callback }
}

/** The Set-Cookie header (raw) that sets `name`, if the answer has one. */
export function setCookieFor(hop: Hop, name: string): string | undefined {
  return hop.setCookies.find((header) => header.startsWith(`${name}=`))
}
