// `npm run bench`: seeds a store, starts the API and the ceiling in their own processes, loads
// each case on both with autocannon, and prints a markdown report. Progress goes to stderr, the
// report to stdout. Everything created is removed at the end, on failure and on Ctrl-C.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { openStore } from '../src/store/db.ts'
import { USAGE, UsageError, parseArgs, type BenchOptions } from './args.ts'
import { CASES, deepPage, type CaseContext } from './cases.ts'
import { cleanup, cleanupOnSignals, onCleanup } from './cleanup.ts'
import { provisionDatabase, type BenchDatabase } from './database.ts'
import { seed, type SeedResult } from './seed.ts'
import { startWebhookReceiver } from './webhook-receiver.ts'
import { startChild, type Child } from './child.ts'
import { compiledApiServer } from './api-server-script.ts'
import { probe, type LoadSettings } from './load.ts'
import { measureQuietly } from './quiet.ts'
import { measureCpu } from './cpu.ts'
import { readRss, sampleRss } from './rss.ts'
import { describeMachine } from './machine.ts'
import { cpuLimitUnavailable, limitCpu } from './cpu-limit.ts'
import {
  cpuTable,
  environmentLines,
  footnotes,
  instancesTable,
  resultTable,
  scaleTable,
  warnings,
  caseFigures,
  type CaseOutcome,
} from './report.ts'

const log = (line: string) => console.error(line)

const SEED_STATEMENT_TIMEOUT_MS = 3_600_000

