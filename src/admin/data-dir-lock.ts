// One process at a time owns an embedded-database directory: PGlite has no cross-process
// locking, and two processes writing the same files would corrupt it. The owner holds
// <dataDir>/hearth.lock (created exclusively); a server also names its control socket there,
// so the CLI can hand its command to the running server instead of opening the files itself.
import { mkdirSync, openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

export interface LockHolder {
  pid: number
  role: 'server' | 'cli'
  /** The control socket of a server holder. */
  socket?: string
  since: string
}

export class DataDirBusyError extends Error {
  constructor(
    readonly holder: LockHolder,
    readonly lockPath: string,
  ) {
    super(
      holder.role === 'server'
        ? `another Hearth server (pid ${holder.pid}) is using the embedded database in ${path.dirname(lockPath)}`
        : `a hearth command (pid ${holder.pid}) is using the embedded database in ${path.dirname(lockPath)}; try again when it ends`,
    )
  }
}

export interface DataDirLock {
  holder: LockHolder
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function lockPathOf(dataDir: string): string {
  return path.join(dataDir, 'hearth.lock')
}

/** The live holder of the directory, if any. A lock left by a dead process is removed. */
export function currentHolder(dataDir: string): LockHolder | undefined {
  const lockPath = lockPathOf(dataDir)
  let holder: LockHolder
  try {
    holder = JSON.parse(readFileSync(lockPath, 'utf8')) as LockHolder
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    // Unreadable or half-written: treat as held for now; the writer finishes within microseconds.
    return { pid: -1, role: 'cli', since: new Date().toISOString() }
  }
  if (alive(holder.pid)) return holder
  try {
    unlinkSync(lockPath)
  } catch {
    // Another process removed it first.
  }
  return undefined
}

/**
 * Takes the directory. Waits up to `waitMs` for a holder to finish (a CLI command takes a
 * second or two); throws DataDirBusyError if it is still held then.
 */
export async function acquireDataDirLock(
  dataDir: string,
  role: LockHolder['role'],
  options: { socket?: string; waitMs?: number } = {},
): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true })
  const lockPath = lockPathOf(dataDir)
  const deadline = Date.now() + (options.waitMs ?? 0)
  const holder: LockHolder = { pid: process.pid, role, since: new Date().toISOString(), ...(options.socket ? { socket: options.socket } : {}) }
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeSync(fd, JSON.stringify(holder))
      closeSync(fd)
      let released = false
      return {
        holder,
        release() {
          if (released) return
          released = true
          try {
            unlinkSync(lockPath)
          } catch {
            // Already gone.
          }
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const current = currentHolder(dataDir)
    if (current === undefined) continue
    if (Date.now() >= deadline) throw new DataDirBusyError(current, lockPath)
    await sleep(50)
  }
}
