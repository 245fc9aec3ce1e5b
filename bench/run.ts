// `npm run bench`: seeds a store, starts the API and the ceiling in their own processes, loads
// each case on both with autocannon, and prints a markdown report. Progress goes to stderr, the
// report to stdout. Everything created is removed at the end, on failure and on Ctrl-C.
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { openStore } from '../src/store/db.ts'
import { USAGE, UsageError, parseArgs, type BenchOptions } from './args.ts'
import { CASES, type CaseContext } from './cases.ts'
import { cleanup, cleanupOnSignals, onCleanup } from './cleanup.ts'
import { provisionDatabase, type BenchDatabase } from './database.ts'
import { seed, type SeedResult } from './seed.ts'
import { startChild, type Child } from './child.ts'
import { probe, type LoadSettings } from './load.ts'
import { measureQuietly } from './quiet.ts'
import { measureCpu } from './cpu.ts'
import { readRss, sampleRss } from './rss.ts'
import { describeMachine } from './machine.ts'
import { cpuTable, environmentLines, footnotes, resultTable, warnings, type CaseOutcome } from './report.ts'

const log = (line: string) => console.error(line)

async function seedDatabase(database: BenchDatabase, households: number): Promise<SeedResult> {
  log(`Seeding ${households.toLocaleString('en-US')} households into ${database.kind} at ${database.where}…`)
  // Opening the store applies the real migrations, exactly as the server does.
  const store = await openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir, poolMax: 2 })
  try {
    return await seed(store, households, log, (orgId) => {
      // In a database we were given, remove only what we added (households, members and keys cascade).
      if (database.shared && database.databaseUrl) onCleanup('delete the bench org', () => deleteOrg(database.databaseUrl ?? '', orgId))
    })
  } finally {
    // A PGlite directory is opened by one process at a time: the server opens it next.
    await store.close()
  }
}

async function deleteOrg(databaseUrl: string, orgId: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query('DELETE FROM orgs WHERE id = $1', [orgId])
  } finally {
    await client.end()
  }
}

function startApi(database: BenchDatabase, options: BenchOptions): Promise<Child> {
  const env: Record<string, string> = database.databaseUrl ? { BENCH_DATABASE_URL: database.databaseUrl } : { BENCH_DATA_DIR: database.dataDir }
  const nodeFlags = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []
  return startChild({ name: 'API server', script: fileURLToPath(new URL('./server.ts', import.meta.url)), env, nodeFlags })
}

async function runCases(options: BenchOptions, api: Child, ceiling: Child, context: CaseContext, apiKey: string): Promise<CaseOutcome[]> {
  const headers = { authorization: `Bearer ${apiKey}` }
  const settings: LoadSettings = { connections: options.connections, duration: options.duration, warmup: options.warmup, headers }
  const apiUrl = `http://127.0.0.1:${api.port}`
  const ceilingUrl = `http://127.0.0.1:${ceiling.port}`
  const outcomes: CaseOutcome[] = []
  for (const name of options.cases) {
    const benchCase = CASES[name]
    const request = benchCase.request(context)
    // One real request first: it must succeed, and its size is what the ceiling will send.
    const real = await probe(apiUrl, request, headers)
    if (real.status < 200 || real.status > 299) throw new Error(`${name}: the API answered ${real.status}: ${real.body.slice(0, 500)}`)
    log(`${name}: ${request.method} ${request.path.slice(0, 80)}${request.path.length > 80 ? '…' : ''} → ${real.status}, ${real.bytes} bytes${describeBody(real.body)}`)

    const sampler = sampleRss(api.pid)
    const apiRun = await measureQuietly(apiUrl, request, settings, api.pid, options.retries, log)
    const peakRssBytes = sampler.stop()
    const { result: apiResult, cpu } = apiRun
    log(`  API:     ${Math.round(apiResult.reqPerSec)} req/s, p50 ${apiResult.p50Ms} ms, p99 ${apiResult.p99Ms} ms`)
    if (cpu) {
      log(`           cores busy: API ${cpu.server.toFixed(2)}, postgres processes ${cpu.postgres.toFixed(2)}, autocannon ${cpu.loadGenerator.toFixed(2)}, other processes ${cpu.others?.toFixed(2) ?? 'n/a'}`)
    }

    await ceiling.ask({ size: real.bytes, status: real.status })
    const ceilingRun = await measureQuietly(ceilingUrl, request, settings, ceiling.pid, options.retries, log)
    const ceilingCpu = ceilingRun.cpu ? ` (cores busy: ceiling ${ceilingRun.cpu.server.toFixed(2)}, autocannon ${ceilingRun.cpu.loadGenerator.toFixed(2)}, other processes ${ceilingRun.cpu.others?.toFixed(2) ?? 'n/a'})` : ''
    log(`  ceiling: ${Math.round(ceilingRun.result.reqPerSec)} req/s${ceilingCpu}`)
    outcomes.push({
      benchCase,
      api: apiResult,
      ceiling: ceilingRun.result,
      responseBytes: real.bytes,
      peakRssBytes,
      cpu,
      ceilingOthers: ceilingRun.cpu?.others,
      attempts: apiRun.attempts + ceilingRun.attempts,
    })
  }
  return outcomes
}

