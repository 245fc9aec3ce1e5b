// The connection that hears of API key changes dying without a word: a failover or a dropped route
// sends no reset, and a LISTEN connection only ever receives, so no error would ever come. Here a
// TCP relay between it and PostgreSQL stops passing bytes while keeping both sockets open; the
// watch's heartbeat must find that out, stop watching (so the key cache keeps nothing), say so,
// and watch again over a new connection.
import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { DATABASE_URL, requirePart } from '../helpers/environment.ts'
import { freshPostgresDatabase } from '../helpers/stores.ts'
import { PostgresKeyChangeWatch } from '../../src/store/key-changes.ts'
import { until } from '../helpers/cli.ts'

const hasPostgres = requirePart('PostgreSQL', DATABASE_URL !== undefined, 'set DATABASE_URL=postgres://… for this test')

/** Relays connections to `target`; freeze() stops every connection relayed so far, without closing it. */
async function startRelay(target: URL): Promise<{ port: number; freeze(): void; close(): Promise<void> }> {
  const pairs: [net.Socket, net.Socket][] = []
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    client.pipe(upstream).pipe(client)
    const ignore = () => undefined
    client.on('error', ignore)
    upstream.on('error', ignore)
    pairs.push([client, upstream])
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream)
        upstream.unpipe(client)
        client.pause()
        upstream.pause()
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy()
        upstream.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe.skipIf(!hasPostgres)('the key change watch on PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('stops watching when its connection goes silent, says so, and watches again over a new one', async () => {
    const database = await freshPostgresDatabase()
    cleanups.push(database.drop)
    const target = new URL(database.url)
    const relay = await startRelay(target)
    cleanups.push(() => relay.close())
    const relayed = new URL(database.url)
    relayed.hostname = '127.0.0.1'
    relayed.port = String(relay.port)
    const said: string[] = []
    const watch = new PostgresKeyChangeWatch(relayed.toString(), (message) => said.push(message), {
      reconnectMs: 100,
      heartbeatMs: 200,
      timeoutMs: 500,
    })
    cleanups.push(() => watch.close())
    await watch.start()
    expect(watch.counter.watching).toBe(true)
    const generation = watch.counter.generation

    relay.freeze()
    await until(() => !watch.counter.watching, 'the watch to stop', 10_000)
    expect(watch.counter.generation).toBeGreaterThan(generation)
    expect(said[0]).toMatch(/the connection that hears of API key changes is down .*every request reads its key/)

    await until(() => watch.counter.watching, 'the watch to start again', 10_000)
    expect(said.at(-1)).toMatch(/hearing of API key changes again/)
  })
})