async function seedDatabase(database: BenchDatabase, households: number, orgs: number): Promise<SeedResult> {
  const spread = orgs > 1 ? ` across ${orgs} orgs` : ''
  log(`Seeding ${households.toLocaleString('en-US')} households${spread} into ${database.kind} at ${database.where}…`)
  // Opening the store applies the real migrations, exactly as the server does. Without the
  // production statement timeout: a batch on a busy machine, or VACUUM of a million rows, takes longer.
  const store = await openStore({
    databaseUrl: database.databaseUrl,
    dataDir: database.dataDir,
    poolMax: 2,
    statementTimeoutMs: SEED_STATEMENT_TIMEOUT_MS,
  })
  try {
    return await seed(
      store,
      households,
      log,
      (orgId) => {
        // In a database we were given, remove only what we added (households, members and keys cascade).
        if (database.shared && database.databaseUrl)
          onCleanup('delete a bench org', () => deleteOrg(database.databaseUrl ?? '', orgId))
      },
      orgs,
    )
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

function startApi(database: BenchDatabase, options: BenchOptions, instance: number): Promise<Child> {
  const env: Record<string, string> = database.databaseUrl
    ? { BENCH_DATABASE_URL: database.databaseUrl }
    : { BENCH_DATA_DIR: database.dataDir }
  if (options.webhooks) env.BENCH_WEBHOOKS = '1'
  const nodeFlags = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : []
  const name = instance === 0 ? 'API server' : `API server ${instance + 1}`
  return startChild({ name, script: compiledApiServer(), env, nodeFlags })
}

const urlOf = (child: Child) => `http://127.0.0.1:${child.port}`

/** apis[0] is measured alone and against the ceiling; all of apis together for the read cases when there are several. */
async function runCases(
  options: BenchOptions,
  apis: Child[],
  ceiling: Child,
  context: CaseContext,
  apiKey: string,
): Promise<CaseOutcome[]> {
  const headers = { authorization: `Bearer ${apiKey}` }
  const settings: LoadSettings = {
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    headers,
  }
  const [api] = apis
  if (!api) throw new Error('no API server')
  const apiUrl = urlOf(api)
  const ceilingUrl = urlOf(ceiling)
  const outcomes: CaseOutcome[] = []
  for (const name of options.cases) {
    const benchCase = CASES[name]
    const request = benchCase.request(context)
    // One real request first: it must succeed, and its size is what the ceiling will send.
    const real = await probe(apiUrl, request, headers)
    if (real.status < 200 || real.status > 299)
      throw new Error(`${name}: the API answered ${real.status}: ${real.body.slice(0, 500)}`)
    log(
      `${name}: ${request.method} ${request.path.slice(0, 80)}${request.path.length > 80 ? '…' : ''} → ${real.status}, ${real.bytes} bytes${describeBody(real.body)}`,
    )

    const sampler = sampleRss(api.pid)
    const apiRun = await measureQuietly([apiUrl], request, settings, [api.pid], options.retries, log)
    const peakRssBytes = sampler.stop()
    const { result: apiResult, cpu } = apiRun
    log(`  API:     ${Math.round(apiResult.reqPerSec)} req/s, p50 ${apiResult.p50Ms} ms, p99 ${apiResult.p99Ms} ms`)
    if (cpu) {
      log(
        `           cores busy: API ${cpu.server.toFixed(2)}, postgres processes ${cpu.postgres.toFixed(2)}, autocannon ${cpu.loadGenerator.toFixed(2)}, other processes ${cpu.others?.toFixed(2) ?? 'n/a'}`,
      )
    }

    await ceiling.ask({ size: real.bytes, status: real.status })
    const ceilingRun = await measureQuietly([ceilingUrl], request, settings, [ceiling.pid], options.retries, log)
    const ceilingCpu = ceilingRun.cpu
      ? ` (cores busy: ceiling ${ceilingRun.cpu.server.toFixed(2)}, autocannon ${ceilingRun.cpu.loadGenerator.toFixed(2)}, other processes ${ceilingRun.cpu.others?.toFixed(2) ?? 'n/a'})`
      : ''
    log(`  ceiling: ${Math.round(ceilingRun.result.reqPerSec)} req/s${ceilingCpu}`)

    let scaleOut: CaseOutcome['scaleOut']
    if (apis.length > 1 && benchCase.read) {
      // Every instance must give the same answer as the first before they share the load.
      for (const other of apis.slice(1)) {
        const answer = await probe(urlOf(other), request, headers)
        if (answer.status !== real.status || answer.bytes !== real.bytes) {
          throw new Error(
            `${name}: API server on port ${other.port} answered ${answer.status} with ${answer.bytes} bytes, the first ${real.status} with ${real.bytes}`,
          )
        }
      }
      const run = await measureQuietly(
        apis.map(urlOf),
        request,
        settings,
        apis.map((child) => child.pid),
        options.retries,
        log,
      )
      const apisCpu = run.cpu
        ? ` (cores busy: API processes ${run.cpu.server.toFixed(2)}, postgres ${run.cpu.postgres.toFixed(2)}, other processes ${run.cpu.others?.toFixed(2) ?? 'n/a'})`
        : ''
      log(
        `  ${apis.length} APIs: ${Math.round(run.result.reqPerSec)} req/s, p50 ${run.result.p50Ms.toFixed(1)} ms, p99 ${run.result.p99Ms} ms${apisCpu}`,
      )
      scaleOut = { instances: apis.length, ...run }
    }
    outcomes.push({
      benchCase,
      label: benchCase.label(context),
      scaleOut,
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

/** nextCursor of the page before the deep page, asked once by page number (not measured). */
async function cursorBefore(api: Child, deep: CaseContext['deep'], apiKey: string): Promise<string | undefined> {
  const path = `/api/v1/relationships?page=${deep.page - 1}&pageSize=${deep.pageSize}&sortBy=createdAt`
  const response = await fetch(`${urlOf(api)}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })
  if (!response.ok) throw new Error(`the page before the deep page: the API answered ${response.status}`)
  const body = (await response.json()) as { nextCursor?: string | null }
  return body.nextCursor ?? undefined
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
  const cannotLimit = options.apiCpu === undefined ? undefined : cpuLimitUnavailable()
  if (cannotLimit) {
    console.error(cannotLimit)
    process.exitCode = 2
    return
  }
  cleanupOnSignals()
  try {
    const database = await provisionDatabase(options.store)
    const seeded = await seedDatabase(database, options.households, options.orgs)
    const where = seeded.reference
      ? `; measured org ${seeded.households.toLocaleString('en-US')} households, reference org ${seeded.reference.households.toLocaleString('en-US')}`
      : ''
    log(
      `Seeded in ${seeded.seconds} s: ${seeded.members.toLocaleString('en-US')} members${where}, "smi" matches ${seeded.searchHits.toLocaleString('en-US')} households`,
    )
    const receiver = options.webhooks ? await startWebhookReceiver(database, seeded.orgId) : undefined
    const deep = deepPage(options.orgs)
    const deepPastEnd = options.cases.includes('deep') && (deep.page - 1) * deep.pageSize >= seeded.households
    const notes = deepPastEnd
      ? [
          `the measured org has ${seeded.households.toLocaleString('en-US')} households, so the deep page (${deep.page} of ${deep.pageSize}) is past the end: an empty page`,
        ]
      : []
    for (const note of notes) log(`note: ${note}`)

    const apis: Child[] = []
    for (let instance = 0; instance < options.instances; instance++)
      apis.push(await startApi(database, options, instance))
    if (options.apiCpu !== undefined) {
      for (const child of apis) limitCpu(child.pid, options.apiCpu)
      notes.push(
        `each API process capped at ${options.apiCpu} cores (CFS quota, --api-cpu): its ratio to the uncapped ceiling says nothing`,
      )
      log(`note: ${notes.at(-1)}`)
    }
    const [api] = apis
    if (!api) throw new Error('no API server started')
    const ceiling = await startChild({
      name: 'ceiling server',
      script: fileURLToPath(new URL('./ceiling-server.ts', import.meta.url)),
    })
    log(
      `API server pid${apis.length > 1 ? 's' : ''} ${apis.map((child) => `${child.pid} (port ${child.port})`).join(', ')}, ceiling server pid ${ceiling.pid} on port ${ceiling.port}`,
    )
    const idleRss = readRss(api.pid)
    if (idleRss !== undefined) log(`API server RSS before load: ${Math.round(idleRss / 1024 / 1024)} MB`)
    // The numbers are only comparable on an otherwise idle machine: say so when it is not.
    const idleSince = measureCpu(apis.map((child) => child.pid))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const idle = idleSince()
    if (idle && idle.postgres + (idle.others ?? 0) > 0.25) {
      log(
        `warning: before the first case, postgres used ${idle.postgres.toFixed(2)} and other processes ${(idle.others ?? 0).toFixed(2)} cores; expect noisy numbers`,
      )
    }

    const reference = seeded.reference && { apiKey: seeded.reference.apiKey, households: seeded.reference.households }
    const deepCursor = options.cases.includes('deep-cursor') ? await cursorBefore(api, deep, seeded.apiKey) : undefined
    if (options.cases.includes('deep-cursor') && !deepCursor) {
      notes.push('the page before the deep page is the last (or past the end): no deep-cursor case')
      log(`note: ${notes.at(-1)}`)
      options.cases = options.cases.filter((name) => name !== 'deep-cursor')
    }
    const context: CaseContext = { ids: seeded.ids, households: seeded.households, deep, deepCursor, reference }
    const outcomes = await runCases(options, apis, ceiling, context, seeded.apiKey)
    const info = {
      machine: describeMachine(),
      storeKind: database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      serverVersion: seeded.serverVersion,
      date: new Date().toISOString().slice(0, 10),
      command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
      households: seeded.households,
      totalHouseholds: seeded.totalHouseholds,
      orgs: seeded.orgs,
      referenceHouseholds: seeded.reference?.households,
      instances: options.instances,
      members: seeded.members,
      searchHits: seeded.searchHits,
      seedSeconds: seeded.seconds,
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      notes,
    }
    if (receiver) {
      notes.push(
        `webhooks on: one endpoint of every event type; the receiver got ${receiver.received().toLocaleString('en-US')} deliveries during the run (deliveries lag the writes: the dispatcher polls every second)`,
      )
      log(`note: ${notes.at(-1)}`)
    }
    const problems = warnings(outcomes)
    if (options.jsonFile) writeFileSync(options.jsonFile, JSON.stringify(caseFigures(outcomes, seeded.households)))
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
        ...instancesTable(outcomes),
        ...scaleTable(outcomes, { deepPastEnd }),
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
