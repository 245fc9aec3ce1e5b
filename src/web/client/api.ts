// The web app's one way to the API: same-origin fetch with the idp-session cookie (the browser
// sends it; scripts cannot read it), JSON in and out, and every failure as an ApiProblem whose
// message is the API's own sentence, written for people.
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The API's `field`: a JSON Pointer to the part of the request at fault ("/members/0/name"), if it names one. */
    readonly field?: string,
  ) {
    super(message)
  }
}

export interface ApiResponse<T> {
  body: T
  etag: string | null
}

export interface ApiInit {
  method?: string
  body?: unknown
  headers?: Record<string, string>
  /** Cancels the request (a newer search replaced it); the promise then rejects with ApiProblem 'aborted'. */
  signal?: AbortSignal
}

export async function api<T>(path: string, init: ApiInit = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal ?? null,
    })
  } catch {
    if (init.signal?.aborted) throw new ApiProblem(0, 'aborted', 'The request was cancelled.')
    throw new ApiProblem(0, 'offline', 'Hearth cannot be reached. Check your connection and try again.')
  }
  const text = await response.text()
  const body: unknown = text ? JSON.parse(text) : null
  if (!response.ok) {
    const problem = (body ?? {}) as { error?: string; code?: string; field?: string }
    if (response.status === 401) onSignedOut()
    throw new ApiProblem(
      response.status,
      problem.code ?? 'error',
      problem.error ?? `Something went wrong (HTTP ${response.status}).`,
      problem.field,
    )
  }
  return { body: body as T, etag: response.headers.get('etag') }
}

let signedOutListener: () => void = () => undefined

/** What to do when the session ends under the app (expired, signed out elsewhere). */
export function whenSignedOut(listener: () => void): void {
  signedOutListener = listener
}

function onSignedOut(): void {
  signedOutListener()
}
