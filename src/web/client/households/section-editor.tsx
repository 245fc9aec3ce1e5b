// Editing the household page in place: a section whose title has an edit button and whose content
// gives way to a form while its editor is open (one at a time on the page), and what every such
// form does alike — its first field takes the focus, its write runs once at a time and closes it
// when saved, and it ends in Save and Cancel.
import type { ComponentChildren, RefObject } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ApiResponse } from '../api.ts'
import { useFormErrors, type FormErrors } from './form-errors.ts'
import type { HouseholdPageContext } from './household-writes.ts'

interface EditableSectionProps {
  page: HouseholdPageContext
  /** The editor it opens; it also names the heading (`${editor}-heading`). */
  editor: 'details' | 'assignments'
  title: string
  editLabel: string
  view: ComponentChildren
  form: (close: () => void) => ComponentChildren
}

/** Closing the form gives the focus back to the edit button, so keyboard users stay where they were. */
export function EditableSection({ page, editor, title, editLabel, view, form }: EditableSectionProps) {
  const editing = page.editor?.kind === editor
  const editButton = useRef<HTMLButtonElement>(null)
  const close = () => {
    page.setEditor(null)
    requestAnimationFrame(() => editButton.current?.focus())
  }
  const headingId = `${editor}-heading`
  return (
    <section aria-labelledby={headingId} class="household-section">
      <div class="section-title-row">
        <h2 id={headingId}>{title}</h2>
        {page.canWrite && !editing && (
          <button type="button" ref={editButton} onClick={() => page.setEditor({ kind: editor })}>
            {editLabel}
          </button>
        )}
      </div>
      {editing ? form(close) : view}
    </section>
  )
}

/** The buttons under an editor's form: save (saying so while it runs) and cancel, both held meanwhile. */
export function EditorActions({
  busy,
  saveLabel,
  onCancel,
}: {
  busy: boolean
  saveLabel: string
  onCancel: () => void
}) {
  return (
    <div class="form-actions">
      <button type="submit" class="primary" disabled={busy}>
        {busy ? 'Saving…' : saveLabel}
      </button>
      <button type="button" disabled={busy} onClick={onCancel}>
        Cancel
      </button>
    </div>
  )
}

export interface EditorForm {
  busy: boolean
  formRef: RefObject<HTMLFormElement | null>
  form: FormErrors
  /**
   * Sends the form's write under the household's ETag (page.write), busy meanwhile; once saved the
   * editor closes. A refusal the page does not explain itself goes next to the field it names
   * (one of `labels`' keys), else to the form's summary.
   */
  send: <T>(
    element: HTMLFormElement,
    request: (ifMatch: string) => Promise<ApiResponse<T>>,
    success: string,
    labels: Record<string, string>,
  ) => Promise<void>
}

/** An editor's form; `firstField` selects what takes the focus when it opens. */
export function useEditorForm(page: HouseholdPageContext, onDone: () => void, firstField: string): EditorForm {
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const form = useFormErrors()
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>(firstField)?.focus()
  }, [])
  return {
    busy,
    formRef,
    form,
    send: async (element, request, success, labels) => {
      setBusy(true)
      try {
        const result = await page.write(request, success)
        if (result.ok) onDone()
      } catch (problem) {
        form.showProblem(element, problem, labels)
      } finally {
        setBusy(false)
      }
    },
  }
}
