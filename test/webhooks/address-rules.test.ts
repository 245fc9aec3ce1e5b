// Where deliveries may go. The URL rule at registration (https; http only to localhost outside
// production), and at every attempt in production: the host is resolved (here by an injected
// resolver), every address checked, and the connection made to exactly the address checked, so a
// name re-pointed after the check (DNS rebinding) cannot send it elsewhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEndpointUrl } from '../../src/webhooks/endpoint-url.ts'
import { refusedRange, resolveForDelivery, type Resolver } from '../../src/webhooks/address-guard.ts'
import { sendAttempt } from '../../src/webhooks/send.ts'
import { ConnectionPools } from '../../src/webhooks/connections.ts'
import { signMessage, newWebhookSecret } from '../../src/webhooks/secrets.ts'
import { startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'

/** A signal that never ends: these resolvers answer at once. */
const open = new AbortController().signal

const resolverOf =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))

describe('endpoint URLs', () => {
  it('takes https, and http only to localhost outside production', () => {
    expect(parseEndpointUrl('https://crm.example.com/hooks?x=1', true)).toEqual({
      ok: true,
      url: 'https://crm.example.com/hooks?x=1',
    })
    for (const local of ['http://localhost:4000/h', 'http://127.0.0.1:4000/h', 'http://[::1]:4000/h']) {
      expect(parseEndpointUrl(local, false).ok, local).toBe(true)
      expect(parseEndpointUrl(local, true).ok, local).toBe(false)
    }
    for (const bad of [
      'http://crm.example.com/h',
      'http://127.0.0.2/h',
      'ftp://crm.example.com/',
      'https://u:p@crm.example.com/',
      'https://crm.example.com/#frag',
      'not a url',
      `https://crm.example.com/${'x'.repeat(2000)}`,
    ])
      expect(parseEndpointUrl(bad, false).ok, bad).toBe(false)
  })
})

describe('addresses in production', () => {
  it('refuses private, loopback, link-local, unique-local, multicast, unspecified and mapped forms', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
    ])
      expect(refusedRange(address), address).toBeDefined()
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])
      expect(refusedRange(address), address).toBeUndefined()
  })

  it('judges the IPv6 forms that carry an IPv4 address by it, or refuses them when they lead nowhere public', () => {
    const refused = {
      // IPv4-compatible (::/96, deprecated): ipaddr.js calls these unicast; refused whatever they carry.
      '::7f00:1': 'IPv4-compatible',
      '::a00:1': 'IPv4-compatible',
      '::5db8:d822': 'IPv4-compatible',
      // NAT64's well-known prefix leads to its IPv4 address, which is judged.
      '64:ff9b::7f00:1': 'NAT64 of 127.0.0.1, loopback',
      '64:ff9b::a9fe:a9fe': 'NAT64 of 169.254.169.254, linkLocal',
      '64:ff9b::a00:1': 'NAT64 of 10.0.0.1, private',
      // NAT64's local-use prefix leads wherever the local translator says.
      '64:ff9b:1::5db8:d822': 'NAT64 local-use',
      // 6to4 carries its IPv4 address in bits 16 to 47.
      '2002:7f00:1::': '6to4 of 127.0.0.1, loopback',
      '2002:a00:1::1': '6to4 of 10.0.0.1, private',
      '2002:c0a8:101::1': '6to4 of 192.168.1.1, private',
      '2001::1': 'teredo',
      '::ffff:0:7f00:1': 'rfc6145',
    }
    for (const [address, range] of Object.entries(refused)) expect(refusedRange(address), address).toBe(range)
    // Public IPv4 addresses reached through NAT64 (an IPv6-only network's DNS64 answers these) or 6to4 are fine.
    for (const address of ['64:ff9b::5db8:d822', '2002:5db8:d822::1'])
      expect(refusedRange(address), address).toBeUndefined()
  })

  it('refuses a host when any of its addresses is not public, and takes a literal address as it is', async () => {
    await expect(
      resolveForDelivery('hooks.example', resolverOf('93.184.216.34', '10.0.0.5'), true, open),
    ).rejects.toThrow(/10\.0\.0\.5 \(private\)/)
    await expect(resolveForDelivery('[::1]', resolverOf(), true, open)).rejects.toThrow(/loopback/)
    await expect(resolveForDelivery('hooks.example', resolverOf('93.184.216.34'), true, open)).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    })
    // Outside production, loopback receivers are fine.
    await expect(resolveForDelivery('localhost', resolverOf('127.0.0.1'), false, open)).resolves.toMatchObject({
      address: '127.0.0.1',
    })
  })
})

