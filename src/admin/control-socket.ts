// A local Unix socket through which the CLI asks a running server (the owner of the embedded
// database) to carry out an admin command. One JSON request and one JSON response per
// connection. The socket file is created with mode 0600 inside the data directory: whoever can
// use it could already read the database files.
import net from 'node:net'
import { chmodSync, unlinkSync } from 'node:fs'
import path from 'node:path'

export type ControlResponse = { ok: true; result: unknown } | { ok: false; error: string; exitCode: number }

export function socketPathOf(dataDir: string): string {
  const full = path.join(dataDir, 'hearth.sock')
  // Unix socket paths are limited to ~107 bytes; fall back to a path relative to the cwd.
  return Buffer.byteLength(full) < 100 ? full : path.relative(process.cwd(), full)
}

export async function startControlSocket(
  socketPath: string,
  handle: (request: unknown) => Promise<ControlResponse>,
): Promise<net.Server> {
  try {
    unlinkSync(socketPath) // A socket file left by a crashed owner; we hold the lock now.
  } catch {
    // None there.
  }
  const server = net.createServer((connection) => {
    let buffer = ''
    connection.setEncoding('utf8')
    connection.on('data', (chunk: string) => {
      buffer += chunk
      const end = buffer.indexOf('\n')
      if (end === -1) {
        if (buffer.length > 1_000_000) connection.destroy()
        return
      }
      let request: unknown
      try {
        request = JSON.parse(buffer.slice(0, end))
      } catch {
        connection.end(JSON.stringify({ ok: false, error: 'malformed request', exitCode: 2 }) + '\n')
        return
      }
      void handle(request).then((response) => connection.end(JSON.stringify(response) + '\n'))
    })
    connection.on('error', () => connection.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socketPath, () => resolve())
  })
  chmodSync(socketPath, 0o600)
  return server
}

export function sendControlRequest(socketPath: string, request: unknown, timeoutMs = 30_000): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    const connection = net.connect(socketPath)
    let buffer = ''
    connection.setEncoding('utf8')
    connection.setTimeout(timeoutMs, () => connection.destroy(new Error('the server did not answer in time')))
    connection.on('connect', () => connection.write(JSON.stringify(request) + '\n'))
    connection.on('data', (chunk: string) => (buffer += chunk))
    connection.on('end', () => {
      try {
        resolve(JSON.parse(buffer) as ControlResponse)
      } catch {
        reject(new Error('the server sent a malformed answer'))
      }
    })
    connection.on('error', reject)
  })
}
