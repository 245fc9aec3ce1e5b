// What an admin page shows around its data: the first load, a failure with "Try again", and a
// live region for what an action did.
export function LoadError({ what, error, onRetry }: { what: string; error: string; onRetry: () => void }) {
  return (
    <div class="notice error" role="alert">
      <p>
        {what} could not be loaded: {error}
      </p>
      <p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </p>
    </div>
  )
}

export function Loading({ children }: { children: string }) {
  return <p class="muted admin-loading">{children}</p>
}

/**
 * A polite live region that is always in the page (a region added together with its text is not
 * announced), for "Saved", "Revoked", "Copied".
 */
export function LiveStatus({ message }: { message: string }) {
  return (
    <p class={message ? 'notice success admin-status' : 'admin-status is-empty'} role="status" aria-live="polite" aria-atomic="true">
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
