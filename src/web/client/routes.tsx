// Which page each URL is. The organization pages (under /admin) need the admin role; others see a
// plain refusal, and the API refuses them anyway (the page is a convenience, the API is the rule).
import type { JSX } from 'preact'
import type { Location } from './router.ts'
import { can, type Me } from './session.ts'
import { HouseholdsListPage } from './pages/households-list.tsx'
import { HouseholdNewPage } from './pages/household-new.tsx'
import { HouseholdPage } from './pages/household.tsx'
import { OrganizationKeysPage } from './pages/organization-keys.tsx'
import { OrganizationOriginsPage } from './pages/organization-origins.tsx'
import { OrganizationMembersPage } from './pages/organization-members.tsx'
import { OrganizationUsagePage } from './pages/organization-usage.tsx'
import { MessageView } from './components/message-view.tsx'

const ORGANIZATION_PAGES: Record<string, () => JSX.Element> = {
  '/admin/keys': () => <OrganizationKeysPage />,
  '/admin/origins': () => <OrganizationOriginsPage />,
  '/admin/members': () => <OrganizationMembersPage />,
  '/admin/usage': () => <OrganizationUsagePage />,
}

export function routePage(location: Location, me: Me): JSX.Element {
  const { path } = location
  if (path === '/households' || path === '/households/') return <HouseholdsListPage location={location} />
  if (path === '/households/new') return <HouseholdNewPage />
  const household = /^\/households\/([^/]+)$/.exec(path)
  if (household?.[1]) return <HouseholdPage id={decodeURIComponent(household[1])} />
  const organizationPath = path === '/admin' ? '/admin/keys' : path
  const organizationPage = ORGANIZATION_PAGES[organizationPath]
  if (organizationPage) {
    if (!can(me, 'org:admin')) {
      return (
        <MessageView title="Admins only">
          Only your organization's admins manage keys, origins, members and usage. Your role is {me.user.role}.
        </MessageView>
      )
    }
    return organizationPage()
  }
  return (
    <MessageView title="Page not found">
      There is no page at this address. <a href="/households">Go to households</a>.
    </MessageView>
  )
}
