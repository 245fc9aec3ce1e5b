// Form fields with their label, hint and error wired up for assistive technology: <label for>,
// aria-describedby naming the hint and the error, aria-invalid while there is an error.
import type { ComponentChildren, JSX, Ref } from 'preact'
import { useRef, useState } from 'preact/hooks'

export interface FieldA11y {
  id: string
  'aria-invalid'?: 'true'
  'aria-describedby'?: string
}

interface FieldProps {
  id: string
  label: ComponentChildren
  hint?: ComponentChildren
  error?: string | undefined
  class?: string
  children: (a11y: FieldA11y) => JSX.Element
}

/** A labelled control; the control itself is the caller's (input, select, textarea). */
export function Field({ id, label, hint, error, class: className, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ')
  const a11y: FieldA11y = { id }
  if (error) a11y['aria-invalid'] = 'true'
  if (describedBy) a11y['aria-describedby'] = describedBy
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {children(a11y)}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  )
}

/** A tri-state yes/no/not recorded choice (nullable booleans of the API). */
export function YesNoSelect(props: {
  a11y: FieldA11y
  name: string
  value: '' | 'yes' | 'no'
  onChange: (value: '' | 'yes' | 'no') => void
  disabled?: boolean
}) {
  return (
    <select
      {...props.a11y}
      name={props.name}
      value={props.value}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.currentTarget.value as '' | 'yes' | 'no')}
    >
      <option value="">Not recorded</option>
      <option value="yes">Yes</option>
      <option value="no">No</option>
    </select>
  )
}

/** The message above a form when it could not be saved for a reason that is not one field's. */
export function FormSummary({ message, summaryRef }: { message: string | null; summaryRef: Ref<HTMLElement> }) {
  return (
    <div
      ref={summaryRef as Ref<HTMLDivElement>}
      tabIndex={-1}
      class={message ? 'notice error form-summary' : 'form-summary-empty'}
      role="alert"
    >
      {message}
    </div>
  )
}

export interface FormSummaryState {
  message: string | null
  ref: { current: HTMLElement | null }
  /** Shows the message and moves the focus to it (once it is drawn), so it is read out first. */
  show(message: string): void
  clear(): void
}

/** What a FormSummary shows, and its element. */
export function useFormSummary(): FormSummaryState {
  const [message, setMessage] = useState<string | null>(null)
  const ref = useRef<HTMLElement | null>(null)
  return {
    message,
    ref,
    show(next) {
      setMessage(next)
      requestAnimationFrame(() => ref.current?.focus())
    },
    clear() {
      setMessage(null)
    },
  }
}
