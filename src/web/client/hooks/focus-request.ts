// Moving the focus to an element once the render that asked for it has been committed: after a
// confirmation dialog closed (it gives the focus back to its opener as it goes) and when the
// opener itself is about to go (a revoked key loses its Revoke button), the focus goes to a stable
// place instead of being lost to the page.
import type { RefObject } from 'preact'
import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

export function useFocusRequest<T extends HTMLElement>(): [RefObject<T | null>, () => void] {
  const ref = useRef<T | null>(null)
  const [requests, setRequests] = useState(0)
  useEffect(() => {
    if (requests > 0) ref.current?.focus()
  }, [requests])
  const request = useCallback(() => setRequests((n) => n + 1), [])
  return [ref, request]
}
