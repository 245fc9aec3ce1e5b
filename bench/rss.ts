// Peak resident memory of a process over an interval. VmHWM in /proc/<pid>/status is the peak
// over the process's whole life, so it cannot tell one case from the next; instead VmRSS is
// sampled every 100 ms while a case runs and the highest sample is kept.
import { readFileSync } from 'node:fs'

const SAMPLE_EVERY_MS = 100

/** Current RSS in bytes, or undefined when /proc is unavailable (not Linux) or the process is gone. */
export function readRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

export interface RssSampler {
  /** Stops sampling; the peak in bytes (undefined if nothing could be read). */
  stop(): number | undefined
}

export function sampleRss(pid: number): RssSampler {
  let peak = readRss(pid)
  const timer = setInterval(() => {
    const rss = readRss(pid)
    if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss
  }, SAMPLE_EVERY_MS)
  return {
    stop() {
      clearInterval(timer)
      const last = readRss(pid)
      if (last !== undefined && (peak === undefined || last > peak)) peak = last
      return peak
    },
  }
}
