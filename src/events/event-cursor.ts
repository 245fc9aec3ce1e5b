// The change feed's cursor: where the next page starts, a position in the feed's (tx, seq) order
// (see migration 0013). Opaque to partners (base64url of a JSON array) and not signed: the feed
// stays inside the caller's organization whatever a cursor says, so a forged one can only start
// the feed elsewhere. A cursor the retention purge has passed is refused (410) by the route.
import type { FeedPosition } from '../store/events.ts'

const VERSION = 1

export function encodeEventCursor(position: FeedPosition): string {
  return Buffer.from(JSON.stringify([VERSION, position.tx, position.seq])).toString('base64url')
}

const isPosition = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/** The position a text encodes, or undefined when it is not a cursor this service wrote. */
export function decodeEventCursor(text: string): FeedPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== VERSION) return undefined
  const [, tx, seq] = parsed as unknown[]
  if (!isPosition(tx) || !isPosition(seq)) return undefined
  return { tx, seq }
}
