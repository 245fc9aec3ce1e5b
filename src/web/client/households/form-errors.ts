// Errors of a form, field by field, from two sources: the browser's own constraint checks
// (required, maxlength, type=date, min/max/step) and the API's 400 answers, which name the part of
// the request they are about as a JSON Pointer (`field`). Inputs are named by that path with dots
// (problem-field.ts), so an error finds its input by its pointer; what names no input of the form
// goes to the summary at the top.
import { useState } from 'preact/hooks'
import { ApiProblem } from '../api.ts'
import { useFormSummary } from '../components/fields.tsx'
import { problemText } from '../format.ts'
import { inputOfField, sentenceFor } from './problem-field.ts'

export type FieldErrors = Record<string, string>

/** Focus once the errors are drawn (a field may be inside a <details> that the error opens). */
function focusLater(element: HTMLElement): void {
  requestAnimationFrame(() => element.focus())
}

export interface FormErrors {
  errors: FieldErrors
  summary: string | null
  /** The summary element: focused when the error is not about one field. */
  summaryRef: { current: HTMLElement | null }
  clear(): void
  clearField(name: string): void
  /** Checks the form's native constraints; shows every problem next to its field and focuses the first. */
  checkNative(form: HTMLFormElement): boolean
  /**
   * Shows an API problem next to the input its `field` points at (one of `labels`' keys; `prefix`
   * as for inputOfField), else in the summary.
   */
  showProblem(form: HTMLFormElement | null, problem: unknown, labels: Record<string, string>, prefix?: string): void
  /** A sentence about the whole form, focused. */
  setSummary(message: string): void
}

export function useFormErrors(): FormErrors {
  const [errors, setErrors] = useState<FieldErrors>({})
  const summary = useFormSummary()

  return {
    errors,
    summary: summary.message,
    summaryRef: summary.ref,
    clear() {
      setErrors({})
      summary.clear()
    },
    clearField(name) {
      setErrors((current) => {
        if (!(name in current)) return current
        return Object.fromEntries(Object.entries(current).filter(([key]) => key !== name))
      })
    },
    checkNative(form) {
      const found: FieldErrors = {}
      let first: HTMLElement | undefined
      for (const element of Array.from(form.elements)) {
        if (!(
          element instanceof HTMLInputElement ||
          element instanceof HTMLSelectElement ||
          element instanceof HTMLTextAreaElement
        ))
          continue
        if (!element.name || element.disabled || element.checkValidity()) continue
        found[element.name] ??= element.validationMessage
        first ??= element
      }
      setErrors(found)
      summary.clear()
      if (first) focusLater(first)
      return first === undefined
    },
    showProblem(form, problem, labels, prefix = '') {
      if (!(problem instanceof ApiProblem)) {
        setErrors({})
        summary.show(problemText(problem))
        return
      }
      const input = inputOfField(problem.field, Object.keys(labels), prefix)
      const element = input ? form?.elements.namedItem(input) : null
      if (input && element instanceof HTMLElement) {
        setErrors({ [input]: sentenceFor(problem.message, problem.field, labels[input]) })
        summary.clear()
        focusLater(element)
        return
      }
      setErrors({})
      summary.show(problem.message)
    },
    setSummary: (message) => {
      summary.show(message)
    },
  }
}
