// What a page that loads data shows around it: the first load, and live regions for what an action
// did or why it failed. (A failed load is load-error.tsx.)
export function Loading({ children }: { children: string }) {
  return <p class="muted admin-loading">{children}</p>
}

/**
 * A polite live region that is always in the page (a region added together with its text is not
 * announced), for "Saved", "Revoked", "Copied".
 */
export function LiveStatus({ message }: { message: string }) {
  return (
    <p
      class={message ? 'notice success admin-status' : 'admin-status is-empty'}
      role="status"
      aria-live="polite"
      aria-atomic="true"
    >
      {message}
    </p>
  )
}

/** An assertive region for a failed action (role="alert"), empty until there is one. */
export function ActionError({ message }: { message: string | null }) {
  return (
    <div class={message ? 'notice error admin-action-error' : 'admin-action-error is-empty'} role="alert">
      {message}
    </div>
  )
}
