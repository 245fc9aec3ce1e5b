// The HTML the server writes for the web app: the shell every app page starts from (the client
// draws the page into it), and plain message pages for the ends of sign-in that have no app
// behind them (not invited, sign-in failed). Every value placed in HTML is escaped.
import { escapeHtml } from '../http/html.ts'
import type { WebAssets } from './assets.ts'

/**
 * The app's Content-Security-Policy: its own script and styles only, no inline code, data from
 * its own origin, and frames only from the embed origin (the household chart).
 */
export function appPolicy(embedOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${embedOrigin}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export function shellPage(assets: WebAssets): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Hearth</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.stylesheetPath}">
<script type="module" src="${assets.scriptPath}"></script>
</head>
<body>
<div id="app"><p class="loading" role="status">Loading Hearth…</p></div>
<noscript><p>Hearth's web app needs JavaScript. The API works without it: see <a href="/docs">the API reference</a>.</p></noscript>
</body>
</html>
`
}

export interface MessagePage {
  title: string
  /** Paragraphs of plain text. */
  paragraphs: string[]
  action?: { href: string; label: string }
}

export function messagePage(assets: WebAssets, page: MessagePage): string {
  const paragraphs = page.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')
  const action = page.action
    ? `<p><a class="button" href="${escapeHtml(page.action.href)}">${escapeHtml(page.action.label)}</a></p>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(page.title)} · Hearth</title>
<link rel="stylesheet" href="${assets.stylesheetPath}">
</head>
<body>
<main class="message-page">
<p class="brand">Hearth</p>
<h1>${escapeHtml(page.title)}</h1>
${paragraphs}
${action}
</main>
</body>
</html>
`
}

export interface OrganizationOption {
  orgId: string
  orgName: string
  role: string
  /** An invitation not accepted yet (choosing it accepts it); otherwise the person is a member. */
  invited: boolean
}

/**
 * The sign-in's choice of organization: one button per organization, all in one form that posts
 * the chosen orgId to `action` (same origin; the pending choice travels in a cookie). No script:
 * the page works under the message pages' policy.
 */
export function organizationChoicePage(
  assets: WebAssets,
  options: { action: string; email: string | undefined; organizations: OrganizationOption[] },
): string {
  const intro = options.email
    ? `You signed in as ${options.email}. Choose the organization to work in; you can switch later from the menu at the top of Hearth.`
    : 'Choose the organization to work in; you can switch later from the menu at the top of Hearth.'
  const buttons = options.organizations
    .map((org) => {
      const status = org.invited ? `invited as ${org.role}: choosing it accepts the invitation` : `member, ${org.role}`
      return `<li><button type="submit" name="orgId" value="${escapeHtml(org.orgId)}"><span class="org-choice-name">${escapeHtml(org.orgName)}</span> <span class="org-choice-status">${escapeHtml(status)}</span></button></li>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Choose an organization · Hearth</title>
<link rel="stylesheet" href="${assets.stylesheetPath}">
</head>
<body>
<main class="message-page">
<p class="brand">Hearth</p>
<h1>Choose an organization</h1>
<p>${escapeHtml(intro)}</p>
<p>Invitations you do not choose stay open: nothing is accepted on your behalf.</p>
<form method="post" action="${escapeHtml(options.action)}">
<ul class="org-choices">
${buttons}
</ul>
</form>
</main>
</body>
</html>
`
}
