// A one-time message carried to the next page (e.g. "Deleted …" shown on the list after a delete).
let pending: string | null = null

export function setFlash(message: string): void {
  pending = message
}

/** The message, once: the next call returns null. */
export function takeFlash(): string | null {
  const message = pending
  pending = null
  return message
}
