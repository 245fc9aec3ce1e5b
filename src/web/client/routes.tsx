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
import { OrganizationWebhooksPage } from './pages/organization-webhooks.tsx'
import { OrganizationWebhookPage } from './pages/organization-webhook.tsx'
import { MessageView } from './components/message-view.tsx'

const ORGANIZATION_PAGES: Record<string, () => JSX.Element> = {
  '/admin/keys': () => <OrganizationKeysPage />,
  '/admin/origins': () => <OrganizationOriginsPage />,
  '/admin/members': () => <OrganizationMembersPage />,
  '/admin/usage': () => <OrganizationUsagePage />,
  '/admin/webhooks': () => <OrganizationWebhooksPage />,
}

/** A path segment as written (the API then answers 404) when it is not valid percent-encoding. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** An organization page with an id in its path, such as /admin/webhooks/{endpointId}. */
function organizationPageWithId(path: string): (() => JSX.Element) | undefined {
  const webhook = /^\/admin\/webhooks\/([^/]+)$/.exec(path)
  if (webhook?.[1]) {
    const id = decodedSegment(webhook[1])
    return () => <OrganizationWebhookPage id={id} />
  }
  return undefined
}

export function routePage(location: Location, me: Me): JSX.Element {
  const { path } = location
  if (path === '/households' || path === '/households/') return <HouseholdsListPage location={location} />
  if (path === '/households/new') return <HouseholdNewPage />
  const household = /^\/households\/([^/]+)$/.exec(path)
  if (household?.[1]) return <HouseholdPage id={decodeURIComponent(household[1])} />
  const organizationPath = path === '/admin' ? '/admin/keys' : path
  const organizationPage = ORGANIZATION_PAGES[organizationPath] ?? organizationPageWithId(organizationPath)
  if (organizationPage) {
    if (!can(me, 'org:admin')) {
      return (
        <MessageView title="Admins only">
          Only admins manage the organization's keys, origins, webhooks, members and usage. Your role: {me.user.role}.
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
