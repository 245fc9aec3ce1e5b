// A worker of `hearth serve --workers <n>` (see primary.ts): the API alone, set up by the
// environment the primary gave it, until the primary sends SIGTERM.
import cluster from 'node:cluster'
import { loadConfig } from '../config.ts'
import { serve } from '../serve.ts'
import { appliedMigrationsLine } from '../store/migrate.ts'

export async function runWorker(): Promise<number> {
  // Ctrl-C reaches every process of the terminal's group: the primary alone decides, and stops
  // the workers with SIGTERM. A repeated SIGTERM (say from a supervisor that signals the whole
  // group, and from the primary) does not cut the drain short; the primary kills a worker that hangs.
  process.on('SIGINT', () => {
    // Ignored: see above.
  })
  const stopRequested = new Promise<void>((resolve) => process.on('SIGTERM', () => resolve()))
  try {
    const service = await serve(loadConfig(), 'api')
    // The primary migrated before it forked, so a worker has nothing left to apply; if it ever did, say so.
    const migrated = appliedMigrationsLine(service.store.migrations)
    if (migrated) process.stdout.write(`${migrated}\n`)
    await stopRequested
    await service.close()
    return 0
  } finally {
    // The channel to the primary would keep this process alive; closing it ourselves also tells
    // the primary's cluster that this worker ends on purpose.
    cluster.worker?.disconnect()
  }
}
