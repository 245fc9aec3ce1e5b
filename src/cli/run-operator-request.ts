// Carries out an operator request from the CLI without ever opening an embedded database that a
// server holds: on PostgreSQL it connects directly (the database handles concurrency); on the
// embedded database it asks the running server over its control socket, or, when no server
// runs, takes the data directory's lock for the duration of the command.
import type { Config } from '../config.ts'
import { openStore } from '../store/db.ts'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  acquireDataDirLock,
  COMMAND_LOCK_WAIT_MS,
  currentHolder,
  DataDirBusyError,
  type DataDirLock,
} from '../operator/data-dir-lock.ts'
import { sendControlRequest } from '../operator/control-socket.ts'
import { runOperation } from '../operator/operations.ts'
import { OperatorError, type OperatorRequest } from '../operator/requests.ts'
import { CliError } from './cli-error.ts'

/**
 * How long it waits for a server that holds the directory but does not listen yet: a first start
 * creates and migrates the database, which can take a minute on a busy machine, and the compiled
 * CLI can be asking within a fraction of a second of the server taking the lock.
 */
const SERVER_START_WAIT_MS = 120_000

export async function runOperatorRequest(config: Config, request: OperatorRequest): Promise<unknown> {
  if (config.databaseUrl) return runDirect(config, request)
  const started = Date.now()
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
        if ((code === 'ENOENT' || code === 'ECONNREFUSED') && Date.now() < started + SERVER_START_WAIT_MS) {
          await sleep(100)
          continue
        }
        throw new CliError(
          `the running server (pid ${holder.pid}) did not take the command: ${(error as Error).message}`,
          1,
        )
      }
    }
    let lock: DataDirLock
    try {
      lock = await acquireDataDirLock(config.dataDir, 'cli', { waitMs: COMMAND_LOCK_WAIT_MS })
    } catch (error) {
      // A server took the directory meanwhile: go round and ask it.
      if (
        error instanceof DataDirBusyError &&
        error.holder.role === 'server' &&
        Date.now() < started + SERVER_START_WAIT_MS
      )
        continue
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

async function runDirect(config: Config, request: OperatorRequest): Promise<unknown> {
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 })
  try {
    return await runOperation(store.db, request, store.migrations)
  } catch (error) {
    if (error instanceof OperatorError) throw new CliError(error.message, 2)
    throw error
  } finally {
    await store.close()
  }
}
