// `hearth`: the operator's CLI. Each command turns its arguments into an operator request (exit 2 with a
// one-line explanation when they are wrong), runs it (see run-operator-request.ts), and prints the result
// for people, or with --json as exactly one JSON object on the last line of standard output.
import { parseArgs, type ParseArgsConfig } from 'node:util'
// Only light modules are imported here: `hearth --help` and argument errors answer without loading
// typebox, the servers or the database; each command loads what it runs when it runs (below).
import { MAX_WORKERS } from '../cluster/worker-limit.ts'
import { PERMISSIONS } from '../domain/permissions.ts'
import { ORIGIN_RULE } from '../domain/origins.ts'
import { AUDIT_LIMIT, MAX_KEY_DAYS } from '../operator/request-bounds.ts'
import { DEFAULT_USER_ROLE, USER_ROLES } from '../domain/user-roles.ts'
import type { OperatorRequest } from '../operator/requests.ts'
import { CliError } from './cli-error.ts'
import type { ChartUsageRow } from '../store/chart-mints.ts'
import type { AuditRow } from '../store/audit.ts'
import type { User } from '../store/users.ts'
import { isUuid } from '../domain/ids.ts'
import type { BudgetView, LimitsView } from '../rate-limit/org-limits.ts'
import type { WebhookDelivery, WebhookEndpoint } from '../schemas/webhooks.ts'

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>

interface Command {
  words: [string] | [string, string]
  summary: string
  usage: string
  options: Options
  positionals?: string[]
  /** Operator commands build a request; serve runs itself. */
  request?: (values: Values, positionals: string[]) => OperatorRequest
  print?: (result: never) => string
  run?: (values: Values) => Promise<number>
}

const org = { org: { type: 'string' } } as const
const origin = { origin: { type: 'string' } } as const

function usageError(message: string): never {
  throw new CliError(message, 2)
}

function required(values: Values, name: string, what: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value.trim() === '') usageError(`--${name} is required: ${what}`)
  return value.trim()
}

function orgId(values: Values): string {
  const id = required(values, 'org', 'an organization id (hearth orgs list shows them)')
  if (!isUuid(id)) usageError(`--org must be an organization id (a UUID), got "${id}"; hearth orgs list shows them`)
  return id
}

/** A whole number of units given with --<name>, or undefined when not given. */
function units(values: Values, name: string): number | undefined {
  const value = values[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value.trim()))
    usageError(`--${name} must be a whole number of units per window, got "${String(value)}"`)
  return Number(value.trim())
}

const table = (rows: string[][]): string => {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? []
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}
const when = (value: unknown): string => (value ? new Date(value as string).toISOString().replace('.000Z', 'Z') : '-')

/** An endpoint id given as the command's argument. */
function endpointArg(positionals: string[]): string {
  const id = positionals[0] ?? ''
  if (!isUuid(id)) usageError(`give the webhook endpoint's id (a UUID from hearth webhooks list), got "${id}"`)
  return id
}

const endpointLine = (e: WebhookEndpoint) =>
  `${e.id}  ${e.enabled ? 'enabled' : 'DISABLED'}  ${e.url}  ${e.eventTypes ? e.eventTypes.join(',') : 'all events'}` +
  (e.disabledReason ? `\n  ${e.disabledReason}` : '')

const secretLines = (secret: string) => `Copy the signing secret now: it is not shown again.\n\n  ${secret}\n`

