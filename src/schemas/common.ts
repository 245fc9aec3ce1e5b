// Small schema builders shared by the resource schemas.
import { Type, type Static, type TSchema } from 'typebox'

/** A string limited to fixed values; ajv reports "must be equal to one of the allowed values". */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

/** JSON Schema 2020-12 nullable (`type: [T, "null"]`), valid in OpenAPI 3.1; an enum's values gain null too. */
export function Nullable<S extends TSchema>(schema: S) {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown }
  if (typeof type !== 'string') throw new TypeError('Nullable() needs a schema with a single type')
  return Type.Unsafe<Static<S> | null>({
    ...schema,
    type: [type, 'null'],
    ...(Array.isArray(values) ? { enum: [...(values as unknown[]), null] } : {}),
  })
}

export const Uuid = Type.String({ format: 'uuid' })
export const DateTime = Type.String({ format: 'date-time' })
