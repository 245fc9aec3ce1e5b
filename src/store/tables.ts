// Row types of every table, as Kysely sees them. Columns with defaults are Generated.
import type { ColumnType, Generated } from 'kysely'

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
  role: 'admin' | 'advisor' | 'viewer'
  created_at: CreatedAt
  /** The identity provider's issuer and subject, bound at the first sign-in; null while only invited. */
  idp_issuer: string | null
  idp_subject: string | null
  last_sign_in_at: Date | null
}

export interface HouseholdsTable {
  id: Generated<string>
  org_id: string
  name: string
  is_sample: Generated<boolean>
  dsue_received: number | null
  deceased_spouse_name: string | null
  dsue_date_of_death: DateOnly | null
  metadata: ColumnType<Record<string, unknown> | null, string | null, string | null>
  primary_client_as_donor: boolean | null
  co_client_as_donor: boolean | null
  member_count: ColumnType<number, never, never>
  assignment_count: ColumnType<number, never, never>
  search_text: ColumnType<string, never, never>
  created_at: CreatedAt
  updated_at: Timestamp
  version: Generated<number>
}

export interface MembersTable {
  id: Generated<string>
  household_id: string
  name: string
  role: string
  birth_date: DateOnly | null
  death_date: DateOnly | null
  email: string | null
  position: number
  created_at: CreatedAt
}

export interface AssignmentsTable {
  household_id: string
  user_id: string
  role: string
  created_at: CreatedAt
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

export interface MemberRelationshipsTable {
  household_id: string
  from_member_id: string
  to_member_id: string
  type: 'spouse' | 'partner' | 'exSpouse' | 'parent'
  created_at: CreatedAt
}

export interface AuditLogTable {
  id: ColumnType<number, never, never>
  org_id: string
  actor_type: 'apiKey' | 'user'
  actor_id: string
  action: string
  household_id: string | null
  member_id: string | null
  changed: string[]
  at: CreatedAt
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

export interface Database {
  orgs: OrgsTable
  org_household_counts: OrgHouseholdCountsTable
  users: UsersTable
  households: HouseholdsTable
  members: MembersTable
  assignments: AssignmentsTable
  api_keys: ApiKeysTable
  api_key_usage: ApiKeyUsageTable
  frame_origins: FrameOriginsTable
  idempotency_keys: IdempotencyKeysTable
  signing_keys: SigningKeysTable
  chart_mints: ChartMintsTable
  member_relationships: MemberRelationshipsTable
  audit_log: AuditLogTable
  sessions: SessionsTable
  sign_in_attempts: SignInAttemptsTable
  sign_in_choices: SignInChoicesTable
}
