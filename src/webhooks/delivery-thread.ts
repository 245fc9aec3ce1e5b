// The webhook delivery thread of an API process on PostgreSQL (start-delivery-thread.ts starts it).
// Sending a delivery costs CPU (its signature, TLS, recording the attempt) on the same cores as the
// API's requests. Here it runs at a lower CPU priority: on Linux a nice value is a thread's own, so
// the API's thread keeps its share while the machine is busy, deliveries fall behind in a burst of
// writes and catch up after it. The thread has its own small pool, so its queries never wait for
// the API's connections either.
import os from 'node:os'
import { parentPort, workerData, type MessagePort } from 'node:worker_threads'
import { openStore, type Store } from '../store/db.ts'
import { startWebhooks, type WebhookService } from './service.ts'
import { errorFields } from '../thread-errors.ts'
import type { DeliveryThreadData, DeliveryThreadMessage } from './delivery-thread-messages.ts'

/** Lowers this thread's priority; answers the nice value it got, or undefined if the system refused. */
function lowerPriority(niceness: number): number | undefined {
  try {
    // Without a pid: the calling thread (Linux keeps a nice value per thread).
    os.setPriority(niceness)
    return os.getPriority()
  } catch {
    return undefined
  }
}

async function run(port: MessagePort, data: DeliveryThreadData): Promise<void> {
  const say = (message: DeliveryThreadMessage) => port.postMessage(message)
  const niceness = lowerPriority(data.niceness)
  let store: Store | undefined
  let service: WebhookService
  try {
    store = await openStore({
      databaseUrl: data.databaseUrl,
      dataDir: '',
      poolMax: data.poolMax,
      statementTimeoutMs: data.statementTimeoutMs,
      onConnectionLost: (error) =>
        say({
          kind: 'log',
          message: 'webhooks: a database connection was lost; it is replaced when next needed',
          error: errorFields(error),
        }),
    })
    service = await startWebhooks(store, data.settings, (error, message) =>
      say({ kind: 'log', message, error: errorFields(error) }),
    )
  } catch (error) {
    await store?.close().catch(() => {
      // Why it could not start matters more than what closing says.
    })
    say({ kind: 'failed', error: errorFields(error) })
    port.close()
    return
  }
  const opened = store
  // The one request there is: close (DeliveryThreadRequest).
  port.once('message', () => {
    void service
      .close()
      .finally(() => opened.close())
      .finally(() => {
        say({ kind: 'closed' })
        port.close()
      })
  })
  say({ kind: 'started', niceness })
}

if (!parentPort) throw new Error('delivery-thread.ts runs as a worker thread (start-delivery-thread.ts starts it)')
await run(parentPort, workerData as DeliveryThreadData)
