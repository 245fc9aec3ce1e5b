// What the numbers were measured on, printed with every result: req/s mean nothing without it.
import { readFileSync } from 'node:fs'
import os from 'node:os'

export interface Machine {
  cpu: string
  cores: number
  memoryGb: number
  node: string
  os: string
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))
    if (match?.[1]) return match[1].trim()
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return os.cpus()[0]?.model ?? 'unknown'
}

export function describeMachine(): Machine {
  return {
    cpu: cpuModel(),
    // What this process may actually use (cgroups, affinity), not just what the host has.
    cores: os.availableParallelism(),
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
  }
}
