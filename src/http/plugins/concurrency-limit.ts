// Load shedding: one process works on at most `max` requests at once. Past that a request is
// answered 503 overloaded with Retry-After at once — before authentication, so it costs no
// database work — instead of queueing until everything times out. Routes marked `operational`
// (health and metrics) are exempt: a load balancer must still be able to ask how this instance is doing.
import { ApiError } from '../errors.ts'
import type { App } from '../types.ts'

export function registerConcurrencyLimit(app: App, max: number): void {
  let inFlight = 0
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.operational) return
    if (inFlight >= max) {
      throw new ApiError('overloaded', `This instance is busy (${max} requests at once). Retry in a second.`, {}, { 'Retry-After': '1' })
    }
    inFlight++
    // 'close' fires once per response, whether it was sent in full or the client went away.
    reply.raw.once('close', () => inFlight--)
  })
}
