// /admin/keys: the organization's API keys. Create one (name, permissions, optional expiry) and
// see it once, with a Copy button and a curl line to try it; list every key with its prefix, what
// it may do, when it was last used and whether it still works; revoke one after a confirmation
// (revoked keys stay listed, marked revoked).
import { useEffect, useRef, useState } from 'preact/hooks'
import { api, ApiProblem } from '../api.ts'
import { PageHeading } from '../components/page-heading.tsx'
import { Field, FormSummary, useFormSummary } from '../components/fields.tsx'
import { ConfirmDialog, useConfirmation } from '../components/confirm-dialog.tsx'
import { LoadError } from '../components/load-error.tsx'
import { useApiData } from '../hooks/use-api-data.ts'
import { useFocusRequest } from '../hooks/focus-request.ts'
import { LiveStatus, Loading } from '../components/load-states.tsx'
import { formatDate, formatDateTime, problemText } from '../format.ts'
import { LEGACY_PERMISSIONS, NEW_KEY_PERMISSIONS } from '../organization/choices.ts'
import { grants } from '../../../domain/permissions.ts'
import type { ApiKey, ApiKeyList, CreatedApiKey } from '../../../schemas/organization.ts'

const KEY_NAME_MAX = 100
const MAX_KEY_DAYS = 3650

type KeyStatus = 'active' | 'revoked' | 'expired'

function statusOf(key: ApiKey, now: number): KeyStatus {
  if (key.revokedAt) return 'revoked'
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'expired'
  return 'active'
}

const STATUS_LABELS: Record<KeyStatus, string> = { active: 'Active', revoked: 'Revoked', expired: 'Expired' }

