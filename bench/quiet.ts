// Measurements on a shared machine. A neighbour's burst (another engineer's tests, possibly in
// another PID namespace and so invisible except in /proc/stat) can take one of the two cores and
// halve a result. Each measurement therefore records the cores everything else used; when that
// exceeds NOISY_CORES the bench waits (up to QUIET_WAIT_MS) for the machine to calm down and
// measures again, up to `retries` times, keeping the quietest attempt. The warm-up runs once,
// before the first attempt.
import { setTimeout as sleep } from 'node:timers/promises'
import type { CaseRequest } from './cases.ts'
import { measureCpu, type CpuUse } from './cpu.ts'
import { measure, warmUp, type LoadResult, type LoadSettings } from './load.ts'

export const NOISY_CORES = 0.25
const QUIET_WAIT_MS = 60_000

export interface QuietMeasurement {
  result: LoadResult
  cpu: CpuUse | undefined
  attempts: number
}

/** Waits until other processes use at most NOISY_CORES for two seconds in a row, or gives up. */
async function waitForQuiet(serverPids: readonly number[], log: (line: string) => void): Promise<void> {
  const deadline = performance.now() + QUIET_WAIT_MS
  let quietSeconds = 0
  while (quietSeconds < 2 && performance.now() < deadline) {
    const since = measureCpu(serverPids)
    await sleep(1000)
    const others = since()?.others ?? 0
    quietSeconds = others <= NOISY_CORES ? quietSeconds + 1 : 0
  }
  if (quietSeconds < 2) log(`    the machine stayed busy for ${QUIET_WAIT_MS / 1000} s; measuring anyway`)
}

/** Loads `urls` together (the connections split between them); `serverPids` are their processes. */
export async function measureQuietly(
  urls: readonly string[],
  request: CaseRequest,
  settings: LoadSettings,
  serverPids: readonly number[],
  retries: number,
  log: (line: string) => void,
): Promise<QuietMeasurement> {
  await warmUp(urls, request, settings)
  let best: { result: LoadResult; cpu: CpuUse | undefined } | undefined
  let attempts = 0
  while (attempts <= retries) {
    attempts++
    const cpuSince = measureCpu(serverPids)
    const result = await measure(urls, request, settings)
    const cpu = cpuSince()
    const others = cpu?.others ?? 0
    if (!best || others < (best.cpu?.others ?? 0)) best = { result, cpu }
    if (others <= NOISY_CORES || attempts > retries) break
    log(
      `    other processes used ${others.toFixed(2)} cores (${Math.round(result.reqPerSec)} req/s): waiting for quiet, then measuring again`,
    )
    await waitForQuiet(serverPids, log)
    // A short warm-up again: the server sat idle while we waited.
    await warmUp(urls, request, { ...settings, warmup: Math.min(settings.warmup, 1) })
  }
  if (!best) throw new Error('no measurement was made')
  return { ...best, attempts }
}
