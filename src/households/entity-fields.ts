// Every field of an entity (a trust, business entity, charity, holding or party of a household)
// that a client sends, declared once, as the household's are (household-fields.ts): its JSON
// Schema, column, SQL type, rules beyond the schema and JSON write. The create, patch and response
// schemas (schemas/entity.ts), the INSERT and UPDATE values (store/entities.ts), the JSON the
// database builds and the Kysely table type (store/tables.ts) derive from ENTITY_FIELDS. Rules
// between fields (a party holds no value) are the use cases' (entities.ts).
import { Type } from 'typebox'
import { sql, type Insertable, type RawBuilder, type Updateable } from 'kysely'
import { Nullable, StringEnum } from '../schemas/common.ts'
import { cleanName, hasAtMostTwoDecimals, isPastCalendarDate, NAME_MAX } from '../domain/household-input.ts'
import { isStorableText } from '../domain/text.ts'
import { defaultEstateSide, ENTITY_KINDS, ESTATE_SIDES, isParty } from '../domain/estate-vocabulary.ts'
import {
  cleanFields,
  field,
  fieldColumnValues,
  fieldJsonPairs,
  type FieldColumns,
  type FieldProblem,
  type FieldValue,
} from './field-declaration.ts'
import { EXTERNAL_ID_PATTERN } from '../domain/external-id.ts'

const ENTITY_LIMITS = {
  NAME_MAX,
  SHORT_NAME_MAX: 40,
  VALUE_MAX: 1e12,
  NOTES_MAX: 4000,
} as const

const inSql = (kinds: readonly string[]) => sql.join(kinds.map((kind) => sql.lit(kind)))
const PARTY_KINDS = ENTITY_KINDS.filter(isParty)
const OUT_BY_DEFAULT = ENTITY_KINDS.filter((kind) => defaultEstateSide(kind) === 'out')

export const ENTITY_FIELDS = {
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
    clean: (value) => cleanName('name', value),
  }),
  shortName: field({
    column: 'short_name',
    sqlType: 'text',
    schema: Nullable(
      Type.String({
        maxLength: 1000,
        description: `What labels show (e.g. "SLAT-C"). Trimmed; 1 to ${ENTITY_LIMITS.SHORT_NAME_MAX} characters after trimming.`,
      }),
    ),
    clean: (value) => {
      const cleaned = cleanName('shortName', value)
      if (cleaned.ok && cleaned.value.length > ENTITY_LIMITS.SHORT_NAME_MAX)
        return {
          ok: false,
          message: `shortName must be at most ${ENTITY_LIMITS.SHORT_NAME_MAX} characters, got ${cleaned.value.length}`,
        }
      return cleaned
    },
  }),
  kind: field({
    column: 'kind',
    sqlType: 'text',
    schema: StringEnum(ENTITY_KINDS, {
      description:
        'Trusts (revocableTrust … specialNeedsTrust), business entities (llc, flp, corporation), charities (foundation, daf, publicCharity), holdings (taxableAccount … otherAsset), parties that hold no value (corporateTrustee, lawFirm, otherParty), and other.',
    }),
    required: true,
  }),
  value: field({
    column: 'value',
    sqlType: 'numeric',
    schema: Nullable(
      Type.Number({
        minimum: 0,
        maximum: ENTITY_LIMITS.VALUE_MAX,
        description:
          "In the household's currency, at most 2 decimals. A party holds none. Each change is kept in the entity's valuations.",
      }),
    ),
    clean: (value) =>
      hasAtMostTwoDecimals(value)
        ? { ok: true, value }
        : { ok: false, message: `value must have at most 2 decimals, got ${value}` },
    // float8 prints the shortest exact form (2500000, not 2500000.00), as JSON.stringify does.
    json: (column) => sql`${column}::float8`,
  }),
  valueAsOf: field({
    column: 'value_as_of',
    sqlType: 'date',
    schema: Nullable(
      Type.String({
        format: 'date',
        description: 'The date value was valued at: YYYY-MM-DD, a real calendar date, not in the future.',
      }),
    ),
    clean: (value) =>
      isPastCalendarDate(value)
        ? { ok: true, value }
        : {
            ok: false,
            message: `valueAsOf must be a real calendar date (YYYY-MM-DD) from 1800 to today, got ${value}`,
          },
    json: (column) => sql`to_char(${column}, 'YYYY-MM-DD')`,
  }),
  estate: field({
    column: 'estate',
    sqlType: 'text',
    schema: Nullable(
      StringEnum(ESTATE_SIDES, {
        description:
          "Inside (in) or outside (out) the taxable estate; null (or absent) is the kind's default: revocable trusts, QTIP trusts, business entities, holdings and other are in, the other trusts and charities out. A party has none.",
      }),
    ),
    readSchema: Nullable(
      StringEnum(ESTATE_SIDES, {
        description:
          "The side the entity is counted on: as set (estateSet true), else its kind's default; null for a party, which is never counted.",
      }),
    ),
    // The side as counted, not as stored: the kind's default when the advisor has not said.
    json: (column, row) => sql`CASE
      WHEN ${row('kind')} IN (${inSql(PARTY_KINDS)}) THEN NULL
      WHEN ${column} IS NOT NULL THEN ${column}
      WHEN ${row('kind')} IN (${inSql(OUT_BY_DEFAULT)}) THEN 'out'
      ELSE 'in' END`,
  }),
  notes: field({
    column: 'notes',
    sqlType: 'text',
    schema: Nullable(
      Type.String({
        maxLength: ENTITY_LIMITS.NOTES_MAX,
        description: `Free text, at most ${ENTITY_LIMITS.NOTES_MAX} characters; never written to the audit log.`,
      }),
    ),
    clean: (value) =>
      isStorableText(value)
        ? { ok: true, value }
        : { ok: false, message: 'notes must not contain NUL characters or broken Unicode' },
  }),
  externalId: field({
    column: 'external_id',
    sqlType: 'text',
    schema: Nullable(
      Type.String({
        pattern: EXTERNAL_ID_PATTERN,
        description:
          "Your own id for the entity (the chart payload's id rule): 1–64 letters, digits, and _ . : -; unique within the household.",
      }),
    ),
  }),
}

