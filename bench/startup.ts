// How long Hearth takes to answer `hearth --help` and to print the `npm start` banner on a data
// directory that already exists (the targets of issue 13: 0.5 s and 3 s). Each is run five times
// and the medians of wall-clock and CPU time are reported, since the machine is shared: CPU time
// (user + system, of every process of the command) barely moves with the load, wall time does.
//
//   npm run bench:startup [-- <project folder>]   (default: this one; give another checkout to compare)
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const RUNS = 5
const project = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'))

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

interface Timing {
  /** Wall-clock seconds. */
  wall: number
  /** CPU seconds (user + system) the command's processes used: much less sensitive to a busy machine. */
  cpu: number
}

/** One `node bin/hearth.js --help`, start to exit, under /usr/bin/time for its CPU time. */
function help(): Promise<Timing> {
  const started = process.hrtime.bigint()
  const child = spawn('/usr/bin/time', ['-f', '%U %S', process.execPath, 'bin/hearth.js', '--help'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      const [user, system] = (stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number)
      if (code !== 0 || user === undefined || system === undefined) reject(new Error(`hearth --help failed: ${stderr}`))
      else resolve({ wall, cpu: user + system })
    })
  })
}

/** CPU seconds used so far by the processes of a process group (Linux /proc). */
function groupCpuSeconds(group: number): number {
  const ticksPerSecond = 100
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // The fields after the command name: state ppid pgrp … utime (12th) stime (13th).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // Ended meanwhile.
    }
  }
  return ticks / ticksPerSecond
}

/** From spawning `npm start` to its "Hearth is running" line; then stops it and waits for the end. */
function banner(dataDir: string): Promise<Timing> {
  const env = {
    ...process.env,
    HEARTH_DATA_DIR: dataDir,
    PORT: '0',
    HEARTH_EMBED_PORT: '0',
    HEARTH_DEMO_PORT: '0',
    HEARTH_IDP_PORT: '0',
    HEARTH_LOG_LEVEL: 'warn',
  }
  const started = process.hrtime.bigint()
  // Its own process group, so that stopping it reaches npm's child (the server) too.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: project,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let timing: Timing | undefined
  return new Promise((resolve, reject) => {
    const stop = () => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
    }
    child.once('error', reject)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      if (timing === undefined && output.includes('Hearth is running') && child.pid !== undefined) {
        const wall = Number(process.hrtime.bigint() - started) / 1e9
        timing = { wall, cpu: groupCpuSeconds(child.pid) }
        stop()
      }
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.once('close', () => {
      if (timing === undefined) reject(new Error(`npm start ended without its banner:\n${output}`))
      else resolve(timing)
    })
  })
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const load = loadAverage()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hearth-startup-'))
try {
  const helps: Timing[] = []
  for (let i = 0; i < RUNS; i++) helps.push(await help())
  await banner(dataDir) // Creates and migrates the data directory: the runs below find it there.
  const banners: Timing[] = []
  for (let i = 0; i < RUNS; i++) banners.push(await banner(dataDir))
  const report = (what: string, timings: Timing[]) => {
    const wall = timings.map((t) => t.wall)
    const cpu = timings.map((t) => t.cpu)
    const list = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ')
    console.log(
      `${what}: median ${median(wall).toFixed(2)} s wall (${list(wall)}); median ${median(cpu).toFixed(2)} s CPU (${list(cpu)})`,
    )
  }
  console.log(`project: ${project}; load average before: ${load}; after: ${loadAverage()}`)
  report('hearth --help', helps)
  report('npm start to the banner, existing data directory', banners)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
