// Where the CPU went during a measurement: the server under load (the API or the ceiling), the
// PostgreSQL server processes and this (load-generating) process, in cores used on average. On a 2-core machine this tells a server
// bound by its own JavaScript from one waiting on the database or starved by the load generator.
// Linux only (/proc); elsewhere the figures are simply left out.
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat times; 100 on every common Linux build. */
const TICKS_PER_SECOND = 100

/** utime + stime of one process, in ticks; undefined when it is gone or /proc is unavailable. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres'
        } catch {
          return false
        }
      })
      .map(Number)
  } catch {
    return []
  }
}

/** Busy ticks of the whole machine (all CPUs): everything but idle and iowait. */
function machineBusyTicks(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? ''
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number)
    return [user, nice, system, irq, softirq, steal].reduce<number>((sum, value) => sum + (value ?? 0), 0)
  } catch {
    return undefined
  }
}

export interface CpuUse {
  /** The processes under load: the API server(s) or the ceiling server. */
  server: number
  postgres: number
  loadGenerator: number
  /** Everything else on the machine (another engineer's tests, say): a noisy-neighbour gauge. */
  others: number | undefined
}

type Snapshot = Map<number, number>

function snapshot(pids: number[]): Snapshot {
  const ticks = new Map<number, number>()
  for (const pid of pids) {
    const value = cpuTicks(pid)
    if (value !== undefined) ticks.set(pid, value)
  }
  return ticks
}

/**
 * Starts measuring; the returned function gives cores used per group since then. PostgreSQL
 * backends are listed at the start and the end: connections opened in between count from zero.
 */
export function measureCpu(serverPids: readonly number[]): () => CpuUse | undefined {
  const started = performance.now()
  const before = snapshot([...serverPids, process.pid, ...postgresPids()])
  const machineBefore = machineBusyTicks()
  return () => {
    const machineAfter = machineBusyTicks()
    const seconds = (performance.now() - started) / 1000
    const after = snapshot([...serverPids, process.pid, ...new Set([...before.keys(), ...postgresPids()])])
    if (serverPids.some((pid) => !after.has(pid)) || seconds <= 0) return undefined
    const used = (pid: number) => ((after.get(pid) ?? 0) - (before.get(pid) ?? 0)) / TICKS_PER_SECOND / seconds
    const server = serverPids.reduce((sum, pid) => sum + used(pid), 0)
    let postgres = 0
    for (const pid of after.keys()) if (!serverPids.includes(pid) && pid !== process.pid) postgres += used(pid)
    const ours = server + postgres + used(process.pid)
    const others =
      machineBefore === undefined || machineAfter === undefined
        ? undefined
        : Math.max(0, (machineAfter - machineBefore) / TICKS_PER_SECOND / seconds - ours)
    return { server, postgres, loadGenerator: used(process.pid), others }
  }
}
