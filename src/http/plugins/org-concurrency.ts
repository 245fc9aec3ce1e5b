// A fair share of the database between organizations: in this process, each organization has at
// most `perOrg` authenticated requests in progress at once. The pool has a handful of connections
// (HEARTH_DB_POOL_MAX); without this, one organization sending 200 expensive searches at once takes
// every connection and everyone else's requests wait behind them until they time out, even while
// that organization stays within its rate budget (budgets count requests, not the time they hold).
//
// Excess requests of an organization wait in that organization's own FIFO queue — never in front of
// another organization's requests. A queue is bounded in length and in waiting time; past either the
// request is answered 429 concurrency_limited with Retry-After and resetAt. 429 rather than 503: the
// cause is this client's own number of requests in progress, not the service being down, so it is
// the client that should slow down, and a load balancer or an alert on 5xx must not see a busy
// tenant as a broken instance.
//
// The hook runs after authentication (it needs the principal's organization) and before the body is
// read, so a waiting request holds a socket, not its body. Routes without a principal (public ones,
// health, sign-in) are not limited here.
import type { ServerResponse } from 'node:http'
import { ApiError } from '../errors.ts'
import type { Metrics } from '../../observability/metrics.ts'
import type { App } from '../types.ts'

export interface OrgConcurrencyOptions {
  /** Requests of one organization in progress at once in this process; 0 turns the limit off. */
  perOrg: number
  /** Requests of one organization that may wait for a slot; more are refused at once. */
  queueLength: number
  /** The longest a request waits for a slot before it is refused, in milliseconds. */
  waitMs: number
}

/** Why a waiting request was refused (the `reason` label of org_concurrency_refusals_total). */
export type OrgConcurrencyRefusal = 'queue_full' | 'wait_timeout'

type Outcome = 'granted' | OrgConcurrencyRefusal | 'gone'

/** What the slots report to the metrics: totals over all organizations, never an organization. */
export type OrgConcurrencyObserver = Pick<Metrics, 'orgConcurrencyChanged' | 'orgConcurrencyRefused'>

interface Waiter {
  grant(): void
}

interface OrgState {
  running: number
  waiting: Waiter[]
}

/** The per-organization slots and queues of one process. */
export class OrgSlots {
  private readonly orgs = new Map<string, OrgState>()

  constructor(
    private readonly options: OrgConcurrencyOptions,
    private readonly observer: OrgConcurrencyObserver,
  ) {}

  /**
   * Takes a slot of `orgId` for the request answered by `response`, waiting in the organization's
   * queue if they are all taken. A granted slot is given back when the response closes (sent in
   * full, failed, or the client went away): Node emits 'close' exactly once per response.
   */
  acquire(orgId: string, response: ServerResponse): Promise<Outcome> {
    // The client may have left while it was being authenticated: its 'close' has already fired.
    if (response.closed) return Promise.resolve('gone')
    const org = this.orgs.get(orgId) ?? { running: 0, waiting: [] }
    this.orgs.set(orgId, org)
    if (org.running < this.options.perOrg) {
      this.hold(orgId, org, response)
      return Promise.resolve('granted')
    }
    if (org.waiting.length >= this.options.queueLength) {
      this.observer.orgConcurrencyRefused('queue_full')
      return Promise.resolve('queue_full')
    }
    return new Promise<Outcome>((resolve) => {
      const leaveQueue = () => {
        clearTimeout(timer)
        response.off('close', onClose)
        org.waiting.splice(org.waiting.indexOf(waiter), 1)
        this.observer.orgConcurrencyChanged({ waiting: -1 })
      }
      const giveUp = (outcome: Exclude<Outcome, 'granted'>) => {
        leaveQueue()
        this.forgetIfIdle(orgId, org)
        resolve(outcome)
      }
      const onClose = () => giveUp('gone')
      const timer = setTimeout(() => {
        this.observer.orgConcurrencyRefused('wait_timeout')
        giveUp('wait_timeout')
      }, this.options.waitMs)
      const waiter: Waiter = {
        grant: () => {
          leaveQueue()
          this.hold(orgId, org, response)
          resolve('granted')
        },
      }
      org.waiting.push(waiter)
      this.observer.orgConcurrencyChanged({ waiting: 1 })
      response.once('close', onClose)
    })
  }

  private hold(orgId: string, org: OrgState, response: ServerResponse): void {
    org.running++
    this.observer.orgConcurrencyChanged({ inProgress: 1 })
    response.once('close', () => {
      org.running--
      this.observer.orgConcurrencyChanged({ inProgress: -1 })
      // The slot goes to the organization's longest-waiting request, if any.
      const next = org.waiting[0]
      if (next) next.grant()
      else this.forgetIfIdle(orgId, org)
    })
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
  wait_timeout: 'Your organization\'s requests in progress did not finish in time for this one to start.',
  gone: 'The connection closed while this request waited for one of your organization\'s slots.',
}

/** Registers the limit; call it after registerAuthentication, whose onRequest hook sets request.principal. */
export function registerOrgConcurrencyLimit(app: App, options: OrgConcurrencyOptions, observer: OrgConcurrencyObserver): void {
  if (options.perOrg === 0) return
  const slots = new OrgSlots(options, observer)
  app.addHook('onRequest', async (request, reply) => {
    const orgId = request.principal?.orgId
    if (orgId === undefined) return
    const outcome = await slots.acquire(orgId, reply.raw)
    if (outcome === 'granted') return
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
