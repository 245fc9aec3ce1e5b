// Load shedding: one process works on at most `max` requests at once. Past that a request is
// answered 503 overloaded with Retry-After at once — before authentication, so it costs no
// database work — instead of queueing until everything times out. Routes marked `operational`
// (health and metrics) are exempt: a load balancer must still be able to ask how this instance is doing.
//
// A request that waits in its organization's queue (plugins/org-concurrency.ts) does no work: it
// is set aside and stops counting until it starts. Otherwise one organization's queue would fill
// this limit and every other organization would be answered 503 — the unfairness the queue exists
// to prevent.
import type { ServerResponse } from 'node:http'
import { ApiError } from '../errors.ts'
import type { App } from '../types.ts'

export interface LoadShedding {
  /** Stops counting the request answered by `response` (it waits, doing nothing); call the result when it starts. */
  setAside(response: ServerResponse): () => void
}

export function registerConcurrencyLimit(app: App, max: number): LoadShedding {
  let inFlight = 0
  /** The responses counted now; a request is counted at most once, and given back exactly once. */
  const counted = new WeakSet<ServerResponse>()
  const release = (response: ServerResponse): void => {
    if (counted.delete(response)) inFlight--
  }
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config.operational) return
    if (inFlight >= max) {
      throw new ApiError(
        'overloaded',
        `This instance is busy (${max} requests at once). Retry in a second.`,
        {},
        { 'Retry-After': '1' },
      )
    }
    inFlight++
    counted.add(reply.raw)
    // 'close' fires once per response, whether it was sent in full or the client went away.
    reply.raw.once('close', () => release(reply.raw))
  })
  return {
    setAside(response) {
      if (!counted.has(response))
        return () => {
          // Not counted: nothing to give back.
        }
      release(response)
      // Once it starts it counts again (a request already accepted is not refused for it), unless it is over.
      return () => {
        if (response.closed || counted.has(response)) return
        inFlight++
        counted.add(response)
      }
    },
  }
}
