// The webhook_endpoints table (migration 0014): an organization's endpoints, always read and
// written inside that organization (another organization's id finds nothing). The secret is
// returned by create and rotate only; lists and reads leave it out.
import { sql, type Kysely, type Selectable } from 'kysely'
import type { Database, WebhookEndpointsTable } from './tables.ts'

export type WebhookEndpointRow = Omit<Selectable<WebhookEndpointsTable>, 'secret' | 'previous_secret'>

const COLUMNS = [
  'id',
  'org_id',
  'url',
  'description',
  'event_types',
  'previous_secret_expires_at',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'failing_since',
  'created_at',
  'updated_at',
] as const

export interface NewEndpoint {
  orgId: string
  url: string
  description: string
  eventTypes: string[] | null
  secret: string
}

export async function insertEndpoint(db: Kysely<Database>, input: NewEndpoint): Promise<WebhookEndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      org_id: input.orgId,
      url: input.url,
      description: input.description,
      event_types: input.eventTypes,
      secret: input.secret,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow()
}

export async function countEndpoints(db: Kysely<Database>, orgId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow()
  return row.n
}

export function listEndpoints(db: Kysely<Database>, orgId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(COLUMNS)
    .where('org_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
}

/** The endpoint, only if it is the organization's (orgId undefined: the operator's, any organization). */
export function findEndpoint(
  db: Kysely<Database>,
  orgId: string | undefined,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  let query = db.selectFrom('webhook_endpoints').select(COLUMNS).where('id', '=', id)
  if (orgId !== undefined) query = query.where('org_id', '=', orgId)
  return query.executeTakeFirst()
}

export interface EndpointChange {
  url?: string
  description?: string
  eventTypes?: string[] | null
  /** true: enabled again (the reason and the failure clock are cleared); false: disabled by an admin. */
  enabled?: boolean
}

export async function updateEndpoint(
  db: Kysely<Database>,
  orgId: string | undefined,
  id: string,
  change: EndpointChange,
): Promise<WebhookEndpointRow | undefined> {
  let query = db
    .updateTable('webhook_endpoints')
    .set({
      updated_at: sql`now()`,
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.eventTypes !== undefined ? { event_types: change.eventTypes } : {}),
      ...(change.enabled === true
        ? { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null }
        : {}),
      ...(change.enabled === false
        ? {
            enabled: false,
            disabled_at: sql`coalesce(disabled_at, now())`,
            disabled_reason: sql`coalesce(disabled_reason, 'Disabled by an admin.')`,
          }
        : {}),
    })
    .where('id', '=', id)
  if (orgId !== undefined) query = query.where('org_id', '=', orgId)
  return query.returning(COLUMNS).executeTakeFirst()
}

export async function deleteEndpoint(db: Kysely<Database>, orgId: string | undefined, id: string): Promise<boolean> {
  let query = db.deleteFrom('webhook_endpoints').where('id', '=', id)
  if (orgId !== undefined) query = query.where('org_id', '=', orgId)
  const result = await query.executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/**
 * A new secret; the current one keeps signing beside it until `overlapUntil` (a secret rotated
 * again within an overlap replaces the older previous one: only two ever sign).
 */
export async function rotateSecret(
  db: Kysely<Database>,
  orgId: string | undefined,
  id: string,
  secret: string,
  overlapUntil: Date,
): Promise<WebhookEndpointRow | undefined> {
  let query = db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_expires_at: overlapUntil,
      secret,
      updated_at: sql`now()`,
    }))
    .where('id', '=', id)
  if (orgId !== undefined) query = query.where('org_id', '=', orgId)
  return query.returning(COLUMNS).executeTakeFirst()
}
