// Frame origins: the origins of partner pages allowed to frame the embedded chart.
// A frame origin is a bare origin — scheme, host and optional port, nothing else — because
// it is compared byte for byte with MessageEvent.origin and written into CSP frame-ancestors.

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string }

export const ORIGIN_RULE =
  'a bare origin such as https://app.example.com or https://app.example.com:8443 (no path, query, wildcard or trailing slash; http only for localhost and 127.0.0.1)'

export function parseFrameOrigin(input: string): OriginCheck {
  const fail = (why: string): OriginCheck => ({ ok: false, reason: `${why}: expected ${ORIGIN_RULE}` })
  if (input.includes('*')) return fail('wildcards are not allowed')
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return fail(`"${input}" is not a URL`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail(`the scheme ${url.protocol} is not allowed`)
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) return fail('http is allowed only for localhost')
  if (url.username || url.password) return fail('credentials are not allowed')
  // URL() normalises; the input must already be in that normal form (no path, no trailing slash).
  if (url.origin !== input) return fail(`"${input}" is not a bare origin (did you mean ${url.origin}?)`)
  return { ok: true, origin: url.origin }
}
