// Runs the real `hearth` binary (node bin/hearth.js …, which runs the compiled CLI in build/) as
// child processes: one-shot commands and long-running servers, with every process tracked so a test
// file can kill what it left behind.
import { spawn, type ChildProcess } from 'node:child_process'
import { expect } from 'vitest'
import { readdirSync, readlinkSync, realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const BIN = path.join(ROOT, 'bin', 'hearth.js')

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const KEY = /^idx_[0-9A-Za-z]{38}$/

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface Result extends Exit {
  stdout: string
  stderr: string
}

const running = new Set<ChildProcess>()

/** Kills (SIGKILL) every process this file started that is still running, and waits for them. */
export async function killAll(): Promise<void> {
  const exits = [...running].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve()
          return
        }
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
  )
  await Promise.all(exits)
}

// Variables that would point a child at another database, port or mode than the test chose.
const CONFIG_VARIABLES = /^(HOST|PORT|DATABASE_URL|NODE_ENV|HEARTH_.*)$/

/**
 * The environment of a hearth process: this process's (PATH, HOME, …) without any Hearth setting,
 * plus the test's. It must say where the data is, so nothing ever touches the project's ./data.
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  if (!env.HEARTH_DATA_DIR && !env.DATABASE_URL)
    throw new Error('say HEARTH_DATA_DIR or DATABASE_URL for a hearth process')
  const base: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!CONFIG_VARIABLES.test(name)) base[name] = value
  // The suite built the compiled CLI once before it began (test/global-setup.ts): sources edited
  // during the run must not make each child rebuild it (bin/hearth.js).
  return { ...base, HEARTH_LOG_LEVEL: 'warn', HEARTH_SKIP_BUILD_CHECK: '1', ...env }
}

/** A running `node bin/hearth.js …` (or another program) with its output so far. */
export class HearthProcess {
  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  stdout = ''
  stderr = ''
  exit: Exit | undefined

  /** Runs `node bin/hearth.js …args`, or `file …args`; in the project folder unless told otherwise. */
  constructor(args: string[], env: Record<string, string>, options: { file?: string; cwd?: string } = {}) {
    const file = options.file ?? process.execPath
    const argv = options.file ? args : [BIN, ...args]
    this.child = spawn(file, argv, { cwd: options.cwd ?? ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
    running.add(this.child)
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk))
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk))
    this.exited = new Promise<Exit>((resolve, reject) => {
      this.child.once('error', reject)
      // 'close' comes after the output streams have ended, so stdout and stderr are complete.
      this.child.once('close', (code, signal) => {
        running.delete(this.child)
        this.exit = { code, signal }
        resolve(this.exit)
      })
    })
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error('the process did not start')
    return this.child.pid
  }

  /** Waits for the end (SIGKILL after timeoutMs). */
  async result(timeoutMs = 90_000): Promise<Result> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs)
    try {
      const exit = await this.exited
      return { ...exit, stdout: this.stdout, stderr: this.stderr }
    } finally {
      clearTimeout(timer)
    }
  }

  /** Sends the signal (unless it has ended) and waits for the end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (!this.exit) this.child.kill(signal)
    return this.exited
  }
}

/** Runs `node bin/hearth.js …args` to the end (killed after timeoutMs). */
export async function hearth(args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<Result> {
  return new HearthProcess(args, env).result(timeoutMs)
}

/** Runs any program with the hearth environment (npm start, sh -c …). */
export async function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<Result> {
  return new HearthProcess(args, env, { file }).result(timeoutMs)
}

/** Lines of a stream without the trailing empty one. */
export function lines(text: string): string[] {
  const all = text.split('\n')
  if (all.at(-1) === '') all.pop()
  return all
}

/** A refusal: the exit code, and exactly one line on stderr that says each of `says`. */
export function expectOneLineError(result: Result, code: number, ...says: (string | RegExp)[]): string {
  expect(result.code, result.stderr).toBe(code)
  const errorLines = lines(result.stderr)
  expect(errorLines, result.stderr).toHaveLength(1)
  const line = errorLines[0] ?? ''
  for (const what of says) {
    if (typeof what === 'string') expect(line).toContain(what)
    else expect(line).toMatch(what)
  }
  return line
}

/** The --json result: the last line of stdout, which must be exactly one JSON object. */
export function lastJson(result: Result): Record<string, unknown> {
  const last = lines(result.stdout).at(-1)
  if (last === undefined) throw new Error(`no output; exit ${String(result.code)}, stderr: ${result.stderr}`)
  const value: unknown = JSON.parse(last)
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`last line is not a JSON object: ${last}`)
  return value as Record<string, unknown>
}

/** Runs a command with --json, expects exit 0 and returns the JSON result. */
export async function hearthJson(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const result = await hearth([...args, '--json'], env)
  if (result.code !== 0) throw new Error(`hearth ${args.join(' ')} exited ${String(result.code)}: ${result.stderr}`)
  return lastJson(result)
}

export interface Banner {
  text: string
  apiUrl: string
  embedUrl: string
  /** The ready-to-paste curl line, when the demo is on. */
  curl?: string
  demoKey?: string
  demoOrgId?: string
  /** The demo partner site, when the demo is on. */
  demoPartnerUrl?: string
}

