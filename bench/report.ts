// The markdown the benchmark prints: the environment, then one row per case with the API's
// numbers, the ceiling's, their ratio and the issue's target next to it.
import { RSS_TARGET_MB, SCALE_TARGETS, type BenchCase, type CaseName } from './cases.ts'
import type { LoadResult } from './load.ts'
import type { CpuUse } from './cpu.ts'
import type { Machine } from './machine.ts'

export interface CaseOutcome {
  benchCase: BenchCase
  /** The case's row label in this run (some name the page or the org's size). */
  label: string
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
  /** A read case measured on several API instances at once (--instances), same connections in total. */
  scaleOut: { instances: number; result: LoadResult; cpu: CpuUse | undefined; attempts: number } | undefined
}

export interface RunInfo {
  machine: Machine
  storeKind: string
  serverVersion: string
  date: string
  command: string
  /** Households of the org the cases run against. */
  households: number
  totalHouseholds: number
  orgs: number
  /** Households of the reference org (list-ref), with several orgs. */
  referenceHouseholds: number | undefined
  instances: number
  members: number
  searchHits: number
  seedSeconds: number
  connections: number
  duration: number
  warmup: number
  /** What makes some rows mean less than they say (printed with the environment). */
  notes: string[]
}

const MB = 1024 * 1024

export function fixed(value: number, digits = 0): string {
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
    info.orgs > 1
      ? `- data: ${fixed(info.totalHouseholds)} households, ${fixed(info.members)} members in ${info.orgs} orgs (seeded in ${fixed(info.seedSeconds, 1)} s); the cases run against an org of ${fixed(info.households)} households, list-ref against one of ${fixed(info.referenceHouseholds ?? 0)}; "smi" matches ${fixed(info.searchHits)} in the first`
      : `- data: ${fixed(info.households)} households, ${fixed(info.members)} members in one org (seeded in ${fixed(info.seedSeconds, 1)} s); "smi" matches ${fixed(info.searchHits)}`,
    `- load: autocannon, ${info.connections} connections, ${info.warmup} s warm-up + ${info.duration} s measured per case, API and ceiling each${info.instances > 1 ? `, and the read cases again on ${info.instances} API instances (${info.connections} connections split between them)` : ''}`,
    `- command: \`${info.command}\``,
    ...info.notes.map((note) => `- note: ${note}`),
  ]
}

