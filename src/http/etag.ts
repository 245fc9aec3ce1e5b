// Strong ETags of households (their version) and the two conditional headers: If-None-Match on
// reads (304), If-Match on writes (428 when missing, 412 when stale). RFC 9110 §8.8.3, §13.1.
import { ApiError } from './errors.ts'
import type { ExpectedVersions } from '../store/household-record.ts'

export function etagOf(version: number): string {
  return `"${version}"`
}

/**
 * If-None-Match matches by weak comparison: W/"3" and "3" are the same. `*` is not a match on a
 * read: it names no copy the client holds (RFC 9110 gives it meaning for writes, "create only if
 * absent"), and a 304 to it would let a client read the database at a tenth of the cost. The client
 * gets the full 200 and pays for it. `*` keeps its meaning in If-Match on writes.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  return entityTags(ifNoneMatch).some((tag) => tag.replace(/^W\//, '') === etag)
}

/**
 * The versions a write may change, from If-Match (`*` for whatever is current); 428 without the header. Weak tags
 * and junk name no version (strong comparison), so they can only fail (412, or 404 when absent).
 */
export function expectedVersions(ifMatch: string | undefined): ExpectedVersions {
  if (ifMatch === undefined || ifMatch.trim() === '') {
    throw new ApiError(
      'precondition_required',
      "Send If-Match with the household's ETag from GET (or *), so that a concurrent change is never overwritten.",
    )
  }
  const tags = entityTags(ifMatch)
  if (tags.includes('*')) return '*'
  // Strong comparison is character by character: "01" is not the ETag "1", so no leading zeros.
  return tags
    .map((tag) => /^"(0|[1-9]\d{0,8})"$/.exec(tag)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number)
}

function entityTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)
}
