// The change feed's cursor: where the next page starts (a position in the feed's (tx, seq) order,
// see migration 0013) and when that position was current, so that a cursor older than the events'
// retention is refused (410) instead of silently skipping what was forgotten. Opaque to partners
// (base64url of a JSON array) and not signed: the feed stays inside the caller's organization
// whatever a cursor says, so a forged one can only start the feed elsewhere.
import type { FeedPosition } from '../store/events.ts'

const VERSION = 1

export interface EventCursor extends FeedPosition {
  /** When the position was current (ms since the epoch): the last event's time, or the read's. */
  at: number
}

export function encodeEventCursor(cursor: EventCursor): string {
  return Buffer.from(JSON.stringify([VERSION, cursor.tx, cursor.seq, cursor.at])).toString('base64url')
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0

/** The cursor a text encodes, or undefined when it is not one this service wrote. */
export function decodeEventCursor(text: string): EventCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== VERSION) return undefined
  const [, tx, seq, at] = parsed as unknown[]
  if (!isCount(tx) || !isCount(seq) || !isCount(at)) return undefined
  return { tx, seq, at }
}
