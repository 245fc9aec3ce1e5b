// Who may frame the chart page. The CSP names only the origin of the page asking for the chart,
// and only when some organization registered it; anything else gets 'none', never '*'.
//
// Why not list every registered origin? The page is public: its CSP would publish every partner's
// domains to anyone who fetches it. Reflecting the one requesting origin after a lookup is how
// CORS answers the same question. The requesting origin comes from the Referer of the frame's
// navigation, which browsers send as at least the origin by default; a host page whose
// Referrer-Policy is no-referrer must give the iframe referrerpolicy="origin" (the SDK does).
import type { Kysely } from 'kysely'
import type { Database } from '../store/tables.ts'
import { parseFrameOrigin } from '../domain/origins.ts'
import { isFrameOriginRegisteredAnywhere } from '../store/origins.ts'

const CHART_PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

/** appOrigin: the web app's own origin, which frames the chart on its household pages. */
export async function chartPagePolicy(
  db: Kysely<Database>,
  referer: string | undefined,
  appOrigin?: string,
): Promise<string> {
  const origin = refererOrigin(referer)
  const allowed = origin !== undefined && (origin === appOrigin || (await isFrameOriginRegisteredAnywhere(db, origin)))
  return `${CHART_PAGE_POLICY}; frame-ancestors ${allowed ? origin : "'none'"}`
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined
  let url: URL
  try {
    url = new URL(referer)
  } catch {
    return undefined
  }
  const check = parseFrameOrigin(url.origin)
  return check.ok ? check.origin : undefined
}
