// The `hearth webhooks` operations: the operator's view of any organization's endpoints, under the
// rules the admin API applies (src/webhooks/endpoint-operations.ts), and in the same shapes as its
// answers. An endpoint is named by its id alone, as `hearth keys revoke` names a key.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { deleteEndpoint, findEndpoint, listEndpoints } from '../store/webhook-endpoints.ts'
import { listDeliveries, resendDelivery } from '../store/webhook-deliveries.ts'
import {
  changeEndpoint,
  createEndpoint,
  rotateEndpointSecret,
  sendTestMessage,
} from '../webhooks/endpoint-operations.ts'
import { presentDelivery, presentEndpoint } from '../webhooks/present.ts'
import { DELIVERY_PAGE } from '../webhooks/endpoint-rules.ts'
import { loadConfig } from '../config.ts'
import { OperatorError, type OperatorRequest } from './requests.ts'

type WebhookRequest = Extract<OperatorRequest, { op: `webhooks.${string}` }>

const notFound = (id: string) =>
  new OperatorError(`no webhook endpoint has the id ${id}; "hearth webhooks list --org <id>" shows them`)

export async function runWebhookOperation(db: Kysely<Database>, request: WebhookRequest): Promise<unknown> {
  // The production rule for URLs is the one of the process that runs this: the server's when the
  // CLI goes through its control socket, the CLI's own otherwise (run it with the server's NODE_ENV).
  const production = loadConfig().production
  switch (request.op) {
    case 'webhooks.add': {
      const { endpoint, secret } = await createEndpoint(db, request.orgId, request, production)
      return { endpoint: presentEndpoint(endpoint), secret }
    }
    case 'webhooks.list':
      return { endpoints: (await listEndpoints(db, request.orgId)).map((row) => presentEndpoint(row)) }
    case 'webhooks.remove':
      if (!(await deleteEndpoint(db, undefined, request.endpointId.toLowerCase()))) throw notFound(request.endpointId)
      return { id: request.endpointId.toLowerCase(), removed: true }
    case 'webhooks.enable': {
      const endpoint = await changeEndpoint(
        db,
        undefined,
        request.endpointId.toLowerCase(),
        { enabled: request.enabled },
        production,
      )
      if (!endpoint) throw notFound(request.endpointId)
      return presentEndpoint(endpoint)
    }
    case 'webhooks.rotate': {
      const rotated = await rotateEndpointSecret(
        db,
        undefined,
        request.endpointId.toLowerCase(),
        request.overlapSeconds,
      )
      if (!rotated) throw notFound(request.endpointId)
      return { endpoint: presentEndpoint(rotated.endpoint), secret: rotated.secret }
    }
    case 'webhooks.test': {
      const delivery = await sendTestMessage(db, undefined, request.endpointId.toLowerCase())
      if (!delivery) throw notFound(request.endpointId)
      return { delivery: presentDelivery(delivery) }
    }
    case 'webhooks.deliveries': {
      const endpointId = request.endpointId.toLowerCase()
      if (!(await findEndpoint(db, undefined, endpointId))) throw notFound(request.endpointId)
      const limit = request.limit ?? DELIVERY_PAGE.default
      if (limit < 1 || limit > DELIVERY_PAGE.max)
        throw new OperatorError(`--limit must be a whole number from 1 to ${DELIVERY_PAGE.max}`, 'limit')
      const rows = await listDeliveries(db, {
        orgId: undefined,
        endpointId,
        status: undefined,
        before: undefined,
        limit,
      })
      return { deliveries: rows.map(presentDelivery) }
    }
    case 'webhooks.retry': {
      const endpointId = request.endpointId.toLowerCase()
      const delivery = await resendDelivery(db, undefined, endpointId, request.deliveryId.toLowerCase())
      if (!delivery) {
        if (!(await findEndpoint(db, undefined, endpointId))) throw notFound(request.endpointId)
        throw new OperatorError(
          `endpoint ${endpointId} has no delivery ${request.deliveryId}; "hearth webhooks deliveries ${endpointId}" lists them`,
        )
      }
      return { delivery: presentDelivery(delivery) }
    }
  }
}
