// What the API's thread and the webhook delivery thread (delivery-thread.ts) say to each other.
import type { WebhookSettings } from './service.ts'
import type { ErrorFields } from '../thread-errors.ts'

export interface DeliveryThreadData {
  databaseUrl: string
  /** The delivery thread's own pool: its dispatcher and the recording of attempts. */
  poolMax: number
  statementTimeoutMs: number
  /** How much lower the thread's CPU priority is than the API's (a nice value, 0–19). */
  niceness: number
  /** The service's settings, but for the host name resolver (a function does not cross threads). */
  settings: Omit<WebhookSettings, 'resolve'>
}

/** From the API's thread: stop (attempts in flight are handed back to the queue), then end. */
export interface DeliveryThreadRequest {
  kind: 'close'
}

export type DeliveryThreadMessage =
  /** Webhooks run; `niceness` is the priority the thread got (undefined: the system refused it). */
  | { kind: 'started'; niceness: number | undefined }
  /** They could not start (the database refused, the queue's schema could not be set up). */
  | { kind: 'failed'; error: ErrorFields }
  /** Something for the API's log. */
  | { kind: 'log'; message: string; error: ErrorFields }
  | { kind: 'closed' }
