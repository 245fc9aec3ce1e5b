// A small router over the History API: the URL is the state (page, filters, sort, paging), so
// every view can be bookmarked, shared and reloaded, and Back works.
import { useEffect, useState } from 'preact/hooks'

export interface Location {
  path: string
  query: URLSearchParams
}

const listeners = new Set<() => void>()

function current(): Location {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) }
}

/** Goes to an app URL. replace: for changes that should not each be a Back step (typing a search). */
export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', url)
  else window.history.pushState(null, '', url)
  for (const listener of listeners) listener()
  if (!options.replace) window.scrollTo(0, 0)
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current)
  useEffect(() => {
    const update = () => setLocation(current())
    listeners.add(update)
    window.addEventListener('popstate', update)
    return () => {
      listeners.delete(update)
      window.removeEventListener('popstate', update)
    }
  }, [])
  return location
}

/** Same-origin links go through the router (no reload); new tabs and modified clicks stay the browser's. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return
    const link = (event.target as Element | null)?.closest('a')
    if (!link || link.target || link.hasAttribute('download') || link.dataset.reload !== undefined) return
    const url = new URL(link.href)
    if (url.origin !== window.location.origin || url.pathname.startsWith('/auth/') || url.pathname.startsWith('/api/'))
      return
    event.preventDefault()
    navigate(url.pathname + url.search + url.hash)
  })
}
