// The header's organization: its name, or — for someone who can work in two or more organizations
// (GET /api/v1/me `organizations`) — a menu that lists them, the current one marked, and moves the
// session to the one picked. A disclosure (<details>) of plain buttons: keyboard and screen
// readers work natively, and no script is needed to open it. Switching starts a new session in
// the other organization, so the app reloads from its households rather than keep a page of the
// old one.
import { useRef, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { problemText } from '../format.ts'
import type { Me } from '../session.ts'

export function OrganizationSwitcher({ me }: { me: Me }) {
  const menu = useRef<HTMLDetailsElement>(null)
  const [switching, setSwitching] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  if (me.organizations.length < 2) return <span class="org-name">{me.org.name}</span>

  async function switchTo(orgId: string) {
    setSwitching(orgId)
    setError(null)
    try {
      await api('/auth/switch-organization', { method: 'POST', body: { orgId } })
      window.location.assign('/households')
    } catch (problem) {
      setSwitching(null)
      setError(problemText(problem))
    }
  }

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !menu.current?.open) return
    menu.current.open = false
    menu.current.querySelector('summary')?.focus()
  }

  return (
    <details class="org-switcher" ref={menu} onKeyDown={closeOnEscape}>
      <summary>
        <span class="visually-hidden">Organization: </span>
        {me.org.name}
        <span class="visually-hidden"> (switch organization)</span>
      </summary>
      <div class="org-switcher-panel">
        <ul aria-label="Your organizations">
          {me.organizations.map((org) => (
            <li key={org.id}>
              {org.current ? (
                // Not a button: switching to where one already is would only replace the session.
                <span class="org-current" aria-current="true">
                  <span class="org-choice-name">{org.name}</span>{' '}
                  <span class="org-choice-status">current, {org.role}</span>
                </span>
              ) : (
                <button type="button" disabled={switching !== null} onClick={() => void switchTo(org.id)}>
                  <span class="org-choice-name">{org.name}</span>{' '}
                  <span class="org-choice-status">
                    {org.invited ? `invited as ${org.role}: choosing it accepts` : org.role}
                  </span>
                </button>
              )}
            </li>
          ))}
        </ul>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </details>
  )
}