export function OrganizationKeysPage() {
  const keys = useApiData<ApiKeyList>('/api/v1/keys')
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const [formFocus, setFormFocus] = useState(false)
  const [status, setStatus] = useState('')
  const revocation = useConfirmation<ApiKey>()
  const [listHeading, focusList] = useFocusRequest<HTMLHeadingElement>()

  async function revoke(key: ApiKey) {
    await api(`/api/v1/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' })
    setStatus(`Revoked “${key.name}”. Requests with it are refused from now on; it stays in the list, marked revoked.`)
    revocation.close()
    keys.reload()
    // The Revoke button that opened the dialog goes away with the key's new status.
    focusList()
  }

  const list = keys.data?.keys
  const revoking = revocation.subject
  return (
    <section class="admin-page admin-keys">
      <PageHeading title="API keys">API keys</PageHeading>
      <p class="admin-intro">
        API keys let your other systems — a CRM, a partner's server — call Hearth's API for your organization. Each key
        may do only what its permissions allow, and you can revoke it at any time.
      </p>

      {created ? (
        <NewKeyPanel
          created={created}
          onDone={() => {
            setCreated(null)
            setFormFocus(true)
          }}
        />
      ) : (
        <CreateKeyForm
          focusOnMount={formFocus}
          onCreated={(result) => {
            setStatus('')
            setCreated(result)
            keys.reload()
          }}
        />
      )}

      <section class="admin-section" aria-labelledby="keys-list-title" aria-busy={keys.loading ? 'true' : 'false'}>
        <h2 id="keys-list-title" ref={listHeading} tabIndex={-1} class="section-heading">
          Keys
        </h2>
        <LiveStatus message={status} />
        {keys.error && <LoadError what="The keys" error={keys.error} onRetry={keys.reload} />}
        {!list && keys.loading && <Loading>Loading keys…</Loading>}
        {list?.length === 0 && (
          <div class="empty">
            <p>Your organization has no API keys yet.</p>
            <p>
              Create one above when another system needs to read or change your households, or to show their chart on a
              partner site.
            </p>
          </div>
        )}
        {list && list.length > 0 && <KeyTable keys={list} onRevoke={(key) => revocation.ask(key)} />}
      </section>

      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke key"
          busy={revocation.busy}
          error={revocation.error}
          onConfirm={() => void revocation.run(revoke)}
          onCancel={() => revocation.close()}
        >
          <p>
            Anything that uses the key <code class="mono">{revoking.prefix}…</code> is refused (HTTP 401) from its next
            request. A revoked key cannot be brought back: you would create a new one.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}

function KeyTable({ keys, onRevoke }: { keys: ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const now = Date.now()
  return (
    <div class="table-scroll">
      <table class="admin-table api-keys">
        <caption class="visually-hidden">Your organization's API keys, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Permissions</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => {
            const status = statusOf(key, now)
            return (
              <tr key={key.id} data-key-id={key.id} class={`key-${status}`}>
                <th scope="row" class="key-name">
                  {key.name}
                </th>
                <td>
                  <code class="mono">{key.prefix}…</code>
                </td>
                <td>
                  <ul class="plain permission-list">
                    {key.permissions.map((permission) => (
                      <li key={permission}>
                        <code class="mono">{permission}</code>
                        {LEGACY_PERMISSIONS[permission] && (
                          <span class="muted"> (legacy name of {LEGACY_PERMISSIONS[permission]})</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <time dateTime={key.createdAt}>{formatDate(key.createdAt)}</time>
                </td>
                <td>
                  {key.lastUsedAt ? (
                    <time dateTime={key.lastUsedAt}>{formatDateTime(key.lastUsedAt)}</time>
                  ) : (
                    <span class="muted">Never</span>
                  )}
                </td>
                <td>
                  {key.expiresAt ? (
                    <time dateTime={key.expiresAt}>{formatDate(key.expiresAt)}</time>
                  ) : (
                    <span class="muted">Never</span>
                  )}
                </td>
                <td>
                  <span class={`status-tag status-${status}`}>{STATUS_LABELS[status]}</span>
                  {status === 'revoked' && key.revokedAt && (
                    <span class="muted status-when">
                      {' '}
                      on <time dateTime={key.revokedAt}>{formatDate(key.revokedAt)}</time>
                    </span>
                  )}
                </td>
                <td class="actions">
                  {status !== 'revoked' && (
                    <button type="button" class="danger" onClick={() => onRevoke(key)}>
                      Revoke<span class="visually-hidden"> {key.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

interface KeyFormErrors {
  name?: string
  permissions?: string
  days?: string
}

function CreateKeyForm({
  onCreated,
  focusOnMount,
}: {
  onCreated: (created: CreatedApiKey) => void
  focusOnMount: boolean
}) {
  const [name, setName] = useState('')
  const [permissions, setPermissions] = useState<string[]>([])
  const [days, setDays] = useState('')
  const [errors, setErrors] = useState<KeyFormErrors>({})
  const summary = useFormSummary()
  const [busy, setBusy] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus()
  }, [])

  function validate(): KeyFormErrors {
    const found: KeyFormErrors = {}
    const trimmed = name.trim()
    if (!trimmed) found.name = 'Give the key a name, so that you can tell it apart later.'
    else if (trimmed.length > KEY_NAME_MAX) found.name = `The name can be at most ${KEY_NAME_MAX} characters.`
    if (permissions.length === 0) found.permissions = 'Choose at least one permission.'
    if (days.trim()) {
      const n = Number(days)
      if (!Number.isInteger(n) || n < 1 || n > MAX_KEY_DAYS)
        found.days = `Enter a whole number of days from 1 to ${MAX_KEY_DAYS}, or leave it empty.`
    }
    return found
  }

  function focusFirstError(found: KeyFormErrors) {
    const form = formRef.current
    if (!form) return
    const selector = found.name
      ? '#key-name'
      : found.permissions
        ? '#key-permissions input'
        : found.days
          ? '#key-days'
          : null
    if (selector) requestAnimationFrame(() => form.querySelector<HTMLElement>(selector)?.focus())
  }

  async function submit(event: Event) {
    event.preventDefault()
    if (busy) return
    summary.clear()
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) {
      focusFirstError(found)
      return
    }
    const body: { name: string; permissions: string[]; expiresInDays?: number } = { name: name.trim(), permissions }
    if (days.trim()) body.expiresInDays = Number(days)
    setBusy(true)
    try {
      const { body: result } = await api<CreatedApiKey>('/api/v1/keys', { method: 'POST', body })
      onCreated(result)
    } catch (problem) {
      const message = problemText(problem)
      // The API names the field first ("name must …", "permissions must …", "expiresInDays …").
      const field = problem instanceof ApiProblem && problem.status === 400 ? fieldOf(message) : null
      if (field) {
        const next = { [field]: message }
        setErrors(next)
        focusFirstError(next)
      } else {
        summary.show(`The key was not created: ${message}`)
      }
    } finally {
      setBusy(false)
    }
  }

  function toggle(permission: string, on: boolean) {
    setPermissions((current) =>
      on ? [...current.filter((p) => p !== permission), permission] : current.filter((p) => p !== permission),
    )
    setErrors((current) => ({ ...current, permissions: undefined }))
  }

  const permissionsDescribedBy = ['key-permissions-hint', errors.permissions ? 'key-permissions-error' : '']
    .filter(Boolean)
    .join(' ')
  return (
    <form
      ref={formRef}
      class="admin-form create-key"
      noValidate
      aria-labelledby="create-key-title"
      aria-busy={busy ? 'true' : 'false'}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="create-key-title" ref={headingRef} tabIndex={-1} class="section-heading">
        Create a key
      </h2>
      <FormSummary message={summary.message} summaryRef={summary.ref} />
      <Field
        id="key-name"
        label="Name"
        hint="Who or what uses it, e.g. “CRM sync” or “Partner portal”."
        error={errors.name}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="text"
            name="name"
            value={name}
            maxLength={KEY_NAME_MAX}
            autocomplete="off"
            onInput={(event) => {
              setName(event.currentTarget.value)
              setErrors((current) => ({ ...current, name: undefined }))
            }}
          />
        )}
      </Field>
      <fieldset id="key-permissions" class="permissions" aria-describedby={permissionsDescribedBy}>
        <legend>Permissions</legend>
        <p class="hint" id="key-permissions-hint">
          Give the key only what it needs. <code class="mono">relationships:write</code> also reads: every write answers
          the household it wrote. Older keys may show <code class="mono">households:read</code> and{' '}
          <code class="mono">households:write</code>: they are the legacy names of the relationships permissions and
          grant exactly the same, so new keys use the relationships names.
        </p>
        {NEW_KEY_PERMISSIONS.map((permission) => {
          const id = `key-permission-${permission.value.replace(':', '-')}`
          return (
            <div class="check-row" key={permission.value}>
              <input
                type="checkbox"
                id={id}
                name="permissions"
                value={permission.value}
                checked={permissions.includes(permission.value)}
                aria-invalid={errors.permissions ? 'true' : undefined}
                onChange={(event) => toggle(permission.value, event.currentTarget.checked)}
              />
              <label for={id}>
                <code class="mono">{permission.label}</code> <span class="check-hint">— {permission.hint}</span>
              </label>
            </div>
          )
        })}
        {errors.permissions && (
          <p class="field-error" id="key-permissions-error">
            {errors.permissions}
          </p>
        )}
      </fieldset>
      <Field
        id="key-days"
        class="narrow"
        label="Expires after (days)"
        hint={`Optional, 1 to ${MAX_KEY_DAYS}. Leave empty for a key that does not expire.`}
        error={errors.days}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="number"
            name="expiresInDays"
            inputMode="numeric"
            min={1}
            max={MAX_KEY_DAYS}
            step={1}
            value={days}
            onInput={(event) => {
              setDays(event.currentTarget.value)
              setErrors((current) => ({ ...current, days: undefined }))
            }}
          />
        )}
      </Field>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  )
}

function fieldOf(message: string): keyof KeyFormErrors | null {
  if (/^name\b/.test(message)) return 'name'
  if (/^permissions\b/.test(message) || message.includes('permission')) return 'permissions'
  if (/^expiresInDays\b/.test(message) || message.includes('expires')) return 'days'
  return null
}

/** A command that tries the key: a read when it may read, a chart token when it may only mint. */
function curlLine(created: CreatedApiKey): string {
  const origin = window.location.origin
  const auth = `-H "Authorization: Bearer ${created.key}"`
  const held = created.apiKey.permissions
  const canRead = grants(held, 'relationships:read')
  if (!canRead && held.includes('embed:chart')) {
    return `curl -X POST ${auth} -H "Content-Type: application/json" -d '{"frameOrigin":"https://app.example.com"}' ${origin}/api/v1/embed/chart-sessions`
  }
  return `curl ${auth} "${origin}/api/v1/relationships?pageSize=1"`
}

function curlHint(created: CreatedApiKey): string {
  const held = created.apiKey.permissions
  const canRead = grants(held, 'relationships:read')
  if (canRead) return 'It lists one of your households: an answer with "households" means the key works.'
  if (held.includes('embed:chart'))
    return 'Put one of your embed origins in place of https://app.example.com; the answer carries a chart token.'
  return 'This key cannot read, so the answer is 403 missing_permission: that still shows the key is recognised.'
}

/** Selects an element's text, for copying by hand when the browser refuses the clipboard. */
function selectContents(element: HTMLElement) {
  const selection = window.getSelection()
  if (!selection) return
  selection.removeAllRanges()
  const range = document.createRange()
  range.selectNodeContents(element)
  selection.addRange(range)
}

function NewKeyPanel({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const keyRef = useRef<HTMLElement>(null)
  const curlRef = useRef<HTMLElement>(null)
  // n: a new text node each time, so that copying twice is announced twice.
  const [copyStatus, setCopyStatusState] = useState({ text: '', n: 0 })
  const setCopyStatus = (text: string) => setCopyStatusState((current) => ({ text, n: current.n + 1 }))
  const curl = curlLine(created)

  useEffect(() => {
    headingRef.current?.focus()
  }, [])

  async function copy(text: string, element: HTMLElement | null, what: string) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- undefined outside a secure context (plain http), which the DOM types do not say
      if (!navigator.clipboard) throw new Error('no clipboard here')
      await navigator.clipboard.writeText(text)
      setCopyStatus(`Copied ${what} to the clipboard.`)
    } catch {
      if (element) selectContents(element)
      setCopyStatus(
        `Your browser did not let Hearth copy ${what}, so it is selected: press Ctrl+C (⌘C on a Mac) to copy it.`,
      )
    }
  }

  return (
    <section class="new-key" aria-labelledby="new-key-title">
      <h2 id="new-key-title" ref={headingRef} tabIndex={-1} class="section-heading">
        Your new key “{created.apiKey.name}”
      </h2>
      <p class="new-key-warning">
        <strong>Copy this key now: it will not be shown again.</strong> Hearth keeps only a fingerprint of it, so nobody
        can see it later — not even an admin. If it is lost, revoke it and create another.
      </p>
      <div class="secret-row">
        <code id="new-key-value" ref={keyRef} class="mono secret">
          {created.key}
        </code>
        <button type="button" class="primary" onClick={() => void copy(created.key, keyRef.current, 'the key')}>
          Copy key
        </button>
      </div>
      <p class="copy-status" role="status" aria-live="polite" aria-atomic="true">
        <span key={copyStatus.n}>{copyStatus.text}</span>
      </p>
      <h3>Try it</h3>
      <p class="hint" id="new-key-curl-hint">
        Paste this in a terminal. {curlHint(created)}
      </p>
      <pre class="curl" aria-describedby="new-key-curl-hint">
        <code ref={curlRef} class="mono">
          {curl}
        </code>
      </pre>
      <div class="form-actions">
        <button type="button" onClick={() => void copy(curl, curlRef.current, 'the command')}>
          Copy command
        </button>
        <button type="button" onClick={onDone}>
          Done: I have stored the key
        </button>
      </div>
    </section>
  )
}