export function resultTable(outcomes: CaseOutcome[]): string[] {
  const lines = [
    '| case | req/s | p50 ms | p99 ms | peak server RSS MB | ceiling req/s | ratio | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ]
  for (const { benchCase, label, api, ceiling, responseBytes, peakRssBytes } of outcomes) {
    const ratio = ceiling.reqPerSec > 0 ? api.reqPerSec / ceiling.reqPerSec : 0
    const rss =
      peakRssBytes === undefined
        ? 'n/a'
        : `${fixed(peakRssBytes / MB)} ${peakRssBytes / MB <= RSS_TARGET_MB ? '✓' : '✗'}`
    const target =
      benchCase.target === undefined
        ? '—'
        : `≥ ${percent(benchCase.target)} ${ratio >= benchCase.target ? '✓ met' : '✗ missed'}`
    lines.push(
      `| ${label} (${fixed(responseBytes / 1024, 1)} KB) | ${fixed(api.reqPerSec)} | ${fixed(api.p50Ms)} | ${fixed(api.p99Ms)} | ${rss} | ${fixed(ceiling.reqPerSec)} | ${percent(ratio)} | ${target} |`,
    )
  }
  return lines
}

/** CPU milliseconds per request from cores busy at a rate; undefined when nothing was answered. */
function msPerRequest(cores: number, reqPerSec: number): number | undefined {
  return reqPerSec > 0 ? (cores * 1000) / reqPerSec : undefined
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
  for (const { label, api, cpu, ceilingOthers, attempts } of outcomes) {
    if (!cpu) continue
    const perRequest = (cores: number) => msPerRequest(cores, api.reqPerSec)?.toFixed(2) ?? 'n/a'
    lines.push(
      `| ${label} | ${cpu.server.toFixed(2)} | ${cpu.postgres.toFixed(2)} | ${cpu.loadGenerator.toFixed(2)} | ${cpu.others?.toFixed(2) ?? 'n/a'} | ${perRequest(cpu.server)} | ${perRequest(cpu.postgres)} | ${ceilingOthers?.toFixed(2) ?? 'n/a'} | ${attempts} |`,
    )
  }
  return lines.length > 2
    ? [
        'Cores busy during the API measurement. PGlite runs inside the API process. "other processes" is the rest of the machine',
        "(a neighbour's tests, possibly invisible in our PID namespace); a measurement where it exceeded 0.25 cores was repeated after waiting for quiet.",
        '',
        ...lines,
      ]
    : []
}

/** One case's figures as --json writes them (bench/growth.ts puts runs of several sizes side by side). */
export interface CaseFigures {
  name: CaseName
  label: string
  /** Households of the org the case ran against. */
  households: number
  reqPerSec: number
  ceilingReqPerSec: number
  /** CPU per request of the API process and of PostgreSQL's processes; undefined without /proc. */
  apiCpuMs: number | undefined
  databaseCpuMs: number | undefined
  p50Ms: number
  peakRssBytes: number | undefined
}

export function caseFigures(outcomes: CaseOutcome[], households: number): CaseFigures[] {
  return outcomes.map(({ benchCase, label, api, ceiling, cpu, peakRssBytes }) => ({
    name: benchCase.name,
    label,
    households,
    reqPerSec: api.reqPerSec,
    ceilingReqPerSec: ceiling.reqPerSec,
    apiCpuMs: cpu && msPerRequest(cpu.server, api.reqPerSec),
    databaseCpuMs: cpu && msPerRequest(cpu.postgres, api.reqPerSec),
    p50Ms: api.p50Ms,
    peakRssBytes,
  }))
}

/** Anything that makes a row's numbers suspect: failed requests, connection errors. */
export function warnings(outcomes: CaseOutcome[]): string[] {
  const lines: string[] = []
  for (const { benchCase, api, ceiling, scaleOut } of outcomes) {
    const runs = [
      ['API', api],
      ['ceiling', ceiling],
      ...(scaleOut ? [[`${scaleOut.instances} APIs`, scaleOut.result] as const] : []),
    ] as const
    for (const [who, result] of runs) {
      if (result.non2xx > 0 || result.errors > 0) {
        lines.push(
          `- ${benchCase.name}: ${who} had ${result.non2xx} non-2xx responses and ${result.errors} errors of ${result.requests} requests`,
        )
      }
    }
  }
  return lines
}

/** Read cases on one instance and on several: does adding an API process add throughput? */
export function instancesTable(outcomes: CaseOutcome[]): string[] {
  const rows = outcomes.filter((outcome) => outcome.scaleOut)
  const n = rows[0]?.scaleOut?.instances
  if (n === undefined) return []
  const lines = [
    '',
    `The read cases on ${n} API processes at once (one database; the same connections, split between them), against one:`,
    '',
    `| case | 1 instance req/s | ${n} instances req/s | ${n} ÷ 1 | p50 ms (1 → ${n}) | p99 ms (1 → ${n}) | cores busy with ${n}: API processes / postgres / autocannon / other | runs | target |`,
    '|---|---:|---:|---:|---:|---:|---|---:|---|',
  ]
  for (const { label, api, scaleOut } of rows) {
    if (!scaleOut) continue
    const ratio = api.reqPerSec > 0 ? scaleOut.result.reqPerSec / api.reqPerSec : 0
    const cpu = scaleOut.cpu
    const cores = cpu
      ? `${cpu.server.toFixed(2)} / ${cpu.postgres.toFixed(2)} / ${cpu.loadGenerator.toFixed(2)} / ${cpu.others?.toFixed(2) ?? 'n/a'}`
      : 'n/a'
    const met = ratio >= SCALE_TARGETS.instances ? '✓ met' : '✗ missed'
    lines.push(
      `| ${label} | ${fixed(api.reqPerSec)} | ${fixed(scaleOut.result.reqPerSec)} | ${fixed(ratio, 2)}× | ${fixed(api.p50Ms)} → ${fixed(scaleOut.result.p50Ms)} | ${fixed(api.p99Ms)} → ${fixed(scaleOut.result.p99Ms)} | ${cores} | ${scaleOut.attempts} | ≥ ${SCALE_TARGETS.instances}× ${met} |`,
    )
  }
  return lines
}

/**
 * The issue's size targets, each a comparison of two cases of this run at the same load: how many
 * times longer a request took (the ratio of their req/s; with a fixed number of connections kept
 * busy, the mean time per request is connections ÷ req/s).
 */
export function scaleTable(outcomes: CaseOutcome[], { deepPastEnd }: { deepPastEnd: boolean }): string[] {
  const find = (name: CaseName) => outcomes.find((outcome) => outcome.benchCase.name === name)
  const pairs = [
    { slow: find('list'), fast: find('list-ref'), limit: SCALE_TARGETS.orgGrowth },
    // An empty page past the end costs nothing to skip to: no comparison then. By page number the
    // deep page costs its offset; by cursor it should cost what page 1 does.
    { slow: deepPastEnd ? undefined : find('deep'), fast: find('first'), limit: SCALE_TARGETS.deepOverFirst },
    { slow: find('deep-cursor'), fast: find('first'), limit: SCALE_TARGETS.deepOverFirst },
  ]
  const lines: string[] = []
  for (const { slow, fast, limit } of pairs) {
    if (!slow || !fast || slow.api.reqPerSec <= 0) continue
    const times = fast.api.reqPerSec / slow.api.reqPerSec
    lines.push(
      `| ${slow.label} vs ${fast.label} | ${fixed(times, 2)}× (${fixed(slow.api.reqPerSec)} vs ${fixed(fast.api.reqPerSec)} req/s; p50 ${fixed(slow.api.p50Ms)} vs ${fixed(fast.api.p50Ms)} ms) | ≤ ${limit}× ${times <= limit ? '✓ met' : '✗ missed'} |`,
    )
  }
  if (lines.length === 0) return []
  return [
    '',
    'Time per request of one case against another of this run, at the same load (1 instance; the ratio of their req/s):',
    '',
    '| comparison | time per request | target |',
    '|---|---|---|',
    ...lines,
  ]
}

export function footnotes(): string[] {
  return [
    `Peak server RSS: highest VmRSS of the API process sampled every 100 ms during the case (target ≤ ${RSS_TARGET_MB} MB).`,
    'Ceiling: a bare node:http server in its own process answering every request with a fixed body of the same size.',
    "Latencies are the API's; the size after the case name is the real response body.",
  ]
}
