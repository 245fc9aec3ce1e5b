// The limits of an import, in one place: the routes refuse by them and the README documents them.

/** The largest upload: refused early (413) when Content-Length says more, and a chunked body stops being read past it. */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024

/** The longest line (one household), as large as any other request body (src/app.ts BODY_LIMIT_BYTES). */
export const IMPORT_MAX_LINE_BYTES = 1024 * 1024

/** The media types an import is sent as. */
export const IMPORT_MEDIA_TYPES = ['application/x-ndjson', 'application/jsonl'] as const
