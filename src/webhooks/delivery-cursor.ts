// The delivery log's cursor: the last delivery of a page (its creation time and id), so that the
// next page starts after it however many deliveries arrive meanwhile. Opaque (base64url of a JSON
// array) and not signed: it only ever reads inside the caller's organization and endpoint.
import type { DeliveryPosition } from '../store/webhook-deliveries.ts'
import { isUuid } from '../domain/ids.ts'

export function encodeDeliveryCursor(position: DeliveryPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url')
}

export function decodeDeliveryCursor(text: string): DeliveryPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return undefined
  const [at, id] = parsed as unknown[]
  if (typeof at !== 'string' || typeof id !== 'string' || !isUuid(id)) return undefined
  const createdAt = new Date(at)
  return Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id }
}
