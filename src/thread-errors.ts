// An error as it crosses between threads (the embedded database's, the webhook deliveries'): only
// structured-clonable values cross, so an error goes as its message and its own string and number
// fields, and is made an Error again on the other side with the same message and fields.

/** An error as it crosses threads: its message and PostgreSQL's fields (code, detail, constraint…). */
export interface ErrorFields {
  message: string
  fields: Record<string, string | number>
}

/** The string and number fields of an error (PGlite's DatabaseError carries code, detail, constraint…). */
export function errorFields(error: unknown): ErrorFields {
  const fields: Record<string, string | number> = {}
  if (typeof error === 'object' && error !== null) {
    for (const [name, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number') fields[name] = value
    }
  }
  return { message: error instanceof Error ? error.message : String(error), fields }
}

/** The error again on this side, with the same message and fields. */
export function errorFrom({ message, fields }: ErrorFields): Error {
  return Object.assign(new Error(message), fields)
}
