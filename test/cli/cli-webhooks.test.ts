// `hearth webhooks …` against a running `hearth serve` on the embedded database (the commands go
// through the server's control socket) that delivers to a real receiver on loopback: register an
// endpoint (secret printed once), a refused URL, a test message signed with that secret, the
// delivery log, send again, rotate, disable and enable, remove.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectOneLineError, hearth, hearthJson, killAll, startServer, UUID } from '../helpers/cli.ts'
import { pgliteTarget, type Target } from '../helpers/cli-targets.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'

const TIMEOUT = 120_000

describe('hearth webhooks with a server running on the embedded database', () => {
  let target: Target
  let env: Record<string, string>
  let receiver: Receiver
  let orgId = ''
  let endpointId = ''
  let secret = ''

  beforeAll(async () => {
    target = await pgliteTarget()
    env = { ...target.env, HEARTH_DEMO: '0', HEARTH_LOG_LEVEL: 'warn' }
    receiver = await startReceiver()
    await startServer(env)
    orgId = String((await hearthJson(['orgs', 'create', '--name', 'Hooks Inc'], env)).id)
  }, TIMEOUT)
  afterAll(async () => {
    await killAll()
    await receiver?.close()
    await target?.cleanup()
  }, TIMEOUT)

  it(
    'adds an endpoint and prints its secret once; refuses a URL that is not https',
    async () => {
      const added = await hearth(
        ['webhooks', 'add', '--org', orgId, '--url', receiver.url, '--types', 'household.created'],
        env,
      )
      expect(added.code, added.stderr).toBe(0)
      expect(added.stdout).toContain('Copy the signing secret now: it is not shown again.')
      secret = /(whsec_\S+)/.exec(added.stdout)?.[1] ?? ''
      expect(secret).not.toBe('')
      endpointId = /endpoint ([0-9a-f-]{36})/.exec(added.stdout)?.[1] ?? ''
      expect(endpointId).toMatch(UUID)
      const listed = await hearthJson(['webhooks', 'list', '--org', orgId], env)
      expect(listed).toMatchObject({
        endpoints: [{ id: endpointId, url: receiver.url, eventTypes: ['household.created'] }],
      })
      expect(JSON.stringify(listed)).not.toContain(secret)
      expectOneLineError(
        await hearth(['webhooks', 'add', '--org', orgId, '--url', 'http://crm.example/hook'], env),
        2,
        'must be https://',
      )
      expectOneLineError(await hearth(['webhooks', 'test', 'nope'], env), 2, 'UUID')
    },
    TIMEOUT,
  )

  it(
    'sends a test message, shows it in the log, and sends it again',
    async () => {
      const queued = await hearthJson(['webhooks', 'test', endpointId], env)
      const delivery = queued.delivery as { id: string; eventId: string }
      const first = await eventually(() => receiver.forEvent(delivery.eventId)[0], 30_000)
      expect(verifyRequest(secret, first)).toMatchObject({ type: 'webhook.test' })
      await eventually(async () => {
        const log = await hearthJson(['webhooks', 'deliveries', endpointId], env)
        return (log.deliveries as { id: string; status: string }[]).some(
          (d) => d.id === delivery.id && d.status === 'succeeded',
        )
      }, 30_000)
      const table = await hearth(['webhooks', 'deliveries', endpointId], env)
      expect(table.stdout).toMatch(new RegExp(`${delivery.id}\\s+webhook\\.test\\s+succeeded\\s+1`))
      const again = await hearth(['webhooks', 'retry', endpointId, delivery.id], env)
      expect(again.code, again.stderr).toBe(0)
      await eventually(() => receiver.forEvent(delivery.eventId)[1], 30_000)
    },
    TIMEOUT,
  )

  it(
    'rotates the secret, disables, enables and removes the endpoint',
    async () => {
      const rotated = await hearthJson(['webhooks', 'rotate-secret', endpointId, '--overlap-seconds', '60'], env)
      expect(String(rotated.secret)).toMatch(/^whsec_/)
      expect(rotated.secret).not.toBe(secret)
      const disabled = await hearth(['webhooks', 'disable', endpointId], env)
      expect(disabled.stdout).toContain('DISABLED')
      expect(disabled.stdout).toContain('Disabled by an admin.')
      expect((await hearth(['webhooks', 'enable', endpointId], env)).stdout).toContain('enabled')
      expect((await hearth(['webhooks', 'remove', endpointId], env)).stdout).toContain(
        `Removed webhook endpoint ${endpointId}`,
      )
      expect((await hearth(['webhooks', 'list', '--org', orgId], env)).stdout).toContain('No webhook endpoints yet')
      expectOneLineError(await hearth(['webhooks', 'remove', endpointId], env), 2, 'no webhook endpoint has the id')
    },
    TIMEOUT,
  )
})
