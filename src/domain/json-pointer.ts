// JSON Pointers (RFC 6901) name the part of a request an error is about: "/members/0/firstName"
// in the body, "/pageSize" in the query string. A key's "~" and "/" are escaped so that any
// property name, even one a client made up, names exactly one place.
export function jsonPointer(...segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}