function parseBanner(text: string): Banner {
  const apiUrl = /^ {2}API\s+(http:\/\/\S+)/m.exec(text)?.[1]
  const embedUrl = /^ {2}Embed origin (http:\/\/\S+)/m.exec(text)?.[1]
  if (!apiUrl || !embedUrl) throw new Error(`banner without URLs:\n${text}`)
  const curl = /^ {2}(curl .*)$/m.exec(text)?.[1]
  const demoKey = curl ? /Bearer (idx_[0-9A-Za-z]+)/.exec(curl)?.[1] : undefined
  const demoOrgId = /^Demo organization ".*" \(([0-9a-f-]{36})\)/m.exec(text)?.[1]
  const demoPartnerUrl = /^ {2}Demo partner (http:\/\/\S+)/m.exec(text)?.[1]
  return {
    text,
    apiUrl,
    embedUrl,
    ...(curl ? { curl } : {}),
    ...(demoKey ? { demoKey } : {}),
    ...(demoOrgId ? { demoOrgId } : {}),
    ...(demoPartnerUrl ? { demoPartnerUrl } : {}),
  }
}

/** A `hearth serve` process (PORT, HEARTH_EMBED_PORT, HEARTH_DEMO_PORT and HEARTH_IDP_PORT 0 unless the env says otherwise). */
export class ServerProcess extends HearthProcess {
  constructor(
    readonly env: Record<string, string>,
    args: string[] = ['serve'],
  ) {
    super(args, { PORT: '0', HEARTH_EMBED_PORT: '0', HEARTH_DEMO_PORT: '0', HEARTH_IDP_PORT: '0', ...env })
  }

  /** Waits for the whole banner (one write; the demo part ends with the "Turn the demo off" line). */
  async ready(timeoutMs = 120_000): Promise<Banner> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const complete =
        /^ {2}Database .*\n/m.test(this.stdout) &&
        (!this.stdout.includes('Demo organization') || /Turn the demo off.*\n/.test(this.stdout))
      if (complete) return parseBanner(this.stdout)
      if (this.exit)
        throw new Error(
          `hearth serve exited (${JSON.stringify(this.exit)}) before its banner:\n${this.stdout}\n${this.stderr}`,
        )
      // It said why it cannot start (it may not exit: see the Store.close() bug in test/cli).
      if (/^hearth serve\b/m.test(this.stderr)) throw new Error(`hearth serve failed to start:\n${this.stderr}`)
      if (Date.now() > deadline) throw new Error(`no banner after ${timeoutMs} ms:\n${this.stdout}\n${this.stderr}`)
      await sleep(25)
    }
  }
}

/** The worker pids the banner of `hearth serve --workers n` lists. */
export function workerPids(banner: Banner): number[] {
  const listed = /^ {2}Workers\s+(\d+) processes serve the API \(pids ([\d, ]+)\)/m.exec(banner.text)
  if (!listed) throw new Error(`no Workers line in the banner:\n${banner.text}`)
  const pids = (listed[2] ?? '').split(', ').map(Number)
  expect(pids).toHaveLength(Number(listed[1]))
  return pids
}

/** Starts `hearth serve` and waits for its banner. */
export async function startServer(env: Record<string, string>): Promise<{ server: ServerProcess; banner: Banner }> {
  const server = new ServerProcess(env)
  return { server, banner: await server.ready() }
}

/** Polls until the condition holds. */
export async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`)
    await sleep(10)
  }
}

/** The files below dir that the process has open (Linux /proc); none once it has ended. */
function openFilesUnder(pid: number, dir: string): string[] {
  const root = realpathSync(dir) + path.sep
  const fdDir = `/proc/${pid}/fd`
  let fds: string[]
  try {
    fds = readdirSync(fdDir)
  } catch {
    return []
  }
  const open: string[] = []
  for (const fd of fds) {
    try {
      const target = readlinkSync(path.join(fdDir, fd))
      if (target.startsWith(root)) open.push(target)
    } catch {
      // Closed meanwhile.
    }
  }
  return open
}

/**
 * Waits for a process that used an embedded data directory to end. Once it has given the
 * directory back (gaveBack(): its lock is gone, say) it must not hold any of the database files
 * open any more, or another process could open them alongside it: that fails at once.
 */
export async function expectEndsAfterGivingBack(
  proc: HearthProcess,
  dataDir: string,
  gaveBack: () => boolean,
  timeoutMs = 90_000,
): Promise<Exit> {
  await until(
    () => proc.exit !== undefined || gaveBack(),
    'the process neither ended nor gave the data directory back',
    timeoutMs,
  )
  if (!proc.exit) {
    const open = openFilesUnder(proc.pid, dataDir)
    if (open.length > 0) {
      await proc.stop('SIGKILL')
      throw new Error(
        `pid ${proc.pid} gave ${dataDir} back (no lock) but still had ${open.length} database files open, e.g. ${open[0]}, and had not ended`,
      )
    }
  }
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs)
  try {
    return await proc.exited
  } finally {
    clearTimeout(timer)
  }
}
