// What a page shows where its data should be when reading it failed: the API's sentence and
// "Try again".
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
