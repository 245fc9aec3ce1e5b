// Every field of a household that a client sends, declared once: its JSON Schema (which validates
// requests and documents them), its column, the column's SQL type, the rules beyond the schema,
// how the database writes it into the API's JSON, and whether list items carry it. The request
// and response schemas (schemas/household.ts), the INSERT and UPDATE (store/households.ts,
// store/household-record.ts), the JSON the database builds, the Kysely table type (store/tables.ts)
// and HouseholdFields all derive from HOUSEHOLD_FIELDS. Adding a field is: a migration, one entry
// here, the web form (web/client/households/household-fields.tsx), and tests.
import { Type, type Static, type TSchema } from 'typebox'
import { sql, type ColumnType, type Insertable, type RawBuilder, type Updateable } from 'kysely'
import { Nullable, StringEnum } from '../schemas/common.ts'
import { EXTERNAL_ID_PATTERN } from '../domain/external-id.ts'
import {
  cleanName,
  findJsonProblem,
  hasAtMostTwoDecimals,
  isPastCalendarDate,
  NAME_MAX,
} from '../domain/household-input.ts'
import {
  cleanFields,
  field as declareField,
  fieldColumnValues,
  fieldJsonPairs,
  type AnyField,
  type FieldBound,
  type FieldDeclaration,
  type FieldInput,
  type FieldProblem as RefusedField,
  type FieldValue,
} from './field-declaration.ts'

const LIMITS = { NAME_MAX, AMOUNT_MAX: 1e12, METADATA_MAX_BYTES: 16 * 1024, METADATA_MAX_DEPTH: 8 } as const

/** What a field that always has a value (its column is NOT NULL with a default) stores and says. */
interface AlwaysSet<S extends TSchema> {
  /** What a create without it (or with null) stores. */
  value: NonNullable<Static<S>>
  /** The refusal of a patch that sends null. */
  clearedMessage: string
}

/**
 * A household field: a field declaration, whether list items (HouseholdListItem) carry it (the
 * full Household carries every field), and for a field that can never be unset, its default.
 */
type HouseholdField<
  Column extends string,
  S extends TSchema,
  Bound,
  Required extends boolean,
  InList extends boolean,
> = FieldDeclaration<Column, S, Bound, Required> & { inListItems: InList; always?: AlwaysSet<S> }

/** A household field's declaration, with the defaults: optional, not in list items, stored as sent, written into JSON as it is. */
function field<
  Column extends string,
  S extends TSchema,
  Bound = Static<S>,
  Required extends boolean = false,
  InList extends boolean = false,
>(
  declaration: FieldInput<Column, S, Bound, Required> & { inListItems?: InList },
): HouseholdField<Column, S, Bound, Required, InList> {
  const { inListItems, ...rest } = declaration
  return { ...declareField<Column, S, Bound, Required>(rest), inListItems: (inListItems ?? false) as InList }
}

/** An optional field that always has a value: a create without it stores `always.value`, a patch cannot clear it. */
function alwaysSetField<Column extends string, S extends TSchema>(
  declaration: FieldInput<Column, S, Static<S>, false> & { always: AlwaysSet<S> },
): HouseholdField<Column, S, Static<S>, false, false> & { always: AlwaysSet<S> } {
  const { always, ...rest } = declaration
  return { ...field(rest), always }
}

const optionalName = (name: string) => (value: string) => cleanName(name, value)

/** An amount in the household's currency: at least 0, at most 1e12, at most 2 decimals; null when not known. */
function amount<Column extends string>(name: string, column: Column, description: string) {
  return field({
    column,
    sqlType: 'numeric',
    schema: Nullable(
      Type.Number({
        minimum: 0,
        maximum: LIMITS.AMOUNT_MAX,
        description: `${description} In the household's currency, at most 2 decimals.`,
      }),
    ),
    clean: (value) =>
      hasAtMostTwoDecimals(value)
        ? { ok: true, value }
        : { ok: false, message: `${name} must have at most 2 decimals, got ${value}` },
    // float8 prints the shortest exact form (2500000, not 2500000.00), as JSON.stringify does.
    json: (column) => sql`${column}::float8`,
  })
}

const CURRENCY_CODE = '^[A-Z]{3}$'
const PORTABILITY_ANSWERS = ['yes', 'no', 'unknown'] as const

