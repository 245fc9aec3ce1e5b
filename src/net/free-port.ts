// A TCP port that nothing listens on right now, found by letting the system pick one for a moment.
// For a server that must know its own address before it listens: its public URL names the port
// (the sign-in redirect URI, the issuer of chart tokens, the origin allowed to frame the chart),
// and that URL is configured into the app before it is built and listens. Another process could
// take the port in between; where this is used (PORT=0, tests, benchmarks) that risk is accepted.
import { createServer, type AddressInfo } from 'node:net'

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}
