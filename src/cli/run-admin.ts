// Carries out an admin request from the CLI without ever opening an embedded database that a
// server holds: on PostgreSQL it connects directly (the database handles concurrency); on the
// embedded database it asks the running server over its control socket, or, when no server
// runs, takes the data directory's lock for the duration of the command.
import type { Config } from '../config.ts'
import { openStore } from '../store/db.ts'
import { setTimeout as sleep } from 'node:timers/promises'
import { acquireDataDirLock, currentHolder, DataDirBusyError, type DataDirLock } from '../admin/data-dir-lock.ts'
import { sendControlRequest } from '../admin/control-socket.ts'
import { runAdmin } from '../admin/operations.ts'
import { AdminError, type AdminRequest } from '../admin/requests.ts'
import { CliError } from './cli-error.ts'


/** How long a command waits for another hearth command that holds the embedded database. */
const LOCK_WAIT_MS = 15_000

export async function runAdminRequest(config: Config, request: AdminRequest): Promise<unknown> {
  if (config.databaseUrl) return runDirect(config, request)
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    const holder = currentHolder(config.dataDir)
    if (holder?.role === 'server' && holder.socket) {
      try {
        const response = await sendControlRequest(holder.socket, request)
        if (!response.ok) throw new CliError(response.error, response.exitCode)
        return response.result
      } catch (error) {
        if (error instanceof CliError) throw error
        const code = (error as NodeJS.ErrnoException).code
        // A server that is starting (socket not listening yet) or stopping: look again shortly.
        if ((code === 'ENOENT' || code === 'ECONNREFUSED') && Date.now() < deadline) {
          await sleep(100)
          continue
        }
        throw new CliError(`the running server (pid ${holder.pid}) did not take the command: ${(error as Error).message}`, 1)
      }
    }
    let lock: DataDirLock
    try {
      lock = await acquireDataDirLock(config.dataDir, 'cli', { waitMs: Math.max(0, deadline - Date.now()) })
    } catch (error) {
      // A server took the directory meanwhile: go round and ask it.
      if (error instanceof DataDirBusyError && error.holder.role === 'server' && Date.now() < deadline) continue
      if (error instanceof DataDirBusyError) throw new CliError(error.message, 1)
      throw error
    }
    try {
      return await runDirect(config, request)
    } finally {
      lock.release()
    }
  }
}

async function runDirect(config: Config, request: AdminRequest): Promise<unknown> {
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 })
  try {
    return await runAdmin(store.db, request, store.migrations)
  } catch (error) {
    if (error instanceof AdminError) throw new CliError(error.message, 2)
    throw error
  } finally {
    await store.close()
  }
}
