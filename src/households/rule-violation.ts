// How a household write says no. Every use-case function of this module (createHousehold,
// addMember, setAssignments…) THROWS a RuleViolation for any refusal — a broken rule, a household
// or member that is not there, a stale version, a reused idempotency key — and returns only on
// success. Throwing, not returning, is what rolls the write's transaction back. The code is the
// API's error code and the message its sentence, so http/rule-violations.ts maps it to ApiError in
// one place; `field` is a JSON Pointer (RFC 6901) into the input body ("/members/0/role"), "" for
// the body as a whole, absent when the refusal is not about the body (not found, stale).
import type { ErrorCode } from '../http/errors.ts'

export type RuleCode = Extract<
  ErrorCode,
  | 'invalid_body'
  | 'not_found'
  | 'precondition_failed'
  | 'idempotency_key_reused'
  | 'member_role_taken'
  | 'member_external_id_taken'
  | 'household_members_limit'
  | 'relationship_member_unknown'
  | 'relationship_self'
  | 'relationship_conflict'
  | 'relationship_cycle'
  | 'assignment_user_unknown'
  | 'assignment_user_repeated'
  | 'assignment_lead_advisor_repeated'
  | 'household_entities_limit'
  | 'household_links_limit'
  | 'entity_party_value'
  | 'entity_external_id_taken'
  | 'link_target_other_household'
  | 'link_share_not_allowed'
  | 'link_shares_exceed'
  | 'link_ownership_cycle'
  | 'link_party_owned'
  | 'link_kind_mismatch'
  | 'link_duplicate'
  | 'household_external_id_taken'
  | 'precondition_required'
>

export class RuleViolation extends Error {
  constructor(
    readonly code: RuleCode,
    message: string,
    readonly field?: string,
    /** household_external_id_taken: the household that has the externalId. */
    readonly existingId?: string,
  ) {
    super(message)
    this.name = 'RuleViolation'
  }
}

export function householdNotFound(): RuleViolation {
  return new RuleViolation('not_found', 'No household with this id in your organization.')
}

export function memberNotFound(): RuleViolation {
  return new RuleViolation('not_found', 'No member with this id in this household.')
}

export function entityNotFound(): RuleViolation {
  return new RuleViolation('not_found', 'No entity with this id in this household.')
}

export function linkNotFound(): RuleViolation {
  return new RuleViolation('not_found', 'No link with this id in this household.')
}

export function staleHousehold(): RuleViolation {
  return new RuleViolation(
    'precondition_failed',
    'The household changed since you read it (If-Match does not name its current ETag); read it again and retry.',
  )
}
