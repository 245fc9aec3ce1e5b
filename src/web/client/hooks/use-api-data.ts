// Loads one API resource for a page and keeps it: the last good answer stays on screen
// while a reload runs (the region is marked busy from the very render that asks again, so the old
// answer is never taken for the new one), a failure is kept as a sentence, and an answer that
// arrives after the page moved on (another path, or unmounted) is dropped.
import { useCallback, useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { problemText } from '../format.ts'

export interface ApiData<T> {
  data: T | null
  loading: boolean
  error: string | null
  /** Asks again (after a change, or "Try again"). */
  reload: () => void
  /** Applies a change the API confirmed (its answer) without asking for the whole list again. */
  update: (change: (data: T) => T) => void
}

interface Settled<T> {
  /** The request this answers: path and attempt. */
  request: string
  data: T | null
  error: string | null
}

export function useApiData<T>(path: string): ApiData<T> {
  const [attempt, setAttempt] = useState(0)
  const [settled, setSettled] = useState<Settled<T>>({ request: '', data: null, error: null })
  const request = `${attempt} ${path}`

  useEffect(() => {
    let current = true
    api<T>(path).then(
      ({ body }) => {
        if (current) setSettled({ request, data: body, error: null })
      },
      (problem: unknown) => {
        if (current) setSettled((previous) => ({ request, data: previous.data, error: problemText(problem) }))
      },
    )
    return () => {
      current = false
    }
  }, [request])

  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  const update = useCallback(
    (change: (data: T) => T) =>
      setSettled((previous) => (previous.data === null ? previous : { ...previous, data: change(previous.data) })),
    [],
  )
  return { data: settled.data, loading: settled.request !== request, error: settled.error, reload, update }
}
