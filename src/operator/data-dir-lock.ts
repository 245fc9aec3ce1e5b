// One process at a time owns an embedded-database directory: PGlite has no cross-process
// locking, and two processes writing the same files would corrupt it. The owner holds
// <dataDir>/hearth.lock (created exclusively); a server also names its control socket there,
// so the CLI can hand its command to the running server instead of opening the files itself.
import { mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs'
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

/**
 * How long a server or a command waits for a hearth command that holds the directory. A command
 * holds it for a second or two on a quiet machine, but opening the embedded database is CPU-bound
 * and took over 15 s on a loaded 2-core machine; a minute still reports a stuck command.
 */
export const COMMAND_LOCK_WAIT_MS = 60_000

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

function readHolder(lockPath: string): LockHolder | undefined | 'unreadable' {
  try {
    return JSON.parse(readFileSync(lockPath, 'utf8')) as LockHolder
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable'
  }
}

/**
 * Removes a lock left by a dead process. Two processes may find the same dead lock; the one that
 * creates the breaker file checks, under it, that the lock is still the dead one before removing
 * it, so that it never removes a lock the other has just taken.
 */
function breakStaleLock(lockPath: string, stale: LockHolder): void {
  const breaker = `${lockPath}.break`
  let fd: number
  try {
    fd = openSync(breaker, 'wx', 0o600)
  } catch {
    // Someone else is breaking it (or crashed doing so long ago: then clear their breaker).
    try {
      if (Date.now() - statSync(breaker).mtimeMs > 10_000) unlinkSync(breaker)
    } catch {
      // Gone already.
    }
    return
  }
  try {
    const current = readHolder(lockPath)
    if (typeof current === 'object' && current.pid === stale.pid && current.since === stale.since) unlinkSync(lockPath)
  } finally {
    closeSync(fd)
    unlinkSync(breaker)
  }
}

/** The live holder of the directory, if any. A lock left by a dead process is removed. */
export function currentHolder(dataDir: string): LockHolder | undefined {
  const lockPath = lockPathOf(dataDir)
  const holder = readHolder(lockPath)
  if (holder === undefined) return undefined
  // Unreadable means half-written: its writer finishes within microseconds, so report it held.
  if (holder === 'unreadable') return { pid: -1, role: 'cli', since: new Date().toISOString() }
  if (alive(holder.pid)) return holder
  breakStaleLock(lockPath, holder)
  return readHolder(lockPath) === undefined ? undefined : holder
}

/**
 * Takes the directory. While hearth commands hold it (a second or two each), waits, giving up
 * only when one holder has kept it for `waitMs`: commands started together queue behind each
 * other however many there are, and a stuck command is still reported. A server holding it is
 * not waited for: DataDirBusyError at once (a command then asks the server instead; a second
 * server gives up).
 */
export async function acquireDataDirLock(
  dataDir: string,
  role: LockHolder['role'],
  options: { socket?: string; waitMs?: number } = {},
): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true })
  const lockPath = lockPathOf(dataDir)
  const waitMs = options.waitMs ?? 0
  let deadline = Date.now() + waitMs
  let waitingFor: LockHolder | undefined
  const holder: LockHolder = {
    pid: process.pid,
    role,
    since: new Date().toISOString(),
    ...(options.socket ? { socket: options.socket } : {}),
  }
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
    if (current.role === 'server' && alive(current.pid)) throw new DataDirBusyError(current, lockPath)
    if (current.pid !== waitingFor?.pid || current.since !== waitingFor.since) {
      // The directory changed hands: the queue moves, so the wait starts again for this holder.
      waitingFor = current
      deadline = Date.now() + waitMs
    }
    if (Date.now() >= deadline) throw new DataDirBusyError(current, lockPath)
    await sleep(50)
  }
}