type Fields = typeof ENTITY_FIELDS
export type EntityFieldName = keyof Fields
export const ENTITY_FIELD_NAMES = Object.keys(ENTITY_FIELDS) as EntityFieldName[]

/** An entity's fields as the use cases hold them: every field, null when not set (estate as stored). */
export type EntityFields = { [K in EntityFieldName]: FieldValue<Fields[K]> }

/** The fields' columns as Kysely sees them (store/tables.ts). */
export type EntityFieldColumns = FieldColumns<Fields>

export type EntityFieldsResult = { ok: true; fields: EntityFields } | FieldProblem<EntityFieldName>

/** A create body (already valid against its schema) by every field's rules; or the first problem. */
export function checkEntityCreate(
  body: Partial<EntityFields> & Pick<EntityFields, 'name' | 'kind'>,
): EntityFieldsResult {
  const cleaned = cleanFields(ENTITY_FIELDS, body, 'every')
  return cleaned.ok ? { ok: true, fields: cleaned.values as EntityFields } : cleaned
}

/** The fields a merge patch sets, cleaned by the create rules; or the first problem. */
export function checkEntityPatch(
  body: Partial<EntityFields>,
): { ok: true; fields: Partial<EntityFields> } | FieldProblem<EntityFieldName> {
  const cleaned = cleanFields(ENTITY_FIELDS, body, 'sent')
  return cleaned.ok ? { ok: true, fields: cleaned.values } : cleaned
}

/** The columns of an entity's fields with their bound values, for an INSERT. */
export function entityColumnValues(fields: EntityFields): Insertable<EntityFieldColumns> {
  return fieldColumnValues(ENTITY_FIELDS, fields) as Insertable<EntityFieldColumns>
}

/** The columns of the fields a patch sets, for an UPDATE's SET. */
export function entityColumnChanges(fields: Partial<EntityFields>): Updateable<EntityFieldColumns> {
  return fieldColumnValues(ENTITY_FIELDS, fields)
}

/** The key-value pairs of every field of the row aliased `alias`, for json_build_object. */
export function entityJsonPairs(alias: string): RawBuilder<unknown> {
  return fieldJsonPairs(ENTITY_FIELDS, ENTITY_FIELD_NAMES, alias)
}
