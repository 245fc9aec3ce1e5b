// Starts a TypeScript file as a separate Node process (its own event loop, so the load generator
// never competes with the server inside one process) and waits until it reports its port over
// IPC. The child is registered for cleanup: SIGTERM first so it can close its store, then SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { onCleanup } from './cleanup.ts'

/** The first message every bench child sends its parent. */
export interface ListeningMessage {
  type: 'listening'
  port: number
}

export function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'listening'
}

export interface Child {
  process: ChildProcess
  pid: number
  port: number
  /** Sends a message over IPC and resolves with the child's next reply (the ceiling's reconfiguration). */
  ask(message: object): Promise<unknown>
  stop(): Promise<void>
}

export interface ChildOptions {
  name: string
  script: string
  env?: Record<string, string>
  /** Extra Node flags, e.g. --cpu-prof. */
  nodeFlags?: string[]
  startTimeoutMs?: number
}

export async function startChild(options: ChildOptions): Promise<Child> {
  // TypeScript runs under tsx; a compiled script (api-server-script.ts) by plain node.
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : []
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...loader, options.script], {
    env: { ...process.env, ...options.env },
    // stdout/stderr go straight to ours, so server warnings and crashes are visible.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const pid = child.pid
  if (pid === undefined) throw new Error(`could not start ${options.name}`)
  let exited = false
  child.once('exit', () => {
    exited = true
  })

  const stop = async (): Promise<void> => {
    if (exited) return
    const gone = once(child, 'exit')
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await gone
    clearTimeout(timer)
  }
  onCleanup(`stop ${options.name} (pid ${pid})`, stop)

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.name} did not report a port within ${options.startTimeoutMs ?? 60_000} ms`)),
      options.startTimeoutMs ?? 60_000,
    )
    child.on('message', (message) => {
      if (isListeningMessage(message)) {
        clearTimeout(timer)
        resolve(message.port)
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`${options.name} exited before listening (code ${code}, signal ${signal})`))
    })
  })

  const ask = (message: object) =>
    new Promise<unknown>((resolve, reject) => {
      child.once('message', resolve)
      child.send(message, (error) => {
        if (error) reject(error)
      })
    })
  return { process: child, pid, port, ask, stop }
}
