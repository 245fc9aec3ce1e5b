// Row types of every table, as Kysely sees them. Columns with defaults are Generated.
import type { ColumnType, Generated, SelectType } from 'kysely'
import type { HouseholdFieldColumns } from '../households/household-fields.ts'
import type { EntityFieldColumns } from '../households/entity-fields.ts'
import type { UserRole } from '../domain/user-roles.ts'
import type { BeneficiaryType, LinkType } from '../domain/estate-vocabulary.ts'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type CreatedAt = ColumnType<Date, never, never>
/** `date` columns come back as 'YYYY-MM-DD' strings from both stores (see db.ts parsers). */
type DateOnly = string

export interface OrgsTable {
  id: Generated<string>
  name: string
  is_demo: Generated<boolean>
  created_at: CreatedAt
  /** Rate-limit overrides (migration 0008): units per window; null = the instance's default. */
  rate_limit_max: Generated<number | null>
  key_rate_limit_max: Generated<number | null>
  /** What the organization's admins lowered them to (never above the two above). */
  admin_rate_limit_max: Generated<number | null>
  admin_key_rate_limit_max: Generated<number | null>
}

/** Kept by triggers only; see migration 0001. */
export interface OrgHouseholdCountsTable {
  org_id: ColumnType<string, never, never>
  shard: ColumnType<number, never, never>
  households: ColumnType<number, never, never>
  samples: ColumnType<number, never, never>
}

export interface UsersTable {
  id: Generated<string>
  org_id: string
  email: string
  name: string
  role: UserRole
  created_at: CreatedAt
  /** The identity provider's issuer and subject, bound at the first sign-in; null while only invited. */
  idp_issuer: string | null
  idp_subject: string | null
  last_sign_in_at: Date | null
  /** The order users were made in (migration 0012): what lists of a person's organizations read them by. */
  seq: ColumnType<number, never, never>
}

/** The columns of the household's own fields come from their declaration (households/household-fields.ts). */
export interface HouseholdsTable extends HouseholdFieldColumns {
  id: Generated<string>
  org_id: string
  is_sample: Generated<boolean>
  member_count: ColumnType<number, never, never>
  assignment_count: ColumnType<number, never, never>
  entity_count: ColumnType<number, never, never>
  search_text: ColumnType<string, never, never>
  created_at: CreatedAt
  updated_at: Timestamp
  version: Generated<number>
  /** The SHA-256 of the document that last wrote the household whole, and the version it gave it (migration 0015). */
  document_hash: Generated<string | null>
  document_version: Generated<number | null>
}

export interface MembersTable {
  id: Generated<string>
  household_id: string
  name: string
  role: string
  birth_date: DateOnly | null
  death_date: DateOnly | null
  email: string | null
  /** A partner's own id for the member, unique in its household (migration 0011). */
  external_id: string | null
  position: number
  created_at: CreatedAt
}

export interface AssignmentsTable {
  household_id: string
  user_id: string
  role: string
  created_at: CreatedAt
}

/** Each household's list item as JSON text, written by triggers in every write's transaction (migration 0017). */
export interface HouseholdListItemsTable {
  household_id: ColumnType<string, never, never>
  item: ColumnType<object, never, never>
}

export interface ApiKeysTable {
  id: Generated<string>
  org_id: string
  name: string
  prefix: string
  secret_hash: string
  permissions: string[]
  created_at: CreatedAt
  expires_at: Date | null
  revoked_at: Date | null
  last_used_at: Date | null
}

export interface ApiKeyUsageTable {
  key_id: string
  day: DateOnly
  legacy: boolean
  calls: number
}

export interface FrameOriginsTable {
  org_id: string
  origin: string
  created_at: CreatedAt
}

export interface IdempotencyKeysTable {
  org_id: string
  key: string
  request_hash: string
  response: ColumnType<unknown, string | null, string>
  location: string | null
  created_at: CreatedAt
}

export interface SigningKeysTable {
  kid: string
  algorithm: string
  public_jwk: ColumnType<Record<string, unknown>, string, never>
  private_jwk: ColumnType<Record<string, unknown>, string, never>
  created_at: CreatedAt
}

