// `hearth serve --workers <n>`: the API in n worker processes (node:cluster) on one port. The
// primary keeps what there is one of per machine (the store and its migrations, the demo, the
// embed origin, the development identity provider, the demo partner: serve.ts starts them) and
// hands each new connection to the next worker (cluster's round-robin). Workers share nothing
// but the database: sign-in attempts, sessions and the chart signing key are all stored there.
//
// A worker that ends is replaced, unless workers keep ending right after they start: then a new
// one would fail the same way (the database is gone, the code is broken), so the pool gives up and
// the whole service exits 1 for its supervisor to see.
import cluster, { type Worker } from 'node:cluster'
import { hostInUrl, type ApiSettings, type RunningApi } from '../serve.ts'

/** A worker that ends before it listens, or this soon after, ended at its start. */
const SHORT_LIFE_MS = 10_000
/** This many workers in a row ending at their start: the pool gives up. */
const SHORT_LIVES_TO_GIVE_UP = 5
/** Workers bound their own drain by HEARTH_SHUTDOWN_TIMEOUT; this much more, and they are killed. */
const STOP_GRACE_SECONDS = 10

type Phase = 'starting' | 'running' | 'stopping'

export class WorkerPool {
  private phase: Phase = 'starting'
  /** Running or starting workers, oldest first; the time each began to listen. */
  private readonly workers = new Map<Worker, { listeningAt?: number }>()
  private env: Record<string, string> = {}
  private shutdownTimeoutSeconds = 10
  private shortLivesInARow = 0
  private giveUp!: (reason: string) => void
  /** Settles, with the reason, if the pool gives up replacing workers. */
  readonly gaveUp = new Promise<string>((resolve) => (this.giveUp = resolve))

  constructor(private readonly count: number) {}

  /** The process ids of the workers now running, oldest first. */
  pids(): number[] {
    return [...this.workers.keys()].flatMap((worker) => (worker.process.pid === undefined ? [] : [worker.process.pid]))
  }

  /** serve.ts's ApiStarter: forks the workers and waits until each listens. */
  readonly start = async (settings: ApiSettings): Promise<RunningApi> => {
    this.env = workerEnv(settings)
    this.shutdownTimeoutSeconds = settings.config.shutdownTimeoutSeconds
    const first = Array.from({ length: this.count }, () => this.fork())
    let port: number
    try {
      const ports = await Promise.all(first.map((worker) => this.listening(worker)))
      port = ports[0] ?? settings.port
    } catch (error) {
      await this.stop()
      throw error
    }
    // PORT=0 beside HEARTH_PUBLIC_URL leaves the port to the system: replacements take the same one.
    this.env.PORT = String(port)
    this.phase = 'running'
    return { url: `http://${hostInUrl(settings.config.host)}:${port}`, close: () => this.stop() }
  }

  private fork(): Worker {
    const worker = cluster.fork(this.env)
    const state: { listeningAt?: number } = {}
    this.workers.set(worker, state)
    worker.once('listening', () => (state.listeningAt = Date.now()))
    worker.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      // Cluster stops handing connections to a worker once it is both dead and disconnected.
      const ended = () => this.ended(worker, state, code, signal)
      if (worker.isConnected()) worker.once('disconnect', ended)
      else ended()
    })
    return worker
  }

  /** The port the worker listens on; rejects if it ends first (it has printed why). */
  private listening(worker: Worker): Promise<number> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        reject(new Error(`worker ${String(worker.process.pid)} ${describeEnd(code, signal)} before it listened`))
      }
      worker.once('exit', onExit)
      worker.once('listening', (address: { port: number }) => {
        worker.off('exit', onExit)
        resolve(address.port)
      })
    })
  }

  private ended(
    worker: Worker,
    state: { listeningAt?: number },
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    this.workers.delete(worker)
    if (this.phase !== 'running') return
    const pid = String(worker.process.pid)
    const how = describeEnd(code, signal)
    const short = state.listeningAt === undefined || Date.now() - state.listeningAt < SHORT_LIFE_MS
    this.shortLivesInARow = short ? this.shortLivesInARow + 1 : 0
    if (this.shortLivesInARow >= SHORT_LIVES_TO_GIVE_UP) {
      this.phase = 'stopping'
      this.giveUp(
        `workers keep ending right after they start (${this.shortLivesInARow} in a row; the last, ${pid}, ${how}): stopping instead of starting more`,
      )
      return
    }
    const replacement = this.fork()
    const next = String(replacement.process.pid)
    process.stderr.write(`worker ${pid} ${how}; starting worker ${next} in its place\n`)
    this.listening(replacement).then(
      () => {
        if (this.phase === 'running') process.stderr.write(`worker ${next} is listening (in place of ${pid})\n`)
      },
      () => {
        // A replacement that fails is counted when it ends; its own output says why.
      },
    )
  }

  /** SIGTERM to every worker (each drains its requests), then waits for them all to end. */
  private async stop(): Promise<void> {
    this.phase = 'stopping'
    const workers = [...this.workers.keys()]
    const ended = workers.map(
      (worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
    )
    // Not worker.kill(): it waits for every keep-alive connection to close, without a bound.
    for (const worker of workers) worker.process.kill('SIGTERM')
    const backstop = setTimeout(
      () => {
        for (const worker of workers.filter((w) => !w.isDead())) {
          process.stderr.write(
            `worker ${String(worker.process.pid)} did not stop within ${this.shutdownTimeoutSeconds + STOP_GRACE_SECONDS} s: killing it\n`,
          )
          worker.process.kill('SIGKILL')
        }
      },
      (this.shutdownTimeoutSeconds + STOP_GRACE_SECONDS) * 1000,
    )
    try {
      await Promise.all(ended)
    } finally {
      clearTimeout(backstop)
    }
  }
}

/**
 * What a worker needs to serve the API as the primary would: the same port and public URL, the
 * embed origin, and the identity provider (the development one runs in the primary). The demo
 * is prepared once, by the primary, so that the banner's key is the only one made.
 */
function workerEnv({ port, publicUrl, embedOrigin, oidc }: ApiSettings): Record<string, string> {
  return {
    PORT: String(port),
    HEARTH_PUBLIC_URL: publicUrl,
    HEARTH_EMBED_URL: embedOrigin,
    HEARTH_DEMO: '0',
    ...(oidc ? { OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: oidc.clientId, OIDC_CLIENT_SECRET: oidc.clientSecret } : {}),
  }
}

function describeEnd(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was ended by ${signal}` : `exited with code ${String(code)}`
}
