// Which URLs an endpoint may have. https only, so that events (household data) and their
// signatures never cross the network in the clear; plain http only to this machine
// (localhost, 127.0.0.1, [::1]) outside production, for a receiver under development. No user or
// password in the URL (it would be shown back in lists), no fragment (never sent). Whether the
// host resolves to a private address is checked again at every attempt (address-guard.ts): a
// name can point elsewhere tomorrow.
import { isLoopbackHost } from '../net/loopback.ts'

export const WEBHOOK_URL_MAX = 2000

export const WEBHOOK_URL_RULE =
  'an https:// URL (http:// only to localhost, 127.0.0.1 or [::1], and not in production), without user, password or #fragment, at most 2000 characters'

/** The URL as stored, or why it cannot be an endpoint's. */
export function parseEndpointUrl(
  text: string,
  production: boolean,
): { ok: true; url: string } | { ok: false; reason: string } {
  const trimmed = text.trim()
  if (trimmed.length > WEBHOOK_URL_MAX) return { ok: false, reason: `is longer than ${WEBHOOK_URL_MAX} characters` }
  let url: URL
  try {
    url = new URL(trimmed)
  } catch {
    return { ok: false, reason: `is not a URL: it must be ${WEBHOOK_URL_RULE}` }
  }
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user or password' }
  if (url.hash) return { ok: false, reason: 'must not have a #fragment (it is never sent)' }
  if (url.protocol === 'https:') return { ok: true, url: url.href }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname) || !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
      return {
        ok: false,
        reason: 'must be https:// (http:// only to localhost, 127.0.0.1 or [::1] during development)',
      }
    if (production) return { ok: false, reason: 'must be https:// in production' }
    return { ok: true, url: url.href }
  }
  return { ok: false, reason: `must be https://, not ${url.protocol}//` }
}
