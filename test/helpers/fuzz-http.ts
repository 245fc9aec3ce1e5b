// What the fuzz tests send and read back: one request over real HTTP with a deadline, and its
// answer with the body both as text and (when it is JSON) parsed.
export const REQUEST_TIMEOUT_MS = 10_000

export interface Outcome {
  status: number
  headers: Headers
  text: string
  json: unknown
}

/** Sends the request; a request that gets no complete answer in time fails, described by `describe`. */
export async function fetchOutcome(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | Uint8Array | undefined },
  describe: () => string,
): Promise<Outcome> {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, json: parseJson(text) }
  } catch (error) {
    throw new Error(`no complete answer within ${REQUEST_TIMEOUT_MS} ms (${String(error)}) to\n  ${describe()}`, {
      cause: error,
    })
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
