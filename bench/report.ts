// The markdown the benchmark prints: the environment, then one row per case with the API's
// numbers, the ceiling's, their ratio and the target next to it.
import { RSS_TARGET_MB, type BenchCase } from './cases.ts'
import type { LoadResult } from './load.ts'
import type { CpuUse } from './cpu.ts'
import type { Machine } from './machine.ts'

export interface CaseOutcome {
  benchCase: BenchCase
  api: LoadResult
  ceiling: LoadResult
  /** Bytes of the real response body (the ceiling sends the same number). */
  responseBytes: number
  peakRssBytes: number | undefined
  /** Cores busy per group during the API's measured run; undefined without /proc. */
  cpu: CpuUse | undefined
  /** Other processes' cores during the ceiling's measured run (noise gauge). */
  ceilingOthers: number | undefined
  /** Measurements made, API + ceiling (more than 2: some were repeated for noise). */
  attempts: number
}

export interface RunInfo {
  machine: Machine
  storeKind: string
  serverVersion: string
  date: string
  command: string
  households: number
  members: number
  searchHits: number
  seedSeconds: number
  connections: number
  duration: number
  warmup: number
}

const MB = 1024 * 1024

function fixed(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

function percent(fraction: number): string {
  return `${fixed(fraction * 100, fraction < 0.1 ? 2 : 1)} %`
}

export function environmentLines(info: RunInfo): string[] {
  const { machine } = info
  return [
    `- date: ${info.date}`,
    `- machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, ${machine.os}`,
    `- node: ${machine.node}`,
    `- store: ${info.storeKind} (server ${info.serverVersion})`,
    `- data: ${fixed(info.households)} households, ${fixed(info.members)} members in one org (seeded in ${fixed(info.seedSeconds, 1)} s); "smi" matches ${fixed(info.searchHits)}`,
    `- load: autocannon, ${info.connections} connections, ${info.warmup} s warm-up + ${info.duration} s measured per case, API and ceiling each`,
    `- command: \`${info.command}\``,
  ]
}

export function resultTable(outcomes: CaseOutcome[]): string[] {
  const lines = [
    '| case | req/s | p50 ms | p99 ms | peak server RSS MB | ceiling req/s | ratio | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ]
  for (const { benchCase, api, ceiling, responseBytes, peakRssBytes } of outcomes) {
    const ratio = ceiling.reqPerSec > 0 ? api.reqPerSec / ceiling.reqPerSec : 0
    const rss = peakRssBytes === undefined ? 'n/a' : `${fixed(peakRssBytes / MB)} ${peakRssBytes / MB <= RSS_TARGET_MB ? '✓' : '✗'}`
    const target =
      benchCase.target === undefined ? '—' : `≥ ${percent(benchCase.target)} ${ratio >= benchCase.target ? '✓ met' : '✗ missed'}`
    lines.push(
      `| ${benchCase.label} (${fixed(responseBytes / 1024, 1)} KB) | ${fixed(api.reqPerSec)} | ${fixed(api.p50Ms)} | ${fixed(api.p99Ms)} | ${rss} | ${fixed(ceiling.reqPerSec)} | ${percent(ratio)} | ${target} |`,
    )
  }
  return lines
}

/**
 * Where the CPU went while the API was measured. On a 2-core machine, API + postgres near 2 means
 * the machine was the limit; "other processes" well above 0 means a noisy neighbour.
 */
export function cpuTable(outcomes: CaseOutcome[]): string[] {
  const lines = [
    '| case | API process | postgres processes | autocannon | other processes | API CPU ms / request | postgres CPU ms / request | other processes during ceiling | runs (API + ceiling) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const { benchCase, api, cpu, ceilingOthers, attempts } of outcomes) {
    if (!cpu) continue
    const perRequest = (cores: number) => (api.reqPerSec > 0 ? ((cores * 1000) / api.reqPerSec).toFixed(2) : 'n/a')
    lines.push(
      `| ${benchCase.label} | ${cpu.server.toFixed(2)} | ${cpu.postgres.toFixed(2)} | ${cpu.loadGenerator.toFixed(2)} | ${cpu.others?.toFixed(2) ?? 'n/a'} | ${perRequest(cpu.server)} | ${perRequest(cpu.postgres)} | ${ceilingOthers?.toFixed(2) ?? 'n/a'} | ${attempts} |`,
    )
  }
  return lines.length > 2
    ? [
        'Cores busy during the API measurement. PGlite runs inside the API process. "other processes" is the rest of the machine',
        '(a neighbour\'s tests, possibly invisible in our PID namespace); a measurement where it exceeded 0.25 cores was repeated after waiting for quiet.',
        '',
        ...lines,
      ]
    : []
}

/** Anything that makes a row's numbers suspect: failed requests, connection errors. */
export function warnings(outcomes: CaseOutcome[]): string[] {
  const lines: string[] = []
  for (const { benchCase, api, ceiling } of outcomes) {
    for (const [who, result] of [['API', api], ['ceiling', ceiling]] as const) {
      if (result.non2xx > 0 || result.errors > 0) {
        lines.push(`- ${benchCase.name}: ${who} had ${result.non2xx} non-2xx responses and ${result.errors} errors of ${result.requests} requests`)
      }
    }
  }
  return lines
}

export function footnotes(): string[] {
  return [
    `Peak server RSS: highest VmRSS of the API process sampled every 100 ms during the case (target ≤ ${RSS_TARGET_MB} MB).`,
    'Ceiling: a bare node:http server in its own process answering every request with a fixed body of the same size.',
    'Latencies are the API\'s; the size after the case name is the real response body.',
  ]
}
