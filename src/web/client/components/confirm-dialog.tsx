// A confirmation for what cannot be undone, as a native modal <dialog>: it traps focus, Escape
// cancels, and focus goes back to the button that opened it when it closes. useConfirmation keeps
// what the page needs for one: what it asks about, the confirmed action running, its failure.
import type { ComponentChildren } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { problemText } from '../format.ts'

interface ConfirmDialogProps {
  title: string
  children: ComponentChildren
  confirmLabel: string
  busy?: boolean
  error?: string | null
  onConfirm: () => void
  onCancel: () => void
}

let dialogCount = 0

export function ConfirmDialog({ title, children, confirmLabel, busy, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const id = useRef(`confirm-${++dialogCount}`).current
  useEffect(() => {
    const dialog = ref.current
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog?.showModal()
    return () => {
      // Give the focus back only if it is still the dialog's: the page may already have moved it
      // (after a confirmed action its opener can be on its way out), and must not lose it to us.
      const focusWasOurs =
        dialog !== null && (dialog.contains(document.activeElement) || document.activeElement === document.body)
      if (dialog?.open) dialog.close()
      if (focusWasOurs && opener?.isConnected) opener.focus()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      class="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault()
        if (!busy) onCancel()
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`}>{children}</div>
      {error && (
        <p class="notice error" role="alert">
          {error}
        </p>
      )}
      <div class="dialog-actions">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {busy ? 'Working…' : confirmLabel}
        </button>
        <button type="button" disabled={busy} onClick={onCancel} autofocus>
          Cancel
        </button>
      </div>
    </dialog>
  )
}

export interface Confirmation<T> {
  /** What the dialog asks about; null while it is closed. */
  subject: T | null
  busy: boolean
  error: string | null
  /** Opens the dialog about `subject`, without the failure of an earlier attempt. */
  ask(subject: T): void
  close(): void
  /**
   * Runs the confirmed action, one at a time. What it throws stays in the open dialog as a
   * sentence, so that the person can try again or cancel; the action closes the dialog itself
   * when it is done.
   */
  run(action: (subject: T) => Promise<void>): Promise<void>
}

export function useConfirmation<T>(): Confirmation<T> {
  const [subject, setSubject] = useState<T | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  return {
    subject,
    busy,
    error,
    ask(next) {
      setError(null)
      setSubject(() => next)
    },
    close() {
      setSubject(null)
    },
    async run(action) {
      if (subject === null || busy) return
      setBusy(true)
      setError(null)
      try {
        await action(subject)
      } catch (problem) {
        setError(problemText(problem))
      } finally {
        setBusy(false)
      }
    },
  }
}