const WEBHOOK_COMMANDS: Command[] = [
  {
    words: ['webhooks', 'add'],
    summary: 'register a webhook endpoint (its signing secret is shown once)',
    usage:
      'hearth webhooks add --org <orgId> --url <url> [--types <t1,t2,…>] [--description <text>]\n' +
      '  url: https:// (http:// only to localhost outside production); types: event types to send (default: all)',
    options: { ...org, url: { type: 'string' }, types: { type: 'string' }, description: { type: 'string' } },
    request: (values) => ({
      op: 'webhooks.add',
      orgId: orgId(values),
      url: required(values, 'url', 'the https:// URL to deliver to'),
      ...(typeof values.types === 'string'
        ? {
            eventTypes: values.types
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          }
        : {}),
      ...(typeof values.description === 'string' ? { description: values.description } : {}),
    }),
    print: (result: { endpoint: WebhookEndpoint; secret: string }) =>
      `Registered webhook endpoint ${result.endpoint.id} for ${result.endpoint.url}.\n${secretLines(result.secret)}`,
  },
  {
    words: ['webhooks', 'list'],
    summary: "list an organization's webhook endpoints",
    usage: 'hearth webhooks list --org <orgId>',
    options: { ...org },
    request: (values) => ({ op: 'webhooks.list', orgId: orgId(values) }),
    print: (result: { endpoints: WebhookEndpoint[] }) =>
      result.endpoints.length
        ? result.endpoints.map(endpointLine).join('\n')
        : 'No webhook endpoints yet: hearth webhooks add --org <orgId> --url <url>',
  },
  {
    words: ['webhooks', 'remove'],
    summary: 'remove a webhook endpoint and its delivery log',
    usage: 'hearth webhooks remove <endpointId>',
    options: {},
    positionals: ['endpointId'],
    request: (_values, positionals) => ({ op: 'webhooks.remove', endpointId: endpointArg(positionals) }),
    print: (result: { id: string }) => `Removed webhook endpoint ${result.id}`,
  },
  {
    words: ['webhooks', 'enable'],
    summary: 'enable a webhook endpoint again (after it was disabled)',
    usage: 'hearth webhooks enable <endpointId>',
    options: {},
    positionals: ['endpointId'],
    request: (_values, positionals) => ({ op: 'webhooks.enable', endpointId: endpointArg(positionals), enabled: true }),
    print: (result: WebhookEndpoint) => endpointLine(result),
  },
  {
    words: ['webhooks', 'disable'],
    summary: 'stop deliveries to a webhook endpoint',
    usage: 'hearth webhooks disable <endpointId>',
    options: {},
    positionals: ['endpointId'],
    request: (_values, positionals) => ({
      op: 'webhooks.enable',
      endpointId: endpointArg(positionals),
      enabled: false,
    }),
    print: (result: WebhookEndpoint) => endpointLine(result),
  },
  {
    words: ['webhooks', 'rotate-secret'],
    summary: "rotate an endpoint's signing secret (both sign during the overlap)",
    usage:
      'hearth webhooks rotate-secret <endpointId> [--overlap-seconds <n>]\n' +
      '  overlap-seconds: how long the previous secret keeps signing too (default 86400, at most 604800)',
    options: { 'overlap-seconds': { type: 'string' } },
    positionals: ['endpointId'],
    request: (values, positionals) => {
      const overlap = values['overlap-seconds']
      if (overlap !== undefined && (typeof overlap !== 'string' || !/^\d{1,7}$/.test(overlap.trim())))
        usageError('--overlap-seconds must be a whole number of seconds from 0 to 604800')
      return {
        op: 'webhooks.rotate',
        endpointId: endpointArg(positionals),
        ...(typeof overlap === 'string' ? { overlapSeconds: Number(overlap.trim()) } : {}),
      }
    },
    print: (result: { endpoint: WebhookEndpoint; secret: string }) =>
      `Rotated the secret of ${result.endpoint.id}; the previous one also signs until ${when(result.endpoint.previousSecretExpiresAt)}.\n${secretLines(result.secret)}`,
  },
  {
    words: ['webhooks', 'test'],
    summary: 'send a test message (type webhook.test) to an endpoint',
    usage: 'hearth webhooks test <endpointId>',
    options: {},
    positionals: ['endpointId'],
    request: (_values, positionals) => ({ op: 'webhooks.test', endpointId: endpointArg(positionals) }),
    print: (result: { delivery: WebhookDelivery }) =>
      `Queued test delivery ${result.delivery.id}; hearth webhooks deliveries ${result.delivery.endpointId} shows how it went.`,
  },
  {
    words: ['webhooks', 'deliveries'],
    summary: "an endpoint's delivery log, newest first",
    usage: 'hearth webhooks deliveries <endpointId> [--limit <n>]\n  limit: the newest n (default 50, at most 200)',
    options: { limit: { type: 'string' } },
    positionals: ['endpointId'],
    request: (values, positionals) => {
      const limit = values.limit
      if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,3}$/.test(limit.trim())))
        usageError('--limit must be a whole number from 1 to 200')
      return {
        op: 'webhooks.deliveries',
        endpointId: endpointArg(positionals),
        ...(typeof limit === 'string' ? { limit: Number(limit.trim()) } : {}),
      }
    },
    print: (result: { deliveries: WebhookDelivery[] }) =>
      result.deliveries.length
        ? table([
            ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'ANSWER', 'NEXT'],
            ...result.deliveries.map((d) => [
              d.id,
              d.eventType,
              d.status,
              String(d.attempts),
              when(d.lastAttemptAt),
              d.lastError ?? (d.lastResponseStatus === null ? '-' : String(d.lastResponseStatus)),
              when(d.nextAttemptAt),
            ]),
          ])
        : 'No deliveries yet.',
  },
  {
    words: ['webhooks', 'retry'],
    summary: 'send a delivery again now',
    usage: 'hearth webhooks retry <endpointId> <deliveryId>',
    options: {},
    positionals: ['endpointId', 'deliveryId'],
    request: (_values, positionals) => {
      const deliveryId = positionals[1] ?? ''
      if (!isUuid(deliveryId))
        usageError(`give the delivery's id (a UUID from hearth webhooks deliveries), got "${deliveryId}"`)
      return { op: 'webhooks.retry', endpointId: endpointArg(positionals), deliveryId }
    },
    print: (result: { delivery: WebhookDelivery }) =>
      `Delivery ${result.delivery.id} will be sent again within seconds.`,
  },
]

