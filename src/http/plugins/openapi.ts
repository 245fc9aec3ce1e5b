// The OpenAPI 3.1 document, generated from the route schemas that also validate requests,
// served at /api/v1/openapi.json, and a readable reference page at /docs.
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { ERRORS } from '../errors.ts'
import { LIST_DEFAULTS } from '../../domain/listing.ts'
import type { App } from '../types.ts'

const errorTable = Object.entries(ERRORS)
  .map(([code, { status, meaning }]) => `| ${status} | \`${code}\` | ${meaning} |`)
  .join('\n')

const description = `Household records for wealth and estate planning. "Relationships" were formerly called
"households": the /api/v1/households paths are deprecated aliases of /api/v1/relationships during the soak
period, and the JSON keeps the names household, households and householdId.

**Authentication.** \`Authorization: Bearer idx_…\` with an API key (never in the query string or a cookie),
or the \`idp-session\` cookie of the web app (its sign-in is not released yet: until it is, authenticate with
an API key). A session has its user's role: viewer reads; advisor reads, writes and mints chart tokens; admin
has every permission. Writes (POST, PUT, PATCH, DELETE) with the cookie must come from the app's own origin
(\`Origin\` equal to it, or \`Sec-Fetch-Site: same-origin\`), else 403 \`cross_site_request\`; keys are not
subject to this. Permissions: \`relationships:read\` ≡ \`households:read\`,
\`relationships:write\` ≡ \`households:write\`, on both the new and the legacy paths. A write permission implies
read: every write answers the record it wrote, so a key that may write may also GET it.

**Rate limits.** Budgets are counted in units over a sliding window (no window boundary lets more than a
budget through). Each API key (or signed-in user) has its own budget (policy \`default\`, 600 units per 60 s
unless the operator changed it) and shares its organization's (policy \`org\`, 1800 per 60 s): a request must fit
both, and is charged to both or neither. Most requests cost 1 unit; a relationship list with a non-blank
\`search\` or an offset page at or beyond row 10000 costs 5 (cursor pages cost 1); a 304 costs 0.1. Every
response carries \`RateLimit-Policy\` (e.g. \`"default";q=600;w=60, "org";q=1800;w=60\`, with
\`;hearth-cost=5\` when the request cost other than 1) and \`RateLimit\` (\`r\` units left, \`t\` seconds until
some come back) headers (IETF draft-ietf-httpapi-ratelimit-headers-10); a refusal is 429 with \`Retry-After\`
and \`{error, code, resetAt}\`, the error saying whose budget ran out. Requests without credentials (sign-in,
docs, health) and failed authentications are limited per client address. \`GET /api/v1/limits\` (org admins)
shows the budgets in force and the costs.

**Concurrency.** Besides its budget, an organization has a share of requests in progress at once on
each instance (5 units by default; a request weighs its rate-limit cost, and an organization may borrow
up to twice its share while no other organization waits); more wait their turn in the organization's
own queue, and a request
that cannot wait (too many waiting, or waited too long) is 429 \`concurrency_limited\` with
\`Retry-After\` and \`resetAt\`. Another organization's requests never wait behind yours.

**Listing defaults.** page=${LIST_DEFAULTS.page}, pageSize=${LIST_DEFAULTS.pageSize}, sortBy=${LIST_DEFAULTS.sortBy},
sortOrder=${LIST_DEFAULTS.sortOrder}; ties are broken by id, so pages never overlap. Unknown query parameters are
ignored; an invalid value of a known one is 400. \`total\` is always exact.

**Cursor paging.** \`page\` costs its offset; to walk a long list, pass each response's \`nextCursor\` as
\`cursor\` (same query, without \`page\`): every page then costs what page 1 does. \`nextCursor\` is null on
the last page. The next page starts right after the cursor's household, whatever was created or deleted
meanwhile. A cursor of another query is 400 \`invalid_cursor\`.

**Idempotency.** Send \`Idempotency-Key\` (1–255 visible ASCII characters) on create: the same key with the same
body within 24 hours replays the first response (with \`Idempotent-Replayed: true\`); the same key with another
body is 409. After a 503 \`database_unavailable\` or no answer at all, send the create again with the same key:
it is applied once, whether or not the first attempt was.

**Errors.** Every error body is \`{error, code, requestId}\`: \`error\` is a sentence for people, \`code\` is stable.
An error about one part of the request also has \`field\`, a JSON Pointer (RFC 6901) to it: into the JSON body
(\`/name\`, \`/relationships/0/memberId\`, or \`/color\` for a property the schema does not have), into the query
string (\`/pageSize\`) or into the headers by lower-case name (\`/idempotency-key\`). Place messages by \`field\`
and \`code\`, not by the wording of \`error\`, which may change.

| Status | code | Meaning |
|---|---|---|
${errorTable}
`

export async function registerOpenApi(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Hearth household records API', version: '1.0.0', description },
      servers: [{ url: '/' }],
      tags: [
        { name: 'relationships', description: 'Relationships (households): list and create.' },
        { name: 'households (deprecated)', description: 'Legacy aliases of the relationship paths.' },
        {
          name: 'session',
          description: 'The web app session (idp-session cookie): who is signed in, sign out here or everywhere.',
        },
        {
          name: 'admin',
          description:
            'Managing the organization from the web app: API keys, embed origins, users (invitations and roles) and usage. Needs org:admin, which only the admin role holds; no API key can carry it.',
        },
        {
          name: 'embed',
          description: [
            "Chart tokens for the embedded household chart. The partner's server mints a token for a registered frame origin;",
            'the partner\'s page frames the pinned chart page (embedUrl) from the embed origin with sandbox="allow-scripts allow-same-origin"',
            'and posts it render {type, v: 1, token, payload} after the chart says ready. The chart verifies the token offline against',
            "{embed origin}/.well-known/jwks.json, checks that frameOrigin is the sender's origin, validates the payload against",
            '{embed origin}/chart/v<version>/payload.schema.json, and answers rendered {height}, resize {height}, select {id, kind} or',
            'error {code, message, path?} with the codes token_invalid, token_expired, origin_mismatch, version_unsupported, payload_invalid.',
            'Metering: a mint is counted when minted, a render the first time a chart presents the token (hearth usage). See the README.',
          ].join(' '),
        },
      ],
      components: {
        securitySchemes: {
          BearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: idx_ followed by 38 characters.' },
          SessionAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: 'idp-session',
            description:
              'Web app session, issued by GET /auth/callback after sign-in at the OpenID Connect provider (start at GET /auth/sign-in?returnTo=/path; only invited users get one). Opaque, HttpOnly, SameSite=Lax; ends after 12 h unused, 7 days after sign-in, or at sign out. Cookie writes need a same-origin request (Origin or Sec-Fetch-Site), else 403 cross_site_request.',
          },
        },
      },
    },
  })
  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api/v1/openapi.json' } })
}