export interface ChartMintsTable {
  jti: string
  org_id: string
  key_id: string
  frame_origin: string
  /** Who minted: an API key, or a signed-in user (then key_id is the user's id). */
  actor_type: ColumnType<'apiKey' | 'user', 'apiKey' | 'user' | undefined, never>
  created_at: CreatedAt
  rendered_at: Date | null
}

export interface KinshipsTable {
  household_id: string
  from_member_id: string
  to_member_id: string
  type: 'spouse' | 'partner' | 'exSpouse' | 'parent'
  /** Only on parent kinships; null = not stated (migration 0011). */
  parent_kind: 'biological' | 'adopted' | 'step' | 'foster' | null
  /** Only on spouse, partner and exSpouse kinships (migration 0011). */
  since: DateOnly | null
  until: DateOnly | null
  created_at: CreatedAt
}

/** A household's trusts, business entities, charities, holdings and parties (migration 0010); the columns of its fields come from their declaration (households/entity-fields.ts). */
export interface EntitiesTable extends EntityFieldColumns {
  id: Generated<string>
  household_id: string
  position: Generated<number>
  created_at: CreatedAt
  updated_at: Timestamp
}

/** Every value an entity has had (migration 0010). */
export interface EntityValuationsTable {
  id: ColumnType<number, never, never>
  household_id: string
  entity_id: string
  value: number | null
  value_as_of: DateOnly | null
  recorded_at: CreatedAt
}

/** Who holds what: from a member or an entity to an entity (migration 0010). */
export interface EntityLinksTable {
  id: Generated<string>
  household_id: string
  from_member_id: string | null
  from_entity_id: string | null
  to_entity_id: string
  type: LinkType
  share: number | null
  beneficiary_type: BeneficiaryType | null
  created_at: CreatedAt
  /** The order links were written in (migration 0012): what lists and the chart read them by. */
  seq: ColumnType<number, never, never>
}

export interface AuditLogTable {
  id: ColumnType<number, never, never>
  org_id: string
  actor_type: 'apiKey' | 'user'
  actor_id: string
  action: string
  household_id: string | null
  member_id: string | null
  /** The entity an entity.* action, the link a link.* action concerned (migration 0010). */
  entity_id: string | null
  link_id: string | null
  changed: string[]
  at: CreatedAt
}

/** One change, written by the change's own transaction (migration 0013). */
export interface EventsTable {
  /** The writing transaction's id: the feed's order with seq (see migration 0013). */
  tx: ColumnType<number, never, never>
  seq: ColumnType<number, never, never>
  id: Generated<string>
  org_id: string
  type: string
  household_id: string
  /** The event's data as JSON text. */
  data: string
  occurred_at: CreatedAt
}

/** One upload of JSON Lines (migration 0015). */
export interface ImportsTable {
  id: Generated<string>
  org_id: string
  actor_type: 'apiKey' | 'user'
  actor_id: string
  status: Generated<'receiving' | 'processing' | 'done'>
  total_lines: Generated<number>
  created_at: CreatedAt
  finished_at: Date | null
}

/** One non-blank line of an import and its result (migration 0015). */
export interface ImportLinesTable {
  import_id: string
  line: number
  body: string | null
  status: Generated<'pending' | 'created' | 'updated' | 'unchanged' | 'error'>
  claimed_until: Date | null
  claim_token: string | null
  external_id: string | null
  household_id: string | null
  error_code: string | null
  error_message: string | null
  error_field: string | null
}

/** The last position the retention purge deleted (migration 0013): one row. */
export interface EventsPurgedTable {
  only_row: ColumnType<boolean, never, never>
  tx: number
  seq: number
}

export interface SessionsTable {
  id: Generated<string>
  /** SHA-256 (hex) of the cookie value; the value itself is never stored. */
  token_hash: string
  user_id: string
  org_id: string
  created_at: CreatedAt
  last_seen_at: Timestamp
  idle_expires_at: Date
  absolute_expires_at: Date
  revoked_at: Date | null
  /** The address the identity provider verified at this session's sign-in (see migration 0009). */
  verified_email: string | null
}

