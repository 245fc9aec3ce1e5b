// A webhook endpoint's signing secret, shown the one time the API gives it (at registration and
// at each rotation): the heading takes the focus, a warning that it will not be shown again, a
// Copy button (or the secret selected, when the browser refuses the clipboard), and after a
// rotation until when the previous secret keeps signing.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatDateTime } from '../format.ts'
import type { WebhookSecretAnswer } from './webhooks.ts'

/** Selects an element's text, for copying by hand when the browser refuses the clipboard. */
function selectContents(element: HTMLElement) {
  const selection = window.getSelection()
  if (!selection) return
  selection.removeAllRanges()
  const range = document.createRange()
  range.selectNodeContents(element)
  selection.addRange(range)
}

export function WebhookSecretPanel({
  answer,
  title,
  rotated,
  onDone,
  children,
}: {
  answer: WebhookSecretAnswer
  title: string
  /** A rotation: say whether, and until when, the previous secret still signs. */
  rotated?: boolean
  onDone: () => void
  children?: ComponentChildren
}) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const secretRef = useRef<HTMLElement>(null)
  // n: a new text node each time, so that copying twice is announced twice.
  const [copyStatus, setCopyStatusState] = useState({ text: '', n: 0 })
  const setCopyStatus = (text: string) => setCopyStatusState((current) => ({ text, n: current.n + 1 }))
  const overlapUntil = answer.endpoint.previousSecretExpiresAt

  useEffect(() => {
    headingRef.current?.focus()
  }, [])

  async function copy() {
    try {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined outside a secure context (plain http), which the DOM types do not say
      if (!navigator.clipboard) throw new Error('no clipboard here')
      await navigator.clipboard.writeText(answer.secret)
      setCopyStatus('Copied the secret to the clipboard.')
    } catch {
      if (secretRef.current) selectContents(secretRef.current)
      setCopyStatus(
        'Your browser did not let Hearth copy the secret, so it is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
      )
    }
  }

  return (
    <section class="new-key webhook-secret" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title" ref={headingRef} tabIndex={-1} class="section-heading">
        {title}
      </h2>
      <p class="new-key-warning">
        <strong>Copy this secret now: it will not be shown again.</strong> Your receiver verifies each delivery's{' '}
        <code class="mono">webhook-signature</code> with it (any Standard Webhooks library does). If it is lost, rotate
        the secret to get a new one.
      </p>
      <div class="secret-row">
        <code id="webhook-secret-value" ref={secretRef} class="mono secret">
          {answer.secret}
        </code>
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy secret
        </button>
      </div>
      <p class="copy-status" role="status" aria-live="polite" aria-atomic="true">
        <span key={copyStatus.n}>{copyStatus.text}</span>
      </p>
      {rotated && (
        <p class="webhook-overlap">
          {overlapUntil ? (
            <>
              The previous secret keeps signing until{' '}
              <time dateTime={overlapUntil}>{formatDateTime(overlapUntil)}</time>: until then every delivery carries two
              signatures, by the new secret and by the previous one, so your receiver keeps verifying while you switch
              it. After that only the new secret signs.
            </>
          ) : (
            <>The previous secret stopped signing at once: from now on only the new secret signs.</>
          )}
        </p>
      )}
      {children}
      <div class="form-actions">
        <button type="button" onClick={onDone}>
          Done: I have stored the secret
        </button>
      </div>
    </section>
  )
}
