// Signing secrets and signatures in the Standard Webhooks format: a secret is "whsec_" and base64
// of 32 random bytes (the specification asks for 24 to 64), and each message is signed with
// HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>", keyed with the secret's decoded
// bytes, as "v1,<base64 signature>". That is exactly what the standardwebhooks package's
// Webhook.sign computes (test/webhooks/signatures.test.ts checks every message against it), but
// the package hashes in JavaScript (fast-sha256); node:crypto does it natively.
// During a rotation's overlap both the new and the previous secret sign, their signatures
// space-separated in one webhook-signature header, which every Standard Webhooks verifier accepts
// when either matches.
import { createHmac, randomBytes } from 'node:crypto'

const SECRET_PREFIX = 'whsec_'

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

export interface SignedHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** The three Standard Webhooks headers of one message, signed with each of `secrets`. */
export function signMessage(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  // Whole seconds: the header names them, and the signature covers the header's value.
  const timestamp = String(Math.floor(at.getTime() / 1000))
  const signed = `${id}.${timestamp}.${body}`
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => `v1,${hmac(secret, signed)}`).join(' '),
  }
}

function hmac(secret: string, signed: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
  return createHmac('sha256', key).update(signed, 'utf8').digest('base64')
}
