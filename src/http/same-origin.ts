// Cross-site request forgery: a browser attaches the idp-session cookie to requests that another
// site triggers (a form post, a fetch), so a write that carries the cookie must prove it comes
// from the web app's own origin. Browsers say where a request comes from in two headers that
// pages cannot set: Origin (sent on every non-GET fetch and form post) and Sec-Fetch-Site.
//
// The rule, for writes (POST, PUT, PATCH, DELETE) authenticated by the cookie:
//   - Sec-Fetch-Site, when present, must be "same-origin" ("same-site" is refused too: a sibling
//     subdomain is another application);
//   - Origin, when present, must equal the app's public origin exactly ("null" is refused);
//   - at least one of them must be present: a write with neither proves nothing, and every
//     browser that can hold the cookie sends Origin on writes. (A script that has the cookie
//     value, curl say, can add Origin itself; it already holds the credential, so that is not
//     forgery.)
// No CSRF token is needed on top: SameSite=Lax plus these headers cover the browsers we support.
// Requests with an API key (the Authorization header) are not subject to this: a browser never
// adds that header on its own.

export const UNSAFE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export type SameOriginVerdict = { ok: true } | { ok: false; reason: string }

export function checkSameOrigin(
  headers: { origin?: string | string[] | undefined; 'sec-fetch-site'?: string | string[] | undefined },
  ownOrigin: string,
): SameOriginVerdict {
  const origin = single(headers.origin)
  const fetchSite = single(headers['sec-fetch-site'])
  if (origin === undefined && fetchSite === undefined) {
    return {
      ok: false,
      reason: 'it carries neither an Origin nor a Sec-Fetch-Site header, so it cannot be told apart from a forged one',
    }
  }
  if (fetchSite !== undefined && fetchSite.toLowerCase() !== 'same-origin') {
    return { ok: false, reason: `Sec-Fetch-Site is "${fetchSite.slice(0, 40)}", not "same-origin"` }
  }
  if (origin !== undefined && origin !== ownOrigin) {
    return {
      ok: false,
      reason: `it comes from ${origin === 'null' ? 'an opaque origin' : origin.slice(0, 200)}, not from ${ownOrigin}`,
    }
  }
  return { ok: true }
}

function single(value: string | string[] | undefined): string | undefined {
  // Repeated headers are never what a browser sends: take them as something that does not match.
  return Array.isArray(value) ? value.join(',') : value
}