/** The list's total and page length, to show in the log that the case does what it says. */
function describeBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as { total?: unknown; households?: unknown[] }
    if (typeof parsed.total === 'number' && Array.isArray(parsed.households)) {
      return ` (total ${parsed.total}, ${parsed.households.length} on the page)`
    }
  } catch {
    // Not JSON: nothing to add.
  }
  return ''
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  let parsed: BenchOptions | 'help'
  try {
    parsed = parseArgs(argv)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`${error.message}\n\n${USAGE}`)
    process.exitCode = 2
    return
  }
  if (parsed === 'help') {
    console.log(USAGE)
    return
  }
  const options = parsed
  cleanupOnSignals()
  try {
    const database = await provisionDatabase(options.store)
    const seeded = await seedDatabase(database, options.households)
    log(`Seeded in ${seeded.seconds} s: ${seeded.members.toLocaleString('en-US')} members, "smi" matches ${seeded.searchHits.toLocaleString('en-US')} households`)
    if (options.cases.includes('deep') && options.households < 50_000) log('note: fewer than 50,000 households, so the deep page (1000) is past the end')

    const api = await startApi(database, options)
    const ceiling = await startChild({ name: 'ceiling server', script: fileURLToPath(new URL('./ceiling-server.ts', import.meta.url)) })
    log(`API server pid ${api.pid} on port ${api.port}, ceiling server pid ${ceiling.pid} on port ${ceiling.port}`)
    const idleRss = readRss(api.pid)
    if (idleRss !== undefined) log(`API server RSS before load: ${Math.round(idleRss / 1024 / 1024)} MB`)
    // The numbers are only comparable on an otherwise idle machine: say so when it is not.
    const idleSince = measureCpu(api.pid)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idle = idleSince()
    if (idle && idle.postgres + (idle.others ?? 0) > 0.25) {
      log(`warning: before the first case, postgres used ${idle.postgres.toFixed(2)} and other processes ${(idle.others ?? 0).toFixed(2)} cores; expect noisy numbers`)
    }

    const outcomes = await runCases(options, api, ceiling, { ids: seeded.ids }, seeded.apiKey)
    const info = {
      machine: describeMachine(),
      storeKind: database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      serverVersion: seeded.serverVersion,
      date: new Date().toISOString().slice(0, 10),
      command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
      households: seeded.households,
      members: seeded.members,
      searchHits: seeded.searchHits,
      seedSeconds: seeded.seconds,
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
    }
    const problems = warnings(outcomes)
    console.log(
      [
        '',
        ...environmentLines(info),
        '',
        ...resultTable(outcomes),
        '',
        ...footnotes(),
        '',
        ...cpuTable(outcomes),
        ...(problems.length > 0 ? ['', '**Warnings** (these rows are suspect):', ...problems] : []),
        '',
      ].join('\n'),
    )
  } finally {
    await cleanup()
  }
}

main().catch(async (error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
  await cleanup()
  process.exitCode = 1
})
