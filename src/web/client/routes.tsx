// Which page each URL is. Admin pages need the admin role; others see a plain refusal, and the
// API refuses them anyway (the page is a convenience, the API is the rule).
import type { JSX } from 'preact'
import type { Location } from './router.ts'
import { can, type Me } from './session.ts'
import { HouseholdsListPage } from './pages/households-list.tsx'
import { HouseholdNewPage } from './pages/household-new.tsx'
import { HouseholdPage } from './pages/household.tsx'
import { AdminKeysPage } from './pages/admin-keys.tsx'
import { AdminOriginsPage } from './pages/admin-origins.tsx'
import { AdminMembersPage } from './pages/admin-members.tsx'
import { AdminUsagePage } from './pages/admin-usage.tsx'
import { MessageView } from './components/message-view.tsx'

const ADMIN_PAGES: Record<string, () => JSX.Element> = {
  '/admin/keys': () => <AdminKeysPage />,
  '/admin/origins': () => <AdminOriginsPage />,
  '/admin/members': () => <AdminMembersPage />,
  '/admin/usage': () => <AdminUsagePage />,
}

export function routePage(location: Location, me: Me): JSX.Element {
  const { path } = location
  if (path === '/households' || path === '/households/') return <HouseholdsListPage location={location} />
  if (path === '/households/new') return <HouseholdNewPage />
  const household = /^\/households\/([^/]+)$/.exec(path)
  if (household?.[1]) return <HouseholdPage id={decodeURIComponent(household[1])} />
  const adminPath = path === '/admin' ? '/admin/keys' : path
  const adminPage = ADMIN_PAGES[adminPath]
  if (adminPage) {
    if (!can(me, 'org:admin')) {
      return <MessageView title="Admins only">Only your organization's admins manage keys, origins, members and usage. Your role is {me.user.role}.</MessageView>
    }
    return adminPage()
  }
  return (
    <MessageView title="Page not found">
      There is no page at this address. <a href="/households">Go to households</a>.
    </MessageView>
  )
}
