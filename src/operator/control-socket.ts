// A local Unix socket through which the CLI asks a running server (the owner of the embedded
// database) to carry out an operator command. One JSON request and one JSON response per
// connection. The socket file is created with mode 0600 inside the data directory: whoever can
// use it could already read the database files.
import net from 'node:net'
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs'
import { createHash } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'

export type ControlResponse = { ok: true; result: unknown } | { ok: false; error: string; exitCode: number }

/** Unix socket paths are limited to 108 bytes on Linux (104 on macOS). */
const MAX_SOCKET_PATH = 100

/**
 * Where the server of `dataDir` listens: inside the data directory when the path is short
 * enough, else in a private (0700) directory of this user under the temp directory. Always
 * absolute, and written into the lock, so a command run from any folder finds it.
 */
export function socketPathOf(dataDir: string): string {
  const inside = path.join(path.resolve(dataDir), 'hearth.sock')
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside
  const uid = process.getuid?.() ?? 0
  const dir = path.join(os.tmpdir(), `hearth-${uid}`)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = lstatSync(dir)
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new Error(`${dir} must be a directory of yours that only you can use (mode 0700); remove it and start again`)
  }
  const name = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 24)
  return path.join(dir, `${name}.sock`)
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