export interface SignInAttemptsTable {
  /** SHA-256 (hex) of the OAuth state; the state itself lives only in the browser's cookie. */
  state_hash: string
  code_verifier: string
  nonce: string
  return_to: string
  expires_at: Date
  /** Who started it (migration 0008): pending attempts are bounded per address. */
  client_address: Generated<string>
}

/** A sign-in waiting for the person to pick an organization (migration 0009). */
export interface SignInChoicesTable {
  /** SHA-256 (hex) of the token in the browser's cookie; the token itself is never stored. */
  token_hash: string
  idp_issuer: string
  idp_subject: string
  verified_email: string | null
  return_to: string
  expires_at: Date
}

/** An organization's webhook endpoint (migration 0014). */
export interface WebhookEndpointsTable {
  id: Generated<string>
  org_id: string
  url: string
  description: Generated<string>
  /** null: every event type. */
  event_types: string[] | null
  /** The signing secret (whsec_…): shown once, never listed. */
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  enabled: Generated<boolean>
  disabled_reason: string | null
  disabled_at: Date | null
  failing_since: Date | null
  created_at: CreatedAt
  updated_at: Timestamp
}

/** One event (or test message) for one endpoint (migration 0014). */
export interface WebhookDeliveriesTable {
  id: Generated<string>
  org_id: string
  endpoint_id: string
  event_id: string
  event_type: string
  payload: string
  status: Generated<'pending' | 'succeeded' | 'failed'>
  attempts: Generated<number>
  /** The pg-boss job of the next attempt (see migration 0014), or the id of a leased first attempt. */
  job_id: string | null
  /** Until when the dispatching instance owns a first attempt made without a job (migration 0016). */
  lease_until: Timestamp | null
  next_attempt_at: Timestamp | null
  last_attempt_at: Date | null
  last_response_status: number | null
  last_error: string | null
  created_at: CreatedAt
}

/** One attempt of a delivery (migration 0014). */
export interface WebhookAttemptsTable {
  delivery_id: string
  attempt: number
  trigger: 'schedule' | 'manual'
  at: Date
  duration_ms: number
  succeeded: boolean
  response_status: number | null
  error: string | null
}

/** The webhook dispatcher's place in the events (migration 0014): one row. */
export interface WebhookDispatchTable {
  id: number
  tx: number
  seq: number
}

export interface Database {
  orgs: OrgsTable
  org_household_counts: OrgHouseholdCountsTable
  users: UsersTable
  households: HouseholdsTable
  members: MembersTable
  assignments: AssignmentsTable
  household_list_items: HouseholdListItemsTable
  api_keys: ApiKeysTable
  api_key_usage: ApiKeyUsageTable
  frame_origins: FrameOriginsTable
  idempotency_keys: IdempotencyKeysTable
  signing_keys: SigningKeysTable
  chart_mints: ChartMintsTable
  member_relationships: KinshipsTable
  entities: EntitiesTable
  entity_valuations: EntityValuationsTable
  entity_links: EntityLinksTable
  audit_log: AuditLogTable
  events: EventsTable
  events_purged: EventsPurgedTable
  imports: ImportsTable
  import_lines: ImportLinesTable
  sessions: SessionsTable
  sign_in_attempts: SignInAttemptsTable
  sign_in_choices: SignInChoicesTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  webhook_dispatch: WebhookDispatchTable
}

/** What Kysely reads from each column type (information_schema.columns udt_name; db.ts sets the parsers). */
interface SqlTypes {
  uuid: string
  text: string
  _text: string[]
  bool: boolean
  int2: number
  int4: number
  int8: number
  numeric: number
  date: DateOnly
  timestamptz: Date
  jsonb: unknown
  json: object
}

/** The column types whose values a column of TypeScript type T can hold. */
type SqlTypeOf<T> = { [K in keyof SqlTypes]: NonNullable<T> extends SqlTypes[K] ? K : never }[keyof SqlTypes]

