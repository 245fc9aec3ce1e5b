// What the look-through could not take as the payload gave it, and what it did instead. The records
// API refuses all of these; a partner's payload might still carry them, and the chart draws it anyway
// (a warning in the Estate view) rather than refusing or silently miscounting.

export type EstateWarningCode =
  /** An ownership chain loops back to an entity; the part that would loop stays with the entity. */
  | 'ownershipLoop'
  /** A party was given a value; parties hold nothing, so it is counted nowhere. */
  | 'partyValueIgnored'
  /** An owner or partner link from or to a party; parties hold nothing, so the link carries nothing. */
  | 'partyLinkIgnored'
  /** An owner or partner link names an id that is no person or entity of the payload. */
  | 'unknownLinkEnd'
  /** An owner or partner share outside (0, 100]; the owner is taken as one without a share. */
  | 'invalidShare'
  /** Owners' and partners' shares add up to more than 100; each is scaled down so that they make 100. */
  | 'sharesOverHundred'
  /** Owners without a share get nothing: the owners with one already take all of the entity. */
  | 'ownersLeftNothing'
  /** A value that is not a finite number of at least 0; counted as 0. */
  | 'invalidValue'
  /** A kind this chart does not know; counted like `other` (in the estate). */
  | 'unknownKind'

export interface EstateWarning {
  readonly code: EstateWarningCode
  /** The entity the warning is about. */
  readonly entityId: string
  readonly message: string
}
