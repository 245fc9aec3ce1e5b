// The one place a use-case refusal (RuleViolation, see src/households/rule-violation.ts) becomes
// the API's error: its code and sentence as they are, and its field as the error body's `field`.
// The errors plugin calls it for whatever a route throws, so routes call use cases plainly.
import { ApiError } from './errors.ts'
import { RuleViolation } from '../households/rule-violation.ts'

export function apiErrorOf(violation: RuleViolation): ApiError {
  return new ApiError(violation.code, violation.message, {
    ...(violation.field === undefined ? {} : { field: violation.field }),
    ...(violation.existingId === undefined ? {} : { existingId: violation.existingId }),
  })
}
