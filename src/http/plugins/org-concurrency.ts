// A fair share of the database between organizations, in this process. Each organization is
// guaranteed a share of `perOrg` units of requests in progress; it may borrow up to twice that in
// all (the process's capacity, 2 × perOrg: with the default share of half the pool, the pool) while
// no other organization is waiting. Without this, one organization sending 200 expensive searches
// at once takes every pool connection (HEARTH_DB_POOL_MAX) and everyone else's requests wait behind
// them until they time out, even while it stays within its rate budget (budgets count requests,
// not the time they hold the database).
//
// - A request weighs its rate-limit cost (src/rate-limit/costs.ts: a search with its exact total
//   weighs 5, most requests 1), at most the whole share so that it can always run: an organization
//   flooding expensive searches holds few of them at once, and its CPU on the database with them.
// - Borrowing keeps the limit work-conserving: one busy organization alone gets the whole pool, as
//   before, and loses nothing; as soon as another organization's request waits, only requests
//   within their share start, so the newcomer waits for at most the requests already running.
// - Excess requests wait in their organization's own FIFO queue, never in front of another
//   organization's; freed units go to the queues in turn. A queue is bounded in length and in waiting
//   time; past either the request is answered 429 concurrency_limited with Retry-After and resetAt.
//   429 rather than 503: the cause is this client's own number of requests in progress, not the
//   service being down, so it is the client that should slow down, and a load balancer or an alert
//   on 5xx must not see a busy tenant as a broken instance.
//
// The hook runs after authentication (it needs the principal's organization) and before the body is
// read, so a waiting request holds a socket, not its body. Routes without a principal (public ones,
// health, sign-in) are not limited here.
import type { ServerResponse } from 'node:http'
import { ApiError } from '../errors.ts'
import type { Metrics } from '../../observability/metrics.ts'
import type { App } from '../types.ts'
import type { LoadShedding } from './concurrency-limit.ts'

export interface OrgConcurrencyOptions {
  /** Units of requests in progress guaranteed to each organization in this process; 0 turns the limit off. */
  perOrg: number
  /** Requests of one organization that may wait; more are refused at once. */
  queueLength: number
  /** The longest a request waits to start before it is refused, in milliseconds. */
  waitMs: number
}

/** How far an organization may go past its share while no other organization waits. */
export const BORROW_FACTOR = 2

/** Why a waiting request was refused (the `reason` label of org_concurrency_refusals_total). */
export type OrgConcurrencyRefusal = 'queue_full' | 'wait_timeout'

type Outcome = 'granted' | OrgConcurrencyRefusal | 'gone'

/** What the slots report to the metrics: totals over all organizations, never an organization. */
export type OrgConcurrencyObserver = Pick<Metrics, 'orgConcurrencyChanged' | 'orgConcurrencyRefused'>

interface Waiter {
  weight: number
  grant(): void
}

interface OrgState {
  /** Units in progress. */
  running: number
  waiting: Waiter[]
}

/** The per-organization shares and queues of one process. */
class OrgSlots {
  private readonly orgs = new Map<string, OrgState>()
  private readonly capacity: number
  /** Units in progress over all organizations. */
  private running = 0
  /** Requests waiting over all organizations. */
  private waiting = 0

  constructor(
    private readonly options: OrgConcurrencyOptions,
    private readonly observer: OrgConcurrencyObserver,
  ) {
    this.capacity = options.perOrg * BORROW_FACTOR
  }

  /** A request's weight: its cost, at least 1, at most the whole share (or it could never start). */
  weightOf(cost: number): number {
    return Math.min(this.options.perOrg, Math.max(1, Math.ceil(cost)))
  }