export const HOUSEHOLD_FIELDS = {
  name: field({
    column: 'name',
    sqlType: 'text',
    schema: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: `Trimmed; 1 to ${NAME_MAX} characters after trimming.`,
    }),
    readSchema: Type.String(),
    required: true,
    inListItems: true,
    clean: (value) => cleanName('name', value),
  }),
  dsueReceived: amount('dsueReceived', 'dsue_received', 'Deceased spousal unused exclusion received.'),
  deceasedSpouseName: field({
    column: 'deceased_spouse_name',
    sqlType: 'text',
    schema: Nullable(Type.String({ maxLength: 1000, description: `Trimmed; at most ${NAME_MAX} characters.` })),
    clean: optionalName('deceasedSpouseName'),
  }),
  dsueDateOfDeath: field({
    column: 'dsue_date_of_death',
    sqlType: 'date',
    schema: Nullable(
      Type.String({ format: 'date', description: 'YYYY-MM-DD, a real calendar date, not in the future.' }),
    ),
    clean: (value) =>
      isPastCalendarDate(value)
        ? { ok: true, value }
        : {
            ok: false,
            message: `dsueDateOfDeath must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${value}`,
          },
    json: (column) => sql`to_char(${column}, 'YYYY-MM-DD')`,
  }),
  metadata: field({
    column: 'metadata',
    sqlType: 'jsonb',
    schema: Nullable(
      Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        additionalProperties: true,
        description: 'Free-form JSON object: at most 16 KB serialized and 8 levels deep.',
      }),
    ),
    clean: (value) => {
      const problem = findJsonProblem(value, LIMITS.METADATA_MAX_DEPTH)
      if (problem === 'too_deep')
        return { ok: false, message: `metadata must be at most ${LIMITS.METADATA_MAX_DEPTH} levels deep` }
      if (problem === 'bad_text')
        return { ok: false, message: 'metadata must not contain NUL characters or broken Unicode' }
      // Measured only once the depth is known to be small, so stringifying cannot overflow the stack.
      const bytes = new TextEncoder().encode(JSON.stringify(value)).length
      if (bytes > LIMITS.METADATA_MAX_BYTES)
        return {
          ok: false,
          message: `metadata must be at most ${LIMITS.METADATA_MAX_BYTES} bytes as JSON, got ${bytes}`,
        }
      return { ok: true, value }
    },
    bind: (value): string | null => (value === null ? null : JSON.stringify(value)),
  }),
  primaryClientAsDonor: field({
    column: 'primary_client_as_donor',
    sqlType: 'boolean',
    schema: Nullable(Type.Boolean()),
  }),
  coClientAsDonor: field({ column: 'co_client_as_donor', sqlType: 'boolean', schema: Nullable(Type.Boolean()) }),
  // The estate settings (issue 14): facts the chart's projection reads; the API stores them and computes nothing.
  currency: alwaysSetField({
    column: 'currency',
    sqlType: 'text',
    schema: Nullable(
      Type.String({
        pattern: CURRENCY_CODE,
        description:
          "The ISO 4217 code of the household's amounts (entity values, DSUE, gifts), e.g. USD or EUR. A create without it gets USD; it cannot be cleared (a patch with null is refused).",
      }),
    ),
    readSchema: Type.String({ pattern: CURRENCY_CODE, description: "The ISO 4217 code of the household's amounts." }),
    always: {
      value: 'USD',
      clearedMessage: 'currency cannot be cleared; send an ISO 4217 currency code such as "USD" instead of null.',
    },
  }),
  portabilityElected: field({
    column: 'portability_elected',
    sqlType: 'text',
    schema: Nullable(
      StringEnum(PORTABILITY_ANSWERS, {
        description: "Whether portability of the deceased spouse's unused exclusion (DSUE) was elected.",
      }),
    ),
  }),
  primaryClientLifetimeGifts: amount(
    'primaryClientLifetimeGifts',
    'primary_client_lifetime_gifts',
    "The primary client's lifetime taxable gifts.",
  ),
  coClientLifetimeGifts: amount(
    'coClientLifetimeGifts',
    'co_client_lifetime_gifts',
    "The co-client's lifetime taxable gifts.",
  ),
  primaryClientExemptionUsed: amount(
    'primaryClientExemptionUsed',
    'primary_client_exemption_used',
    "The part of the primary client's basic exclusion already used.",
  ),
  coClientExemptionUsed: amount(
    'coClientExemptionUsed',
    'co_client_exemption_used',
    "The part of the co-client's basic exclusion already used.",
  ),
  primaryClientUsCitizen: field({
    column: 'primary_client_us_citizen',
    sqlType: 'boolean',
    schema: Nullable(Type.Boolean({ description: 'Whether the primary client is a US citizen.' })),
  }),
  coClientUsCitizen: field({
    column: 'co_client_us_citizen',
    sqlType: 'boolean',
    schema: Nullable(Type.Boolean({ description: 'Whether the co-client is a US citizen.' })),
  }),
  // Issue 17: the partner's own id, so that a sync job needs no map of ids (PUT …/by-external-id/{externalId}).
  externalId: field({
    column: 'external_id',
    sqlType: 'text',
    schema: Nullable(
      Type.String({
        pattern: EXTERNAL_ID_PATTERN,
        description:
          "Your own id for the household (1–64 letters, digits and _ . : -, the chart payload's id rule); at most one household of your organization has it (409 household_external_id_taken, with the existingId).",
      }),
    ),
    inListItems: true,
  }),
}