const COMMANDS: Command[] = [
  {
    words: ['serve'],
    summary: 'start the API and embed servers (what npm start runs)',
    usage: `hearth serve [--only api|embed] [--workers <n>]\n  workers: API processes on this machine, 1 to ${MAX_WORKERS} (default HEARTH_WORKERS, or 1); more than 1 needs DATABASE_URL`,
    options: { only: { type: 'string' }, workers: { type: 'string' } },
    run: (values) => {
      const only = values.only
      if (only !== undefined && only !== 'api' && only !== 'embed')
        usageError(`--only must be api or embed, got "${String(only)}"`)
      const workers = values.workers
      if (
        workers !== undefined &&
        (typeof workers !== 'string' ||
          !/^\d{1,3}$/.test(workers) ||
          Number(workers) < 1 ||
          Number(workers) > MAX_WORKERS)
      ) {
        usageError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got "${String(workers)}"`)
      }
      // Loaded only when serving, so that --help and argument errors answer at once.
      return import('./serve-command.ts').then(({ serveCommand }) =>
        serveCommand(only, workers === undefined ? undefined : Number(workers)),
      )
    },
  },
  {
    words: ['migrate'],
    summary: 'apply database migrations (servers also do this at start)',
    usage: 'hearth migrate',
    options: {},
    request: () => ({ op: 'migrate' }),
    print: (result: { applied: string[]; current: number }) =>
      result.applied.length
        ? `Applied ${result.applied.join(', ')}; the schema is at version ${result.current}.`
        : `Nothing to apply; the schema is at version ${result.current}.`,
  },
  {
    words: ['doctor'],
    summary: "check the households' stored list items against their rows, and rewrite those that differ",
    usage:
      'hearth doctor --rebuild-list-items\n' +
      '  Each list item is kept in the transaction of every write that changes it; this is for when that is in\n' +
      '  doubt (a restore, a trigger disabled by hand). It works through the households a thousand at a time,\n' +
      '  so requests and writes go on between; a healthy database is only read.',
    options: { 'rebuild-list-items': { type: 'boolean' } },
    request: (values) => {
      if (values['rebuild-list-items'] !== true) usageError('say what to do: hearth doctor --rebuild-list-items')
      return { op: 'doctor.rebuildListItems' }
    },
    print: (result: { checked: number; rebuilt: number }) =>
      result.rebuilt === 0
        ? `All ${result.checked} list items match their households.`
        : `Rebuilt ${result.rebuilt} of ${result.checked} list items (they differed from their households).`,
  },
  {
    words: ['orgs', 'create'],
    summary: 'create an organization',
    usage: 'hearth orgs create --name <name>',
    options: { name: { type: 'string' } },
    request: (values) => ({ op: 'orgs.create', name: required(values, 'name', "the organization's name") }),
    print: (result: { id: string; name: string }) => `Created organization "${result.name}" with id ${result.id}`,
  },
  {
    words: ['orgs', 'limits'],
    summary: "show or set an organization's rate limits (units per window)",
    usage:
      'hearth orgs limits --org <orgId> [--requests <n>] [--key-requests <n>] [--reset]\n' +
      "  requests: the organization's budget, shared by all its keys and users (default HEARTH_ORG_RATE_LIMIT_MAX)\n" +
      "  key-requests: each API key's own budget (default HEARTH_RATE_LIMIT_MAX; signed-in users keep that default)\n" +
      '  reset: back to the instance defaults. Without options: show the limits in force.',
    options: { ...org, requests: { type: 'string' }, 'key-requests': { type: 'string' }, reset: { type: 'boolean' } },
    request: (values) => ({
      op: 'orgs.limits',
      orgId: orgId(values),
      requests: units(values, 'requests'),
      keyRequests: units(values, 'key-requests'),
      reset: values.reset === true ? true : undefined,
    }),
    print: (result: LimitsView & { orgId: string }) => {
      const describe = (budget: BudgetView) => [
        String(budget.limit),
        budget.operatorOverride === null
          ? `${budget.ceiling} (default)`
          : `${budget.ceiling} (set for this organization)`,
        budget.adminLowered === null ? '-' : String(budget.adminLowered),
      ]
      return `Rate limits of ${result.orgId}, in units per ${result.windowSeconds} s (a plain request is 1 unit):\n\n${table(
        [
          ['BUDGET', 'IN FORCE', 'OPERATOR ALLOWS', 'LOWERED BY ITS ADMINS'],
          ['organization', ...describe(result.organization)],
          ['each API key', ...describe(result.perCredential)],
        ],
      )}`
    },
  },
  {
    words: ['orgs', 'list'],
    summary: 'list organizations',
    usage: 'hearth orgs list',
    options: {},
    request: () => ({ op: 'orgs.list' }),
    print: (result: { orgs: { id: string; name: string; households: number }[] }) =>
      result.orgs.length
        ? table([['ID', 'NAME', 'HOUSEHOLDS'], ...result.orgs.map((o) => [o.id, o.name, String(o.households)])])
        : 'No organizations yet: hearth orgs create --name <name>',
  },
  {
    words: ['keys', 'create'],
    summary: 'create an API key (shown once)',
    usage: `hearth keys create --org <orgId> --permissions <p1,p2,…> [--name <label>] [--expires-in-days <n>]\n  permissions: ${PERMISSIONS.join(', ')}`,
    options: {
      ...org,
      permissions: { type: 'string' },
      name: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    request: (values) => {
      const permissions = required(values, 'permissions', `a comma-separated list of ${PERMISSIONS.join(', ')}`)
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
      const days = values['expires-in-days']
      if (days !== undefined && (typeof days !== 'string' || !/^\d+$/.test(days))) {
        usageError(`--expires-in-days must be a whole number of days from 1 to ${MAX_KEY_DAYS}`)
      }
      return {
        op: 'keys.create',
        orgId: orgId(values),
        permissions,
        ...(typeof values.name === 'string' ? { name: values.name } : {}),
        ...(days !== undefined ? { expiresInDays: Number(days) } : {}),
      }
    },
    print: (result: { id: string; key: string; name: string; permissions: string[]; expiresAt: string | null }) =>
      `Created API key "${result.name}" (id ${result.id}) with ${result.permissions.join(', ')}` +
      `${result.expiresAt ? `, expiring ${when(result.expiresAt)}` : ''}.\nCopy it now: it is not shown again.\n\n  ${result.key}\n`,
  },
  {
    words: ['keys', 'list'],
    summary: "list an organization's API keys (never the keys themselves)",
    usage: 'hearth keys list --org <orgId>',
    options: { ...org },
    request: (values) => ({ op: 'keys.list', orgId: orgId(values) }),
    print: (result: { keys: Record<string, unknown>[] }) =>
      result.keys.length
        ? table([
            ['ID', 'PREFIX', 'NAME', 'PERMISSIONS', 'LAST USED', 'EXPIRES', 'REVOKED'],
            ...result.keys.map((k) => [
              String(k.id),
              `${String(k.prefix)}…`,
              String(k.name),
              (k.permissions as string[]).join(','),
              when(k.lastUsedAt),
              when(k.expiresAt),
              when(k.revokedAt),
            ]),
          ])
        : 'No API keys yet: hearth keys create --org <orgId> --permissions relationships:read',
  },
  {
    words: ['keys', 'revoke'],
    summary: 'revoke an API key (servers refuse it from the next request on)',
    usage: 'hearth keys revoke <keyId>',
    options: {},
    positionals: ['keyId'],
    request: (_values, positionals) => {
      const keyId = positionals[0] ?? ''
      if (!isUuid(keyId)) usageError(`give the id of the key to revoke (a UUID from hearth keys list), got "${keyId}"`)
      return { op: 'keys.revoke', keyId }
    },
    print: (result: { id: string; revokedAt: string }) => `Revoked API key ${result.id} at ${when(result.revokedAt)}`,
  },
  {
    words: ['origins', 'add'],
    summary: 'allow an origin to frame the embedded chart',
    usage: `hearth origins add --org <orgId> --origin <origin>\n  origin: ${ORIGIN_RULE}`,
    options: { ...org, ...origin },
    request: (values) => ({ op: 'origins.add', orgId: orgId(values), origin: required(values, 'origin', ORIGIN_RULE) }),
    print: (result: { origin: string; added: boolean }) =>
      result.added ? `Added frame origin ${result.origin}` : `${result.origin} was already registered`,
  },
  {
    words: ['origins', 'remove'],
    summary: 'stop an origin from framing the embedded chart',
    usage: 'hearth origins remove --org <orgId> --origin <origin>',
    options: { ...org, ...origin },
    request: (values) => ({
      op: 'origins.remove',
      orgId: orgId(values),
      origin: required(values, 'origin', ORIGIN_RULE),
    }),
    print: (result: { origin: string; removed: boolean }) =>
      result.removed ? `Removed frame origin ${result.origin}` : `${result.origin} was not registered`,
  },
  {
    words: ['origins', 'list'],
    summary: 'list the frame origins of an organization',
    usage: 'hearth origins list --org <orgId>',
    options: { ...org },
    request: (values) => ({ op: 'origins.list', orgId: orgId(values) }),
    print: (result: { origins: string[] }) =>
      result.origins.length
        ? result.origins.join('\n')
        : 'No frame origins yet: hearth origins add --org <orgId> --origin <origin>',
  },
  {
    words: ['samples', 'add'],
    summary: 'add the sample households (skips those already there)',
    usage: 'hearth samples add --org <orgId>',
    options: { ...org },
    request: (values) => ({ op: 'samples.add', orgId: orgId(values) }),
    print: (result: { added: number; skipped: number }) =>
      `Added ${result.added} sample households (${result.skipped} were already there)`,
  },
  {
    words: ['usage'],
    summary: 'chart tokens minted and charts rendered, per frame origin per day',
    usage:
      'hearth usage --org <orgId> [--since <YYYY-MM-DD>]\n  since: the first UTC day to report (default: 30 days ago)',
    options: { ...org, since: { type: 'string' } },
    request: (values) => ({
      op: 'usage',
      orgId: orgId(values),
      since:
        typeof values.since === 'string'
          ? values.since.trim()
          : new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
    }),
    print: (result: { since: string; days: ChartUsageRow[] }) => {
      if (result.days.length === 0) return `No chart tokens minted since ${result.since}.`
      const total = (field: 'mints' | 'renders') => String(result.days.reduce((sum, day) => sum + day[field], 0))
      return `Chart usage since ${result.since} (UTC days; a render is a token that reached a chart):\n\n${table([
        ['DAY', 'FRAME ORIGIN', 'MINTS', 'RENDERS'],
        ...result.days.map((day) => [day.day, day.frameOrigin, String(day.mints), String(day.renders)]),
        ['TOTAL', '', total('mints'), total('renders')],
      ])}`
    },
  },
  {
    words: ['users', 'add'],
    summary: 'invite a user to the web app (and to be assigned to households)',
    usage: `hearth users add --org <orgId> --email <email> [--name <name>] [--role <role>]\n  role: ${USER_ROLES.join(', ')} (default ${DEFAULT_USER_ROLE}); name: the part of the email before @ unless given.\n  The user signs in to the web app at the identity provider with this email.`,
    options: { ...org, email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    request: (values) => ({
      op: 'users.add',
      orgId: orgId(values),
      email: required(values, 'email', "the user's email address"),
      ...(typeof values.name === 'string' ? { name: values.name } : {}),
      ...(typeof values.role === 'string' ? { role: values.role.trim() } : {}),
    }),
    print: (result: User) => `Added ${result.role} "${result.name}" <${result.email}> with id ${result.id}`,
  },
  {
    words: ['users', 'list'],
    summary: "list an organization's users",
    usage: 'hearth users list --org <orgId>',
    options: { ...org },
    request: (values) => ({ op: 'users.list', orgId: orgId(values) }),
    print: (result: { users: User[] }) =>
      result.users.length
        ? table([
            ['ID', 'NAME', 'EMAIL', 'ROLE', 'CREATED'],
            ...result.users.map((u) => [u.id, u.name, u.email, u.role, when(u.createdAt)]),
          ])
        : 'No users yet: hearth users add --org <orgId> --email <email> --name <name>',
  },
  {
    words: ['audit'],
    summary: 'the audit log: who changed which household (its members, entities, links), when, and which fields',
    usage: `hearth audit --org <orgId> [--household <householdId>] [--limit <n>]\n  limit: the newest n entries, shown oldest first (default ${AUDIT_LIMIT.default}, at most ${AUDIT_LIMIT.max})`,
    options: { ...org, household: { type: 'string' }, limit: { type: 'string' } },
    request: (values) => {
      const household = values.household
      if (household !== undefined && (typeof household !== 'string' || !isUuid(household.trim()))) {
        usageError(`--household must be a household id (a UUID), got "${String(household)}"`)
      }
      const limit = values.limit
      if (limit !== undefined && (typeof limit !== 'string' || !/^\d{1,6}$/.test(limit.trim()))) {
        usageError(`--limit must be a whole number from 1 to ${AUDIT_LIMIT.max}`)
      }
      return {
        op: 'audit',
        orgId: orgId(values),
        ...(typeof household === 'string' ? { householdId: household.trim() } : {}),
        ...(typeof limit === 'string' ? { limit: Number(limit) } : {}),
      }
    },
    print: (result: { entries: AuditRow[] }) =>
      result.entries.length
        ? table([
            ['TIME', 'ACTOR', 'ACTION', 'HOUSEHOLD', 'SUBJECT', 'CHANGED'],
            ...result.entries.map((e) => [
              e.at,
              `${e.actorType} ${e.actorId}`,
              e.action,
              e.householdId ?? '-',
              auditSubject(e),
              e.changed.length ? e.changed.join(',') : '-',
            ]),
          ])
        : 'No audit entries.',
  },
  ...WEBHOOK_COMMANDS,
]

/** What within the household an entry concerned: a member, an entity or a link; '-' for the household itself. */
function auditSubject(entry: AuditRow): string {
  if (entry.memberId !== null) return `member ${entry.memberId}`
  if (entry.entityId !== null) return `entity ${entry.entityId}`
  if (entry.linkId !== null) return `link ${entry.linkId}`
  return '-'
}

const COMMON: Options = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }

function overview(): string {
  // Wide enough for the longest name, so that two spaces always part it from its summary.
  const width = Math.max(16, ...COMMANDS.map((c) => c.words.join(' ').length + 1))
  const lines = COMMANDS.map((c) => `  ${c.words.join(' ').padEnd(width)} ${c.summary}`)
  return `hearth — run and administer Hearth

Usage: hearth <command> [options]   (npx hearth … from the project folder)

Commands:
${lines.join('\n')}

Options for every command:
  --json           print the result as one JSON object on the last line
  -h, --help       help for a command, e.g. hearth keys create --help

Environment: the same variables as the server (DATABASE_URL, HEARTH_DATA_DIR, …; see the README).
On the embedded database, commands are handed to the running server, so they are safe while it runs.`
}

function help(command: Command): string {
  return `${command.summary}\n\nUsage: ${command.usage}\n\nAlso: --json, --help`
}

function findCommand(args: string[]): { command?: Command; rest: string[]; group?: string } {
  const [first, second] = args
  const two = COMMANDS.find((c) => c.words.length === 2 && c.words[0] === first && c.words[1] === second)
  if (two) return { command: two, rest: args.slice(2) }
  const one = COMMANDS.find((c) => c.words.length === 1 && c.words[0] === first)
  if (one) return { command: one, rest: args.slice(1) }
  const group = COMMANDS.some((c) => c.words[0] === first) ? first : undefined
  return group ? { rest: args.slice(1), group } : { rest: args }
}

/**
 * parseArgs refuses "--expires-in-days -3" as ambiguous; join such a value to its option
 * ("--expires-in-days=-3") so that the option's own rule can say what is valid.
 */
function attachDashValues(args: string[], options: Options): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const next = args[i + 1]
    const option = arg.startsWith('--') ? options[arg.slice(2)] : undefined
    if (option?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else {
      out.push(arg)
    }
  }
  return out
}

/** The error when it is a ConfigError or an OperatorError: something the person can fix (exit 2). */
async function refusal(error: unknown): Promise<Error | undefined> {
  // Whatever threw one of these has loaded its module, so these imports cost nothing then.
  const [{ ConfigError }, { OperatorError }] = await Promise.all([
    import('../config.ts'),
    import('../operator/requests.ts'),
  ])
  return error instanceof ConfigError || error instanceof OperatorError ? error : undefined
}

export async function main(argv: string[]): Promise<number> {
  const { command, rest, group } = findCommand(argv)
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      console.log(overview())
      return 0
    }
    if (group) {
      const subs = COMMANDS.filter((c) => c.words[0] === group)
      const wanted = rest.includes('--help') || rest.includes('-h')
      const lines = subs.map((c) => `  ${c.usage.split('\n')[0]}`).join('\n')
      if (rest.length === 0) {
        console.error(`hearth ${group}: say which: ${subs.map((c) => c.words[1]).join(', ')} (hearth ${group} --help)`)
        return 2
      }
      if (wanted) {
        console.log(`hearth ${group} commands:\n${lines}`)
        return 0
      }
      console.error(
        `hearth: unknown command "${group} ${rest[0]}"; the ${group} commands are: ${subs.map((c) => c.words[1]).join(', ')}`,
      )
      return 2
    }
    console.error(
      `hearth: unknown command "${argv[0]}"; the commands are: ${[...new Set(COMMANDS.map((c) => c.words[0]))].join(', ')} (hearth --help)`,
    )
    return 2
  }

  const name = `hearth ${command.words.join(' ')}`
  let values: Values
  let positionals: string[]
  try {
    const options = { ...COMMON, ...command.options }
    const parsed = parseArgs({ args: attachDashValues(rest, options), options, allowPositionals: true, strict: true })
    values = parsed.values as Values
    positionals = parsed.positionals
  } catch (error) {
    console.error(`${name}: ${(error as Error).message.split('\n')[0]}; see ${name} --help`)
    return 2
  }
  if (values.help) {
    console.log(help(command))
    return 0
  }
  if (positionals.length > (command.positionals?.length ?? 0)) {
    console.error(
      `${name}: unexpected argument "${positionals[command.positionals?.length ?? 0]}"; usage: ${command.usage.split('\n')[0]}`,
    )
    return 2
  }

  try {
    if (command.run) return await command.run(values)
    const request = command.request?.(values, positionals)
    if (!request) throw new Error(`${name} has nothing to run`)
    const [{ validateOperatorRequest }, { loadConfig }] = await Promise.all([
      import('../operator/requests.ts'),
      import('../config.ts'),
    ])
    validateOperatorRequest(request)
    const config = loadConfig()
    const { runOperatorRequest } = await import('./run-operator-request.ts')
    const result = await runOperatorRequest(config, request)
    if (values.json) console.log(JSON.stringify(result))
    else console.log(command.print ? command.print(result as never) : JSON.stringify(result, null, 2))
    return 0
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`${name}: ${error.message}`)
      return error.exitCode
    }
    const refused = await refusal(error)
    if (refused) {
      console.error(`${name}: ${refused.message}`)
      return 2
    }
    console.error(`${name} failed: ${(error as Error).message}`)
    return 1
  }
}
