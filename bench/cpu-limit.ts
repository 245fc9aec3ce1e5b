// --api-cpu: caps each API process at a share of a core with a CFS quota, as a container's CPU
// limit does (Kubernetes `cpu: 200m`). On a machine where PostgreSQL and the API share two cores,
// one uncapped API process already leaves no core idle, so a second one cannot add throughput; capped,
// the API tier is the limit and PostgreSQL has cores to spare, which is what "N instances give N×"
// is about. Linux cgroup v1 cpu controller only (/sys/fs/cgroup/cpu, writable by root).
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { onCleanup } from './cleanup.ts'

const CPU_CGROUP = '/sys/fs/cgroup/cpu'
// A short period spreads the quota over time: with 100 ms a capped process runs in bursts and its
// requests wait up to the rest of the period, which adds latency that is not the API's.
const PERIOD_US = 10_000

/** Why --api-cpu cannot work here, or undefined when it can. */
export function cpuLimitUnavailable(): string | undefined {
  if (!existsSync(path.join(CPU_CGROUP, 'cgroup.procs')))
    return `--api-cpu needs the cgroup v1 cpu controller at ${CPU_CGROUP}`
  if (process.getuid?.() !== 0) return '--api-cpu needs root (it writes a CFS quota into a cgroup of its own)'
  return undefined
}

/** Puts `pid` (all its threads) in a cgroup of its own allowed `cores` of CPU time; undone by cleanup. */
export function limitCpu(pid: number, cores: number): void {
  const group = path.join(CPU_CGROUP, `hearth-bench-${pid}`)
  mkdirSync(group)
  onCleanup(`remove the cgroup of pid ${pid}`, () => {
    try {
      // Back to the root group first: a cgroup with a process in it cannot be removed.
      writeFileSync(path.join(CPU_CGROUP, 'cgroup.procs'), String(pid))
    } catch {
      // The process has exited already.
    }
    rmdirSync(group)
  })
  writeFileSync(path.join(group, 'cpu.cfs_period_us'), String(PERIOD_US))
  writeFileSync(path.join(group, 'cpu.cfs_quota_us'), String(Math.round(cores * PERIOD_US)))
  writeFileSync(path.join(group, 'cgroup.procs'), String(pid))
}