type Fields = typeof HOUSEHOLD_FIELDS
export type HouseholdFieldName = keyof Fields
export const HOUSEHOLD_FIELD_NAMES = Object.keys(HOUSEHOLD_FIELDS) as HouseholdFieldName[]

/** A household's fields as a request body may send them: null is "not set" (or, in a patch, "clear"). */
type SentFields = { [K in HouseholdFieldName]: FieldValue<Fields[K]> }

/** A household's fields as the use cases hold them: every field, null when not set (never, for a field that always has a value). */
export type HouseholdFields = {
  [K in HouseholdFieldName]: Fields[K] extends { always: object }
    ? NonNullable<FieldValue<Fields[K]>>
    : FieldValue<Fields[K]>
}

/** The fields' columns as Kysely sees them (store/tables.ts): read as the value, written as bound. */
export type HouseholdFieldColumns = {
  [K in HouseholdFieldName as Fields[K]['column']]: ColumnType<
    HouseholdFields[K],
    FieldBound<Fields[K]>,
    FieldBound<Fields[K]>
  >
}

/** A field's default when it always has a value (currency), or undefined. */
function alwaysSet(name: HouseholdFieldName): AlwaysSet<TSchema> | undefined {
  const declaration: { always?: AlwaysSet<TSchema> } = HOUSEHOLD_FIELDS[name]
  return declaration.always
}

/** Every optional field unset (one that always has a value: its default), the base of fixtures and sample data. */
export const NO_OPTIONAL_FIELDS = Object.fromEntries(
  HOUSEHOLD_FIELD_NAMES.filter((name) => !HOUSEHOLD_FIELDS[name].required).map((name) => [
    name,
    alwaysSet(name)?.value ?? null,
  ]),
) as Omit<HouseholdFields, 'name'>

/** A refused field: its name (a key of the body) and what is wrong with it. */
export type FieldProblem = RefusedField<HouseholdFieldName>

export type FieldsResult = { ok: true; fields: HouseholdFields } | FieldProblem

/** A create body (already valid against its schema) by every field's rules, in declaration order; or the first problem. */
export function checkCreateBody(body: Partial<SentFields> & { name: string }): FieldsResult {
  const cleaned = cleanFields(HOUSEHOLD_FIELDS, body, 'every')
  if (!cleaned.ok) return cleaned
  // A field that always has a value, not sent (or null), gets its default.
  for (const name of HOUSEHOLD_FIELD_NAMES) {
    const always = alwaysSet(name)
    if (always && cleaned.values[name] === null) cleaned.values[name] = always.value
  }
  return { ok: true, fields: cleaned.values as HouseholdFields }
}

export type PatchResult = { ok: true; fields: Partial<HouseholdFields> } | FieldProblem

/**
 * The fields a merge patch sets, cleaned by exactly the create rules (each rule concerns one
 * field, so checking the patch's fields is checking the merged household).
 */
export function checkPatchBody(body: Partial<SentFields>): PatchResult {
  for (const name of HOUSEHOLD_FIELD_NAMES) {
    const always = alwaysSet(name)
    if (always && name in body && body[name] === null) return { ok: false, field: name, message: always.clearedMessage }
  }
  const cleaned = cleanFields(HOUSEHOLD_FIELDS, body, 'sent')
  return cleaned.ok ? { ok: true, fields: cleaned.values } : cleaned
}

/** The columns of a household's fields with their bound values, for an INSERT. */
export function householdColumnValues(fields: HouseholdFields): Insertable<HouseholdFieldColumns> {
  return fieldColumnValues(HOUSEHOLD_FIELDS, fields) as Insertable<HouseholdFieldColumns>
}

/** The columns of the fields a patch sets, for an UPDATE's SET. */
export function householdColumnChanges(fields: Partial<HouseholdFields>): Updateable<HouseholdFieldColumns> {
  return fieldColumnValues(HOUSEHOLD_FIELDS, fields)
}

/** The fields' values as SQL, each cast to its column's type (for the INSERT of a data-modifying WITH). */
export function householdInsertSql(fields: HouseholdFields): {
  columns: RawBuilder<unknown>
  values: RawBuilder<unknown>
} {
  const declarations = HOUSEHOLD_FIELD_NAMES.map((name) => [name, HOUSEHOLD_FIELDS[name] as AnyField] as const)
  return {
    columns: sql.join(declarations.map(([, declaration]) => sql.ref(declaration.column))),
    values: sql.join(
      declarations.map(
        ([name, declaration]) => sql`${declaration.bind(fields[name] as never)}::${sql.raw(declaration.sqlType)}`,
      ),
    ),
  }
}

/** The key-value pairs of the fields (those of list items, or the others) of the row aliased h, for json_build_object. */
export function householdJsonPairs(inListItems: boolean): RawBuilder<unknown> {
  const names = HOUSEHOLD_FIELD_NAMES.filter((name) => HOUSEHOLD_FIELDS[name].inListItems === inListItems)
  return fieldJsonPairs(HOUSEHOLD_FIELDS, names, 'h')
}
