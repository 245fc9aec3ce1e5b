// Everything the benchmark creates (child processes, temp directories, databases) registers its
// undo here, so one place tears it all down: on success, on an error, and on Ctrl-C / SIGTERM.
// Undos run newest first (a server stops before its database is dropped) and only once.

type Undo = () => Promise<void> | void

const undos: { what: string; undo: Undo }[] = []
let running: Promise<void> | undefined

export function onCleanup(what: string, undo: Undo): void {
  undos.push({ what, undo })
}

export function cleanup(): Promise<void> {
  running ??= (async () => {
    while (undos.length > 0) {
      const step = undos.pop()
      if (!step) break
      try {
        await step.undo()
      } catch (error) {
        // Keep going: one failed undo must not leave the others undone.
        console.error(`cleanup: could not ${step.what}: ${(error as Error).message}`)
      }
    }
  })()
  return running
}

/** Ctrl-C or a kill: clean up, then exit with the conventional 128 + signal code. */
export function cleanupOnSignals(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up…`)
      void cleanup().finally(() => process.exit(code))
    })
  }
}
