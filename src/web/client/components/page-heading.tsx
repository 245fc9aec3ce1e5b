// A page's h1. After a navigation inside the app (a link, Back, a redirect after saving) it takes
// the focus, so keyboard and screen-reader users start at the new page's title instead of on a
// link that no longer exists; on the first page load focus stays where the browser puts it.
// It also names the document (the tab's title).
import type { ComponentChildren } from 'preact'
import { useEffect, useRef } from 'preact/hooks'

const initialUrl = window.location.pathname + window.location.search
let navigated = false

// A same-document link click or Back/Forward is a navigation; so is the app's own navigate() to
// another path, seen when a page mounts on a URL other than the one the app started on.
document.addEventListener(
  'click',
  (event) => {
    if (event.target instanceof Element && event.target.closest('a[href]')) navigated = true
  },
  true,
)
window.addEventListener('popstate', () => {
  navigated = true
})

export function PageHeading({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (window.location.pathname + window.location.search !== initialUrl) navigated = true
    if (navigated) ref.current?.focus({ preventScroll: false })
  }, [])
  useEffect(() => {
    document.title = `${title} · Hearth`
  }, [title])
  return (
    <h1 ref={ref} tabIndex={-1} class="page-heading">
      {children}
    </h1>
  )
}
