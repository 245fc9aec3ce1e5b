// The signatures Hearth sends are the Standard Webhooks ones: byte for byte what the
// standardwebhooks package (the specification's reference library, which the api-client's
// verification helper uses) computes for the same message, and accepted by its verifier.
import { describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { newWebhookSecret, signMessage } from '../../src/webhooks/secrets.ts'

// Bodies as deliveries carry them, and the edges of the hashed text: empty, non-ASCII (UTF-8, not
// Latin-1), a multi-byte character split by no boundary, a body longer than one SHA-256 block.
const BODIES = [
  '',
  '{"type":"household.created","data":{"name":"Whitfield Family"}}',
  '{"name":"Zoë Ångström – 王小明 🏡"}',
  JSON.stringify({ notes: 'x'.repeat(1000) }),
]

describe('webhook signatures', () => {
  it('equal the reference library’s for every message, and its verifier accepts them', () => {
    for (let round = 0; round < 20; round++) {
      const secret = newWebhookSecret()
      const id = `evt_${round}_${crypto.randomUUID()}`
      // Milliseconds that are not whole seconds: both sign the whole seconds only.
      const at = new Date(Date.now() - round * 1234 - 567)
      for (const body of BODIES) {
        const headers = signMessage([secret], id, at, body)
        expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(id, at, body))
        expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)))
        expect(headers['webhook-id']).toBe(id)
        expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow()
      }
    }
  })

  it('during a rotation carry one signature per secret, each verified by its own secret alone', () => {
    const [current, previous, other] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()]
    const body = BODIES[1] ?? ''
    const at = new Date()
    const headers = signMessage([current, previous], 'evt_rotation', at, body)
    const signatures = headers['webhook-signature'].split(' ')
    expect(signatures).toHaveLength(2)
    expect(signatures[0]).toBe(new Webhook(current).sign('evt_rotation', at, body))
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow()
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow()
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow(/No matching signature/)
  })
})
