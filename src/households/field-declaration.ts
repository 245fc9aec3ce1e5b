// How a record's client-sent fields are declared once (a household's in household-fields.ts, an
// entity's in entity-fields.ts): each field's JSON Schema, column, SQL type, rules beyond the
// schema, bound value and JSON write. The generic parts live here, so that every record's
// cleaning, INSERT/UPDATE values and JSON building work the same way from its own field list.
import { Type, type Static, type TOptional, type TSchema } from 'typebox'
import { sql, type ColumnType, type RawBuilder } from 'kysely'

/** The column types fields are stored in, as information_schema.columns names them. */
export type SqlType = 'text' | 'numeric' | 'date' | 'jsonb' | 'boolean'

export type Cleaned<T> = { ok: true; value: T } | { ok: false; message: string }

/** A column of the row being written into JSON, by its name (for fields whose JSON reads another column). */
export type RowColumn = (column: string) => RawBuilder<unknown>

export interface FieldDeclaration<Column extends string, S extends TSchema, Bound, Required extends boolean> {
  column: Column
  sqlType: SqlType
  /** The value's schema in a request body and in responses (optional fields are Nullable: null is "not set"). */
  schema: S
  /** The value's schema in responses when it differs from the request's (a name: any stored string). */
  readSchema?: TSchema
  /** Whether a create must send it; a patch may send any subset. */
  required: Required
  /** The rules the schema cannot say; gives the stored value. Optional fields' rules see non-null values only. */
  clean: (value: NonNullable<Static<S>>) => Cleaned<NonNullable<Static<S>>>
  /** The value as bound to its column (metadata: JSON text). */
  bind: (value: Static<S>) => Bound
  /** How the database writes the field's column as its JSON value; `row` reaches the row's other columns. */
  json: (column: RawBuilder<unknown>, row: RowColumn) => RawBuilder<unknown>
}

type Defaulted = 'bind' | 'json' | 'clean' | 'required'

export type FieldInput<Column extends string, S extends TSchema, Bound, Required extends boolean> = Omit<
  FieldDeclaration<Column, S, Bound, Required>,
  Defaulted
> &
  Partial<Pick<FieldDeclaration<Column, S, Bound, Required>, Defaulted>>

/** A field's declaration, with the defaults: optional, stored as sent, written into JSON as it is. */
export function field<Column extends string, S extends TSchema, Bound = Static<S>, Required extends boolean = false>(
  declaration: FieldInput<Column, S, Bound, Required>,
): FieldDeclaration<Column, S, Bound, Required> {
  return {
    required: false as Required,
    clean: (value) => ({ ok: true, value }),
    bind: (value) => value,
    json: (column) => column,
    ...declaration,
  }
}

export type AnyField = FieldDeclaration<string, TSchema, unknown, boolean>
/** What every record's field list is: declarations by field name. */
type FieldList = Record<string, { column: string }>

export type FieldValue<F> = F extends FieldDeclaration<string, infer S, unknown, boolean> ? Static<S> : never
export type FieldBound<F> = F extends FieldDeclaration<string, TSchema, infer B, boolean> ? B : never

/** The fields' columns as Kysely sees them (store/tables.ts): read as the value, written as bound. */
export type FieldColumns<Fields extends FieldList> = {
  [K in keyof Fields as Fields[K]['column']]: ColumnType<
    FieldValue<Fields[K]>,
    FieldBound<Fields[K]>,
    FieldBound<Fields[K]>
  >
}

/** A refused field: its name (a key of the body) and what is wrong with it. */
export interface FieldProblem<Name extends string> {
  ok: false
  field: Name
  message: string
}

/** Cleans one field's value by its rules (null, for an optional field, is "not set" and always fine). */
function cleanField<Name extends string>(
  fields: Record<Name, FieldList[string]>,
  name: Name,
  value: unknown,
): { ok: true; value: unknown } | FieldProblem<Name> {
  if (value === null || value === undefined) return { ok: true, value: null }
  const cleaned = (fields[name] as unknown as AnyField).clean(value)
  return cleaned.ok ? cleaned : { ok: false, field: name, message: cleaned.message }
}

/**
 * The fields of a body (already valid against its schema) cleaned by their rules, in declaration
 * order; or the first problem. `every`: a create (absent fields are null); `sent`: a merge patch
 * (only the fields the body has).
 */
export function cleanFields<Fields extends FieldList>(
  fields: Fields,
  body: Partial<Record<keyof Fields & string, unknown>>,
  which: 'every' | 'sent',
): { ok: true; values: Record<string, unknown> } | FieldProblem<keyof Fields & string> {
  const values: Record<string, unknown> = {}
  for (const name of Object.keys(fields) as (keyof Fields & string)[]) {
    if (which === 'sent' && !(name in body)) continue
    const cleaned = cleanField(fields, name, body[name])
    if (!cleaned.ok) return cleaned
    values[name] = cleaned.value
  }
  return { ok: true, values }
}

/** The columns of the fields `values` has, with their bound values (an INSERT's values, an UPDATE's SET). */
export function fieldColumnValues<Fields extends FieldList>(
  fields: Fields,
  values: Partial<Record<keyof Fields & string, unknown>>,
): Record<string, unknown> {
  const columns: Record<string, unknown> = {}
  for (const name of Object.keys(fields) as (keyof Fields & string)[]) {
    if (!(name in values)) continue
    const declaration = fields[name] as unknown as AnyField
    columns[declaration.column] = declaration.bind(values[name])
  }
  return columns
}

/** The key-value pairs of these fields of the row aliased `alias`, for json_build_object. */
export function fieldJsonPairs<Fields extends FieldList>(
  fields: Fields,
  names: readonly (keyof Fields & string)[],
  alias: string,
): RawBuilder<unknown> {
  const row: RowColumn = (column) => sql.ref(`${alias}.${column}`)
  return sql.join(
    names.map((name) => {
      const declaration = fields[name] as unknown as AnyField
      return sql`${sql.lit(name)}, ${declaration.json(row(declaration.column), row)}`
    }),
  )
}

/** What a record's schemas need of its field list. */
type SchemaFieldList = Record<string, { schema: TSchema; readSchema?: TSchema; required: boolean }>

export type CreateProperties<Fields extends SchemaFieldList> = {
  [K in keyof Fields]: Fields[K]['required'] extends true ? Fields[K]['schema'] : TOptional<Fields[K]['schema']>
}
export type PatchProperties<Fields extends SchemaFieldList> = { [K in keyof Fields]: TOptional<Fields[K]['schema']> }
export type ReadProperties<Fields extends SchemaFieldList> = { [K in keyof Fields]: Fields[K]['schema'] }

/** A create body's properties: required fields as they are, the others optional. */
export function createProperties<Fields extends SchemaFieldList>(fields: Fields): CreateProperties<Fields> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, { schema, required }]) => [name, required ? schema : Type.Optional(schema)]),
  ) as CreateProperties<Fields>
}

/** A merge patch's properties: every field optional. */
export function patchProperties<Fields extends SchemaFieldList>(fields: Fields): PatchProperties<Fields> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, { schema }]) => [name, Type.Optional(schema)]),
  ) as PatchProperties<Fields>
}

/** A response's properties: each field's read schema (its request schema unless it differs). */
export function readProperties<Fields extends SchemaFieldList>(fields: Fields): ReadProperties<Fields> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, { schema, readSchema }]) => [name, readSchema ?? schema]),
  ) as ReadProperties<Fields>
}
