// On PostgreSQL an API process sends webhooks from a thread of its own at a lower CPU priority
// (src/webhooks/delivery-thread.ts): deliveries are made, signed, from that thread; the kernel runs
// it at nice 10 while this process's main thread keeps its priority; a thread ended by a fault is
// started again and deliveries resume; close() ends it. PostgreSQL only: on the embedded database
// webhooks run beside the API.
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds, openTestStore, type TestStore } from '../helpers/stores.ts'
import { call, createOrgWithKey, startApp, type TestApp } from '../helpers/app.ts'
import { eventually, startReceiver, verifyRequest, type Receiver } from '../helpers/webhook-receiver.ts'
import { addEndpoint } from '../helpers/webhooks.ts'
import { DELIVERY_NICENESS, DeliveryThread } from '../../src/webhooks/start-delivery-thread.ts'
import { startDeliveries } from '../../src/webhooks/start-deliveries.ts'
import { loadConfig } from '../../src/config.ts'

const onPostgres = storeKinds().includes('postgres')
/** Short attempt timeouts and a fast retry schedule, as the other webhook tests run them. */
const TEST_WEBHOOK_ENV = {
  HEARTH_WEBHOOK_TIMEOUT: '2',
  HEARTH_WEBHOOK_CONCURRENCY: '4',
  HEARTH_WEBHOOK_RETRY_UNIT_MS: '1',
}
const log = (error: unknown, message: string) => console.error(message, error)

/** The nice value of each thread of this process, by thread id, as the kernel reports it (proc(5): field 19 of stat). */
function threadNiceness(): Map<number, number> {
  const niceness = new Map<number, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    } catch {
      continue // The thread ended between the listing and the read.
    }
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    niceness.set(Number(tid), Number(fields[19 - 3]))
  }
  return niceness
}

const lowered = () => [...threadNiceness().values()].filter((nice) => nice === DELIVERY_NICENESS).length

describe.runIf(onPostgres)('webhooks from their own lower-priority thread on PostgreSQL', () => {
  let store: TestStore
  let api: TestApp
  let receiver: Receiver
  let thread: DeliveryThread | undefined

  beforeAll(async () => {
    store = await openTestStore('postgres')
    api = await startApp(store)
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await thread?.close()
    await api?.close()
    await receiver?.close()
    await store?.drop()
  })

  it('delivers signed events from a thread at nice 10, the main thread untouched', async () => {
    const mainBefore = threadNiceness().get(process.pid)
    const loweredBefore = lowered()
    const config = loadConfig({ DATABASE_URL: store.env.DATABASE_URL, ...TEST_WEBHOOK_ENV })
    const started = await startDeliveries(store, config, log)
    if (!(started instanceof DeliveryThread)) throw new Error('on PostgreSQL webhooks run in a DeliveryThread')
    thread = started
    expect(thread.niceness).toBe(DELIVERY_NICENESS)
    expect(lowered()).toBe(loweredBefore + 1)
    expect(threadNiceness().get(process.pid)).toBe(mainBefore)

    const org = await createOrgWithKey(store.db)
    const endpoint = await addEndpoint(store, org.orgId, receiver.url)
    const created = await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'Thread Family' } })
    expect(created.status).toBe(201)
    const request = await eventually(() => receiver.requests.find((r) => r.body.includes('Thread Family')))
    const verified = verifyRequest(endpoint.secret, request) as { type: string; householdId: string }
    expect(verified.type).toBe('household.created')
  })

  it('starts the thread again when a fault ends it, and deliveries resume', async () => {
    if (!thread) throw new Error('the first test starts the thread')
    const org = await createOrgWithKey(store.db)
    await addEndpoint(store, org.orgId, receiver.url)
    const before = lowered()
    await thread.endAsByFault()
    await eventually(() => lowered() === before - 1)
    // Written while no thread runs: delivered once the new one has started (after 5 s).
    await call(`${api.url}/api/v1/relationships`, org.key, { body: { name: 'After The Fault' } })
    await eventually(() => receiver.requests.find((r) => r.body.includes('After The Fault')), 30_000)
    expect(lowered()).toBe(before)
  }, 40_000)

  it('close() ends the thread', async () => {
    if (!thread) throw new Error('the first test starts the thread')
    const before = lowered()
    await thread.close()
    thread = undefined
    expect(lowered()).toBe(before - 1)
  })
})

describe('webhooks beside the API on the embedded database', () => {
  it('runs in this thread, not in a delivery thread', async () => {
    const store = await openTestStore('pglite')
    try {
      const service = await startDeliveries(store, loadConfig(TEST_WEBHOOK_ENV), log)
      expect(service).not.toBeInstanceOf(DeliveryThread)
      await service.close()
    } finally {
      await store.drop()
    }
  })
})
