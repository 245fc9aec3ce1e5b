// Signing secrets and signatures in the Standard Webhooks format: a secret is "whsec_" and base64
// of 32 random bytes (the specification asks for 24 to 64), and each message is signed with
// standardwebhooks' own Webhook.sign, HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>".
// During a rotation's overlap both the new and the previous secret sign, their signatures
// space-separated in one webhook-signature header, which every Standard Webhooks verifier accepts
// when either matches.
import { randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export interface SignedHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/** The three Standard Webhooks headers of one message, signed with each of `secrets`. */
export function signMessage(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  return {
    'webhook-id': id,
    // Webhook.sign signs the whole seconds; the header must name the same ones.
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  }
}