  /**
   * Takes `weight` units of `orgId`'s share for the request answered by `response`, waiting in the
   * organization's queue if it cannot start now. The units are given back when the response closes
   * (sent in full, failed, or the client went away): Node emits 'close' exactly once per response.
   */
  acquire(orgId: string, weight: number, response: ServerResponse): Promise<Outcome> {
    // The client may have left while it was being authenticated: its 'close' has already fired.
    if (response.closed) return Promise.resolve('gone')
    const org = this.orgs.get(orgId) ?? { running: 0, waiting: [] }
    this.orgs.set(orgId, org)
    // Behind its own organization's queue, never ahead of it (FIFO within an organization).
    if (org.waiting.length === 0 && this.fits(org, weight)) {
      this.hold(orgId, org, weight, response)
      return Promise.resolve('granted')
    }
    if (org.waiting.length >= this.options.queueLength) {
      this.observer.orgConcurrencyRefused('queue_full')
      this.forgetIfIdle(orgId, org)
      return Promise.resolve('queue_full')
    }
    return new Promise<Outcome>((resolve) => {
      const leaveQueue = () => {
        clearTimeout(timer)
        response.off('close', onClose)
        org.waiting.splice(org.waiting.indexOf(waiter), 1)
        this.waiting--
        this.observer.orgConcurrencyChanged({ waiting: -1 })
      }
      const giveUp = (outcome: Exclude<Outcome, 'granted'>) => {
        leaveQueue()
        this.forgetIfIdle(orgId, org)
        // Its leaving may let a borrower elsewhere start.
        this.startWaiting()
        resolve(outcome)
      }
      const onClose = () => giveUp('gone')
      const timer = setTimeout(() => {
        this.observer.orgConcurrencyRefused('wait_timeout')
        giveUp('wait_timeout')
      }, this.options.waitMs)
      const waiter: Waiter = {
        weight,
        grant: () => {
          leaveQueue()
          this.hold(orgId, org, weight, response)
          resolve('granted')
        },
      }
      org.waiting.push(waiter)
      this.waiting++
      this.observer.orgConcurrencyChanged({ waiting: 1 })
      response.once('close', onClose)
    })
  }

  /** Within the organization's share; or borrowing room left in the process while nobody else waits. */
  private fits(org: OrgState, weight: number): boolean {
    if (org.running + weight <= this.options.perOrg) return true
    const othersWaiting = this.waiting - org.waiting.length > 0
    return !othersWaiting && this.running + weight <= this.capacity
  }

  private hold(orgId: string, org: OrgState, weight: number, response: ServerResponse): void {
    org.running += weight
    this.running += weight
    this.observer.orgConcurrencyChanged({ inProgress: 1 })
    response.once('close', () => {
      org.running -= weight
      this.running -= weight
      this.observer.orgConcurrencyChanged({ inProgress: -1 })
      this.forgetIfIdle(orgId, org)
      this.startWaiting()
    })
  }

  /**
   * Starts every waiting request that fits now, taking the organizations in turn (the first of each
   * queue, round after round), so that freed units are shared rather than taken by the longest queue.
   */
  private startWaiting(): void {
    let started = true
    while (started && this.waiting > 0) {
      started = false
      for (const org of [...this.orgs.values()]) {
        const next = org.waiting[0]
        if (next && this.fits(org, next.weight)) {
          next.grant()
          started = true
        }
      }
    }
  }

  /** An organization with nothing running or waiting takes no memory. */
  private forgetIfIdle(orgId: string, org: OrgState): void {
    if (org.running === 0 && org.waiting.length === 0) this.orgs.delete(orgId)
  }
}

/** Seconds a refused client is told to wait: slots free up as fast as requests finish. */
const RETRY_AFTER_SECONDS = 1

const MESSAGES: Record<Exclude<Outcome, 'granted'>, string> = {
  queue_full: 'Your organization has too many requests in progress or waiting at once on this instance.',
  wait_timeout: "Your organization's requests in progress did not finish in time for this one to start.",
  gone: "The connection closed while this request waited for one of your organization's slots.",
}

/**
 * Registers the share; call it after registerAuthentication, whose onRequest hook sets
 * request.principal. `load` is the process's load shedding: a waiting request stops counting there.
 */
export function registerOrgConcurrencyLimit(
  app: App,
  options: OrgConcurrencyOptions,
  observer: OrgConcurrencyObserver,
  load: LoadShedding,
): void {
  if (options.perOrg === 0) return
  const slots = new OrgSlots(options, observer)
  app.addHook('onRequest', async (request, reply) => {
    const orgId = request.principal?.orgId
    if (orgId === undefined) return
    // The cost the authentication hook charged the budgets with (computed once per request).
    const cost = request.rateLimitCost
    const resume = load.setAside(reply.raw)
    const outcome = await slots.acquire(orgId, slots.weightOf(cost), reply.raw)
    resume()
    if (outcome === 'granted') return
    // Nothing was done: the budget charged for it is given back (refundRateLimit keeps `keep` units).
    await request.refundRateLimit?.(0)
    // 'gone' too is refused, though nobody reads the answer: the handler must not run without a slot.
    const resetAt = new Date(Date.now() + RETRY_AFTER_SECONDS * 1000).toISOString()
    throw new ApiError(
      'concurrency_limited',
      `${MESSAGES[outcome]} Wait for some of them to finish, or retry after ${RETRY_AFTER_SECONDS} s (at ${resetAt}).`,
      { resetAt },
      { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    )
  })
}
