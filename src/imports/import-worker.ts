// Processes imports in the background, in every instance: a few lanes, each claiming a batch of
// pending lines (store/imports.ts claimLines: SKIP LOCKED, with a lease), processing it (the new
// households of the batch in one transaction, import-batch.ts; updates and anything the batch could
// not write one line at a time, import-line.ts), and claiming again until none is left, then
// polling. A table-driven loop rather than a job queue: the lines already are the queue, each
// line's result is written in the transaction that wrote its household, and an instance that dies
// leaves only leases, which run out, so another instance (or this one restarted) continues from
// the first unprocessed line.
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { databaseFault } from '../store/database-faults.ts'
import {
  claimLines,
  deleteAbandonedUploads,
  finishImports,
  LineClaimLost,
  recordLine,
  type ClaimedLine,
} from '../store/imports.ts'
import { processLine } from './import-line.ts'
import { processBatch } from './import-batch.ts'

export interface ImportWorkerOptions {
  /**
   * Claims processed at once by this instance, each holding one pool connection while it writes: 4
   * of the pool's 10 leave the rest to requests (on the bench, 4 lanes: 927 households/s, 2: 809, 1: 641).
   */
  lanes: number
  /**
   * Lines one claim takes: the new households among them are written in one transaction
   * (import-batch.ts). 100 (bench/RESULTS.md): 927 households/s against 611 for 16 and 1,020 for 200
   * on the bench, while a batch's transaction stays well under a second (it holds back the change
   * feed's horizon, and on PGlite every request, while it runs).
   */
  batch: number
  /** How long a claim lasts: an instance that stopped leaves its claimed lines to others after it. */
  leaseMs: number
  /** How often an idle lane looks for work (an upload to this instance wakes them at once). */
  idleMs: number
}

export const DEFAULT_IMPORT_WORKER: ImportWorkerOptions = { lanes: 4, batch: 100, leaseMs: 60_000, idleMs: 1000 }

/** How long an upload may stay half received before its lines are deleted (an instance died mid-upload). */
const ABANDONED_UPLOAD_MS = 6 * 3600_000

export class ImportWorker {
  private stopping = false
  private lanes: Promise<void>[] = []
  private sleepers = new Set<() => void>()

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: ImportWorkerOptions,
    private readonly log: (error: unknown, message: string) => void,
  ) {}

  start(): void {
    for (let i = 0; i < this.options.lanes; i++) this.lanes.push(this.lane())
  }

  private isStopping(): boolean {
    return this.stopping
  }

  /** Wakes the idle lanes: there is work (an upload was just received). */
  kick(): void {
    for (const wake of this.sleepers) wake()
  }

  /** Stops after the lines in progress; lines claimed but not begun are left to their lease. */
  async stop(): Promise<void> {
    this.stopping = true
    this.kick()
    await Promise.all(this.lanes)
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        this.sleepers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
    })
  }

  private async lane(): Promise<void> {
    let lastSweep = 0
    while (!this.stopping) {
      let claimed: ClaimedLine[]
      try {
        if (Date.now() - lastSweep > 3600_000) {
          lastSweep = Date.now()
          await deleteAbandonedUploads(this.db, new Date(Date.now() - ABANDONED_UPLOAD_MS))
        }
        claimed = await claimLines(this.db, this.options.batch, this.options.leaseMs)
      } catch (error) {
        this.log(error, 'could not claim import lines')
        await this.sleep(this.options.idleMs)
        continue
      }
      if (claimed.length === 0) {
        await this.sleep(this.options.idleMs)
        continue
      }
      let oneByOne: ClaimedLine[]
      try {
        oneByOne = await processBatch(this.db, claimed, this.log)
      } catch (error) {
        // The connection was lost: the lines stay pending, claimed again when their lease runs out.
        this.log(error, 'an import batch waits for the database')
        await this.sleep(this.options.idleMs)
        continue
      }
      for (const line of oneByOne) {
        // stop() may have been called while the line before was written.
        if (this.isStopping()) break
        await this.process(line)
      }
      await finishImports(this.db, [...new Set(claimed.map((line) => line.importId))]).catch((error: unknown) =>
        this.log(error, 'could not mark imports done'),
      )
    }
  }

  private async process(line: ClaimedLine): Promise<void> {
    try {
      await processLine(this.db, line)
    } catch (error) {
      // This lane's lease on the line ran out and another lane took it: its write was rolled back,
      // and the line is the other lane's to apply and record (recording an error here would fail too).
      if (error instanceof LineClaimLost) {
        this.log(error, 'an import line was taken over by another lane; this lane wrote nothing for it')
        return
      }
      // The database failed (it is restarting, a connection dropped): the line stays pending and is
      // claimed again when its lease runs out. Anything else would fail again: it fails the line.
      if (databaseFault(error as Error) !== undefined) {
        this.log(error, 'an import line waits for the database')
        await this.sleep(this.options.idleMs)
        return
      }
      this.log(error, 'an import line failed')
      await recordLine(this.db, line, {
        status: 'error',
        externalId: null,
        householdId: null,
        error: { code: 'internal_error', message: 'Something failed on our side with this line.', field: null },
      }).catch((recordError: unknown) => this.log(recordError, 'could not record an import line'))
    }
  }
}
