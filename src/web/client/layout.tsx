// The frame of every signed-in page: a skip link, the header with the organization (a menu to
// switch, for people in several), navigation (admin pages only for admins), who is signed in and
// the two ways to sign out.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { api } from './api.ts'
import { problemText } from './format.ts'
import type { Location } from './router.ts'
import { can, useMe } from './session.ts'
import { OrganizationSwitcher } from './components/organization-switcher.tsx'

const ADMIN_LINKS = [
  { href: '/admin/keys', label: 'API keys' },
  { href: '/admin/origins', label: 'Embed origins' },
  { href: '/admin/webhooks', label: 'Webhooks' },
  { href: '/admin/members', label: 'Members' },
  { href: '/admin/usage', label: 'Usage' },
]

export function Layout({ location, children }: { location: Location; children: ComponentChildren }) {
  const me = useMe()
  const [signOutError, setSignOutError] = useState<string | null>(null)
  const links = [{ href: '/households', label: 'Households' }, ...(can(me, 'org:admin') ? ADMIN_LINKS : [])]
  // A page under another (a household, a webhook endpoint) is part of its section.
  const isCurrent = (href: string) => location.path === href || location.path.startsWith(`${href}/`)

  async function signOut(everywhere: boolean) {
    try {
      await api(everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out', { method: 'POST' })
      window.location.assign('/signed-out')
    } catch (error) {
      setSignOutError(problemText(error))
    }
  }

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="app-header">
        <a class="brand" href="/households">
          Hearth
        </a>
        <OrganizationSwitcher me={me} />
        <nav aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={isCurrent(link.href) ? 'page' : undefined}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <span>
            {me.user.name} <span class="role">({me.user.role})</span>
          </span>
          <button type="button" class="link" onClick={() => void signOut(false)}>
            Sign out
          </button>
          <button type="button" class="link" onClick={() => void signOut(true)}>
            Sign out everywhere
          </button>
        </div>
      </header>
      {signOutError && (
        <p class="error" role="alert">
          {signOutError}
        </p>
      )}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  )
}