describe('an attempt connects to the address it checked', () => {
  let receiver: Receiver
  const connections = new ConnectionPools()
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    connections.close()
    await receiver.close()
  })

  const attempt = (url: string, production: boolean, resolve: Resolver) => {
    const secret = newWebhookSecret()
    const body = JSON.stringify({ id: 'msg_1', type: 'webhook.test' })
    const headers = signMessage([secret], 'msg_1', new Date(), body)
    return {
      secret,
      result: sendAttempt(
        url,
        headers,
        body,
        { timeoutMs: 2000, production, resolve },
        connections,
        new AbortController().signal,
      ),
    }
  }

  it('a name that resolves to a private address in production is refused, and nothing is sent', async () => {
    const port = new URL(receiver.url).port
    const before = receiver.requests.length
    const { result } = attempt(`https://rebind.invalid:${port}/hook`, true, resolverOf('127.0.0.1'))
    expect(await result).toMatchObject({ succeeded: false, responseStatus: null })
    expect((await result).error).toMatch(/^refused: rebind\.invalid resolves to 127\.0\.0\.1 \(loopback\)/)
    expect(receiver.requests).toHaveLength(before)
  })

  it('a host name that never resolves fails the attempt at its timeout, and says so', async () => {
    let stopped: AbortSignal | undefined
    const hanging: Resolver = (_hostname, signal) => {
      stopped = signal
      return new Promise(() => undefined)
    }
    const started = performance.now()
    const result = await sendAttempt(
      'https://hangs.invalid/hook',
      signMessage([newWebhookSecret()], 'msg_1', new Date(), '{}'),
      '{}',
      { timeoutMs: 300, production: true, resolve: hanging },
      connections,
      new AbortController().signal,
    )
    expect(result).toMatchObject({
      succeeded: false,
      responseStatus: null,
      error: 'the host name did not resolve within 0.3 s',
    })
    expect(performance.now() - started).toBeLessThan(1500)
    // The resolver was told to stop (the system's cancels its DNS queries).
    expect(stopped?.aborted).toBe(true)
  })

  it('a host name DNS does not know is a failure naming it', async () => {
    const unknown: Resolver = async () => {
      throw Object.assign(new Error('queryA ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' })
    }
    const { result } = attempt('https://nowhere.invalid/hook', true, unknown)
    expect((await result).error).toBe('the host name does not resolve (nowhere.invalid: ENOTFOUND)')
  })

  it('production refuses plain http before resolving anything', async () => {
    let asked = false
    const { result } = attempt('http://hooks.example/hook', true, async () => {
      asked = true
      return []
    })
    expect((await result).error).toBe('refused: production delivers to https:// only')
    expect(asked).toBe(false)
  })

  it('the connection goes to the resolver’s answer, not to a second look-up of the name', async () => {
    // .invalid never resolves in DNS: the request can only arrive through the pinned address.
    const port = new URL(receiver.url).port
    let lookups = 0
    const { secret, result } = attempt(`http://pinned.invalid:${port}/hook`, false, async () => {
      lookups++
      return [{ address: '127.0.0.1', family: 4 }]
    })
    expect(await result).toMatchObject({ succeeded: true, responseStatus: 204 })
    expect(lookups).toBe(1)
    const request = receiver.requests.at(-1)!
    expect(request.headers.host).toBe(`pinned.invalid:${port}`)
    expect(verifyRequest(secret, request)).toMatchObject({ id: 'msg_1' })
  })
})
