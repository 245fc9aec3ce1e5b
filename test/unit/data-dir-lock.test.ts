// The embedded database's directory lock: commands started together queue behind one another,
// however long the queue, and a command stuck holding the directory is still reported.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { acquireDataDirLock, DataDirBusyError, lockPathOf } from '../../src/operator/data-dir-lock.ts'

const dirs: string[] = []
function freshDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hearth-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Stands in for another hearth command holding the directory: a live pid (ours), its own `since`. */
function holdAs(dataDir: string, since: string): void {
  writeFileSync(lockPathOf(dataDir), JSON.stringify({ pid: process.pid, role: 'cli', since }))
}

describe('acquireDataDirLock', () => {
  it('waits behind a queue of commands for longer than waitMs in all, as long as the directory keeps changing hands', async () => {
    const dataDir = freshDir()
    const waitMs = 3_000
    holdAs(dataDir, 'command-0')
    const acquiring = acquireDataDirLock(dataDir, 'cli', { waitMs })
    // Fifteen commands, each holding it for 300 ms: 4.5 s in all, half again the wait allowed for one.
    const started = Date.now()
    for (let command = 1; command <= 15; command++) {
      await sleep(300)
      holdAs(dataDir, `command-${String(command)}`)
    }
    await sleep(300)
    rmSync(lockPathOf(dataDir))
    const lock = await acquiring
    expect(Date.now() - started).toBeGreaterThan(waitMs)
    expect(lock.holder).toMatchObject({ pid: process.pid, role: 'cli' })
    lock.release()
  })

  it('gives up, naming the holder, when one command keeps the directory for waitMs', async () => {
    const dataDir = freshDir()
    holdAs(dataDir, 'stuck')
    const error: unknown = await acquireDataDirLock(dataDir, 'cli', { waitMs: 300 }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DataDirBusyError)
    expect((error as DataDirBusyError).message).toBe(
      `a hearth command (pid ${String(process.pid)}) is using the embedded database in ${dataDir}; try again when it ends`,
    )
  })
})
