// The key cache's own rules, with a watch and a database read played by the test: a read that a
// change overtook is used but not kept, nothing is kept while changes go unwatched, unknown keys
// are never kept, and the least recently used key goes first when it is full.
import { describe, expect, it } from 'vitest'
import { ApiKeyCache } from '../../src/auth/api-key-cache.ts'
import { KeyChangeCounter } from '../../src/store/key-changes.ts'

function setup() {
  const watch = new KeyChangeCounter()
  watch.started()
  const reads: string[] = []
  const known = new Map<string, string>([['a', 'key a']])
  let release: (() => void) | undefined
  let hold = false
  const cache = new ApiKeyCache(watch, async (hash) => {
    reads.push(hash)
    // What the read's snapshot saw, answered when the test lets it.
    const seen = known.get(hash) ?? `key ${hash}`
    if (hold) await new Promise<void>((resolve) => (release = resolve))
    return seen
  })
  return {
    watch,
    reads,
    known,
    cache,
    holdReads: () => (hold = true),
    releaseRead: () => {
      hold = false
      release?.()
    },
  }
}

describe('ApiKeyCache', () => {
  it('reads a key once while nothing changes, and again after a change', async () => {
    const { watch, reads, cache } = setup()
    expect(await cache.find('a')).toBe('key a')
    expect(await cache.find('a')).toBe('key a')
    expect(reads).toEqual(['a'])
    watch.changed()
    await cache.find('a')
    expect(reads).toEqual(['a', 'a'])
  })

  it('does not keep a read that a change overtook: it may have seen the key as it was', async () => {
    const { watch, reads, known, cache, holdReads, releaseRead } = setup()
    holdReads()
    const found = cache.find('a')
    // The revocation commits and its notification arrives while the read is on its way.
    known.set('a', 'key a, revoked')
    watch.changed()
    releaseRead()
    expect(await found).toBe('key a')
    expect(await cache.find('a')).toBe('key a, revoked')
    expect(reads).toEqual(['a', 'a'])
  })

  it('does not keep a read that forget() overtook', async () => {
    const { reads, cache, holdReads, releaseRead } = setup()
    holdReads()
    const found = cache.find('a')
    cache.forget()
    releaseRead()
    await found
    await cache.find('a')
    expect(reads).toEqual(['a', 'a'])
  })

  it('keeps nothing while changes are not watched, and starts again when they are', async () => {
    const { watch, reads, cache } = setup()
    await cache.find('a')
    watch.stopped()
    await cache.find('a')
    await cache.find('a')
    expect(reads).toEqual(['a', 'a', 'a'])
    watch.started()
    await cache.find('a')
    await cache.find('a')
    expect(reads).toEqual(['a', 'a', 'a', 'a'])
  })

  it('never keeps an unknown key: one issued later works at once', async () => {
    const watch = new KeyChangeCounter()
    watch.started()
    const issued = new Set<string>()
    const cache = new ApiKeyCache(watch, async (hash) => (issued.has(hash) ? 'key' : undefined))
    expect(await cache.find('b')).toBeUndefined()
    issued.add('b')
    expect(await cache.find('b')).toBe('key')
  })

  it('reads a kept key again after 60 s, however quiet the watch', async () => {
    const watch = new KeyChangeCounter()
    watch.started()
    let now = 1_000_000
    let reads = 0
    const cache = new ApiKeyCache(
      watch,
      async () => {
        reads++
        return 'key'
      },
      () => now,
    )
    await cache.find('a')
    now += 59_999
    await cache.find('a')
    expect(reads).toBe(1)
    now += 1
    await cache.find('a')
    expect(reads).toBe(2)
  })

  it('holds at most 10,000 keys and lets the least recently used go first', async () => {
    const { reads, cache } = setup()
    for (let i = 0; i < 10_000; i++) await cache.find(`k${i}`)
    await cache.find('k0') // used again: now the most recent
    await cache.find('k10000') // one more: k1 goes
    reads.length = 0
    await cache.find('k0')
    await cache.find('k2')
    expect(reads).toEqual([])
    await cache.find('k1')
    expect(reads).toEqual(['k1'])
  })
})
