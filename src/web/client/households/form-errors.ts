// Errors of a form, field by field, from two sources: the browser's own constraint checks
// (required, maxlength, type=date, min/max/step) and the API's 400 answers, whose sentence starts
// with the path of the field it is about ("name must not be blank", "members.0.name …",
// "dsueReceived must have at most 2 decimals"). Inputs are named by those paths, so an error finds
// its input by name; what names no field of the form goes to the summary at the top.
import { useState } from 'preact/hooks'
import { ApiProblem } from '../api.ts'
import { useFormSummary } from '../components/fields.tsx'
import { problemText } from '../format.ts'

export type FieldErrors = Record<string, string>

/** The field path an API problem is about, if it names one of `fields` (longest match wins). */
export function fieldOfProblem(problem: ApiProblem, fields: readonly string[], prefix = ''): string | undefined {
  const candidates: string[] = []
  if (problem.pointer) candidates.push(problem.pointer.replace(/^\//, '').replaceAll('/', '.'))
  const leading = /^([A-Za-z][\w]*(?:\.\w+)*)\b/.exec(problem.message)?.[1]
  if (leading) candidates.push(leading)
  // Codes that are about one field without naming it in the sentence.
  if (problem.code === 'member_role_taken') candidates.push('role')
  if (problem.code.startsWith('relationship_')) candidates.push('relationships')
  for (const candidate of candidates) {
    const path = prefix + candidate
    // "metadata.a.b must …" is about metadata; "members.0.name" about that input.
    const match = fields.filter((field) => path === field || path.startsWith(`${field}.`)).sort((a, b) => b.length - a.length)[0]
    if (match) return match
  }
  return undefined
}

/** A sentence for people: the API's, with the field path replaced by the field's label. */
export function sentenceFor(problem: ApiProblem, field: string | undefined, label: string | undefined): string {
  if (!field || !label) return problem.message
  const rest = problem.message.replace(/^[A-Za-z][\w]*(?:\.\w+)*\s*/, '')
  if (rest === problem.message || rest === '') return problem.message
  return `${label} ${rest}`
}

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
  /** Shows an API problem next to the field it names (one of `labels`' keys), else in the summary. */
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
        const next = { ...current }
        delete next[name]
        return next
      })
    },
    checkNative(form) {
      const found: FieldErrors = {}
      let first: HTMLElement | undefined
      for (const element of Array.from(form.elements)) {
        if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement)) continue
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
      const field = problem.status === 400 ? fieldOfProblem(problem, Object.keys(labels), prefix) : undefined
      const element = field ? form?.elements.namedItem(field) : null
      if (field && element instanceof HTMLElement) {
        setErrors({ [field]: sentenceFor(problem, field, labels[field]) })
        summary.clear()
        focusLater(element)
        return
      }
      setErrors({})
      summary.show(problem.message)
    },
    setSummary: summary.show,
  }
}