interface ColumnDeclaration<T> {
  type: SqlTypeOf<T>
  nullable: null extends T ? true : false
}

/**
 * Every column of every table above, as the database has it: test/households/table-columns.test.ts
 * migrates a fresh database and compares. The compiler checks this against the types above (every
 * column named, its SQL type able to hold its TypeScript type, nullable exactly when null is), so
 * together they keep the types true to the migrations.
 */
export const TABLE_COLUMNS: {
  [Table in keyof Database]: {
    [Column in keyof Database[Table]]-?: ColumnDeclaration<SelectType<Database[Table][Column]>>
  }
} = {
  orgs: {
    id: { type: 'uuid', nullable: false },
    name: { type: 'text', nullable: false },
    is_demo: { type: 'bool', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    rate_limit_max: { type: 'int4', nullable: true },
    key_rate_limit_max: { type: 'int4', nullable: true },
    admin_rate_limit_max: { type: 'int4', nullable: true },
    admin_key_rate_limit_max: { type: 'int4', nullable: true },
  },
  org_household_counts: {
    org_id: { type: 'uuid', nullable: false },
    shard: { type: 'int2', nullable: false },
    households: { type: 'int4', nullable: false },
    samples: { type: 'int4', nullable: false },
  },
  users: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    email: { type: 'text', nullable: false },
    name: { type: 'text', nullable: false },
    role: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    idp_issuer: { type: 'text', nullable: true },
    idp_subject: { type: 'text', nullable: true },
    last_sign_in_at: { type: 'timestamptz', nullable: true },
    seq: { type: 'int8', nullable: false },
  },
  households: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    name: { type: 'text', nullable: false },
    is_sample: { type: 'bool', nullable: false },
    dsue_received: { type: 'numeric', nullable: true },
    deceased_spouse_name: { type: 'text', nullable: true },
    dsue_date_of_death: { type: 'date', nullable: true },
    metadata: { type: 'jsonb', nullable: true },
    primary_client_as_donor: { type: 'bool', nullable: true },
    co_client_as_donor: { type: 'bool', nullable: true },
    currency: { type: 'text', nullable: false },
    portability_elected: { type: 'text', nullable: true },
    primary_client_lifetime_gifts: { type: 'numeric', nullable: true },
    co_client_lifetime_gifts: { type: 'numeric', nullable: true },
    primary_client_exemption_used: { type: 'numeric', nullable: true },
    co_client_exemption_used: { type: 'numeric', nullable: true },
    primary_client_us_citizen: { type: 'bool', nullable: true },
    co_client_us_citizen: { type: 'bool', nullable: true },
    external_id: { type: 'text', nullable: true },
    document_hash: { type: 'text', nullable: true },
    document_version: { type: 'int4', nullable: true },
    member_count: { type: 'int4', nullable: false },
    assignment_count: { type: 'int4', nullable: false },
    entity_count: { type: 'int4', nullable: false },
    search_text: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    updated_at: { type: 'timestamptz', nullable: false },
    version: { type: 'int4', nullable: false },
  },
  members: {
    id: { type: 'uuid', nullable: false },
    household_id: { type: 'uuid', nullable: false },
    name: { type: 'text', nullable: false },
    role: { type: 'text', nullable: false },
    birth_date: { type: 'date', nullable: true },
    death_date: { type: 'date', nullable: true },
    email: { type: 'text', nullable: true },
    position: { type: 'int4', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    external_id: { type: 'text', nullable: true },
  },
  assignments: {
    household_id: { type: 'uuid', nullable: false },
    user_id: { type: 'uuid', nullable: false },
    role: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
  },
  household_list_items: {
    household_id: { type: 'uuid', nullable: false },
    item: { type: 'json', nullable: false },
  },
  api_keys: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    name: { type: 'text', nullable: false },
    prefix: { type: 'text', nullable: false },
    secret_hash: { type: 'text', nullable: false },
    permissions: { type: '_text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    expires_at: { type: 'timestamptz', nullable: true },
    revoked_at: { type: 'timestamptz', nullable: true },
    last_used_at: { type: 'timestamptz', nullable: true },
  },
  api_key_usage: {
    key_id: { type: 'uuid', nullable: false },
    day: { type: 'date', nullable: false },
    legacy: { type: 'bool', nullable: false },
    calls: { type: 'int4', nullable: false },
  },
  frame_origins: {
    org_id: { type: 'uuid', nullable: false },
    origin: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
  },
  idempotency_keys: {
    org_id: { type: 'uuid', nullable: false },
    key: { type: 'text', nullable: false },
    request_hash: { type: 'text', nullable: false },
    response: { type: 'jsonb', nullable: true },
    location: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', nullable: false },
  },
  signing_keys: {
    kid: { type: 'text', nullable: false },
    algorithm: { type: 'text', nullable: false },
    public_jwk: { type: 'jsonb', nullable: false },
    private_jwk: { type: 'jsonb', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
  },
  chart_mints: {
    jti: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    key_id: { type: 'uuid', nullable: false },
    frame_origin: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    rendered_at: { type: 'timestamptz', nullable: true },
    actor_type: { type: 'text', nullable: false },
  },
  member_relationships: {
    household_id: { type: 'uuid', nullable: false },
    from_member_id: { type: 'uuid', nullable: false },
    to_member_id: { type: 'uuid', nullable: false },
    type: { type: 'text', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    parent_kind: { type: 'text', nullable: true },
    since: { type: 'date', nullable: true },
    until: { type: 'date', nullable: true },
  },
  entities: {
    id: { type: 'uuid', nullable: false },
    household_id: { type: 'uuid', nullable: false },
    name: { type: 'text', nullable: false },
    short_name: { type: 'text', nullable: true },
    kind: { type: 'text', nullable: false },
    value: { type: 'numeric', nullable: true },
    value_as_of: { type: 'date', nullable: true },
    estate: { type: 'text', nullable: true },
    notes: { type: 'text', nullable: true },
    external_id: { type: 'text', nullable: true },
    position: { type: 'int4', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    updated_at: { type: 'timestamptz', nullable: false },
  },
  entity_valuations: {
    id: { type: 'int8', nullable: false },
    household_id: { type: 'uuid', nullable: false },
    entity_id: { type: 'uuid', nullable: false },
    value: { type: 'numeric', nullable: true },
    value_as_of: { type: 'date', nullable: true },
    recorded_at: { type: 'timestamptz', nullable: false },
  },
  entity_links: {
    id: { type: 'uuid', nullable: false },
    household_id: { type: 'uuid', nullable: false },
    from_member_id: { type: 'uuid', nullable: true },
    from_entity_id: { type: 'uuid', nullable: true },
    to_entity_id: { type: 'uuid', nullable: false },
    type: { type: 'text', nullable: false },
    share: { type: 'numeric', nullable: true },
    beneficiary_type: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', nullable: false },
    seq: { type: 'int8', nullable: false },
  },
  audit_log: {
    id: { type: 'int8', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    actor_type: { type: 'text', nullable: false },
    actor_id: { type: 'uuid', nullable: false },
    action: { type: 'text', nullable: false },
    household_id: { type: 'uuid', nullable: true },
    member_id: { type: 'uuid', nullable: true },
    entity_id: { type: 'uuid', nullable: true },
    link_id: { type: 'uuid', nullable: true },
    changed: { type: '_text', nullable: false },
    at: { type: 'timestamptz', nullable: false },
  },
  events: {
    tx: { type: 'int8', nullable: false },
    seq: { type: 'int8', nullable: false },
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    type: { type: 'text', nullable: false },
    household_id: { type: 'uuid', nullable: false },
    data: { type: 'text', nullable: false },
    occurred_at: { type: 'timestamptz', nullable: false },
  },
  events_purged: {
    only_row: { type: 'bool', nullable: false },
    tx: { type: 'int8', nullable: false },
    seq: { type: 'int8', nullable: false },
  },
  imports: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    actor_type: { type: 'text', nullable: false },
    actor_id: { type: 'uuid', nullable: false },
    status: { type: 'text', nullable: false },
    total_lines: { type: 'int4', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    finished_at: { type: 'timestamptz', nullable: true },
  },
  import_lines: {
    import_id: { type: 'uuid', nullable: false },
    line: { type: 'int4', nullable: false },
    body: { type: 'text', nullable: true },
    status: { type: 'text', nullable: false },
    claimed_until: { type: 'timestamptz', nullable: true },
    claim_token: { type: 'uuid', nullable: true },
    external_id: { type: 'text', nullable: true },
    household_id: { type: 'uuid', nullable: true },
    error_code: { type: 'text', nullable: true },
    error_message: { type: 'text', nullable: true },
    error_field: { type: 'text', nullable: true },
  },
  sessions: {
    id: { type: 'uuid', nullable: false },
    token_hash: { type: 'text', nullable: false },
    user_id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    created_at: { type: 'timestamptz', nullable: false },
    last_seen_at: { type: 'timestamptz', nullable: false },
    idle_expires_at: { type: 'timestamptz', nullable: false },
    absolute_expires_at: { type: 'timestamptz', nullable: false },
    revoked_at: { type: 'timestamptz', nullable: true },
    verified_email: { type: 'text', nullable: true },
  },
  sign_in_attempts: {
    state_hash: { type: 'text', nullable: false },
    code_verifier: { type: 'text', nullable: false },
    nonce: { type: 'text', nullable: false },
    return_to: { type: 'text', nullable: false },
    expires_at: { type: 'timestamptz', nullable: false },
    client_address: { type: 'text', nullable: false },
  },
  sign_in_choices: {
    token_hash: { type: 'text', nullable: false },
    idp_issuer: { type: 'text', nullable: false },
    idp_subject: { type: 'text', nullable: false },
    verified_email: { type: 'text', nullable: true },
    return_to: { type: 'text', nullable: false },
    expires_at: { type: 'timestamptz', nullable: false },
  },
  webhook_endpoints: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    url: { type: 'text', nullable: false },
    description: { type: 'text', nullable: false },
    event_types: { type: '_text', nullable: true },
    secret: { type: 'text', nullable: false },
    previous_secret: { type: 'text', nullable: true },
    previous_secret_expires_at: { type: 'timestamptz', nullable: true },
    enabled: { type: 'bool', nullable: false },
    disabled_reason: { type: 'text', nullable: true },
    disabled_at: { type: 'timestamptz', nullable: true },
    failing_since: { type: 'timestamptz', nullable: true },
    created_at: { type: 'timestamptz', nullable: false },
    updated_at: { type: 'timestamptz', nullable: false },
  },
  webhook_deliveries: {
    id: { type: 'uuid', nullable: false },
    org_id: { type: 'uuid', nullable: false },
    endpoint_id: { type: 'uuid', nullable: false },
    event_id: { type: 'uuid', nullable: false },
    event_type: { type: 'text', nullable: false },
    payload: { type: 'text', nullable: false },
    status: { type: 'text', nullable: false },
    attempts: { type: 'int4', nullable: false },
    job_id: { type: 'uuid', nullable: true },
    lease_until: { type: 'timestamptz', nullable: true },
    next_attempt_at: { type: 'timestamptz', nullable: true },
    last_attempt_at: { type: 'timestamptz', nullable: true },
    last_response_status: { type: 'int4', nullable: true },
    last_error: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', nullable: false },
  },
  webhook_attempts: {
    delivery_id: { type: 'uuid', nullable: false },
    attempt: { type: 'int4', nullable: false },
    trigger: { type: 'text', nullable: false },
    at: { type: 'timestamptz', nullable: false },
    duration_ms: { type: 'int4', nullable: false },
    succeeded: { type: 'bool', nullable: false },
    response_status: { type: 'int4', nullable: true },
    error: { type: 'text', nullable: true },
  },
  webhook_dispatch: {
    id: { type: 'int4', nullable: false },
    tx: { type: 'int8', nullable: false },
    seq: { type: 'int8', nullable: false },
  },
}
