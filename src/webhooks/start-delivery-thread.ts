// On PostgreSQL an API process sends its webhooks from a thread of its own, at a lower CPU priority
// than the API's requests (delivery-thread.ts says why). A thread that ends by a fault (a crash in
// it, not a database that went away: the queue rides those out) is logged and started again after
// a pause, so that the process goes on serving and deliveries resume.
import type { Worker } from 'node:worker_threads'
import { startThread } from '../start-thread.ts'
import { errorFrom } from '../thread-errors.ts'
import type { DeliveryThreadData, DeliveryThreadMessage, DeliveryThreadRequest } from './delivery-thread-messages.ts'

/** The delivery thread's nice value: about a tenth of a core's share against the API's thread when both want the CPU. */
export const DELIVERY_NICENESS = 10
/** Connections of the delivery thread's own pool (its dispatcher, the recording of attempts). */
const DELIVERY_POOL_MAX = 4
const RESTART_DELAY_MS = 5000
/** How long close() waits for attempts in flight to be handed back before it ends the thread. */
const CLOSE_WAIT_MS = 30_000

type Logger = (error: unknown, message: string) => void

export class DeliveryThread {
  /** The running thread, and when it ends (known from its start, so that an end is never missed). */
  private worker: { thread: Worker; ended: Promise<unknown> } | undefined
  private closing = false
  private restart: NodeJS.Timeout | undefined
  /** A start again after a fault, while it is under way (close() waits for it, then closes what it started). */
  private restarting: Promise<void> | undefined
  /** The nice value the thread runs at; undefined when the system refused to lower it. */
  niceness: number | undefined

  private constructor(
    private readonly data: DeliveryThreadData,
    private readonly log: Logger,
  ) {}

  /** Starts the thread; rejects with the reason when webhooks cannot start. */
  static async start(data: Omit<DeliveryThreadData, 'niceness' | 'poolMax'>, log: Logger): Promise<DeliveryThread> {
    const thread = new DeliveryThread({ ...data, niceness: DELIVERY_NICENESS, poolMax: DELIVERY_POOL_MAX }, log)
    await thread.launch()
    return thread
  }

  private async launch(): Promise<void> {
    const worker = await startThread(new URL('./delivery-thread.ts', import.meta.url), this.data)
    // Not events.once: it rejects on an 'error' event, which no one would be waiting to catch.
    this.worker = { thread: worker, ended: new Promise((resolve) => worker.once('exit', resolve)) }
    // Kept for the thread's whole life: an 'error' event without a listener would end this process.
    worker.on('error', (error) => this.log(error, 'webhooks: the delivery thread failed'))
    let running = false
    const started = new Promise<number | undefined>((resolve, reject) => {
      worker.on('message', (message: DeliveryThreadMessage) => {
        if (message.kind === 'started') {
          running = true
          resolve(message.niceness)
        } else if (message.kind === 'failed') reject(errorFrom(message.error))
        else if (message.kind === 'log') this.log(errorFrom(message.error), message.message)
      })
      worker.once('exit', (code: number) => {
        reject(new Error(`the webhook delivery thread ended (exit code ${code}) before it started`))
        // One that never started is the launch's failure, said by whoever launched it.
        if (!running || this.closing) return
        this.log(
          new Error(`exit code ${code}`),
          `webhooks: the delivery thread ended; starting it again in ${RESTART_DELAY_MS / 1000} s`,
        )
        this.scheduleRestart()
      })
    })
    try {
      this.niceness = await started
    } catch (error) {
      this.worker = undefined
      throw error
    }
  }

  private scheduleRestart(): void {
    this.worker = undefined
    this.restart = setTimeout(() => {
      if (this.closing) return
      this.restarting = this.launch().catch((error: unknown) => {
        this.log(error, `webhooks: the delivery thread could not start; trying again in ${RESTART_DELAY_MS / 1000} s`)
        if (!this.closing) this.scheduleRestart()
      })
    }, RESTART_DELAY_MS)
  }

  /** Tests: ends the thread as a fault in it would (it is started again after the pause). */
  async endAsByFault(): Promise<void> {
    await this.worker?.thread.terminate()
  }

  /** Stops: attempts in flight are handed back to the queue, then the thread and its pool end. */
  async close(): Promise<void> {
    this.closing = true
    clearTimeout(this.restart)
    await this.restarting
    const worker = this.worker
    if (!worker) return
    worker.thread.postMessage({ kind: 'close' } satisfies DeliveryThreadRequest)
    const timer = setTimeout(() => void worker.thread.terminate(), CLOSE_WAIT_MS)
    await worker.ended
    clearTimeout(timer)
  }
}
