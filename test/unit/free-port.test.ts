import { createServer, type Server } from 'node:net'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../src/net/free-port.ts'

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

describe('freePort', () => {
  it('gives a port below the ephemeral range that the caller can then listen on', async () => {
    const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    const port = await freePort('127.0.0.1')
    expect(port).toBeGreaterThanOrEqual(20_000)
    expect(port).toBeLessThan(ephemeralStart)
    const server = await listen(port)
    server.close()
  })
})
