// A TCP port that nothing listens on right now, for a server that must know its own address
// before it listens: its public URL names the port (the sign-in redirect URI, the issuer of chart
// tokens, the origin allowed to frame the chart), and that URL is configured into the app before
// it is built and listens. Used where PORT=0 (tests, benchmarks).
//
// The port is taken below the system's ephemeral range, the range Linux hands out both to
// listen(0) and to every outgoing connection. A port from inside that range was taken in between
// by one of the many outgoing connections of a parallel test run (EADDRINUSE in CI); below it only
// a server that names its port explicitly can collide, and a probe checks that none holds it now.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:net'

const LOWEST = 20_000
/** Linux's default ip_local_port_range starts here; read the real one where /proc has it. */
const DEFAULT_EPHEMERAL_START = 32_768
const ATTEMPTS = 50

export async function freePort(host: string): Promise<number> {
  const highest = (await ephemeralRangeStart()) - 1
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST + 1))
    if (await canListen(host, port)) return port
  }
  throw new Error(`no free port between ${LOWEST} and ${highest} on ${host} after ${ATTEMPTS} tries`)
}

async function ephemeralRangeStart(): Promise<number> {
  try {
    const text = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
    const start = Number(text.trim().split(/\s+/)[0])
    // A range starting too low leaves no room below it: fall back to the default's start.
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : DEFAULT_EPHEMERAL_START
  } catch {
    return DEFAULT_EPHEMERAL_START
  }
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, host, () => probe.close(() => resolve(true)))
  })
}
