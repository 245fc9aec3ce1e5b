// Every error the API answers with: one stable code each, its status, and what it means.
// The table is also published in the OpenAPI description, so partners can branch on codes.

export const ERRORS = {
  invalid_query: { status: 400, meaning: 'A query parameter has an invalid value.' },
  invalid_cursor: {
    status: 400,
    meaning:
      'cursor is not a nextCursor this API gave out, or it was given for another query (sortBy, sortOrder, filters or pageSize): repeat that query, or start again from page 1.',
  },
  invalid_event_cursor: {
    status: 400,
    meaning:
      'after is not a nextCursor the change feed gave out: pass one exactly as it came, or leave after out to start at the oldest event kept.',
  },
  event_cursor_expired: {
    status: 410,
    meaning:
      "after names a place in the change feed older than the events' retention, so events after it may be gone: read the relationships again in full, then follow the feed from a new cursor.",
  },
  invalid_body: { status: 400, meaning: 'The request body does not match the schema or its rules.' },
  invalid_json: { status: 400, meaning: 'The request body is not valid JSON.' },
  invalid_header: { status: 400, meaning: 'A request header has an invalid value (for example Idempotency-Key).' },
  invalid_frame_origin: {
    status: 400,
    meaning: 'frameOrigin (or the origin to register) is not a bare http(s) origin (http only for localhost).',
  },
  invalid_webhook_url: {
    status: 400,
    meaning:
      'The webhook endpoint URL is not allowed: it must be https:// (http:// only to localhost, 127.0.0.1 or [::1], and not in production), without user, password or #fragment. Give the URL your receiver is served at over TLS.',
  },
  malformed_request: {
    status: 400,
    meaning: 'The request could not be read as HTTP (malformed URL, headers or framing).',
  },
  member_role_taken: {
    status: 400,
    meaning: 'The household already has a primaryClient (or coClient); it can have one of each.',
  },
  relationship_member_unknown: {
    status: 400,
    meaning: 'A relationship names a memberId that is not a member of this household.',
  },
  relationship_self: { status: 400, meaning: 'A relationship names the member itself.' },
  relationship_conflict: {
    status: 400,
    meaning: 'Two relationships between the same two members; a pair of members has at most one.',
  },
  relationship_cycle: { status: 400, meaning: 'Parent links would make someone their own ancestor.' },
  member_external_id_taken: {
    status: 400,
    meaning: 'Another member of this household already has this externalId; an externalId names one member.',
  },
  household_entities_limit: {
    status: 400,
    meaning: 'The household already has the most entities one household can have (200, as many as the chart draws).',
  },
  household_links_limit: {
    status: 400,
    meaning: 'The household already has the most links one household can have (2000, as many as the chart draws).',
  },
  entity_party_value: {
    status: 400,
    meaning:
      'A party (corporateTrustee, lawFirm, otherParty) holds no value and is never in an estate: send no value, valueAsOf or estate for it.',
  },
  entity_external_id_taken: {
    status: 400,
    meaning: 'Another entity of this household already has this externalId; an externalId names one entity.',
  },
  link_target_other_household: {
    status: 400,
    meaning:
      'A link names a member or entity of another household; a link joins members and entities of one household.',
  },
  link_share_not_allowed: {
    status: 400,
    meaning:
      'share is only for beneficiary, owner, generalPartner and limitedPartner links, and beneficiaryType only for beneficiary links.',
  },
  link_shares_exceed: {
    status: 400,
    meaning: "The owners' shares of one entity, or its primary beneficiaries' shares, would add up to more than 100.",
  },
  link_ownership_cycle: {
    status: 400,
    meaning: 'The link would make an entity own itself through a chain of owners.',
  },
  link_party_owned: {
    status: 400,
    meaning:
      'A party (corporate trustee, attorney’s firm) cannot be owned, have partners or beneficiaries, or be insured.',
  },
  link_kind_mismatch: {
    status: 400,
    meaning:
      'The link type does not fit the entity: insured is for lifeInsurance, generalPartner and limitedPartner for flp, llc and corporation, grantor, trustee and successorTrustee for trusts and charities.',
  },
  link_duplicate: {
    status: 400,
    meaning: 'The same member or entity already has a link of this type to this entity.',
  },
  missing_credentials: { status: 401, meaning: 'No API key in the Authorization header and no idp-session cookie.' },
  invalid_credentials: { status: 401, meaning: 'The Authorization header is malformed or the API key is unknown.' },
  api_key_revoked: { status: 401, meaning: 'The API key was revoked.' },
  api_key_expired: { status: 401, meaning: 'The API key has expired.' },
  session_invalid: {
    status: 401,
    meaning:
      'The idp-session cookie is not a session we issued (malformed, unknown, or its user was removed): sign in again.',
  },
  session_expired: {
    status: 401,
    meaning: 'The session ended: unused for too long, or past its maximum lifetime. Sign in again.',
  },
  session_revoked: {
    status: 401,
    meaning: 'The session was ended by signing out (here or everywhere). Sign in again.',
  },
  missing_permission: {
    status: 403,
    meaning: 'The credential is valid but lacks the permission this operation needs.',
  },
  cross_site_request: {
    status: 403,
    meaning:
      "A write with the idp-session cookie that did not come from the web app's own origin (Origin / Sec-Fetch-Site); nothing was done.",
  },
  frame_origin_not_registered: {
    status: 403,
    meaning: 'frameOrigin is not registered for the organization (hearth origins add).',
  },
  assignment_user_unknown: {
    status: 400,
    meaning: 'An assignment names a userId that is not a user of your organization.',
  },
  assignment_user_repeated: {
    status: 400,
    meaning: 'An assignment set names the same user twice; each user has one role per household.',
  },
  assignment_lead_advisor_repeated: {
    status: 400,
    meaning: 'An assignment set has more than one leadAdvisor; a household has at most one.',
  },
  not_found: { status: 404, meaning: 'No such route or resource.' },
  organization_not_found: {
    status: 404,
    meaning:
      'Switching organization: the signed-in person is not a member of that organization and has no open invitation to it (GET /api/v1/me lists theirs).',
  },
  household_members_limit: {
    status: 400,
    meaning: 'The household already has the most members one household can have (1000).',
  },
  precondition_failed: {
    status: 412,
    meaning: 'If-Match names a version that is no longer current: read the household again, then retry.',
  },
  precondition_required: {
    status: 428,
    meaning: "This write needs If-Match with the household's current ETag (from GET), so that no update is lost.",
  },
  idempotency_key_reused: {
    status: 409,
    meaning: 'The Idempotency-Key was already used with a different request body.',
  },
  household_external_id_taken: {
    status: 409,
    meaning:
      'Another household of your organization already has this externalId (an externalId names one household): the error body names it in existingId. Change that household instead (PUT /api/v1/relationships/by-external-id/{externalId}), or send another id.',
  },
  user_exists: {
    status: 409,
    meaning: 'The organization already has a user with this email (emails are compared in any case).',
  },
  last_admin: {
    status: 409,
    meaning: 'An organization needs at least one admin: its last admin cannot be demoted or removed.',
  },
  chart_needs_members: {
    status: 409,
    meaning:
      'The household has no one to draw (no members and no deceased spouse): a chart payload needs at least one person.',
  },
  request_timeout: {
    status: 408,
    meaning: 'The request was not sent in full within the request timeout; nothing was done.',
  },
  body_too_large: {
    status: 413,
    meaning: 'The request body is larger than 1 MB (an import: 256 MB, and 1 MB a line).',
  },
  unsupported_media_type: {
    status: 415,
    meaning:
      'The request body is not application/json in UTF-8 (an import: application/x-ndjson or application/jsonl).',
  },
  request_header_too_large: { status: 431, meaning: 'The request line and headers are larger than 64 KB.' },
  rate_limited: {
    status: 429,
    meaning:
      "A budget of this request ran out: the credential's, its organization's, or the client address's. Retry-After says when it fits.",
  },
  concurrency_limited: {
    status: 429,
    meaning:
      'Your organization already has as many requests in progress on this instance as it may (HEARTH_ORG_CONCURRENCY) and as many waiting as may wait, or this one waited too long: let some finish, or retry after Retry-After seconds (resetAt).',
  },
  internal_error: {
    status: 500,
    meaning: 'Something failed on our side; the details are in our logs under the requestId.',
  },
  database_unavailable: {
    status: 503,
    meaning:
      'The database is unreachable, restarting, blocked or too slow (a dropped connection, a failover, a held lock). A write is applied whole or not at all, but its outcome is unknown: retry after Retry-After seconds with the same Idempotency-Key or If-Match, which applies it at most once.',
  },
  overloaded: {
    status: 503,
    meaning: 'This instance is working on as many requests as it takes at once; retry after Retry-After seconds.',
  },
} as const

export type ErrorCode = keyof typeof ERRORS

/** Fields an error body may carry beside error, code and requestId. */
export interface ErrorDetails {
  /**
   * The part of the request the error is about, as a JSON Pointer (RFC 6901, build one with
   * jsonPointer): into the body for body errors ("/members/0/firstName"), into the query string
   * for query errors ("/pageSize"), into the headers by lower-case name for header errors
   * ("/idempotency-key"); "" is the whole body. Absent when the error is about no one field.
   */
  field?: string
  /** rate_limited and concurrency_limited: when to retry. */
  resetAt?: string
  /** household_external_id_taken: the id of the household that has the externalId. */
  existingId?: string
}

export class ApiError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields of the error body, such as field or resetAt. */
    readonly extra: ErrorDetails = {},
    /** Extra response headers, such as WWW-Authenticate or Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.status = ERRORS[code].status
  }
}
