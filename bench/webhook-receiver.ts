// --webhooks: a receiver on loopback that answers every delivery 204 at once, and the measured
// org's endpoint pointing at it (registered in the store before the API processes open it: a
// PGlite directory is opened by one process at a time).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { openStore } from '../src/store/db.ts'
import { createEndpoint } from '../src/webhooks/endpoint-operations.ts'
import type { BenchDatabase } from './database.ts'
import { onCleanup } from './cleanup.ts'

export interface WebhookReceiver {
  /** Deliveries received so far. */
  received(): number
}

export async function startWebhookReceiver(database: BenchDatabase, orgId: string): Promise<WebhookReceiver> {
  let received = 0
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received++
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onCleanup('stop the webhook receiver', () => new Promise<void>((resolve) => server.close(() => resolve())))
  const { port } = server.address() as AddressInfo
  const store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolMax: 1 })
  try {
    await createEndpoint(store.db, orgId, { url: `http://127.0.0.1:${port}/hearth-events` }, false)
  } finally {
    await store.close()
  }
  return { received: () => received }
}
